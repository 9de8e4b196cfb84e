/**
 * A canvas context with no canvas: what a swap chain needs (configure, getCurrentTexture, the
 * canvas's size) over one plain GPUTexture, so D3D12 code that presents to a swap chain renders
 * where there is no DOM (Node.js with Dawn, a worker, a test) and its frames can be read back.
 *
 * Invariants: the texture exists between configure() and unconfigure() and is the same object for
 * every getCurrentTexture() in between (a swap chain over it draws every frame into it; present()
 * has nothing to show); its usage always includes COPY_SRC, so readPixels() works whatever the
 * swap chain asked for. Resizing is by `canvas.width` / `canvas.height` and a new configure(), as
 * with an HTMLCanvasElement.
 */

import { D3D12Error, invalidArg, show } from '../api/errors.js';

/** What createOffscreenCanvasContext returns: a GPUCanvasContext plus a read-back of the current frame. */
export interface OffscreenCanvasContext extends GPUCanvasContext {
  /**
   * The current texture's texels, rows packed (width × 4 bytes each; × 8 for rgba16float), in the
   * configured format's byte order (RGBA for R8G8B8A8_UNORM, BGRA for B8G8R8A8_UNORM).
   */
  readPixels(): Promise<Uint8Array>;
}

/** Bytes per texel of the formats a swap chain takes (canvas-surface.ts's CANVAS_FORMATS). */
const TEXEL_BYTES: Partial<Record<GPUTextureFormat, number>> = { bgra8unorm: 4, rgba8unorm: 4, rgba16float: 8 };
/** copyTextureToBuffer's bytesPerRow alignment (WebGPU). */
const ROW_ALIGNMENT = 256;
/** WebGPU's guaranteed maxTextureDimension2D: a larger canvas may not fit the device. */
const MAX_SIZE = 8192;

function checkSize(argument: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_SIZE)
    throw invalidArg(
      'createOffscreenCanvasContext',
      argument,
      `must be an integer in [1, ${MAX_SIZE}], got ${show(value)}`,
    );
  return value;
}

/** A canvas context of `width` × `height` texels over a GPUTexture, for createSwapChain without a DOM. */
export function createOffscreenCanvasContext(width: number, height: number): OffscreenCanvasContext {
  const canvas = { width: checkSize('width', width), height: checkSize('height', height) };
  let configuration: GPUCanvasConfiguration | undefined;
  let texture: GPUTexture | undefined;

  const current = (): GPUTexture => {
    if (!configuration)
      throw new D3D12Error(
        'DXGI_ERROR_INVALID_CALL',
        'getCurrentTexture',
        'this',
        'the offscreen canvas context is not configured (createSwapChain configures it)',
      );
    if (!texture || texture.width !== canvas.width || texture.height !== canvas.height) {
      texture?.destroy();
      texture = configuration.device.createTexture({
        size: [canvas.width, canvas.height],
        format: configuration.format,
        usage: (configuration.usage ?? GPUTextureUsage.RENDER_ATTACHMENT) | GPUTextureUsage.COPY_SRC,
        label: 'offscreen canvas texture',
      });
    }
    return texture;
  };

  const context = {
    canvas,
    configure(config: GPUCanvasConfiguration): undefined {
      texture?.destroy();
      texture = undefined;
      configuration = config;
    },
    unconfigure(): undefined {
      texture?.destroy();
      texture = undefined;
      configuration = undefined;
    },
    getConfiguration: () => configuration ?? null,
    getCurrentTexture: current,
    async readPixels(): Promise<Uint8Array> {
      const source = current();
      const device = (configuration as GPUCanvasConfiguration).device;
      const texel = TEXEL_BYTES[source.format] ?? 4;
      const rowBytes = source.width * texel;
      const pitch = Math.ceil(rowBytes / ROW_ALIGNMENT) * ROW_ALIGNMENT;
      const buffer = device.createBuffer({
        size: pitch * source.height,
        usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
        label: 'offscreen canvas read-back',
      });
      const encoder = device.createCommandEncoder();
      encoder.copyTextureToBuffer({ texture: source }, { buffer, bytesPerRow: pitch }, [source.width, source.height]);
      device.queue.submit([encoder.finish()]);
      await buffer.mapAsync(GPUMapMode.READ);
      const mapped = new Uint8Array(buffer.getMappedRange());
      const pixels = new Uint8Array(rowBytes * source.height);
      for (let y = 0; y < source.height; y++)
        pixels.set(mapped.subarray(y * pitch, y * pitch + rowBytes), y * rowBytes);
      buffer.unmap();
      buffer.destroy();
      return pixels;
    },
  };
  return context as unknown as OffscreenCanvasContext;
}
