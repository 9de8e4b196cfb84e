/**
 * Scene frame time: each demo scene at 1920 × 1080 device pixels, its camera path and animation
 * fixed (the scene's clock is the frame index at 60 frames per second), frames run back to back
 * without requestAnimationFrame so the display's refresh caps nothing. Per scene: median and p95
 * frame time (wall time from the frame's start to its GPU work's completion, each frame waiting for
 * the last: CPU and GPU together) and the GPU time per frame from timestamp queries (the sum over
 * the frame's submissions; demo/common/frame-timer.ts; compared as means). The virtual texture is also drawn along the
 * same path from a native texture holding every mip (`texture=native`): the baseline of its GPU
 * time. Browser only: the scenes are the demo's own pages, each run in an iframe of the bench page
 * with `bench=N` (demo/common/scene-bench.ts), so what is measured is what a person opens.
 *
 * Targets: the virtual texture at 60 fps or more (median frame time ≤ 16.7 ms, in the row's extra
 * and the notes) and its GPU time per frame at most 2× the native texture's (the ratio).
 */
import { quantile } from '../../src/streaming/index.js';
import { SCENE_CASES } from './scene-cases.js';
import { median, type Figure, type FigureRow, type FigureRunner } from './figure.js';

const p95 = (values: readonly number[]): number => quantile(values, 0.95);
const mean = (values: readonly number[]): number => values.reduce((sum, v) => sum + v, 0) / values.length;

/** What a scene page's `window.d3d12Demo.bench` holds once done (demo/common/scene-bench.ts). */
export interface SceneBenchResult {
  warmup: number;
  /** Per measured frame: wall ms from the frame's start to its fence. */
  frameMs: number[];
  /** Per measured frame: GPU ms of its timestamp pairs (null without timestamp queries, or on overflow). */
  gpuMs: (number | null)[];
  /** GPU ms summed over the measured frames by kind of submission (frame-timer.ts's labels). */
  gpuParts: Record<string, number>;
  timestampQuery: boolean;
  /** The canvas's size in device pixels. */
  width: number;
  height: number;
}

interface SceneFrameStatus {
  state: 'loading' | 'running' | 'paused' | 'done' | 'failed';
  error?: string;
  bench?: SceneBenchResult;
}

/**
 * Frames per scene: one whole zoom cycle of the virtual texture's flight (its scale follows
 * sin(0.23 t): 2π / 0.23 = 27.3 s, 1,639 frames at 60 per second, from 1 to 128 texels per
 * pixel and back) after 60 warm-up frames; each phase cut at its seconds so a software rasterizer
 * (seconds a 1080p frame) finishes too, with at least 10 measured frames (scene-bench.ts).
 */
export const FULL = { width: 1920, height: 1080, frames: 1639, warmup: 60, seconds: 30, warmupSeconds: 10 };
export const QUICK = { width: 320, height: 180, frames: 4, warmup: 2, seconds: 5, warmupSeconds: 5 };
/** 60 frames per second. */
const FRAME_BUDGET_MS = 1000 / 60;
/** A scene that has not finished by then is reported as failed (SwiftShader starts slowly). */
const SCENE_TIMEOUT_MS = 600_000;
/** The iframe shown while a scene runs, scaled to this fraction so it stays on screen (an off-screen frame may be throttled). */
const PREVIEW_SCALE = 0.2;

/** The page of a scene next to the bench page's folder (demo/<scene>/ in every way the page is served). */
export function sceneUrl(base: string, scene: string, query: Record<string, string | number>): string {
  const url = new URL(`../${scene}/index.html`, base);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, String(value));
  return url.href;
}

