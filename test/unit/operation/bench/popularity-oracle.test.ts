/**
 * The popularity oracle (bench/suite/popularity-oracle.ts) on hand-made traces, where which heap it
 * must evict follows from the weights, and the popularity the popular-sets generators report
 * (bench/suite/synthetic-traces.ts), checked against the frames they generate.
 */
import { describe, expect, test } from 'vitest';
import { beladyMin, lru, type Trace } from '../../../../bench/suite/paging-trace.js';
import { popularityOracle } from '../../../../bench/suite/popularity-oracle.js';
import {
  GROUP_SIZE,
  generatePhaseShiftTrace,
  generatePopularSetsTrace,
  type Popularity,
} from '../../../../bench/suite/synthetic-traces.js';
import { TILE_SIZE } from '../../../../src/index.js';

const single = (weights: number[], fromFrame = 0): Popularity['phases'][number] => ({ fromFrame, weights });

describe('popularityOracle on hand-made traces', () => {
  // Unit sizes, one heap per set, budget 2: frames 0, 1, then 2 needs room.
  const trace: Trace = { sizes: [1, 1, 1], frames: [[0], [1], [2], [0], [1]] };

  test('evicts the heap of the least popular set, whatever its recency', () => {
    // Set 0 (used first) is the most popular: LRU evicts it for 2, the oracle evicts 1.
    const popularity: Popularity = { groupSize: 1, phases: [single([10, 1, 5])] };
    const oracle = popularityOracle(trace, popularity, 2);
    // 0, 1 miss; 2 evicts 1; 0 hits; 1 misses and evicts 2 (weight 5 < 10).
    expect(oracle).toEqual({ pagedInBytes: 4, pagedOutBytes: 2, pageIns: 4, evictions: 2, overBudgetFrames: 0 });
    expect(lru(trace, 2).pagedInBytes).toBe(5);
  });

  test('after a shift it decides by the new weights from the shift frame on', () => {
    // Frames 0, 1, 2, 1, 2; frame 2 is the shift, after which set 0 is the least popular.
    const shifting: Trace = { sizes: [1, 1, 1], frames: [[0], [1], [2], [1], [2]] };
    const before = single([10, 1, 5]);
    // With the shift: 2 evicts 0 (now weight 1), then 1 and 2 hit.
    expect(popularityOracle(shifting, { groupSize: 1, phases: [before, single([1, 10, 5], 2)] }, 2)).toEqual({
      pagedInBytes: 3,
      pagedOutBytes: 1,
      pageIns: 3,
      evictions: 1,
      overBudgetFrames: 0,
    });
    // Without it: 2 evicts 1, 1 evicts 2 (5 < 10), 2 evicts 1: five page-ins.
    expect(popularityOracle(shifting, { groupSize: 1, phases: [before] }, 2).pagedInBytes).toBe(5);
  });

  test('among heaps of equal weight, the least recently used goes first', () => {
    // Equal weights; frames 1, 0, 2, 1 under a budget of 2. At frame 2 the least recently used is
    // 1 (a lowest-id rule would evict 0): 1 then misses at frame 3 and evicts 0, four page-ins as
    // LRU; evicting 0 instead would let 1 hit (three).
    const trace: Trace = { sizes: [1, 1, 1], frames: [[1], [0], [2], [1]] };
    const popularity: Popularity = { groupSize: 1, phases: [single([1, 1, 1])] };
    expect(popularityOracle(trace, popularity, 2)).toEqual({
      pagedInBytes: 4,
      pagedOutBytes: 2,
      pageIns: 4,
      evictions: 2,
      overBudgetFrames: 0,
    });
    expect(popularityOracle(trace, popularity, 2)).toEqual(lru(trace, 2));
    // Grouped heaps tie by set too: two sets of two heaps behave as LRU over sets.
    const grouped: Trace = {
      sizes: [1, 1, 1, 1],
      frames: [
        [0, 1],
        [2, 3],
        [0, 1],
        [2, 3],
      ],
    };
    expect(popularityOracle(grouped, { groupSize: 2, phases: [single([1, 1])] }, 3)).toEqual(lru(grouped, 3));
  });

  test('refuses a popularity it cannot read', () => {
    expect(() => popularityOracle(trace, { groupSize: 0, phases: [single([1])] }, 2)).toThrow(/groupSize/);
    expect(() => popularityOracle(trace, { groupSize: 1, phases: [] }, 2)).toThrow(/frame 0/);
    expect(() => popularityOracle(trace, { groupSize: 1, phases: [single([1], 1)] }, 2)).toThrow(/frame 0/);
  });
});

describe('the popularity the popular-sets traces report', () => {
  const options = {
    seed: 3,
    frames: 400,
    budgetBytes: 128 * TILE_SIZE,
    workingSetMultiple: 2,
    minHeapBytes: TILE_SIZE,
    maxHeapBytes: 8 * TILE_SIZE,
  };

  test('popular sets: one phase; the most drawn sets are the heaviest', () => {
    const trace = generatePopularSetsTrace(options);
    const popularity = trace.popularity as Popularity;
    expect(popularity.groupSize).toBe(GROUP_SIZE);
    expect(popularity.phases.map((p) => p.fromFrame)).toEqual([0]);
    const weights = popularity.phases[0]?.weights ?? [];
    expect(weights).toHaveLength(trace.sizes.length / GROUP_SIZE);
    // How often each set enters a frame: the heaviest set enters more often than the lightest.
    const entries = new Array<number>(weights.length).fill(0);
    trace.frames.forEach((ids, frame) => {
      const before = new Set((trace.frames[frame - 1] ?? []).map((id) => Math.floor(id / GROUP_SIZE)));
      for (const set of new Set(ids.map((id) => Math.floor(id / GROUP_SIZE))))
        if (!before.has(set)) entries[set] = (entries[set] ?? 0) + 1;
    });
    const heaviest = weights.indexOf(Math.max(...weights));
    const lightest = weights.indexOf(Math.min(...weights));
    expect(entries[heaviest]).toBeGreaterThan(entries[lightest] as number);
  });

  test('phase shift: a second phase at the middle frame, with the same weights reassigned to other sets', () => {
    const trace = generatePhaseShiftTrace(options);
    const [first, second] = (trace.popularity as Popularity).phases;
    expect([first?.fromFrame, second?.fromFrame]).toEqual([0, options.frames / 2]);
    expect([...(second?.weights ?? [])].sort()).toEqual([...(first?.weights ?? [])].sort());
    expect(second?.weights).not.toEqual(first?.weights);
  });

  test('the oracle pages no more than LRU and no less than MIN on these traces (median of seeds)', () => {
    for (const generate of [generatePopularSetsTrace, generatePhaseShiftTrace]) {
      const bytes = { oracle: [] as number[], lru: [] as number[], min: [] as number[] };
      for (const seed of [1, 2, 3, 4, 5]) {
        const trace = generate({ ...options, seed });
        bytes.oracle.push(popularityOracle(trace, trace.popularity as Popularity, options.budgetBytes).pagedInBytes);
        bytes.lru.push(lru(trace, options.budgetBytes).pagedInBytes);
        bytes.min.push(beladyMin(trace, options.budgetBytes).pagedInBytes);
      }
      const median = (values: number[]): number => [...values].sort((a, b) => a - b)[2] as number;
      expect(median(bytes.oracle)).toBeLessThan(median(bytes.lru));
      expect(median(bytes.oracle)).toBeGreaterThanOrEqual(median(bytes.min));
    }
  });
});
