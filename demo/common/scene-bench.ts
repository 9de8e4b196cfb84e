/**
 * A scene's frame-time benchmark (URL parameter `bench=N`, run by the bench suite's scene-frame-time
 * figure in an iframe, or by hand): `warmup` frames, then N measured frames (`benchSeconds` and
 * `warmupSeconds` cut either phase short: benchLength), back to back with no
 * requestAnimationFrame, so the display's refresh rate caps nothing. The scene's clock is the
 * frame's index at 60 frames per second (frame i sees time i × 1000/60 ms), so its camera path and
 * animation are the same on every machine, however fast each frame is.
 *
 * Per frame: the wall time from the start of the scene's frame() to the completion of the frame's
 * GPU work (a fence signalled behind it): CPU recording and submission plus GPU execution, each
 * frame waiting for the last, the frame time a renderer with one frame in flight would see; and
 * the GPU time of the frame's submissions (frame-timer.ts).
 */
import { FrameTimer, type FrameGpuTime } from './frame-timer.js';
import type { CommandQueue, Device } from '../../src/index.js';
// The figure that reads the result defines its shape.
import type { SceneBenchResult } from '../../bench/suite/scene-frame-time.js';

export type { SceneBenchResult };

/** Frames before the measured ones: pipelines compiled, caches and the scene's streaming warm. */
export const DEFAULT_WARMUP_FRAMES = 30;
/** The scene's clock: frame i is at i × 1000 / 60 ms. */
export const BENCH_FRAME_MS = 1000 / 60;

/** The frame timer a benchmarked scene's frames run under (created before the scene, so it wraps the queue the scene gets). */
export function createFrameTimer(device: Device, gpuDevice: GPUDevice, queue: CommandQueue): FrameTimer {
  return new FrameTimer(device, gpuDevice, queue, device.createFence(0));
}

export interface BenchTarget {
  timer: FrameTimer;
  canvas: HTMLCanvasElement;
  /** One frame of the scene, given the frame's index and its clock. */
  frame(index: number, timeMs: number): Promise<boolean | void> | boolean | void;
}

/**
 * How long a benchmark may take: `frames` measured frames after `warmup`, each phase cut short after
 * its seconds (a software rasterizer draws a 1080p frame in seconds, not milliseconds), but never
 * below MIN_MEASURED_FRAMES measured frames.
 */
export interface BenchLength {
  frames: number;
  warmup: number;
  /** Seconds the measured frames may take (Infinity: no limit). */
  seconds: number;
  warmupSeconds: number;
}

/** Fewest measured frames a time limit leaves: enough for a median and a p95 to mean something. */
export const MIN_MEASURED_FRAMES = 10;

/** The benchmark's length from the URL: bench=N frames, warmup, benchSeconds, warmupSeconds. */
export function benchLength(params: URLSearchParams): BenchLength {
  const read = (name: string, fallback: number): number => {
    const value = params.has(name) ? Number(params.get(name)) : fallback;
    return Number.isFinite(value) && value >= 0 ? value : fallback;
  };
  return {
    frames: Math.floor(read('bench', 0)),
    warmup: Math.floor(read('warmup', DEFAULT_WARMUP_FRAMES)),
    seconds: read('benchSeconds', Infinity),
    warmupSeconds: read('warmupSeconds', Infinity),
  };
}

export async function runSceneBench(target: BenchTarget, length: BenchLength): Promise<SceneBenchResult> {
  const { timer } = target;
  const { frames, warmup } = length;
  const result: SceneBenchResult = {
    warmup: 0,
    frameMs: [],
    gpuMs: [],
    gpuParts: {},
    timestampQuery: timer.supported,
    width: target.canvas.width,
    height: target.canvas.height,
  };
  const begun = performance.now();
  let measuring: number | undefined;
  for (let index = 0; ; index++) {
    const start = performance.now();
    if (measuring === undefined && (index >= warmup || (start - begun) / 1000 > length.warmupSeconds)) {
      measuring = start;
      result.warmup = index;
    }
    const measured = result.frameMs.length;
    if (
      measuring !== undefined &&
      (measured >= frames ||
        (measured >= Math.min(MIN_MEASURED_FRAMES, frames) && (start - measuring) / 1000 > length.seconds))
    )
      break;
    timer.begin();
    const goOn = await target.frame(index, index * BENCH_FRAME_MS);
    await timer.finish(index + 1);
    // The frame ends when its GPU work has: reading its timestamps back is the benchmark's, not the frame's.
    const wall = performance.now() - start;
    const gpu: FrameGpuTime = await timer.read();
    if (measuring !== undefined) {
      result.frameMs.push(wall);
      result.gpuMs.push(gpu.gpuMs);
      for (const [label, ms] of Object.entries(gpu.parts)) result.gpuParts[label] = (result.gpuParts[label] ?? 0) + ms;
    }
    if (goOn === false) break;
  }
  // As drawn: the canvas may have taken its size from the layout during the first frame.
  result.width = target.canvas.width;
  result.height = target.canvas.height;
  return result;
}
