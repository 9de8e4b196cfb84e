/**
 * VictimQueue (src/residency/victim-order.ts) and ReusePredictor (reuse-predictor.ts): the manager's
 * eviction order, on hand-made candidates whose answers are worked out in the comments, and a
 * heap-against-sort check on seeded random ones.
 */
import { describe, expect, test } from 'vitest';
import {
  MIN_OBSERVATIONS,
  ReusePredictor,
  STALE,
  type ReuseRecord,
} from '../../../../src/residency/reuse-predictor.js';
import { VictimQueue, WINDOW } from '../../../../src/residency/victim-order.js';
import { random } from '../../../../bench/suite/paging-trace.js';

interface Candidate {
  name: string;
  stamp: number;
  key: number;
  score: number;
  priority: number;
}

const NORMAL = 0x78000000;
const candidate = (name: string, stamp: number, key = 0, score = 0, priority = NORMAL): Candidate => ({
  name,
  stamp,
  key,
  score,
  priority,
});

/** Every victim of a queue over `candidates`, by name. */
const drain = (candidates: Candidate[], width = 1, withPriorities = true): string[] => {
  const queue = new VictimQueue(
    candidates.length,
    withPriorities ? Float64Array.from(candidates, (c) => c.priority) : null,
    Float64Array.from(candidates, (c) => c.key),
    Float64Array.from(candidates, (c) => c.stamp),
    width,
    (position) => (candidates[position] as Candidate).score,
  );
  const order: string[] = [];
  for (let at = queue.next(); at >= 0; at = queue.next()) order.push((candidates[at] as Candidate).name);
  return order;
};

describe('VictimQueue', () => {
  test('equal keys: plain LRU order (least recently used first)', () => {
    expect(drain([candidate('c', 3), candidate('a', 1), candidate('d', 4), candidate('b', 2)])).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
  });

  test('lowest key first; equal keys by LRU stamp', () => {
    // keys: a 5, b 1, c 1, d -2, e 9 → d, then b and c (b older), then a, then e.
    expect(
      drain([
        candidate('a', 1, 5),
        candidate('b', 2, 1),
        candidate('c', 3, 1),
        candidate('d', 4, -2),
        candidate('e', 5, 9),
      ]),
    ).toEqual(['d', 'b', 'c', 'a', 'e']);
  });

  test(`with a window of ${WINDOW}: of the next ${WINDOW} in key order, the highest score goes first`, () => {
    // Key order a b c d e (by stamp); scores 1 5 2 9 100. Window {a,b,c,d}: d (9). Then {a,b,c,e}:
    // e (100). Then {a,b,c}: b (5), then c (2), then a.
    const order = drain(
      [
        candidate('a', 1, 0, 1),
        candidate('b', 2, 0, 5),
        candidate('c', 3, 0, 2),
        candidate('d', 4, 0, 9),
        candidate('e', 5, 0, 100),
      ],
      WINDOW,
    );
    expect(order).toEqual(['d', 'e', 'b', 'c', 'a']);
    // Equal scores: the first in key order.
    expect(drain([candidate('a', 2, 0, 7), candidate('b', 1, 0, 7)], WINDOW)).toEqual(['b', 'a']);
  });

  test('a victim is never far from key order: the k-th is among the first k + WINDOW - 1', () => {
    const candidates = Array.from({ length: 40 }, (_, i) => candidate(`o${i}`, i, 0, (i * 7919) % 97));
    drain(candidates, WINDOW).forEach((name, k) => expect(Number(name.slice(1))).toBeLessThan(k + WINDOW));
  });

  test('lower residency priority first, whatever the key, the stamp or the score; the policy within a priority', () => {
    const candidates = [
      candidate('high-old', 1, -100, 1000, 0xa0010000),
      candidate('normal-a', 2, 3, 1),
      candidate('min-new', 9, 50, 0, 0x28000000),
      candidate('normal-b', 3, 1, 50),
      candidate('min-old', 4, 60, 0, 0x28000000),
    ];
    // By key within a priority: min-new (50) before min-old (60); normal-b (1) before normal-a (3).
    expect(drain(candidates)).toEqual(['min-new', 'min-old', 'normal-b', 'normal-a', 'high-old']);
    // With a window the priorities still come first, and the window never mixes them.
    expect(drain(candidates, WINDOW)).toEqual(['min-new', 'min-old', 'normal-b', 'normal-a', 'high-old']);
    // Without priorities: key order.
    expect(drain(candidates, 1, false)).toEqual(['high-old', 'normal-b', 'normal-a', 'min-new', 'min-old']);
  });

  test('the heap gives what a full sort by (priority, key, stamp) gives, on seeded random candidates', () => {
    const rng = random(7);
    for (let round = 0; round < 20; round++) {
      const n = Math.floor(rng() * 200);
      const candidates = Array.from({ length: n }, (_, i) =>
        candidate(`o${i}`, i + 1, Math.floor(rng() * 10), 0, rng() < 0.2 ? 0x28000000 : NORMAL),
      );
      const sorted = [...candidates]
        .sort((a, b) => a.priority - b.priority || a.key - b.key || a.stamp - b.stamp)
        .map((c) => c.name);
      expect(drain(candidates)).toEqual(sorted);
    }
  });

  test('no candidates: nothing, at once and again', () => {
    const queue = new VictimQueue(0, null, new Float64Array(0), new Float64Array(0));
    expect([queue.next(), queue.next()]).toEqual([-1, -1]);
    expect(drain([], WINDOW)).toEqual([]);
  });
});