/** Runs one scene page in an iframe until its benchmark is done; the iframe is removed either way. */
async function runInFrame(url: string): Promise<SceneBenchResult> {
  const frame = document.createElement('iframe');
  frame.src = url;
  frame.title = 'scene benchmark';
  Object.assign(frame.style, {
    position: 'fixed',
    right: '8px',
    bottom: '8px',
    width: '2400px',
    height: '1400px',
    border: '1px solid #3a4654',
    transform: `scale(${PREVIEW_SCALE})`,
    transformOrigin: 'bottom right',
    zIndex: '10',
    background: '#101317',
  });
  document.body.append(frame);
  try {
    const deadline = performance.now() + SCENE_TIMEOUT_MS;
    for (;;) {
      // Undefined until the scene's script has started.
      const status: SceneFrameStatus | undefined = frame.contentWindow?.d3d12Demo;
      if (status?.state === 'failed') throw new Error(`${url}: ${status.error ?? 'failed'}`);
      if (status?.state === 'done') {
        if (!status.bench) throw new Error(`${url}: done without a benchmark result`);
        return status.bench;
      }
      if (performance.now() > deadline) throw new Error(`${url}: not done after ${SCENE_TIMEOUT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    frame.remove();
  }
}

function gpuSamples(result: SceneBenchResult): number[] {
  return result.gpuMs.filter((ms): ms is number => ms !== null);
}

function summary(result: SceneBenchResult): Record<string, number> {
  const gpu = gpuSamples(result);
  return {
    p95FrameMs: p95(result.frameMs),
    fps: 1000 / median(result.frameMs),
    ...(gpu.length > 0 ? { gpuMeanMs: mean(gpu), gpuMedianMs: median(gpu), gpuP95Ms: p95(gpu) } : {}),
    // Where the GPU time goes: mean ms per frame of each kind of submission (they add up to the mean).
    ...Object.fromEntries(
      Object.entries(result.gpuParts).map(([label, ms]) => [`gpu mean ms: ${label}`, ms / result.frameMs.length]),
    ),
    width: result.width,
    height: result.height,
  };
}

export const sceneFrameTime: FigureRunner = async (context) => {
  if (typeof document === 'undefined')
    throw new Error(
      'scene-frame-time needs a browser (the scenes are pages that draw into a canvas): npm run bench, or the bench page',
    );
  const size = context.quick ? QUICK : FULL;
  const query = {
    bench: size.frames,
    warmup: size.warmup,
    benchSeconds: size.seconds,
    warmupSeconds: size.warmupSeconds,
    width: size.width,
    height: size.height,
    dpr: 1,
  };
  const results = new Map<string, SceneBenchResult>();
  for (const [i, c] of SCENE_CASES.entries()) {
    context.progress(
      `  scene ${i + 1}/${SCENE_CASES.length}: ${c.name} at ${size.width}×${size.height}, up to ${size.frames} frames or ${size.seconds} s after ${size.warmup}`,
    );
    const result = await runInFrame(
      sceneUrl(location.href, c.scene, { ...query, ...c.query, ...(context.quick ? {} : c.fullQuery) }),
    );
    results.set(c.name, result);
    for (const ms of result.frameMs)
      context.live?.({
        kind: 'sample',
        figure: 'scene-frame-time',
        unit: 'ms',
        case: `${c.name}: frame time`,
        side: 'measured',
        value: ms,
      });
  }
  const get = (name: string): SceneBenchResult => results.get(name) as SceneBenchResult;
  const virtual = get('virtual-texture');
  const native = get('virtual-texture, native texture');
  const virtualGpu = gpuSamples(virtual);
  const nativeGpu = gpuSamples(native);
  const rows: FigureRow[] = [];
  if (virtualGpu.length > 0 && nativeGpu.length > 0) {
    // Means: Chromium rounds timestamps to 100 µs, which a median of per-frame times keeps but a
    // mean over many frames averages out (a frame's begin falls anywhere within a step).
    const value = mean(virtualGpu);
    const baseline = mean(nativeGpu);
    rows.push({
      case: 'virtual-texture: mean GPU time per frame',
      value,
      baseline,
      ratio: value / baseline,
      samples: virtualGpu,
      baselineSamples: nativeGpu,
      extra: {
        median: median(virtualGpu),
        p95: p95(virtualGpu),
        baselineMedian: median(nativeGpu),
        baselineP95: p95(nativeGpu),
      },
    });
  }
  for (const c of SCENE_CASES) {
    const result = get(c.name);
    rows.push({
      case: `${c.name}: frame time`,
      value: median(result.frameMs),
      baseline: null,
      ratio: null,
      samples: result.frameMs,
      baselineSamples: [],
      extra: summary(result),
    });
  }
  const fps = 1000 / median(virtual.frameMs);
  const figure: Figure = {
    id: 'scene-frame-time',
    title: 'Scene frame time',
    unit: 'ms',
    baselineName:
      "the virtual texture's camera path drawn from a native texture with every mip resident (texture=native)",
    ratioMeaning: 'virtual texture mean GPU ms per frame ÷ native texture mean GPU ms per frame',
    target: {
      text: 'GPU time per frame at most 2× the native texture; the virtual texture at 60 fps or more',
      ratio: 2,
      direction: 'at-most',
    },
    rows,
    rounds: size.frames,
    warmup: size.warmup,
    parameters: {
      width: size.width,
      height: size.height,
      frames: size.frames,
      warmup: size.warmup,
      seconds: size.seconds,
      warmupSeconds: size.warmupSeconds,
      measuredFrames: virtual.frameMs.length,
      clock: '60 frames per second, by frame index',
      timestampQuery: String(virtual.timestampQuery),
    },
    notes: [
      `virtual texture: ${fps.toFixed(0)} fps (median frame ${median(virtual.frameMs).toFixed(2)} ms, p95 ${p95(virtual.frameMs).toFixed(2)} ms) at ${virtual.width}×${virtual.height}: ${median(virtual.frameMs) <= FRAME_BUDGET_MS ? 'meets' : 'misses'} 60 fps`,
      "frame time: from the start of the scene's frame to its GPU work's completion, each frame waiting for the last (one frame in flight), no vsync",
      ...(virtual.timestampQuery
        ? [
            'GPU time: timestamp pairs around each submission of the frame, summed; compared as means over the frames, since Chromium rounds timestamps to 100 µs (unless started with --enable-webgpu-developer-features: npm run bench -- --developer-features)',
          ]
        : ['no timestamp queries on this adapter: GPU time not measured']),
    ],
  };
  return figure;
};
