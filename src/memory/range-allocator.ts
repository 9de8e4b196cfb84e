/**
 * RangeAllocator: first-fit allocation of contiguous ranges of units (pages) out of [start, end).
 * Knows nothing of GPUs or addresses; the virtual address space is built on it.
 *
 * Invariants: free ranges are kept sorted by start, never empty, never adjacent (freeing coalesces
 * with both neighbours), and never overlap an allocated range; `freeUnits` is their total.
 * Allocation takes the lowest free range that fits, so addresses are reused low-first and the high
 * end stays whole for large requests.
 */

export interface UnitRange {
  start: number;
  length: number;
}

export class RangeAllocator {
  private readonly free: UnitRange[];
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

  get freeUnits(): number {
    return this.freeTotal;
  }

  /** The largest request that would succeed now. */
  get largestFreeRange(): number {
    return this.free.reduce((largest, range) => Math.max(largest, range.length), 0);
  }

  /** Allocates `length` contiguous units; returns the first unit, or undefined when none fit. */
  allocate(length: number): number | undefined {
    if (!Number.isSafeInteger(length) || length <= 0) throw new RangeError(`cannot allocate ${length} units`);
    const index = this.free.findIndex((range) => range.length >= length);
    const range = this.free[index];
    if (!range) return undefined;
    const first = range.start;
    if (range.length === length) this.free.splice(index, 1);
    else this.free[index] = { start: range.start + length, length: range.length - length };
    this.allocated.set(first, length);
    this.freeTotal -= length;
    return first;
  }

  /** Frees a range returned by allocate(), merging it with free neighbours. */
  release(first: number): void {
    const length = this.allocated.get(first);
    if (length === undefined) throw new RangeError(`unit ${first} does not start an allocated range`);
    this.allocated.delete(first);
    this.freeTotal += length;

    // The first free range after the released one (binary search: the list is sorted).
    let low = 0;
    let high = this.free.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((this.free[mid]?.start ?? Infinity) < first) low = mid + 1;
      else high = mid;
    }
    const before = this.free[low - 1];
    const after = this.free[low];
    const joinsBefore = before !== undefined && before.start + before.length === first;
    const joinsAfter = after !== undefined && first + length === after.start;
    if (joinsBefore && joinsAfter) {
      this.free.splice(low - 1, 2, { start: before.start, length: before.length + length + after.length });
    } else if (joinsBefore) {
      this.free[low - 1] = { start: before.start, length: before.length + length };
    } else if (joinsAfter) {
      this.free[low] = { start: first, length: length + after.length };
    } else {
      this.free.splice(low, 0, { start: first, length });
    }
  }

  /** The free ranges, in order (a copy), for tests and stats. */
  freeRangesForTesting(): UnitRange[] {
    return this.free.map((range) => ({ ...range }));
  }
}
