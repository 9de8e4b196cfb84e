import { describe, expect, test } from 'vitest';
import { RangeAllocator } from '../../../src/memory/range-allocator.js';

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
    const [a, b, c, d] = [10, 10, 10, 10].map((n) => allocator.allocate(n) as number) as [number, number, number, number];
    allocator.release(a);
    allocator.release(c);
    expect(allocator.freeRangesForTesting()).toEqual([{ start: 0, length: 10 }, { start: 20, length: 10 }]);
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
    let seed = 12345;
    const random = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const allocator = new RangeAllocator(1, 1001);
    const live: { start: number; length: number }[] = [];
    for (let step = 0; step < 2000; step++) {
      if (live.length > 0 && random(3) === 0) {
        const [range] = live.splice(random(live.length), 1);
        allocator.release((range as { start: number }).start);
      } else {
        const length = 1 + random(40);
        const start = allocator.allocate(length);
        if (start !== undefined) live.push({ start, length });
      }
      // Plain checks in the loop (expect() per pair is slow); one assertion per step.
      const free = allocator.freeRangesForTesting();
      const sortedAndApart = free.every((hole, i) => i === 0 || (free[i - 1] as typeof hole).start + (free[i - 1] as typeof hole).length < hole.start);
      const used = live.reduce((sum, range) => sum + range.length, 0);
      const disjoint = live.every((range) => free.every((hole) => range.start + range.length <= hole.start || hole.start + hole.length <= range.start));
      if (!sortedAndApart || !disjoint || allocator.freeUnits + used !== 1000) {
        expect.fail(`step ${step}: free list ${JSON.stringify(free)} inconsistent with live ranges ${JSON.stringify(live)}`);
      }
    }
  });
});
