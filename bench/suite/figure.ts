/**
 * The contract every benchmark figure follows, in the browser and in Node.js alike: a figure is an
 * async function of a BenchContext (a raw WebGPU device for the baseline, the library for the
 * measured side) returning rows, each a measured median next to its baseline median from the same
 * run on the same device, with every raw sample kept for the JSON. No speed is asserted anywhere.
 *
 * Timing: wall-clock from submission to completion (queue.onSubmittedWorkDone for raw WebGPU, a
 * fence for the library) around work large enough to amortize the submission; both sides of a ratio
 * are always timed the same way. Medians over `rounds` after `warmup` unmeasured rounds.
 */

import type { CommandQueue, Device } from '../../src/index.js';

export interface BenchContext {
  /** The raw device: baselines use it directly; the library is created over it (createDevice({ gpuDevice })). */
  gpuDevice: GPUDevice;
  /** Fewer rounds and smaller sizes: a smoke run (tests), not a measurement. */
  quick: boolean;
  /** One line of progress, shown while the suite runs. */
  progress: (message: string) => void;
  /** Paging sizes picked by the user (the bench page, --paging-mib); absent: the figure's own. */
  paging?: PagingParameters;
  /** Each sample as it is measured (the bench page charts them live); absent in runs nobody watches. */
  live?: (event: LiveEvent) => void;
}

export interface PagingParameters {
  /** Heap sizes of the paging-throughput rows, in MiB (each a multiple of 64 KiB). */
  sizesMiB?: number[];
  /** Seconds of the evict/restore stream drawn as GB/s over time; 0 leaves it out. */
  streamSeconds?: number;
}

/** What a figure reports while it runs: one sample of a row, or one point of a time series. */
export type LiveEvent =
  | { kind: 'sample'; figure: string; unit: string; case: string; side: 'measured' | 'baseline'; value: number }
  | { kind: 'series'; figure: string; series: string; unit: string; x: number; y: number };

/** A figure's handle on BenchContext.live, bound to its id and unit (a no-op when nobody listens). */
export interface LiveRecorder {
  sample(caseName: string, side: 'measured' | 'baseline', value: number): void;
  point(series: string, unit: string, x: number, y: number): void;
}

export function liveRecorder(context: BenchContext, figure: string, unit: string): LiveRecorder {
  const live = context.live;
  return {
    sample: (caseName, side, value) => live?.({ kind: 'sample', figure, unit, case: caseName, side, value }),
    point: (series, seriesUnit, x, y) => live?.({ kind: 'series', figure, series, unit: seriesUnit, x, y }),
  };
}

/**
 * A time series a figure records beside its rows (a long evict/restore stream as bytes per second
 * over time, so stalls show): x in seconds from the series' start, y in `unit`.
 */
export interface FigureSeries {
  name: string;
  unit: string;
  x: number[];
  y: number[];
}

export interface FigureRow {
  /** What this row measures, e.g. "evict 16 MiB". */
  case: string;
  /** The measured side's median, in `unit`. */
  value: number;
  /** The baseline's median in the same unit, or null where the figure has no per-row baseline. */
  baseline: number | null;
  /** value / baseline, oriented so the figure's target reads naturally (see Figure.ratioMeaning). */
  ratio: number | null;
  /** Every measured sample, in `unit`. */
  samples: number[];
  /** Every baseline sample, in `unit`. */
  baselineSamples: number[];
  /** Secondary numbers for this row (e.g. GPU time of the page-table upload), name → value. */
  extra?: Record<string, number>;
  /** This row's own target, where rows of one figure have different ones (it judges the row instead of the figure's). */
  target?: FigureTarget;
}

export interface FigureTarget {
  /** e.g. "at least 0.9 of the raw rate". */
  text: string;
  /** The ratio bound and its direction. */
  ratio: number;
  direction: 'at-least' | 'at-most';
}

export interface Figure {
  /** Stable id, also the JSON file's stem: "paging-throughput". */
  id: string;
  title: string;
  /** The unit of value/baseline/samples, e.g. "GB/s", "ms", "µs/call", "tiles/s", "MiB paged". */
  unit: string;
  /** What the baseline is, in words. */
  baselineName: string;
  /** What ratio means, e.g. "library GB/s ÷ raw GB/s". */
  ratioMeaning: string;
  target?: FigureTarget;
  rows: FigureRow[];
  /** Rounds measured per row and warm-up rounds before them. */
  rounds: number;
  warmup: number;
  /** Parameters worth recording (sizes, counts). */
  parameters: Record<string, number | string>;
  notes?: string[];
  /** Time series beside the rows, where the figure records one. */
  series?: FigureSeries[];
}

export type FigureRunner = (context: BenchContext) => Promise<Figure>;

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

/** Runs `once` warmup + rounds times (each returning one sample), keeping the last `rounds`. */
export async function sample(rounds: number, warmup: number, once: () => Promise<number> | number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < warmup + rounds; i++) {
    const value = await once();
    if (i >= warmup) out.push(value);
  }
  return out;
}

/** A row from two sample sets; `ratio` is value ÷ baseline. */
export function row(
  name: string,
  samples: number[],
  baselineSamples: number[],
  extra?: Record<string, number>,
): FigureRow {
  const value = median(samples);
  const baseline = baselineSamples.length > 0 ? median(baselineSamples) : null;
  return {
    case: name,
    value,
    baseline,
    ratio: baseline ? value / baseline : null,
    samples,
    baselineSamples,
    ...(extra ? { extra } : {}),
  };
}

/** A COMPUTE queue of `device` with a fence; `settle()` signals it and waits until all work executed on the queue so far has completed. */
export function fencedQueue(device: Device): { queue: CommandQueue; settle: () => Promise<void> } {
  const queue = device.createCommandQueue({ type: 'COMPUTE' });
  const fence = device.createFence(0);
  let fenceValue = 0;
  return {
    queue,
    settle: async () => {
      queue.signal(fence, ++fenceValue);
      await fence.setEventOnCompletion(fenceValue);
    },
  };
}

/** One side of an interleaved figure: one timed run, where its samples go, and its live plot. */
export interface TimedVariant {
  time: () => Promise<number>;
  into: number[];
  show: (value: number) => void;
}

/**
 * Runs every variant once a round, interleaved so that drift (clock, thermal, GC) hits them alike,
 * starting from a different one each round so that none always follows the same neighbour; the
 * first `warmup` rounds are not kept.
 */
export async function interleaved(variants: readonly TimedVariant[], rounds: number, warmup: number): Promise<void> {
  for (let i = 0; i < warmup + rounds; i++) {
    for (let k = 0; k < variants.length; k++) {
      const variant = variants[(i + k) % variants.length] as TimedVariant;
      const value = await variant.time();
      if (i >= warmup) {
        variant.into.push(value);
        variant.show(value);
      }
    }
  }
}

/** Milliseconds of `run` (which submits work), until the raw device's queue has finished it. */
export async function timeRaw(gpuDevice: GPUDevice, run: () => void): Promise<number> {
  return (await timeRawCall(gpuDevice, run)).ms;
}

/** timeRaw, with the milliseconds until `run` itself returned (its CPU side) as well. */
export async function timeRawCall(gpuDevice: GPUDevice, run: () => void): Promise<{ ms: number; callMs: number }> {
  await gpuDevice.queue.onSubmittedWorkDone();
  const start = performance.now();
  run();
  const callMs = performance.now() - start;
  await gpuDevice.queue.onSubmittedWorkDone();
  return { ms: performance.now() - start, callMs };
}
