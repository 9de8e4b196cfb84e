/**
 * Paging traces, and the offline policies a residency manager is judged against (GPU-free, so it
 * runs in the browser, in Node.js and in unit tests alike).
 *
 * A trace is a sequence of frames over a fixed set of objects (heaps) of known sizes; each frame
 * names the objects its command lists use, all of which must be resident together while it runs.
 * Paging is on demand, whole objects at a time, as the residency manager does it: before a frame,
 * every missing object is paged in, evicting objects the frame does not use while usage plus the
 * missing bytes exceed the budget. The policies differ only in which object they evict:
 *   - lru: the least recently used (the manager's LRU without its grace-period trimming);
 *   - beladyMin: the one whose next use is farthest in the future (Belady's MIN, which knows the
 *     whole trace). For objects of one size it is the offline optimum. For objects of different
 *     sizes the optimum is NP-hard to find, and farthest-next-use is the standard heuristic, not a
 *     proven optimum: a policy that weighs sizes can occasionally page fewer bytes (the unit tests
 *     show a case). Hence the name MIN "heuristic" wherever the figure reports it for variable sizes.
 *
 * generateCameraTrace builds a seeded trace shaped like a game's: a grid of heaps (a level cut into
 * cells), a camera that first walks over every cell (so the whole working set is touched), then
 * wanders between seeded waypoints, half of them places it has already been. Each frame uses the
 * heaps within a view radius of the camera.
 */
// Heaps are whole pages of TILE_SIZE (64 KiB), as the library counts them against the budget.
import { TILE_SIZE } from '../../src/index.js';
import { Random } from '../../src/validate/random.js';

export interface Trace {
  /** Bytes of each object, by id. */
  readonly sizes: readonly number[];
  /** The object ids each frame uses (each id once). */
  readonly frames: readonly (readonly number[])[];
}

export interface PagingResult {
  /** Bytes paged in (including the first, compulsory page-in of every object). */
  pagedInBytes: number;
  pagedOutBytes: number;
  pageIns: number;
  evictions: number;
  /** Frames whose objects alone exceed the budget: they run over it, as the manager's batches do. */
  overBudgetFrames: number;
}

/** Picks the object to evict among `candidates` (resident, not used by frame `frame`). */
export type ChooseVictim = (candidates: readonly number[], frame: number) => number;

export interface Policy {
  /** Called once per frame before paging, with the frame's objects. */
  beforeFrame(frame: number, ids: readonly number[]): void;
  choose: ChooseVictim;
}

/** Replays `trace` under `budget` bytes, evicting as `policy` chooses. Nothing is resident at first. */
export function replay(trace: Trace, budget: number, policy: Policy): PagingResult {
  const resident = new Set<number>();
  let usage = 0;
  const result: PagingResult = { pagedInBytes: 0, pagedOutBytes: 0, pageIns: 0, evictions: 0, overBudgetFrames: 0 };
  const size = (id: number): number => trace.sizes[id] ?? 0;
  trace.frames.forEach((frameIds, frame) => {
    const ids = [...new Set(frameIds)];
    policy.beforeFrame(frame, ids);
    const inFrame = new Set(ids);
    const missing = ids.filter((id) => !resident.has(id));
    const needed = missing.reduce((sum, id) => sum + size(id), 0);
    while (usage + needed > budget) {
      const candidates = [...resident].filter((id) => !inFrame.has(id));
      if (candidates.length === 0) break;
      const victim = policy.choose(candidates, frame);
      resident.delete(victim);
      usage -= size(victim);
      result.evictions++;
      result.pagedOutBytes += size(victim);
    }
    if (usage + needed > budget) result.overBudgetFrames++;
    for (const id of missing) {
      resident.add(id);
      usage += size(id);
      result.pageIns++;
      result.pagedInBytes += size(id);
    }
  });
  return result;
}

/**
 * Least recently used: the frame's objects become the most recently used (in the frame's order,
 * as the manager touches a residency set's objects), then the least recently used others go first.
 */
export function lru(trace: Trace, budget: number): PagingResult {
  // A Map iterates in insertion order: delete + set moves an id to the most recent end.
  const order = new Map<number, true>();
  return replay(trace, budget, {
    beforeFrame(_frame, ids) {
      for (const id of ids) {
        order.delete(id);
        order.set(id, true);
      }
    },
    choose(candidates) {
      const allowed = new Set(candidates);
      for (const id of order.keys()) if (allowed.has(id)) return id;
      return candidates[0] as number;
    },
  });
}

/**
 * Belady's MIN (farthest next use first): optimal for objects of one size; for variable sizes the
 * standard heuristic (see the header). Ties (equally far, e.g. never used again) evict the larger
 * object first, so fewer evictions make the room, then the lower id, so the result is deterministic.
 */
