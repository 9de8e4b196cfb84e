/**
 * The WebGPU side of a swap chain: configures a canvas context for a device and hands out the
 * canvas's current texture.
 *
 * A canvas texture is valid only until the task that fetched it ends (the browser then presents it
 * and the next getCurrentTexture() returns a fresh one). D3D12 back buffers outlive tasks, so the
 * swap chain asks for the texture when work is submitted, not when a back buffer is handed out:
 * recording in one task, awaiting, then executing in another still draws into a live texture.
 */

/** Back-buffer formats a canvas can take, by DXGI name. */
const CANVAS_FORMATS: Record<string, GPUTextureFormat> = {
  B8G8R8A8_UNORM: 'bgra8unorm',
  R8G8B8A8_UNORM: 'rgba8unorm',
  R16G16B16A16_FLOAT: 'rgba16float',
};

export const CANVAS_FORMAT_NAMES = Object.keys(CANVAS_FORMATS);

export function canvasFormat(format: string): GPUTextureFormat | undefined {
  return Object.hasOwn(CANVAS_FORMATS, format) ? CANVAS_FORMATS[format] : undefined;
}

/** The DXGI name of the platform's preferred canvas format (B8G8R8A8_UNORM outside a browser). */
export function preferredCanvasFormat(): string {
  const preferred =
    typeof navigator !== 'undefined' && navigator.gpu ? navigator.gpu.getPreferredCanvasFormat() : 'bgra8unorm';
  return Object.entries(CANVAS_FORMATS).find(([, gpu]) => gpu === preferred)?.[0] ?? 'B8G8R8A8_UNORM';
}

export function isCanvasContext(value: unknown): value is GPUCanvasContext {
  return (
    typeof value === 'object' && value !== null && typeof (value as Partial<GPUCanvasContext>).configure === 'function'
  );
}

export class CanvasSurface {
  constructor(
    private readonly context: GPUCanvasContext,
    device: GPUDevice,
    format: GPUTextureFormat,
    alphaMode: GPUCanvasAlphaMode,
  ) {
    // COPY_SRC lets tests and screenshots read a frame back.
    context.configure({
      device,
      format,
      alphaMode,
      usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
    });
  }

  get width(): number {
    return this.context.canvas.width;
  }

  get height(): number {
    return this.context.canvas.height;
  }

  currentTexture(): GPUTexture {
    return this.context.getCurrentTexture();
  }

  unconfigure(): void {
    this.context.unconfigure();
  }
}
