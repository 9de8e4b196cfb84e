/**
 * DirtyRuns, what the page-table mirror sends at a flush: every added entry is covered, the ranges
 * come sorted and disjoint, and ranges at most mergeGap apart are one (both sides of the gap);
 * added out of order or overlapping, and many far apart without a take(), the same holds.
 */
import { describe, expect, test } from 'vitest';
import { DirtyRuns } from '../../../../src/memory/dirty-runs.js';
import { Random } from '../../../../src/validate/random.js';

/** The entries a list of [start, end) pairs covers. */
function covered(pairs: readonly number[]): Set<number> {
  const entries = new Set<number>();
  for (let i = 0; i < pairs.length; i += 2)
    for (let e = pairs[i] as number; e < (pairs[i + 1] as number); e++) entries.add(e);
  return entries;
}

describe('DirtyRuns', () => {
  test('neighbouring adds are one range; a gap of mergeGap entries is merged, one more is not', () => {
    const runs = new DirtyRuns(4);
    expect(runs.empty).toBe(true);
    for (let e = 10; e < 20; e++) runs.add(e, 1);
    expect(runs.take()).toEqual([10, 20]);
    expect(runs.empty).toBe(true);
    expect(runs.take()).toEqual([]);

    runs.add(0, 2); // [0, 2)
    runs.add(6, 1); // gap 4 (entries 2..5): merged
    runs.add(12, 1); // gap 5 (entries 7..11): apart
    expect(runs.take()).toEqual([0, 7, 12, 13]);
  });

  test('out of order and overlapping: sorted, disjoint, merged', () => {
    const runs = new DirtyRuns(0);
    runs.add(50, 10);
    runs.add(0, 5);
    runs.add(55, 10); // overlaps [50, 60)
    runs.add(5, 1); // touches [0, 5)
    runs.add(30, 1);
    runs.add(0, 0); // nothing
    expect(runs.take()).toEqual([0, 6, 30, 31, 50, 65]);
  });

  test('random adds: every entry covered, ranges sorted, disjoint, more than mergeGap apart, nothing far outside', () => {
    const random = new Random(7);
    for (const gap of [0, 3, 64]) {
      const runs = new DirtyRuns(gap);
      const added = new Set<number>();
      // Past the compaction threshold (4096 ranges) without a take().
      for (let i = 0; i < 6000; i++) {
        const first = random.int(0, 200000);
        const count = random.int(1, 4);
        runs.add(first, count);
        for (let e = first; e < first + count; e++) added.add(e);
      }
      const taken = runs.take();
      const cover = covered(taken);
      expect([...added].filter((e) => !cover.has(e))).toEqual([]);
      for (let i = 2; i < taken.length; i += 2)
        expect((taken[i] as number) - (taken[i - 1] as number), `gap before range ${i / 2}`).toBeGreaterThan(gap);
      for (let i = 0; i < taken.length; i += 2) {
        expect(taken[i] as number).toBeLessThan(taken[i + 1] as number);
        // Each range starts and ends on an added entry (merging adds only the gaps between them).
        expect(added.has(taken[i] as number) && added.has((taken[i + 1] as number) - 1)).toBe(true);
      }
    }
  });
});
