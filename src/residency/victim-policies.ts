/**
 * The residency manager's four victim policies, each a VictimQueue order over ObjectTable records
 * (policy-selector.ts picks one per segment by shadow caches). Within one residency priority:
 *
 *   RECENT     of the WINDOW least recently used, the one whose expected wait (ReusePredictor) divided
 *              by one plus its co-use with the batch is highest. Co-use: the batch's objects whose
 *              previous stretch of use overlapped the candidate's last stretch, i.e. were in use with
 *              it the last time it was (the affinity: what was used alongside the batch's
 *              objects is likely near what comes next, as a camera that returns to a place sees its
 *              neighbours again). Recency first, as LRU, with a few old candidates compared. On
 *              the policy figure's camera walk (seeds 1–15) the co-use divisor takes the manager
 *              from 0.994 to 0.989 of LRU's bytes at 4× the budget, its worst seed from 1.014 to 1.001.
 *   PREDICTED  the one the reuse predictor expects back last, over all candidates: for gaps of one
 *              length (a cyclic scan) that is the object used most recently, so a stable part of
 *              the ring stays resident instead of the part needed next (LRU's worst case); for
 *              heavy-tailed gaps, the oldest.
 *   FREQUENT   the fewest arrivals (first uses and returns after a gap, not uses in consecutive
 *              batches: a stretch of use is one arrival), each counted with weight 2^(-age /
 *              FREQUENCY_HALF_LIFE batches): LRFU's combined recency and frequency (Lee et al.,
 *              IEEE Trans. Computers 50(12), 2001), so popular sets stay resident through a pause.
 *   FAST_FREQUENT  the same count with a half-life of FAST_FREQUENCY_HALF_LIFE batches: after a
 *              shift of popularity (a new level section) FREQUENT keeps the old favourites for about
 *              its half-life, this one within a few dozen batches; in steady popularity it is the
 *              noisier count of the two, so the shadows follow it only while it pages less.
 *
 * Each decayed count is kept as a log2 key, key = log2(count at batch t) + t / half-life, which
 * orders objects as their counts at any common time would and never needs rescaling.
 *
 * Invariants: recordArrival is O(1) and allocates nothing (stamp calls it per arrival); the keys
 * are computed only when victims are chosen; every function here is deterministic.
 */
import {
  FAST_FREQUENCY,
  FREQUENCY,
  LAST_BATCH,
  MEAN_GAP,
  POLICY_RECORD,
  PREV_END,
  PREV_START,
  RECORD,
  STRETCH_START,
  USE_STAMP,
  type ObjectTable,
} from './object-table.js';
import type { ReusePredictor } from './reuse-predictor.js';
import { VictimQueue, WINDOW } from './victim-order.js';

export const RECENT = 0;
export const PREDICTED = 1;
export const FREQUENT = 2;
export const FAST_FREQUENT = 3;
export const POLICY_COUNT = 4;

/**
 * Batches for an arrival's weight to halve in FREQUENT. Measured on the policy figure (seeds 1–15,
 * with three policies): 300 and 1,000 page within 0.5 % of each other on every trace; 50 pages
 * 1–1.5 % fewer on the phase shift and 2.3 % more on popular sets at 2× the budget. A long memory
 * keeps a popular set's history over long pauses; FAST_FREQUENT covers a shift of popularity.
 */
export const FREQUENCY_HALF_LIFE = 1000;
/**
 * Batches for an arrival's weight to halve in FAST_FREQUENT. Measured on the policy figure (seeds
 * 1–15, bytes summed over the seeds, against the three policies without it): 50 pages 0.5 % fewer
 * on the phase shift at 2× the budget and 0.8 % fewer at 4×, 0.4 % more on popular sets at 4×,
 * the same elsewhere; 20–45 page within 0.5 % of 50 on the phase shift at 2×, but 20 pages 0.8 %
 * more at 4× and 30–35 0.3 % more on popular sets at 2×; 100 and 150 gain nothing at 2×.
 * Popularity learnt afresh is the limit on that trace: evicting the least popular set first with
 * its true popularity, and the shift known, pages 1.24× MIN at 2× (median of seeds 1–15); by the
 * arrivals counted from the shift on (FREQUENT reset exactly then, no shadows), 1.29×.
 */
export const FAST_FREQUENCY_HALF_LIFE = 50;

/**
 * Records an arrival of the object at `index` in `batch` (its first use, or a return after a gap),
 * its previous use having been in batch `last` (-1: none): the stretch fields and the decayed counts.
 */
