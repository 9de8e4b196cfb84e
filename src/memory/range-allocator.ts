/**
 * RangeAllocator: first-fit allocation of units (pages) out of [start, end), the one free list
 * behind both the virtual address space (contiguous ranges: allocate / release) and the physical
 * pages of each pool (a heap's pages: allocateRuns / releaseRuns, contiguous when possible). Knows
 * nothing of GPUs or addresses.
 *
 * Invariants: free ranges are kept sorted by start, never empty, never adjacent (freeing coalesces
 * with both neighbours), and never overlap an allocated unit; `freeUnits` is their total. Allocation
 * takes the lowest free range that fits, so units are reused low-first and the high end stays whole
 * for large requests. A unit is free, or owned by exactly one allocation.
 */

export interface UnitRange {
  start: number;
  length: number;
}

/** Consecutive units of one allocation of allocateRuns (a heap's physical pages). */
export interface PageRun {
  start: number;
  count: number;
}

export class RangeAllocator {
  private free: UnitRange[];
  /** Ranges handed out by allocate(): first unit → length (allocateRuns' callers keep their runs). */
  private readonly allocated = new Map<number, number>();
  private freeTotal: number;

  constructor(
    readonly start: number,
    readonly end: number,
  ) {
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end <= start) {
      throw new RangeError(`RangeAllocator needs 0 <= start < end, got [${start}, ${end})`);
    }
    this.free = [{ start, length: end - start }];
    this.freeTotal = end - start;
  }

  /** Units in [start, end). */
  get unitCount(): number {
    return this.end - this.start;
  }

  get freeUnits(): number {
    return this.freeTotal;
  }

  /** The largest contiguous request that would succeed now. */
  get largestFreeRange(): number {
    return this.free.reduce((largest, range) => Math.max(largest, range.length), 0);
  }

  /** Allocates `length` contiguous units; returns the first unit, or undefined when none fit. */
  allocate(length: number): number | undefined {
    checkCount(length);
    const index = this.free.findIndex((range) => range.length >= length);
    if (index < 0) return undefined;
    const first = this.take(index, length);
    this.allocated.set(first, length);
    return first;
  }

  /** Frees a range returned by allocate(), merging it with free neighbours. */
  release(first: number): void {
    const length = this.allocated.get(first);
    if (length === undefined) throw new RangeError(`unit ${first} does not start an allocated range`);
    this.allocated.delete(first);
    this.insert(first, length, this.free);
    this.freeTotal += length;
  }

  /**
   * Takes `count` units, one run if any free range holds them (first fit), else runs gathered from
   * the lowest free ranges; undefined (and nothing taken) when fewer than `count` are free.
   */
  allocateRuns(count: number): PageRun[] | undefined {
    checkCount(count);
    if (count > this.freeTotal) return undefined;
    const fit = this.free.findIndex((range) => range.length >= count);
    if (fit >= 0) return [{ start: this.take(fit, count), count }];
    const runs: PageRun[] = [];
    for (let needed = count; needed > 0;) {
      const length = Math.min(needed, (this.free[0] as UnitRange).length);
      runs.push({ start: this.take(0, length), count: length });
      needed -= length;
    }
    return runs;
  }

  /**
   * Returns runs taken by allocateRuns, merging them with free neighbours. All or nothing: a run
   * with a unit already free (or freed by an earlier run of the list) or outside [start, end) is a
   * RangeError, and then no run is freed.
   */
  releaseRuns(runs: readonly PageRun[]): void {
    // Every run is freed into a copy of the free list first (insert replaces ranges, never changes
    // one, so a shallow copy is enough); the copy becomes the free list once all of them fit.
    const free = this.free.slice();
    let freed = 0;
    for (const run of runs) {
      if (run.count <= 0) continue;
      this.insert(run.start, run.count, free);
      freed += run.count;
    }
    this.free = free;
    this.freeTotal += freed;
  }

  /** Takes `length` units from the start of free range `index`; returns the first. */
  private take(index: number, length: number): number {
    const range = this.free[index] as UnitRange;
    if (range.length === length) this.free.splice(index, 1);
    else this.free[index] = { start: range.start + length, length: range.length - length };
    this.freeTotal -= length;
    return range.start;
  }

  /**
   * Frees [first, first + length) in `free` (a sorted free list), merging with neighbours; a unit
   * already free is a RangeError, thrown before `free` changes. The caller counts the units.
   */
  private insert(first: number, length: number, free: UnitRange[]): void {
    // The first free range after the freed one (binary search: the list is sorted).
    let low = 0;
    let high = free.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((free[mid]?.start ?? Infinity) < first) low = mid + 1;
      else high = mid;
    }
    const before = free[low - 1];
    const after = free[low];
    if (
      (before && before.start + before.length > first) ||
      (after && first + length > after.start) ||
      first < this.start ||
      first + length > this.end
    ) {
      throw new RangeError(
        `units ${first}..${first + length - 1} are already free or outside [${this.start}, ${this.end})`,
      );
    }
    const joinsBefore = before !== undefined && before.start + before.length === first;
    const joinsAfter = after !== undefined && first + length === after.start;
    if (joinsBefore && joinsAfter) {
      free.splice(low - 1, 2, { start: before.start, length: before.length + length + after.length });
    } else if (joinsBefore) {
      free[low - 1] = { start: before.start, length: before.length + length };
    } else if (joinsAfter) {
      free[low] = { start: first, length: length + after.length };
    } else {
      free.splice(low, 0, { start: first, length });
    }
  }

  /** The free ranges, in order (a copy), for tests and stats. */
  freeRangesForTesting(): UnitRange[] {
    return this.free.map((range) => ({ ...range }));
  }
}

function checkCount(count: number): void {
  if (!Number.isSafeInteger(count) || count <= 0) throw new RangeError(`cannot allocate ${count} units`);
}

/** Expands runs into one unit index per unit, in order (a heap's page list). */
export function pagesOf(runs: readonly PageRun[]): Uint32Array {
  const pages = new Uint32Array(runs.reduce((sum, run) => sum + run.count, 0));
  let i = 0;
  for (const run of runs) for (let page = run.start; page < run.start + run.count; page++) pages[i++] = page;
  return pages;
}