export function beladyMin(trace: Trace, budget: number): PagingResult {
  const uses = new Map<number, number[]>();
  trace.frames.forEach((ids, frame) => {
    for (const id of new Set(ids)) {
      const list = uses.get(id) ?? [];
      list.push(frame);
      uses.set(id, list);
    }
  });
  // cursor[id]: index into uses[id] of the first use after the frame being played.
  const cursor = new Map<number, number>();
  const nextUse = (id: number, frame: number): number => {
    const list = uses.get(id) ?? [];
    let at = cursor.get(id) ?? 0;
    while (at < list.length && (list[at] as number) <= frame) at++;
    cursor.set(id, at);
    return list[at] ?? Infinity;
  };
  const size = (id: number): number => trace.sizes[id] ?? 0;
  return replay(trace, budget, {
    beforeFrame() {},
    choose(candidates, frame) {
      let best = candidates[0] as number;
      let bestNext = nextUse(best, frame);
      for (const id of candidates.slice(1)) {
        const next = nextUse(id, frame);
        const better =
          next > bestNext || (next === bestNext && (size(id) > size(best) || (size(id) === size(best) && id < best)));
        if (better) {
          best = id;
          bestNext = next;
        }
      }
      return best;
    },
  });
}

/** Bytes of every object the trace uses at least once: what any policy must page in. */
export function workingSetBytes(trace: Trace): number {
  const used = new Set(trace.frames.flat());
  let bytes = 0;
  for (const id of used) bytes += trace.sizes[id] ?? 0;
  return bytes;
}

/** Bytes of the objects frame `frame` uses. */
export function frameBytes(trace: Trace, frame: number): number {
  return [...new Set(trace.frames[frame] ?? [])].reduce((sum, id) => sum + (trace.sizes[id] ?? 0), 0);
}

export interface CameraTraceOptions {
  seed: number;
  frames: number;
  budgetBytes: number;
  /** Bytes of all the heaps the trace touches ÷ budgetBytes (the figure uses 2 and 4). */
  workingSetMultiple: number;
  /**
   * Heap sizes, whole pages. Default 1 to 8 pages (64 to 512 KiB): the 1:8 spread of UE-sized 1 to
   * 8 MiB heaps, scaled down so a replay on a software GPU pages little memory (the policy question is
   * scale-free: only sizes relative to the budget matter).
   */
  minHeapBytes?: number;
  maxHeapBytes?: number;
  /** The share of the budget the camera's view holds on average. Default 0.6: room for the frame to vary. */
  viewFill?: number;
}

export interface CameraTrace extends Trace {
  readonly seed: number;
  readonly budgetBytes: number;
  readonly workingSetMultiple: number;
  /** The level: gridWidth × gridHeight cells, heap id = y × gridWidth + x. */
  readonly gridWidth: number;
  readonly gridHeight: number;
  /** Cells whose centre is within this distance (in cells) of the camera are in view. */
  readonly viewRadius: number;
  /** Cells per frame. */
  readonly cameraSpeed: number;
  /** Frames whose view held more than the budget, so their farthest cells were left out. */
  readonly culledFrames: number;
}

/** The share of the frames spent on the first walk over every cell; the rest wander and revisit. */
const SWEEP_SHARE = 0.4;
/** The chance that the next waypoint is a place the camera has already been. */
const REVISIT_CHANCE = 0.5;

/** The project's one seeded generator (mulberry32, src/validate/random.ts) as a function: uniform in [0, 1). */
export function random(seed: number): () => number {
  const generator = new Random(seed);
  return () => generator.float();
}

type Point = readonly [number, number];
const distance = (a: Point, b: Point): number => Math.hypot(a[0] - b[0], a[1] - b[1]);

/**
 * A seeded camera walk over a grid of heaps. Promises: the same options give the same trace; the
 * heaps the trace touches hold workingSetMultiple × budgetBytes (to the page); each frame's heaps fit
 * in budgetBytes (a view that would not fit drops its farthest cells, as a renderer culls).
 */
