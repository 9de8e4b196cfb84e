/**
 * A scene canvas's size: by default it fills the width its stage gets from the page layout (CSS
 * width 100%, aspect ratio 16:10), follows window resizes through a ResizeObserver and renders at
 * the display's devicePixelRatio (the observer's device-pixel box where the browser gives one, so
 * the back buffer maps 1:1 to screen pixels). URL parameters `width` / `height` fix the CSS size
 * instead, and `dpr` fixes the ratio (the benchmark draws 1920 × 1080 pixels whatever the display).
 *
 * The observer only records the wanted size; `apply()` sets canvas.width/height, and the frame loop
 * calls it before a frame, so a resize never lands between the draws of one frame.
 */

/** The canvas's aspect ratio when no height is given: 16:10, as the scenes were composed. */
const DEFAULT_ASPECT = 0.625;

export interface CanvasSizeOptions {
  /** Fixed CSS width and height, from the URL (0 or NaN: not given). */
  width: number;
  height: number;
  /** Fixed device pixels per CSS pixel (0 or NaN: the display's). */
  dpr: number;
  /** The largest back buffer side the device allows. */
  maxDimension: number;
}

function positive(value: number): number | undefined {
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** Parses the URL's width, height and dpr (absent, non-numeric or non-positive values mean "not given"). */
export function canvasSizeParams(params: URLSearchParams): Pick<CanvasSizeOptions, 'width' | 'height' | 'dpr'> {
  const read = (name: string): number => (params.has(name) ? Number(params.get(name)) : 0);
  return { width: read('width'), height: read('height'), dpr: read('dpr') };
}

/** Device pixels for a CSS size: rounded, at least 1, at most the device's limit. */
export function devicePixels(css: number, ratio: number, maxDimension: number): number {
  return Math.min(Math.max(Math.round(css * ratio), 1), maxDimension);
}

export class CanvasSizer {
  private wanted: { width: number; height: number } | undefined;
  private readonly observer: ResizeObserver | undefined;
  private readonly fixedDpr: number | undefined;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly options: CanvasSizeOptions,
  ) {
    this.fixedDpr = positive(options.dpr);
    const width = positive(options.width);
    if (width !== undefined) {
      const height = positive(options.height) ?? Math.round(width * DEFAULT_ASPECT);
      canvas.style.width = `${width}px`;
      canvas.style.height = `${height}px`;
      canvas.style.aspectRatio = 'auto';
      this.wanted = this.pixels(width, height);
      return;
    }
    const height = positive(options.height);
    if (height !== undefined) {
      // A fixed height alone: the width still follows the stage.
      canvas.style.aspectRatio = 'auto';
      canvas.style.height = `${height}px`;
    }
    this.measure();
    this.observer = new ResizeObserver((entries) => {
      for (const entry of entries) {
        const device = entry.devicePixelContentBoxSize?.[0];
        if (device && this.fixedDpr === undefined) {
          this.wanted = {
            width: Math.min(Math.max(device.inlineSize, 1), options.maxDimension),
            height: Math.min(Math.max(device.blockSize, 1), options.maxDimension),
          };
        } else {
          const box = entry.contentBoxSize[0];
          this.wanted = this.pixels(
            box?.inlineSize ?? entry.contentRect.width,
            box?.blockSize ?? entry.contentRect.height,
          );
        }
      }
    });
    try {
      this.observer.observe(canvas, { box: 'device-pixel-content-box' });
    } catch {
      // Browsers without device-pixel-content-box (Safari before 17.x) observe the CSS box.
      this.observer.observe(canvas);
    }
  }

  private pixels(cssWidth: number, cssHeight: number): { width: number; height: number } {
    const ratio = this.fixedDpr ?? positive(devicePixelRatio) ?? 1;
    return {
      width: devicePixels(cssWidth, ratio, this.options.maxDimension),
      height: devicePixels(cssHeight, ratio, this.options.maxDimension),
    };
  }

  /** Reads the canvas's laid-out size now (before the first frame, when the observer has not reported yet). */
  measure(): void {
    const rect = this.canvas.getBoundingClientRect();
    if (rect.width > 0 && rect.height > 0) this.wanted = this.pixels(rect.width, rect.height);
  }

  /** Gives the canvas the wanted size; true if it changed. */
  apply(): boolean {
    const wanted = this.wanted;
    if (!wanted || (this.canvas.width === wanted.width && this.canvas.height === wanted.height)) return false;
    this.canvas.width = wanted.width;
    this.canvas.height = wanted.height;
    return true;
  }

  disconnect(): void {
    this.observer?.disconnect();
  }
}
