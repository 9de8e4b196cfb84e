/**
 * SwapChain (IDXGISwapChain) over a WebGPU canvas: the back buffer of the current frame is the
 * canvas's current texture; present() ends the frame (the browser shows it when the task that
 * drew it ends).
 *
 * Invariants:
 * - bufferCount BackBuffer objects (GetBuffer), each current in turn: getCurrentBackBuffer() and
 *   getCurrentBackBufferIndex() name the one to draw until present() moves to the next.
 * - A back buffer is a render target only while current: lists that draw into a presented back
 *   buffer are refused at executeCommandLists (DXGI would draw into a buffer the display owns) until
 *   it is current again, as with DXGI's flip model.
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
  desc: { format?: string; alphaMode?: GPUCanvasAlphaMode; bufferCount?: number },
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
  const bufferCount = checkBufferCount(call, desc.bufferCount);
  return new SwapChain(new CanvasSurface(context, gpuDevice, gpuFormat, alphaMode), format, bufferCount);
}

export class BackBuffer {
  /** @internal */
  constructor(
    /** @internal Its place in the swap chain (GetBuffer's Buffer). */
    readonly index: number,
    private readonly swapChain: SwapChain,
  ) {}

  get label(): string {
    return `back buffer ${this.index}`;
  }

  /** @internal The canvas texture to draw into, fetched at submission (see CanvasSurface). */
  get texture(): GPUTexture {
    return this.swapChain.surface.currentTexture();
  }

  /** The swap chain's DXGI format; a graphics pipeline state drawing here needs it as RTVFormats[0]. */
  get format(): string {
    return this.swapChain.format;
  }

  get width(): number {
    return this.swapChain.surface.width;
  }

  get height(): number {
    return this.swapChain.surface.height;
  }

  /** @internal A back buffer is drawn to only while it is the current one (until present()). */
  get current(): boolean {
    return this.swapChain.getCurrentBackBufferIndex() === this.index;
  }
}

/** DXGI's flip model needs at least 2 buffers; it allows 16. */
const MIN_BUFFERS = 2;
const MAX_BUFFERS = 16;

export class SwapChain {
  /** @internal Frames presented so far: the current buffer is frame % bufferCount. */
  private presentedFrames = 0;
  private readonly buffers: BackBuffer[];

  /** @internal Created by Device.createSwapChain. */
  constructor(
    /** @internal */ readonly surface: CanvasSurface,
    readonly format: string,
    /** DXGI_SWAP_CHAIN_DESC1's BufferCount. */
    readonly bufferCount = MIN_BUFFERS,
  ) {
    this.buffers = Array.from({ length: bufferCount }, (_, i) => new BackBuffer(i, this));
  }

  /** IDXGISwapChain3::GetCurrentBackBufferIndex: the buffer to draw into until the next present(). */
  getCurrentBackBufferIndex(): number {
    return this.presentedFrames % this.bufferCount;
  }

  /** IDXGISwapChain::GetBuffer(Buffer): the back buffer at `buffer` (create RTVs of each once). */
  getBuffer(buffer: number): BackBuffer {
    if (!Number.isInteger(buffer) || buffer < 0 || buffer >= this.bufferCount)
      throw invalidArg(
        'SwapChain.getBuffer',
        'buffer',
        `must be an integer from 0 to ${this.bufferCount - 1}, got ${show(buffer)}`,
      );
    return this.buffers[buffer] as BackBuffer;
  }

  /** The back buffer to draw this frame: getBuffer(getCurrentBackBufferIndex()). */
  getCurrentBackBuffer(): BackBuffer {
    return this.buffers[this.getCurrentBackBufferIndex()] as BackBuffer;
  }

  /**
   * IDXGISwapChain::Present: ends the frame; the next buffer becomes current, and lists drawing into
   * the one presented are refused until it is current again (the browser shows the frame when the task
   * that drew it ends).
   */
  present(syncInterval = 1): void {
    if (!Number.isInteger(syncInterval) || syncInterval < 0 || syncInterval > 4) {
      throw invalidArg(
        'SwapChain.present',
        'syncInterval',
        `must be an integer from 0 to 4, got ${show(syncInterval)}`,
      );
    }
    this.presentedFrames++;
  }
}

/** desc.bufferCount of createSwapChain: 2 to 16 (left out: 2). */
export function checkBufferCount(call: string, value: unknown): number {
  const count = value ?? MIN_BUFFERS;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < MIN_BUFFERS || count > MAX_BUFFERS)
    throw invalidArg(
      call,
      'desc.bufferCount',
      `must be an integer from ${MIN_BUFFERS} to ${MAX_BUFFERS} (DXGI's flip model), got ${show(count)}`,
    );
  return count;
}
