/**
 * A swap chain over a plain texture: a stand-in for a canvas context that always hands out the same
 * texture, so GPU tests draw into something they can read back, with no canvas (Node.js has none).
 */
import type { CpuDescriptorHandle, Device, SwapChain } from '../../src/index.js';

/** The swap chain formats these tests draw in, and the texture format behind each. */
const TEXTURE_FORMATS = { R8G8B8A8_UNORM: 'rgba8unorm', B8G8R8A8_UNORM: 'bgra8unorm' } as const;

/** A width × height texture that can be drawn into and copied out, and a swap chain whose back buffer it is. */
export function textureSwapChain(
  d3d: Device,
  gpu: GPUDevice,
  width: number,
  height: number,
  format: keyof typeof TEXTURE_FORMATS = 'R8G8B8A8_UNORM',
): { target: GPUTexture; swapChain: SwapChain } {
  const target = gpu.createTexture({
    size: [width, height],
    format: TEXTURE_FORMATS[format],
    usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
  });
  const context = {
    canvas: { width, height },
    configure: () => undefined,
    unconfigure: () => undefined,
    getCurrentTexture: () => target,
  };
  return { target, swapChain: d3d.createSwapChain(context as unknown as GPUCanvasContext, { format }) };
}

/** A render target view of `swapChain`'s back buffer, in an RTV heap of its own. */
export function backBufferRtv(d3d: Device, swapChain: SwapChain): CpuDescriptorHandle {
  const rtv = d3d.createDescriptorHeap({ type: 'RTV', numDescriptors: 1 }).getCPUDescriptorHandleForHeapStart();
  d3d.createRenderTargetView(swapChain.getCurrentBackBuffer(), null, rtv);
  return rtv;
}