describe('ReusePredictor', () => {
  const record = (): ReuseRecord => ({ lastBatch: -1, meanGap: 0 });

  test('uses in consecutive batches are one stretch: no gap, no mean', () => {
    const predictor = new ReusePredictor();
    const r = record();
    for (let batch = 1; batch <= 10; batch++) predictor.used(r, batch);
    expect(r).toEqual({ lastBatch: 10, meanGap: 0 });
  });

  test('the mean gap follows the gaps (a moving average)', () => {
    const predictor = new ReusePredictor();
    const r = record();
    predictor.used(r, 1);
    predictor.used(r, 11);
    expect(r.meanGap).toBe(10);
    predictor.used(r, 31);
    // 10 + 0.3 × (20 − 10)
    expect(r.meanGap).toBeCloseTo(13, 10);
  });

  test(`with fewer than ${MIN_OBSERVATIONS} gaps seen every object is stale: LRU order by age`, () => {
    const predictor = new ReusePredictor();
    const [a, b] = [record(), record()];
    predictor.used(a, 1);
    predictor.used(a, 5);
    predictor.used(b, 6);
    expect(predictor.expectedWait(a, 10)).toBe(STALE + 5);
    expect(predictor.expectedWait(b, 10)).toBe(STALE + 4);
    expect(predictor.expectedWait(record(), 10)).toBeGreaterThan(STALE);
    // waitAt is expectedWait on the record's two numbers.
    expect(predictor.waitAt(a.lastBatch, a.meanGap, 10)).toBe(STALE + 5);
  });

  test('periodic reuse (a cyclic scan): the object due soonest is expected back first, past the period it is stale', () => {
    const predictor = new ReusePredictor();
    // 40 objects each used every 40 batches, for 5 laps: every gap is 40, every normalized gap 1.
    const objects = Array.from({ length: 40 }, record);
    for (let batch = 0; batch < 200; batch++) predictor.used(objects[batch % 40] as ReuseRecord, batch);
    const now = 200;
    // Object 0 was last used at batch 160 (age 40: due now), object 39 at 199 (age 1: due in 39).
    const soon = predictor.expectedWait(objects[1] as ReuseRecord, now);
    const late = predictor.expectedWait(objects[39] as ReuseRecord, now);
    expect(soon).toBeLessThan(late);
    expect(late).toBeLessThan(STALE);
    // An object idle for three periods is past every gap seen.
    const idle = record();
    predictor.used(idle, 0);
    predictor.used(idle, 40);
    expect(predictor.expectedWait(idle, 40 + 3 * 40)).toBeGreaterThan(STALE);
  });
});
