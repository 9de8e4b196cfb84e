/**
 * A scene's frame-time benchmark (URL parameter `bench=N`, run by the bench suite's scene-frame-time
 * figure in an iframe, or by hand): `warmup` frames, then N measured frames, back to back with no
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

export async function runSceneBench(target: BenchTarget, frames: number, warmup: number, onFrame: (done: number) => void): Promise<SceneBenchResult> {
  const { timer } = target;
  const result: SceneBenchResult = { warmup, frameMs: [], gpuMs: [], timestampQuery: timer.supported, width: target.canvas.width, height: target.canvas.height };
  for (let index = 0; index < warmup + frames; index++) {
    const start = performance.now();
    timer.begin();
    const goOn = await target.frame(index, index * BENCH_FRAME_MS);
    const gpu: FrameGpuTime = await timer.end(index + 1);
    const wall = performance.now() - start;
    if (index >= warmup) {
      result.frameMs.push(wall);
      result.gpuMs.push(gpu.gpuMs);
    }
    onFrame(index + 1);
    if (goOn === false) break;
  }
  return result;
}
