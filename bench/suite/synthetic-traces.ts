/**
 * Three more paging-trace shapes for the policy figure, beside the camera walk (paging-trace.ts), so a
 * residency policy is not judged, or tuned, on one access pattern:
 *   - popular sets (Zipf): heaps come in sets of GROUP_SIZE (a mesh and its textures); a frame holds a
 *     few sets and swaps one per frame for a set drawn by Zipf popularity (exponent 1), so a few sets
 *     return often and most rarely: frequency matters as well as recency;
 *   - phase shift: the same, with the popularity ranking reshuffled halfway (a new level section), so
 *     what was popular is stale: a policy that trusts history too long keeps the wrong heaps;
 *   - cyclic scan: the heaps on a ring, each frame a window of consecutive heaps moving round it,
 *     lap after lap; the ring is larger than the budget, LRU's worst case (it evicts the heap needed
 *     soonest), where keeping a fixed part of the ring is optimal.
 * Promises (as generateCameraTrace's): the same options give the same trace; the heaps hold
 * workingSetMultiple × budgetBytes (to the page; popular sets may leave a rare set untouched); every
 * frame fits in budgetBytes and names each heap once.
 */
import { TILE_SIZE } from '../../src/index.js';
import { heapPages, random, type CameraTraceOptions, type Trace } from './paging-trace.js';

/** The camera walk's knobs (seed, frames, budget, working set, heap sizes, the share of the budget a frame holds). */
export type SyntheticTraceOptions = CameraTraceOptions;

export interface SyntheticTrace extends Trace {
  readonly shape: 'popular-sets' | 'phase-shift' | 'cyclic-scan';
  readonly seed: number;
  readonly budgetBytes: number;
  readonly workingSetMultiple: number;
  /** What the generator drew sets by (popular sets and phase shift only): the oracle's knowledge. */
  readonly popularity?: Popularity;
}

/**
 * The true popularity behind a popular-sets trace: heap `id` belongs to set `floor(id / groupSize)`,
 * and from frame `fromFrame` of each phase on, a refilled slot draws set g with probability
 * proportional to `weights[g]` among the sets not held (a draw of a held set is drawn again).
 */
export interface Popularity {
  readonly groupSize: number;
  readonly phases: readonly { readonly fromFrame: number; readonly weights: readonly number[] }[];
}

/** Heaps per popular set: a mesh, its material's textures. */
export const GROUP_SIZE = 4;
/** Zipf's exponent: the classic 1 (the k-th most popular set is drawn 1/k as often as the first). */
const ZIPF_EXPONENT = 1;
/**
 * Frames per lap of the cyclic scan: 50 (0.83 s at 60 fps), under the residency manager's shortest
 * grace period (1 s), so the trace measures eviction choice rather than age-based trimming.
 */
export const SCAN_LAP_FRAMES = 50;

interface Layout {
  rng: () => number;
  sizes: number[];
  /** The frame's byte allowance (viewFill of the budget). */
  frameBytes: number;
}

/** Heap sizes adding up to the working set, as generateCameraTrace makes them. */
function layout(options: SyntheticTraceOptions, count?: (heaps: number) => number): Layout {
  const { seed, frames, budgetBytes, workingSetMultiple } = options;
  const minPages = Math.ceil((options.minHeapBytes ?? TILE_SIZE) / TILE_SIZE);
  const maxPages = Math.floor((options.maxHeapBytes ?? 8 * TILE_SIZE) / TILE_SIZE);
  if (!Number.isInteger(frames) || frames < 1) throw new RangeError(`frames must be a positive integer, got ${frames}`);
  if (minPages < 1 || maxPages < minPages)
    throw new RangeError(`heap sizes must be 1 page or more, min <= max: got ${minPages}..${maxPages} pages`);
  if (maxPages * TILE_SIZE > budgetBytes)
    throw new RangeError(`a ${maxPages}-page heap does not fit a ${budgetBytes}-byte budget`);
  const rng = random(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));
  const targetPages = Math.round((workingSetMultiple * budgetBytes) / TILE_SIZE);
  const natural = Math.max(1, Math.round(targetPages / ((minPages + maxPages) / 2)));
  const heaps = count ? count(natural) : natural;
  if (heaps * minPages > targetPages || heaps * maxPages < targetPages)
    throw new RangeError(`${heaps} heaps of ${minPages}..${maxPages} pages cannot hold ${targetPages} pages`);
  return {
    rng,
    sizes: heapPages(heaps, minPages, maxPages, targetPages, int).map((p) => p * TILE_SIZE),
    frameBytes: (options.viewFill ?? 0.6) * budgetBytes,
  };
}

