/**
 * bench/suite/paging-trace.ts: the offline policies the policy-quality figure measures the residency
 * manager against (Belady's MIN and LRU), on hand-made traces whose answers are worked out in the
 * comments, and the camera-walk trace generator's promises (deterministic per seed, the working set
 * the requested multiple of the budget, every frame within the budget).
 */
import { describe, expect, test } from 'vitest';
import {
  beladyMin,
  frameBytes,
  generateCameraTrace,
  lru,
  workingSetBytes,
  type Trace,
} from '../../../../bench/suite/paging-trace.js';
import { TILE_SIZE } from '../../../../src/index.js';
import { Random } from '../../../../src/validate/random.js';

/** Single-object frames: the classic one-request-at-a-time trace. */
const sequence = (sizes: number[], ids: number[]): Trace => ({ sizes, frames: ids.map((id) => [id]) });

describe('beladyMin and lru on hand-made traces', () => {
  test('when everything fits, both page each object in once (cold misses only) and never out', () => {
    const trace: Trace = { sizes: [1, 2, 3], frames: [[0], [1], [2], [0, 1, 2], [1], [2, 0]] };
    for (const policy of [beladyMin, lru]) {
      expect(policy(trace, 6)).toEqual({
        pagedInBytes: 6,
        pagedOutBytes: 0,
        pageIns: 3,
        evictions: 0,
        overBudgetFrames: 0,
      });
    }
  });

  test('a cycle one larger than the budget: LRU misses every time, MIN keeps what comes back soonest', () => {
    // Unit sizes, budget 2, A B C A B C.
    // LRU: each access evicts exactly the object needed next: 6 misses, 4 evictions.
    // MIN: misses A, B, C (evicts B, used after A), hits A, misses B (evicts A, never used again),
    // hits C: 4 misses, 2 evictions. For unit sizes MIN is the optimum.
    const trace = sequence([1, 1, 1], [0, 1, 2, 0, 1, 2]);
    expect(lru(trace, 2)).toEqual({ pagedInBytes: 6, pagedOutBytes: 4, pageIns: 6, evictions: 4, overBudgetFrames: 0 });
    expect(beladyMin(trace, 2)).toEqual({
      pagedInBytes: 4,
      pagedOutBytes: 2,
      pageIns: 4,
      evictions: 2,
      overBudgetFrames: 0,
    });
  });

  test('objects a frame uses together are never evicted for each other', () => {
    // Unit sizes, frames [0, 1], [2, 3], [1, 2]. Budget 3: [2, 3] needs 2 with 2 resident, so one of
    // 0 and 1 goes (never 2 or 3, the frame's own): MIN evicts 0 (never used again), LRU evicts 0
    // (touched first in its frame), and [1, 2] hits.
    const trace: Trace = {
      sizes: [1, 1, 1, 1],
      frames: [
        [0, 1],
        [2, 3],
        [1, 2],
      ],
    };
    expect(beladyMin(trace, 3)).toMatchObject({ pagedInBytes: 4, evictions: 1 });
    expect(lru(trace, 3)).toMatchObject({ pagedInBytes: 4, evictions: 1 });
    // Budget 2: [2, 3] evicts both 0 and 1, then [1, 2] pages 1 back in, evicting 3.
    expect(beladyMin(trace, 2)).toEqual({
      pagedInBytes: 5,
      pagedOutBytes: 3,
      pageIns: 5,
      evictions: 3,
      overBudgetFrames: 0,
    });
  });

  test('variable sizes: a large object evicts as many small ones as it needs, larger and lower ids first among ties', () => {
    // Budget 4; sizes 1, 1, 1, 3; frames 0 1 2 3. Frame 3 needs 3 with 3 resident: usage must fall to 1,
    // so two of the (never used again, equal-sized) small ones go: ids 0 and 1.
    const trace = sequence([1, 1, 1, 3], [0, 1, 2, 3]);
    expect(beladyMin(trace, 4)).toEqual({
      pagedInBytes: 6,
      pagedOutBytes: 2,
      pageIns: 4,
      evictions: 2,
      overBudgetFrames: 0,
    });
    expect(lru(trace, 4)).toEqual({ pagedInBytes: 6, pagedOutBytes: 2, pageIns: 4, evictions: 2, overBudgetFrames: 0 });
  });

  test('variable sizes: MIN (farthest next use) is a heuristic, and can page more than a size-aware choice', () => {
    // Budget 4; B (id 0) is 3 bytes, s (1) and x (2) are 1. Frames: B, s, x, s, B.
    // Frame x needs 1 with B + s = 4 resident. MIN evicts B (next use frame 4, after s's frame 3);
    // frame 3 hits s; frame 4 pages B (3) back in, evicting s (tie with x, lower id): 3+1+1+3 = 8.
    // Evicting s instead costs only s's 1 byte again at frame 3 (evicting x, never used again):
    // 3+1+1+1 = 6. So for variable sizes MIN is no lower bound, only the standard heuristic.
    const trace = sequence([3, 1, 1], [0, 1, 2, 1, 0]);
    expect(beladyMin(trace, 4)).toMatchObject({ pagedInBytes: 8, evictions: 2 });
    // LRU makes the same choice here (B is the least recently used at frame 2).
    expect(lru(trace, 4)).toMatchObject({ pagedInBytes: 8 });
  });

  test('a frame larger than the budget runs over it, after evicting everything else', () => {
    const trace: Trace = { sizes: [2, 2, 2], frames: [[0], [1, 2]] };
    for (const policy of [beladyMin, lru]) {
      expect(policy(trace, 3)).toEqual({
        pagedInBytes: 6,
        pagedOutBytes: 2,
        pageIns: 3,
        evictions: 1,
        overBudgetFrames: 1,
      });
    }
  });

  test('on random unit-size traces MIN never pages more than LRU', () => {
    const random = new Random(12345);
    for (let round = 0; round < 50; round++) {
      const objects = 3 + random.below(6);
      const trace = sequence(
        Array<number>(objects).fill(1),
        Array.from({ length: 40 }, () => random.below(objects)),
      );
      const budget = 1 + random.below(objects);
      expect(beladyMin(trace, budget).pagedInBytes).toBeLessThanOrEqual(lru(trace, budget).pagedInBytes);
      expect(beladyMin(trace, budget).pagedInBytes).toBeGreaterThanOrEqual(workingSetBytes(trace));
    }
  });
});

