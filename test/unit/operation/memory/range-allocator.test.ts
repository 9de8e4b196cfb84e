/**
 * RangeAllocator, the one first-fit free list behind the virtual address space (contiguous ranges)
 * and every pool's physical pages (runs), in the style of Dawn's BuddyAllocatorTests: each case
 * draws the free list it builds, and checks both sides of every boundary.
 */
import { describe, expect, test } from 'vitest';
import { pagesOf, RangeAllocator } from '../../../../src/memory/range-allocator.js';
import { Random } from '../../../../src/validate/random.js';

describe('RangeAllocator', () => {
  test('allocates first-fit from the low end', () => {
    const allocator = new RangeAllocator(10, 110);
    expect(allocator.allocate(5)).toBe(10);
    expect(allocator.allocate(5)).toBe(15);
    expect(allocator.freeUnits).toBe(90);
    expect(allocator.freeRangesForTesting()).toEqual([{ start: 20, length: 90 }]);
  });

  test('both sides of exhaustion: the last unit fits, one more does not', () => {
    const allocator = new RangeAllocator(0, 8);
    expect(allocator.allocate(8)).toBe(0);
    expect(allocator.allocate(1)).toBeUndefined();
    const other = new RangeAllocator(0, 8);
    expect(other.allocate(9)).toBeUndefined();
    expect(other.freeUnits).toBe(8);
  });

  test('a freed range is reused, the lowest hole that fits first', () => {
    const allocator = new RangeAllocator(0, 100);
    const a = allocator.allocate(10) as number;
    allocator.allocate(10);
    const c = allocator.allocate(20) as number;
    allocator.allocate(10);
    allocator.release(c);
    allocator.release(a);
    expect(allocator.allocate(15)).toBe(c); // a's hole (10) is too small
    expect(allocator.allocate(10)).toBe(a);
  });

  test('freeing coalesces with the neighbour before, after, and both', () => {
    const allocator = new RangeAllocator(0, 40);
    const [a, b, c, d] = [10, 10, 10, 10].map((n) => allocator.allocate(n) as number) as [
      number,
      number,
      number,
      number,
    ];
    allocator.release(a);
    allocator.release(c);
    expect(allocator.freeRangesForTesting()).toEqual([
      { start: 0, length: 10 },
      { start: 20, length: 10 },
    ]);
    allocator.release(b); // joins both neighbours
    expect(allocator.freeRangesForTesting()).toEqual([{ start: 0, length: 30 }]);
    allocator.release(d); // joins the one before
    expect(allocator.freeRangesForTesting()).toEqual([{ start: 0, length: 40 }]);
    expect(allocator.largestFreeRange).toBe(40);
  });

  test('fragmentation: enough free units in total but no range long enough fails', () => {
    const allocator = new RangeAllocator(0, 30);
    const ids = [0, 1, 2].map(() => allocator.allocate(10) as number);
    allocator.release(ids[0] as number);
    allocator.release(ids[2] as number);
    expect(allocator.freeUnits).toBe(20);
    expect(allocator.allocate(20)).toBeUndefined();
  });

  test('misuse is a RangeError: zero or fractional lengths, unknown or double release, bad bounds', () => {
    const allocator = new RangeAllocator(0, 10);
    expect(() => allocator.allocate(0)).toThrow(RangeError);
    expect(() => allocator.allocate(1.5)).toThrow(RangeError);
    const first = allocator.allocate(2) as number;
    allocator.release(first);
    expect(() => allocator.release(first)).toThrow(/does not start an allocated range/);
    expect(() => allocator.release(5)).toThrow(RangeError);
    expect(() => new RangeAllocator(5, 5)).toThrow(RangeError);
  });

  test('random allocations and frees keep the free list sorted, disjoint and coalesced', () => {
    const random = new Random(12345);
    const allocator = new RangeAllocator(1, 1001);
    const live: { start: number; length: number }[] = [];
    for (let step = 0; step < 2000; step++) {
      if (live.length > 0 && random.below(3) === 0) {
        const [range] = live.splice(random.below(live.length), 1);
        allocator.release((range as { start: number }).start);
      } else {
        const length = 1 + random.below(40);
        const start = allocator.allocate(length);
        if (start !== undefined) live.push({ start, length });
      }
      // Plain checks in the loop (expect() per pair is slow); one assertion per step.
      const free = allocator.freeRangesForTesting();
      const sortedAndApart = free.every(
        (hole, i) => i === 0 || (free[i - 1] as typeof hole).start + (free[i - 1] as typeof hole).length < hole.start,
      );
      const used = live.reduce((sum, range) => sum + range.length, 0);
      const disjoint = live.every((range) =>
        free.every((hole) => range.start + range.length <= hole.start || hole.start + hole.length <= range.start),
      );
      if (!sortedAndApart || !disjoint || allocator.freeUnits + used !== 1000) {
        expect.fail(
          `step ${step}: free list ${JSON.stringify(free)} inconsistent with live ranges ${JSON.stringify(live)}`,
        );
      }
    }
  });
});

