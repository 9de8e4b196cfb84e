/**
 * SwapChain (IDXGISwapChain) over a WebGPU canvas: the back buffer of the current frame is the
 * canvas's current texture; present() ends the frame (the browser shows it when the task that
 * drew it ends).
 *
 * Invariants:
 * - One BackBuffer object per frame; getCurrentBackBuffer() returns it until present().
 * - A back buffer is a render target only during its frame: lists that draw into a presented back
 *   buffer are refused at executeCommandLists (DXGI would draw into a buffer the display owns).
 * - Back buffers live outside the emulated heaps: not pageable (as in UE), no residency, no barriers.
 * - A frame's draws must be submitted before the task ends if they are to land in one image: the
 *   canvas hands out a new texture after the browser presents (see CanvasSurface).
 */
import { invalidArg, show } from '../api/errors.js';
import {
  CANVAS_FORMAT_NAMES,
  CanvasSurface,
  canvasFormat,
  isCanvasContext,
  preferredCanvasFormat,
} from '../gpu/canvas-surface.js';

/** CreateSwapChain's checks, then the swap chain over `context` (gpuDevice undefined: a CPU-only device, refused). */
export function createSwapChain(
  gpuDevice: GPUDevice | undefined,
  context: GPUCanvasContext,
  desc: { format?: string; alphaMode?: GPUCanvasAlphaMode },
): SwapChain {
  const call = 'createSwapChain';
  if (!gpuDevice) throw invalidArg(call, 'this', 'this device has no GPU');
  if (!isCanvasContext(context))
    throw invalidArg(call, 'context', "must be a WebGPU canvas context (canvas.getContext('webgpu'))");
  if (typeof desc !== 'object' || desc === null) throw invalidArg(call, 'desc', `must be an object, got ${show(desc)}`);
  const format = desc.format ?? preferredCanvasFormat();
  const gpuFormat = canvasFormat(format);
  if (!gpuFormat)
    throw invalidArg(call, 'desc.format', `must be one of ${CANVAS_FORMAT_NAMES.join(', ')}, got ${show(format)}`);
  const alphaMode = desc.alphaMode ?? 'opaque';
  if (alphaMode !== 'opaque' && alphaMode !== 'premultiplied')
    throw invalidArg(call, 'desc.alphaMode', `must be 'opaque' or 'premultiplied', got ${show(alphaMode)}`);
  return new SwapChain(new CanvasSurface(context, gpuDevice, gpuFormat, alphaMode), format);
}

export class BackBuffer {
  /** @internal */
  constructor(
    /** @internal The frame it belongs to. */
    readonly frame: number,
    private readonly swapChain: SwapChain,
  ) {}

  get label(): string {
    return `back buffer of frame ${this.frame}`;
  }

  /** @internal The canvas texture to draw into, fetched at submission (see CanvasSurface). */
  get texture(): GPUTexture {
    return this.swapChain.surface.currentTexture();
  }

  /** The swap chain's DXGI format; a graphics pipeline state drawing here needs it as rtvFormat. */
  get format(): string {
    return this.swapChain.format;
  }

  get width(): number {
    return this.swapChain.surface.width;
  }

  get height(): number {
    return this.swapChain.surface.height;
  }

  /** @internal A back buffer is drawn to only during its frame (until present()). */
  get current(): boolean {
    return this.swapChain.currentFrame === this.frame && !this.swapChain.presented;
  }
}

export class SwapChain {
  /** @internal */ currentFrame = 0;
  /** @internal */ presented = false;
  private backBuffer: BackBuffer | undefined;

  /** @internal Created by Device.createSwapChain. */
  constructor(
    /** @internal */ readonly surface: CanvasSurface,
    readonly format: string,
  ) {}

  /** The back buffer to draw this frame (the same object until present()). */
  getCurrentBackBuffer(): BackBuffer {
    if (!this.backBuffer || this.presented) {
      if (this.presented) this.currentFrame++;
      this.presented = false;
      this.backBuffer = new BackBuffer(this.currentFrame, this);
    }
    return this.backBuffer;
  }

  /** IDXGISwapChain::Present: ends the frame; the next getCurrentBackBuffer starts the next one. */
  present(syncInterval = 1): void {
    if (!Number.isInteger(syncInterval) || syncInterval < 0 || syncInterval > 4) {
      throw invalidArg(
        'SwapChain.present',
        'syncInterval',
        `must be an integer from 0 to 4, got ${show(syncInterval)}`,
      );
    }
    this.presented = true;
  }
}