describe('generateCameraTrace', () => {
  const MIB = 2 ** 20;
  const options = { seed: 7, frames: 300, budgetBytes: 8 * MIB, workingSetMultiple: 2 };

  test('is deterministic per seed', () => {
    expect(generateCameraTrace(options)).toEqual(generateCameraTrace(options));
    expect(generateCameraTrace({ ...options, seed: 8 }).frames).not.toEqual(generateCameraTrace(options).frames);
  });

  for (const multiple of [2, 4]) {
    test(`touches ${multiple}× the budget, and every frame fits in it`, () => {
      for (const seed of [1, 2, 3]) {
        const trace = generateCameraTrace({ ...options, seed, workingSetMultiple: multiple });
        expect(trace.frames).toHaveLength(options.frames);
        // Every heap comes into view during the first walk, so the working set is every heap: the
        // requested multiple of the budget, to the page.
        expect(workingSetBytes(trace)).toBe(trace.sizes.reduce((sum, size) => sum + size, 0));
        expect(Math.abs(workingSetBytes(trace) - multiple * options.budgetBytes)).toBeLessThan(TILE_SIZE);
        for (let frame = 0; frame < trace.frames.length; frame++) {
          expect(frameBytes(trace, frame)).toBeLessThanOrEqual(options.budgetBytes);
          const ids = trace.frames[frame] ?? [];
          expect(new Set(ids).size).toBe(ids.length);
          expect(ids.length).toBeGreaterThan(0);
        }
        for (const size of trace.sizes) {
          expect(size % TILE_SIZE).toBe(0);
          expect(size).toBeGreaterThanOrEqual(TILE_SIZE);
          expect(size).toBeLessThanOrEqual(8 * TILE_SIZE);
        }
        // A trace worth measuring: the working set exceeds the budget, so even MIN pages some heaps
        // more than once; and frames overlap, so it pages far less than reloading every frame would.
        const min = beladyMin(trace, options.budgetBytes);
        const reloadEveryFrame = trace.frames.reduce((sum, _, frame) => sum + frameBytes(trace, frame), 0);
        expect(min.pagedInBytes).toBeGreaterThan(workingSetBytes(trace));
        expect(min.pagedInBytes).toBeLessThan(reloadEveryFrame / 4);
      }
    });
  }

  test('consecutive frames mostly share their heaps (the camera moves, it does not teleport)', () => {
    const trace = generateCameraTrace({ ...options, workingSetMultiple: 4 });
    let shared = 0;
    let total = 0;
    for (let frame = 1; frame < trace.frames.length; frame++) {
      const before = new Set(trace.frames[frame - 1]);
      const now = trace.frames[frame] ?? [];
      shared += now.filter((id) => before.has(id)).length;
      total += now.length;
    }
    expect(shared / total).toBeGreaterThan(0.7);
  });

  test('refuses options it cannot honour', () => {
    expect(() => generateCameraTrace({ ...options, frames: 3 })).toThrow(RangeError);
    expect(() => generateCameraTrace({ ...options, budgetBytes: 4 * TILE_SIZE })).toThrow(RangeError);
  });
});