/** A seeded permutation of 0..n-1 (Fisher–Yates). */
function permutation(rng: () => number, n: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}

function popularSets(options: SyntheticTraceOptions, shape: 'popular-sets' | 'phase-shift'): SyntheticTrace {
  const { rng, sizes, frameBytes } = layout(
    options,
    (heaps) => Math.max(2, Math.round(heaps / GROUP_SIZE)) * GROUP_SIZE,
  );
  const groups = sizes.length / GROUP_SIZE;
  const groupBytes = (g: number): number =>
    sizes.slice(g * GROUP_SIZE, (g + 1) * GROUP_SIZE).reduce((sum, s) => sum + s, 0);
  const meanGroupBytes = sizes.reduce((sum, s) => sum + s, 0) / groups;
  // As many sets as the frame's allowance holds on average, and fewer than all (else nothing pages).
  const slots = Math.max(1, Math.min(groups - 1, Math.floor(frameBytes / meanGroupBytes)));
  const weights = Array.from({ length: groups }, (_, rank) => 1 / (rank + 1) ** ZIPF_EXPONENT);
  const totalWeight = weights.reduce((sum, w) => sum + w, 0);
  let ranking = permutation(rng, groups);
  const draw = (exclude: readonly number[]): number => {
    for (;;) {
      let pick = rng() * totalWeight;
      let rank = 0;
      while (rank < groups - 1 && pick >= (weights[rank] as number)) pick -= weights[rank++] as number;
      const group = ranking[rank] as number;
      if (!exclude.includes(group)) return group;
    }
  };
  // Set g's weight under the current ranking (the oracle's view of it).
  const weightsOfSets = (): number[] => {
    const bySet = new Array<number>(groups).fill(0);
    ranking.forEach((group, rank) => (bySet[group] = weights[rank] as number));
    return bySet;
  };
  const phases: { fromFrame: number; weights: number[] }[] = [{ fromFrame: 0, weights: weightsOfSets() }];
  const held: number[] = [];
  while (held.length < slots) held.push(draw(held));
  const frames: number[][] = [];
  const shiftAt = shape === 'phase-shift' ? Math.floor(options.frames / 2) : -1;
  for (let frame = 0; frame < options.frames; frame++) {
    if (frame === shiftAt) {
      ranking = permutation(rng, groups);
      phases.push({ fromFrame: frame, weights: weightsOfSets() });
    }
    if (frame > 0) held[Math.floor(rng() * slots)] = draw(held);
    // A frame over the budget keeps the sets that fit (a renderer would cull or stream the rest).
    const ids: number[] = [];
    let bytes = 0;
    for (const group of held) {
      if (bytes + groupBytes(group) > options.budgetBytes) continue;
      bytes += groupBytes(group);
      for (let i = 0; i < GROUP_SIZE; i++) ids.push(group * GROUP_SIZE + i);
    }
    frames.push(ids.sort((a, b) => a - b));
  }
  return {
    shape,
    sizes,
    frames,
    seed: options.seed,
    budgetBytes: options.budgetBytes,
    workingSetMultiple: options.workingSetMultiple,
    popularity: { groupSize: GROUP_SIZE, phases },
  };
}

/** Popular sets: see the header. */
export function generatePopularSetsTrace(options: SyntheticTraceOptions): SyntheticTrace {
  return popularSets(options, 'popular-sets');
}

/** Popular sets whose popularity ranking is reshuffled at the middle frame. */
export function generatePhaseShiftTrace(options: SyntheticTraceOptions): SyntheticTrace {
  return popularSets(options, 'phase-shift');
}

/** A window of consecutive heaps going round a ring larger than the budget, one lap per SCAN_LAP_FRAMES frames. */
export function generateCyclicScanTrace(options: SyntheticTraceOptions): SyntheticTrace {
  const { rng, sizes, frameBytes } = layout(options);
  const heaps = sizes.length;
  const speed = heaps / SCAN_LAP_FRAMES;
  let position = rng() * heaps;
  const frames: number[][] = [];
  for (let frame = 0; frame < options.frames; frame++) {
    const ids: number[] = [];
    let bytes = 0;
    for (let i = Math.floor(position); ids.length < heaps; i++) {
      const id = i % heaps;
      const size = sizes[id] as number;
      if (bytes + size > frameBytes && ids.length > 0) break;
      ids.push(id);
      bytes += size;
    }
    frames.push(ids.sort((a, b) => a - b));
    position = (position + speed) % heaps;
  }
  return {
    shape: 'cyclic-scan',
    sizes,
    frames,
    seed: options.seed,
    budgetBytes: options.budgetBytes,
    workingSetMultiple: options.workingSetMultiple,
  };
}