export function generateCameraTrace(options: CameraTraceOptions): CameraTrace {
  const { seed, frames, budgetBytes, workingSetMultiple } = options;
  const minPages = Math.ceil((options.minHeapBytes ?? TILE_SIZE) / TILE_SIZE);
  const maxPages = Math.floor((options.maxHeapBytes ?? 8 * TILE_SIZE) / TILE_SIZE);
  const viewFill = options.viewFill ?? 0.6;
  if (!Number.isInteger(frames) || frames < 1) throw new RangeError(`frames must be a positive integer, got ${frames}`);
  if (minPages < 1 || maxPages < minPages)
    throw new RangeError(`heap sizes must be 1 page or more, min <= max: got ${minPages}..${maxPages} pages`);
  if (maxPages * TILE_SIZE > budgetBytes)
    throw new RangeError(`a ${maxPages}-page heap does not fit a ${budgetBytes}-byte budget`);
  const rng = random(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));

  // The level: as many cells as heaps of the mean size make up the working set, on a near-square grid.
  const meanPages = (minPages + maxPages) / 2;
  const targetPages = Math.round((workingSetMultiple * budgetBytes) / TILE_SIZE);
  const cellsWanted = targetPages / meanPages;
  const gridWidth = Math.max(1, Math.round(Math.sqrt(cellsWanted)));
  const gridHeight = Math.max(1, Math.round(cellsWanted / gridWidth));
  const cells = gridWidth * gridHeight;
  if (cells * minPages > targetPages || cells * maxPages < targetPages) {
    throw new RangeError(`${cells} heaps of ${minPages}..${maxPages} pages cannot hold ${targetPages} pages`);
  }
  const sizes = heapPages(cells, minPages, maxPages, targetPages, int).map((p) => p * TILE_SIZE);
  const centre = (id: number): Point => [(id % gridWidth) + 0.5, Math.floor(id / gridWidth) + 0.5];

  // The view: a disc holding viewFill of the budget in heaps of the mean size, on average.
  const viewCells = (viewFill * budgetBytes) / TILE_SIZE / meanPages;
  const viewRadius = Math.max(1, Math.sqrt(viewCells / Math.PI));

  // The route: first a serpentine through every cell centre (every heap comes into view), at a speed
  // that takes SWEEP_SHARE of the frames; then seeded waypoints, REVISIT_CHANCE of them places
  // already seen (short and long returns alike: uniform over the camera's history).
  const sweep: Point[] = [];
  for (let y = 0; y < gridHeight; y++) {
    const [from, to] = y % 2 === 0 ? [0.5, gridWidth - 0.5] : [gridWidth - 0.5, 0.5];
    sweep.push([from, y + 0.5], [to, y + 0.5]);
  }
  let sweepLength = 0;
  for (let i = 1; i < sweep.length; i++) sweepLength += distance(sweep[i - 1] as Point, sweep[i] as Point);
  const sweepFrames = Math.max(1, Math.floor(SWEEP_SHARE * frames) - 1);
  const cameraSpeed = Math.max(sweepLength / sweepFrames, 1e-3);
  // A step longer than the view's diameter could pass a cell without it ever being in view.
  if (cameraSpeed > 2 * viewRadius) {
    throw new RangeError(
      `${frames} frames are too few to walk over ${cells} cells (the camera would move ${cameraSpeed.toFixed(2)} cells a frame)`,
    );
  }
  const positions: Point[] = [];
  let position = sweep[0] as Point;
  const waypoints = sweep.slice(1);
  const nextWaypoint = (): Point =>
    positions.length > 0 && rng() < REVISIT_CHANCE
      ? (positions[int(0, positions.length - 1)] as Point)
      : [rng() * gridWidth, rng() * gridHeight];
  for (let frame = 0; frame < frames; frame++) {
    positions.push(position);
    let step = cameraSpeed;
    while (step > 0) {
      if (waypoints.length === 0) waypoints.push(nextWaypoint());
      const target = waypoints[0] as Point;
      const d = distance(position, target);
      if (d <= step) {
        position = target;
        waypoints.shift();
        step -= d;
      } else {
        position = [
          position[0] + ((target[0] - position[0]) * step) / d,
          position[1] + ((target[1] - position[1]) * step) / d,
        ];
        step = 0;
      }
    }
  }

  let culledFrames = 0;
  const traceFrames = positions.map((camera) => {
    const inView = Array.from({ length: cells }, (_, id) => ({ id, d: distance(centre(id), camera) }))
      .filter((cell) => cell.d <= viewRadius)
      .sort((a, b) => a.d - b.d || a.id - b.id);
    const kept: number[] = [];
    let bytes = 0;
    for (const cell of inView) {
      const size = sizes[cell.id] as number;
      if (bytes + size > budgetBytes) {
        culledFrames++;
        break;
      }
      kept.push(cell.id);
      bytes += size;
    }
    return kept.sort((a, b) => a - b);
  });
  return {
    sizes,
    frames: traceFrames,
    seed,
    budgetBytes,
    workingSetMultiple,
    gridWidth,
    gridHeight,
    viewRadius,
    cameraSpeed,
    culledFrames,
  };
}

/**
 * Heap sizes in pages for `count` heaps adding up to `targetPages`: uniform in [minPages, maxPages]
 * from `int`, then nudged a page at a time (within the bounds) until they add up.
 */
export function heapPages(
  count: number,
  minPages: number,
  maxPages: number,
  targetPages: number,
  int: (lo: number, hi: number) => number,
): number[] {
  const pages = Array.from({ length: count }, () => int(minPages, maxPages));
  let total = pages.reduce((sum, p) => sum + p, 0);
  while (total !== targetPages) {
    const i = int(0, count - 1);
    const p = pages[i] as number;
    if (total < targetPages && p < maxPages) {
      pages[i] = p + 1;
      total++;
    } else if (total > targetPages && p > minPages) {
      pages[i] = p - 1;
      total--;
    }
  }
  return pages;
}
