/**
 * The scene benchmark's pure parts: its length from the URL (bench, warmup, benchSeconds,
 * warmupSeconds), the loop's phases (warm-up by count or time, measured frames by count or time with
 * a floor, the clock by frame index), the canvas's pixel sizes, and the sum of timestamp pairs.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { canvasSizeParams, devicePixels } from '../../../../demo/common/canvas-size.js';
import type { FrameTimer } from '../../../../demo/common/frame-timer.js';
import { pairsMs, submissionLabel } from '../../../../demo/common/frame-timer.js';
import {
  BENCH_FRAME_MS,
  benchLength,
  DEFAULT_WARMUP_FRAMES,
  MIN_MEASURED_FRAMES,
  runSceneBench,
} from '../../../../demo/common/scene-bench.js';

describe('benchLength', () => {
  it('reads bench, warmup, benchSeconds and warmupSeconds', () => {
    expect(benchLength(new URLSearchParams('bench=300&warmup=60&benchSeconds=20&warmupSeconds=10'))).toEqual({
      frames: 300,
      warmup: 60,
      seconds: 20,
      warmupSeconds: 10,
    });
  });
  it('defaults: the warm-up frames, no time limits', () => {
    expect(benchLength(new URLSearchParams('bench=5'))).toEqual({
      frames: 5,
      warmup: DEFAULT_WARMUP_FRAMES,
      seconds: Infinity,
      warmupSeconds: Infinity,
    });
  });
  it.each(['warmup=-1', 'warmup=abc', 'warmup=NaN', 'benchSeconds=-3'])(
    'a bad value (%s) falls back to its default',
    (query) => {
      const length = benchLength(new URLSearchParams(`bench=5&${query}`));
      expect(length.warmup).toBe(DEFAULT_WARMUP_FRAMES);
      expect(length.seconds).toBe(Infinity);
    },
  );
});

describe('runSceneBench', () => {
  afterEach(() => vi.restoreAllMocks());
  /** A frame that takes `frameMs` of a fake clock; a timer that reports `gpuMs` per frame. */
  function harness(frameMs: number, gpuMs: number | null) {
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const times: number[] = [];
    const parts = gpuMs === null ? {} : { 'frame N': gpuMs };
    const timer = {
      supported: gpuMs !== null,
      begin: () => undefined,
      finish: () => Promise.resolve(),
      read: () => Promise.resolve({ gpuMs, parts, pairs: 1, overflow: false }),
    } as unknown as FrameTimer;
    const canvas = { width: 64, height: 36 } as HTMLCanvasElement;
    const frame = (_index: number, timeMs: number): void => {
      times.push(timeMs);
      now += frameMs;
    };
    return { timer, canvas, frame, times };
  }

  it('warms up by count, then measures N frames; the clock is the frame index at 60 fps', async () => {
    const h = harness(5, 0.5);
    const result = await runSceneBench(h, { frames: 4, warmup: 3, seconds: Infinity, warmupSeconds: Infinity });
    expect(result.warmup).toBe(3);
    expect(result.frameMs).toEqual([5, 5, 5, 5]);
    expect(result.gpuMs).toEqual([0.5, 0.5, 0.5, 0.5]);
    expect(result.gpuParts).toEqual({ 'frame N': 2 });
    expect(h.times).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => i * BENCH_FRAME_MS));
    expect([result.width, result.height]).toEqual([64, 36]);
  });
  it('cuts a slow warm-up at warmupSeconds and slow measuring at seconds, but measures at least MIN_MEASURED_FRAMES', async () => {
    const h = harness(1000, null);
    const result = await runSceneBench(h, { frames: 300, warmup: 60, seconds: 2, warmupSeconds: 2 });
    // Warm-up: frames start at 0, 1, 2 s; the fourth starts past 2 s and is measured.
    expect(result.warmup).toBe(3);
    expect(result.frameMs).toHaveLength(MIN_MEASURED_FRAMES);
    expect(result.gpuMs.every((ms) => ms === null)).toBe(true);
    expect(result.timestampQuery).toBe(false);
  });
  it('a fast scene runs all its frames within the time limits', async () => {
    const h = harness(1, 1);
    const result = await runSceneBench(h, { frames: 50, warmup: 5, seconds: 20, warmupSeconds: 10 });
    expect(result.warmup).toBe(5);
    expect(result.frameMs).toHaveLength(50);
  });
});

describe('canvas sizes', () => {
  it.each([
    [100, 1, 8192, 100],
    [100.4, 2, 8192, 201],
    [0, 1, 8192, 1],
    [9000, 1, 8192, 8192],
  ])('devicePixels(%d css, ratio %d, max %d) = %d', (css, ratio, max, expected) => {
    expect(devicePixels(css, ratio, max)).toBe(expected);
  });
  it('reads width, height and dpr from the URL; absent ones are 0', () => {
    expect(canvasSizeParams(new URLSearchParams('width=1920&height=1080&dpr=1'))).toEqual({
      width: 1920,
      height: 1080,
      dpr: 1,
    });
    expect(canvasSizeParams(new URLSearchParams(''))).toEqual({ width: 0, height: 0, dpr: 0 });
  });
});

describe('timestamp pairs', () => {
  it('pairsMs: end - begin per pair, in ms; a pair that runs backwards is 0', () => {
    const words = new BigUint64Array([1_000_000n, 3_000_000n, 10_000_000n, 10_500_000n, 9n, 5n, 0n, 0n]);
    expect(pairsMs(words, 2)).toEqual([2, 0.5]);
    expect(pairsMs(words, 4)).toEqual([2, 0.5, 0, 0]);
    expect(pairsMs(words, 0)).toEqual([]);
  });
  it.each([
    ['frame 17', 'frame N'],
    ['stream 8 tiles', 'stream N tiles'],
    ['frame 3: shade visible objects', 'frame N: shade visible objects'],
    ['', 'unnamed list'],
  ])('submissionLabel(%j) = %j', (name, label) => {
    expect(submissionLabel(name)).toBe(label);
  });
});