describe("RangeAllocator runs (a heap's physical pages)", () => {
  test('one run when a free range holds them all: exactly the free range, and one more unit', () => {
    // [0 ........ 8)  free
    const allocator = new RangeAllocator(0, 8);
    expect(allocator.allocateRuns(8)).toEqual([{ start: 0, count: 8 }]);
    // [0 ######## 8)  nothing free: one more unit is refused and nothing changes
    expect(allocator.allocateRuns(1)).toBeUndefined();
    expect(allocator.freeUnits).toBe(0);
  });

  test('scattered runs when no free range is long enough, lowest first; refused whole when too few are free', () => {
    const allocator = new RangeAllocator(0, 10);
    const [a, b, c] = [allocator.allocateRuns(3), allocator.allocateRuns(3), allocator.allocateRuns(4)] as [
      ReturnType<RangeAllocator['allocateRuns']>,
      ReturnType<RangeAllocator['allocateRuns']>,
      ReturnType<RangeAllocator['allocateRuns']>,
    ];
    allocator.releaseRuns(a ?? []);
    allocator.releaseRuns(c ?? []);
    // [0 ... 3 ### 6 .... 10)   free: 0..2 and 6..9 (7 units), largest 4
    expect(allocator.freeRangesForTesting()).toEqual([
      { start: 0, length: 3 },
      { start: 6, length: 4 },
    ]);
    // 8 > 7 free: refused, nothing taken.
    expect(allocator.allocateRuns(8)).toBeUndefined();
    expect(allocator.freeUnits).toBe(7);
    // 4 fit the second range whole: first fit, one run.
    const fits = allocator.allocateRuns(4);
    expect(fits).toEqual([{ start: 6, count: 4 }]);
    allocator.releaseRuns(fits ?? []);
    // 5 > the largest range (4): gathered from the lowest ranges, 3 + 2.
    const gathered = allocator.allocateRuns(5);
    expect(gathered).toEqual([
      { start: 0, count: 3 },
      { start: 6, count: 2 },
    ]);
    expect(Array.from(pagesOf(gathered ?? []))).toEqual([0, 1, 2, 6, 7]);
    // [0 ### 3 ### 6 ## 8 .. 10)
    expect(allocator.freeRangesForTesting()).toEqual([{ start: 8, length: 2 }]);
    allocator.releaseRuns([...(gathered ?? []), ...(b ?? [])]);
    // Everything back, coalesced into one range.
    expect(allocator.freeRangesForTesting()).toEqual([{ start: 0, length: 10 }]);
  });

  test('releasing a unit twice, or outside the allocator, is a RangeError and frees nothing', () => {
    const allocator = new RangeAllocator(0, 4);
    const runs = allocator.allocateRuns(2) ?? [];
    allocator.releaseRuns(runs);
    expect(() => allocator.releaseRuns(runs)).toThrow(/already free/);
    expect(() => allocator.releaseRuns([{ start: 3, count: 2 }])).toThrow(RangeError);
    expect(allocator.freeUnits).toBe(4);
    // A run that overlaps a free neighbour by one unit, on either side.
    allocator.allocateRuns(4);
    allocator.releaseRuns([{ start: 1, count: 1 }]);
    expect(() => allocator.releaseRuns([{ start: 0, count: 2 }])).toThrow(/already free/);
    expect(() => allocator.releaseRuns([{ start: 1, count: 2 }])).toThrow(/already free/);
    allocator.releaseRuns([
      { start: 0, count: 1 },
      { start: 2, count: 2 },
    ]);
    expect(allocator.freeRangesForTesting()).toEqual([{ start: 0, length: 4 }]);
  });

  test('releasing runs is all or nothing: a bad run after good ones frees none of them', () => {
    const allocator = new RangeAllocator(0, 10);
    const a = allocator.allocateRuns(3) ?? [];
    const b = allocator.allocateRuns(3) ?? [];
    allocator.allocateRuns(2);
    // [0 ### 3 ### 6 ## 8 .. 10)   a = 0..2, b = 3..5; free: 8..9
    const before = allocator.freeRangesForTesting();
    expect(before).toEqual([{ start: 8, length: 2 }]);
    const bad: [string, { start: number; count: number }[], RegExp][] = [
      ['a unit already free, last', [...a, ...b, { start: 8, count: 1 }], /units 8\.\.8 are already free/],
      ['a unit already free, between good runs', [...a, { start: 7, count: 2 }, ...b], /units 7\.\.8 are already free/],
      ['past the end', [...a, { start: 10, count: 1 }], /units 10\.\.10 are already free or outside \[0, 10\)/],
      ['a run given twice', [...a, ...b, ...a], /units 0\.\.2 are already free/],
      ['a run overlapping an earlier one of the list', [...a, { start: 2, count: 2 }], /units 2\.\.3 are already free/],
    ];
    for (const [what, runs, message] of bad) {
      expect(() => allocator.releaseRuns(runs), what).toThrow(message);
      // Nothing freed: a and b are still taken.
      expect(allocator.freeRangesForTesting(), what).toEqual(before);
      expect(allocator.freeUnits, what).toBe(2);
    }
    // The control: the good runs alone are freed, and coalesce.
    allocator.releaseRuns([...a, ...b]);
    // [0 ...... 6 ## 8 .. 10)
    expect(allocator.freeRangesForTesting()).toEqual([
      { start: 0, length: 6 },
      { start: 8, length: 2 },
    ]);
    expect(allocator.freeUnits).toBe(8);
    expect(allocator.allocateRuns(6)).toEqual([{ start: 0, count: 6 }]);
  });

  test('zero and fractional counts are RangeErrors', () => {
    const allocator = new RangeAllocator(0, 4);
    expect(() => allocator.allocateRuns(0)).toThrow(RangeError);
    expect(() => allocator.allocateRuns(0.5)).toThrow(RangeError);
    expect(allocator.allocateRuns(1)).toEqual([{ start: 0, count: 1 }]);
  });

  test("ranges and runs share one free list: each sees the other's units as taken", () => {
    const allocator = new RangeAllocator(0, 8);
    const range = allocator.allocate(3) as number; // [0 ### 3 ..... 8)
    const runs = allocator.allocateRuns(5) ?? []; // [0 ### 3 ##### 8)
    expect(runs).toEqual([{ start: 3, count: 5 }]);
    expect(allocator.allocate(1)).toBeUndefined();
    allocator.release(range);
    expect(() => allocator.release(3)).toThrow(/does not start an allocated range/);
    allocator.releaseRuns(runs);
    expect(allocator.freeRangesForTesting()).toEqual([{ start: 0, length: 8 }]);
  });
});