export function recordArrival(policy: Float64Array, index: number, last: number, batch: number): void {
  const p = index * POLICY_RECORD;
  if (last >= 0) {
    policy[p + PREV_START] = policy[p + STRETCH_START] as number;
    policy[p + PREV_END] = last;
  }
  policy[p + STRETCH_START] = batch;
  policy[p + FREQUENCY] = counted(policy[p + FREQUENCY] as number, batch / FREQUENCY_HALF_LIFE);
  policy[p + FAST_FREQUENCY] = counted(policy[p + FAST_FREQUENCY] as number, batch / FAST_FREQUENCY_HALF_LIFE);
}

/** A count key with one arrival added at t (batches ÷ half-life). */
function counted(key: number, t: number): number {
  // count' = 1 + count × 2^(-Δt/h): in keys, t + log2(1 + 2^(key − t)); the first is t + 0.
  return t + Math.log2(1 + 2 ** (key - t));
}

/** The number of `sorted` (ascending) below `value` (orEqual: at most `value`). */
function countBelow(sorted: Float64Array, value: number, orEqual: boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const v = sorted[mid] as number;
    if (v < value || (orEqual && v === value)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Co-use with a batch: built from the batch's objects' previous stretches (those that had one), it
 * counts how many overlapped a given stretch. O(b log b) to build for b objects, O(log b) per count.
 */
export class CoUse {
  private readonly starts: Float64Array;
  private readonly ends: Float64Array;

  constructor(policy: Float64Array, members: Int32Array, count: number) {
    let n = 0;
    for (let j = 0; j < count; j++) if ((policy[(members[j] as number) * POLICY_RECORD + PREV_END] as number) >= 0) n++;
    this.starts = new Float64Array(n);
    this.ends = new Float64Array(n);
    n = 0;
    for (let j = 0; j < count; j++) {
      const p = (members[j] as number) * POLICY_RECORD;
      if ((policy[p + PREV_END] as number) < 0) continue;
      this.starts[n] = policy[p + PREV_START] as number;
      this.ends[n++] = policy[p + PREV_END] as number;
    }
    this.starts.sort();
    this.ends.sort();
  }

  /** Objects whose previous stretch overlapped batches [from, to]: begun by `to`, not ended before `from`. */
  overlapping(from: number, to: number): number {
    return countBelow(this.starts, to, true) - countBelow(this.ends, from, false);
  }
}

/** What the keys are computed from: the records, the predictor, the batch and its co-use. */
export interface PolicyContext {
  table: ObjectTable;
  predictor: ReusePredictor;
  batch: number;
  coUse: CoUse;
}

/** Batches until the object at `index` is expected back (ReusePredictor.expectedWait on its record). */
function expectedWait(context: PolicyContext, index: number): number {
  const at = index * RECORD;
  const data = context.table.data;
  return context.predictor.waitAt(data[at + LAST_BATCH] as number, data[at + MEAN_GAP] as number, context.batch);
}

/**
 * A VictimQueue of `policy` over the objects `candidates[0..count)` (ObjectTable indices) with
 * `priorities` (null: one priority); it returns positions into `candidates`.
 */
export function policyQueue(
  policy: number,
  candidates: Int32Array,
  count: number,
  priorities: Float64Array | null,
  context: PolicyContext,
): VictimQueue {
  const data = context.table.data;
  const stamps = new Float64Array(count);
  for (let i = 0; i < count; i++) stamps[i] = data[(candidates[i] as number) * RECORD + USE_STAMP] as number;
  if (policy === RECENT) {
    const state = context.table.policy;
    const score = (position: number): number => {
      const index = candidates[position] as number;
      const from = state[index * POLICY_RECORD + STRETCH_START] as number;
      return (
        expectedWait(context, index) /
        (1 + context.coUse.overlapping(from, data[index * RECORD + LAST_BATCH] as number))
      );
    };
    return new VictimQueue(count, priorities, stamps, stamps, WINDOW, score);
  }
  const keys = new Float64Array(count);
  if (policy === PREDICTED) {
    for (let i = 0; i < count; i++) keys[i] = -expectedWait(context, candidates[i] as number);
  } else {
    const state = context.table.policy;
    const field = policy === FREQUENT ? FREQUENCY : FAST_FREQUENCY;
    for (let i = 0; i < count; i++) keys[i] = state[(candidates[i] as number) * POLICY_RECORD + field] as number;
  }
  return new VictimQueue(count, priorities, keys, stamps);
}
