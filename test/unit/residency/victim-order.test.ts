/**
 * VictimQueue (src/residency/victim-order.ts) and ReusePredictor (reuse-predictor.ts): the manager's
 * eviction order, on hand-made candidates whose answers are worked out in the comments.
 */
import { describe, expect, test } from 'vitest';
import { MIN_OBSERVATIONS, ReusePredictor, STALE, type ReuseRecord } from '../../../src/residency/reuse-predictor.js';
import { VictimQueue, WINDOW } from '../../../src/residency/victim-order.js';

interface Candidate {
  name: string;
  useStamp: number;
  priority: number;
  wait: number;
}

const drain = (candidates: Candidate[]): string[] => {
  const queue = new VictimQueue(candidates, (c) => c.priority, (c) => c.wait);
  const order: string[] = [];
  for (let c = queue.next(); c; c = queue.next()) order.push(c.name);
  return order;
};

const candidate = (name: string, useStamp: number, wait = 0, priority = 0x78000000): Candidate => ({ name, useStamp, priority, wait });

describe('VictimQueue', () => {
  test('equal waits: plain LRU order (least recently used first)', () => {
    expect(drain([candidate('c', 3), candidate('a', 1), candidate('d', 4), candidate('b', 2)])).toEqual(['a', 'b', 'c', 'd']);
  });

  test(`of the ${WINDOW} least recently used, the one expected back last goes first`, () => {
    // LRU order a b c d e; waits 1 5 2 9 100. Window {a,b,c,d}: d (9). Then {a,b,c,e}: e (100).
    // Then {a,b,c}: b (5), then c (2), then a.
    const order = drain([candidate('a', 1, 1), candidate('b', 2, 5), candidate('c', 3, 2), candidate('d', 4, 9), candidate('e', 5, 100)]);
    expect(order).toEqual(['d', 'e', 'b', 'c', 'a']);
  });

  test('a victim is never far from LRU: the k-th is among the first k + WINDOW - 1 in LRU order', () => {
    const candidates = Array.from({ length: 40 }, (_, i) => candidate(`o${i}`, i, (i * 7919) % 97));
    drain(candidates).forEach((name, k) => expect(Number(name.slice(1))).toBeLessThan(k + WINDOW));
  });

  test('lower residency priority first, whatever the recency or the wait; the policy within a priority', () => {
    const order = drain([
      candidate('high-old', 1, 1000, 0xa0010000),
      candidate('normal-a', 2, 1),
      candidate('min-new', 9, 0, 0x28000000),
      candidate('normal-b', 3, 50),
      candidate('min-old', 4, 0, 0x28000000),
    ]);
    expect(order).toEqual(['min-old', 'min-new', 'normal-b', 'normal-a', 'high-old']);
  });

  test('no candidates: nothing', () => {
    expect(drain([])).toEqual([]);
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
