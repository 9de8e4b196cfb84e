/**
 * The popularity estimate and its shift detector (src/residency/popularity.ts), without a GPU: the
 * key arithmetic against plain sums, the rate's division by idle batches (an object in use for long
 * stretches is not ranked below one with as many arrivals and short stretches), epochs read as
 * empty after a shift, and the CUSUM on drawn streams: no shift while popularity holds, one soon
 * after it is reversed.
 */
import { describe, expect, test } from 'vitest';
import { EPOCH, FREQUENCY, ObjectTable, POLICY_RECORD, STRETCH_START } from '../../../../src/residency/object-table.js';
import { HALF_LIFE, Popularity, addKeys, batchesKey, subtractKeys } from '../../../../src/residency/popularity.js';
import { recordArrival } from '../../../../src/residency/victim-policies.js';
import { random } from '../../../../bench/suite/paging-trace.js';

/** Drives a Popularity as Gathered.stamp and the manager do: per batch its arrivals, then batchDone. */
class Rig {
  readonly table = new ObjectTable();
  readonly popularity = new Popularity();
  readonly last: number[] = [];
  /** The batches that started an epoch. */
  readonly shifts: number[] = [];
  batch = 0;

  constructor(objects: number) {
    for (let i = 0; i < objects; i++) {
      this.popularity.track(this.table.policy, this.table.alloc(1, false, false), 1);
      this.last.push(-1);
    }
  }

  run(ids: readonly number[]): void {
    const batch = ++this.batch;
    for (const id of ids) {
      const last = this.last[id] as number;
      if (last < batch - 1) {
        this.popularity.arrival(this.table.policy, id, last, batch);
        recordArrival(this.table.policy, id, last, batch);
      }
      this.last[id] = batch;
    }
    this.popularity.batchDone(batch, ids.length);
    if (this.popularity.shifts > this.shifts.length) this.shifts.push(batch);
  }

  /** log2 of `id`'s rate after the last batch. */
  rate(id: number): number {
    return this.popularity.rateKey(this.table.policy, id, this.last[id] as number, this.batch);
  }
}

describe('keys', () => {
  test('addKeys, subtractKeys and batchesKey are log2 of the sums they stand for', () => {
    expect(addKeys(3, 1)).toBeCloseTo(Math.log2(8 + 2), 12);
    expect(addKeys(-Infinity, 2)).toBe(2);
    expect(subtractKeys(3, 1)).toBeCloseTo(Math.log2(8 - 2), 12);
    expect(subtractKeys(1, 3)).toBe(-Infinity);
    expect(subtractKeys(2, -Infinity)).toBe(2);
    for (const [from, to] of [
      [0, 0],
      [5, 17],
      [900, 4100],
    ] as const) {
      let sum = 0;
      for (let t = from; t <= to; t++) sum += 2 ** (t / HALF_LIFE);
      expect(batchesKey(from, to)).toBeCloseTo(Math.log2(sum), 9);
    }
    expect(batchesKey(4, 3)).toBe(-Infinity);
  });
});

describe('Popularity.rateKey', () => {
  test('arrivals per idle batch: a long stretch in use does not count against an object', () => {
    const rig = new Rig(3);
    // Objects 0 and 1 both arrive every 10 batches; 0 stays in use 6 batches each time, 1 one batch.
    // Object 2 arrives as often as 1 but was idle more: it was in use one batch as well, every 15.
    for (let b = 1; b <= 300; b++) {
      const ids: number[] = [];
      if (b % 10 < 6) ids.push(0);
      if (b % 10 === 0) ids.push(1);
      if (b % 15 === 0) ids.push(2);
      rig.run(ids);
    }
    // 0: 30 arrivals over ~120 idle batches; 1: 30 over ~270; 2: 20 over ~280.
    expect(rig.rate(0)).toBeGreaterThan(rig.rate(1) + 1);
    expect(rig.rate(1)).toBeGreaterThan(rig.rate(2));
    // Near the plain ratio: log2(30 / 120) = -2, the prior and the decay moving it a little.
    expect(rig.rate(0)).toBeCloseTo(-2, 0);
  });

  test('an object never used ranks at the mean rate; its count from an earlier epoch reads as empty', () => {
    const rig = new Rig(3);
    for (let b = 1; b <= 50; b++) rig.run(b % 2 === 0 ? [0] : [1]);
    const table = rig.table.policy;
    // Object 2 never arrived: its rate is the prior's, between 0's and nothing.
    expect(rig.rate(2)).toBeLessThan(rig.rate(0));
    const counted = rig.rate(0);
    table[0 * POLICY_RECORD + EPOCH] = -1;
    expect(rig.rate(0)).toBeLessThan(counted);
    expect(table[0 * POLICY_RECORD + FREQUENCY]).toBeGreaterThan(0);
    expect(table[0 * POLICY_RECORD + STRETCH_START]).toBe(50);
  });
});

describe('the shift detector', () => {
  /** Sets of 4 objects, 2 held at a time, one redrawn each batch by Zipf weights over the ranking. */
  function stream(seed: number, batches: number, reverseAt: number): Rig {
    const groups = 12;
    const rng = random(seed);
    const weights = Array.from({ length: groups }, (_, rank) => 1 / (rank + 1));
    const total = weights.reduce((sum, w) => sum + w, 0);
    const draw = (held: number[], reversed: boolean): number => {
      for (;;) {
        let pick = rng() * total;
        let rank = 0;
        while (rank < groups - 1 && pick >= (weights[rank] as number)) pick -= weights[rank++] as number;
        const group = reversed ? groups - 1 - rank : rank;
        if (!held.includes(group)) return group;
      }
    };
    const rig = new Rig(groups * 4);
    const held = [draw([], false)];
    held.push(draw(held, false));
    for (let b = 0; b < batches; b++) {
      held[Math.floor(rng() * held.length)] = draw(held, b >= reverseAt);
      rig.run(held.flatMap((g) => [4 * g, 4 * g + 1, 4 * g + 2, 4 * g + 3]).sort((x, y) => x - y));
    }
    return rig;
  }

  // A false shift is possible (a run of arrivals of rarely drawn sets), and costs the estimate a
  // relearning; measured here: one in 6 × 1,200 batches of steady popularity (seed 2, batch 656).
  test('finds a shift rarely while the popularity holds', () => {
    const shifts = [1, 2, 3, 4, 5, 6].flatMap((seed) => stream(seed, 1200, Infinity).shifts);
    expect(shifts.length).toBeLessThanOrEqual(1);
  });

  test('finds the reversal within a few dozen batches, and counts from there', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const rig = stream(seed, 1200, 600);
      // (Measured: 609 to 617; seed 1 finds a false one at 1162 as well.)
      const found = rig.shifts.find((b) => b > 600) as number;
      expect(found).toBeGreaterThan(600);
      expect(found).toBeLessThan(650);
      expect(rig.shifts.filter((b) => b <= 600)).toEqual([]);
      // After the reversal the formerly least popular set (11) outranks the formerly most popular (0).
      expect(rig.rate(44)).toBeGreaterThan(rig.rate(0));
    }
  });
});
