/**
 * Test-side canvas helpers: a swap chain over a fresh canvas, and reading a swap chain's *back
 * buffer* (the canvas texture of the current frame) with plain WebGPU, outside the emulator's API:
 * it copies the texture into a mappable buffer in the same task, so the browser has not yet
 * presented it, and returns the rows of RGBA8/BGRA8 bytes.
 *
 * Not the D3D12 read-back of a buffer through a READBACK resource: that is readBuffer in
 * test/shared/d3d12-helpers.ts, the one helper every test uses for it.
 */
import type { BackBuffer, CommandQueue, Device, SwapChain } from '../../../src/index.js';

/** The pixels of a swap chain's back buffer (a canvas texture), read with plain WebGPU; see above. */
export async function readBackBuffer(gpuDevice: GPUDevice, backBuffer: BackBuffer): Promise<Uint8Array> {
  const { width, height } = backBuffer;
  const bytesPerRow = Math.ceil((width * 4) / 256) * 256;
  const readback = gpuDevice.createBuffer({
    size: bytesPerRow * height,
    usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
  });
  const encoder = gpuDevice.createCommandEncoder();
  encoder.copyTextureToBuffer({ texture: backBuffer.texture }, { buffer: readback, bytesPerRow }, { width, height });
  gpuDevice.queue.submit([encoder.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  const mapped = new Uint8Array(readback.getMappedRange());
  const pixels = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    pixels.set(mapped.subarray(y * bytesPerRow, y * bytesPerRow + width * 4), y * width * 4);
  readback.destroy();
  return pixels;
}

/** A 64 x 64 canvas on the page with an R8G8B8A8_UNORM swap chain over its context, and a direct queue. */
export function canvasSwapChain(device: Device): {
  context: GPUCanvasContext;
  swapChain: SwapChain;
  queue: CommandQueue;
} {
  const canvas = document.createElement('canvas');
  canvas.width = 64;
  canvas.height = 64;
  document.body.append(canvas);
  const context = canvas.getContext('webgpu') as GPUCanvasContext;
  return {
    context,
    swapChain: device.createSwapChain(context, { format: 'R8G8B8A8_UNORM' }),
    queue: device.createCommandQueue({ type: 'DIRECT' }),
  };
}
