/**
 * The residency manager's three victim policies, each a VictimQueue order over ObjectTable records
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
 *   FREQUENT   the lowest arrival rate (arrivals: first uses and returns after a gap, not uses in
 *              consecutive batches, a stretch of use being one arrival), per batch tracked and not in
 *              use, each weighted 2^(-age / HALF_LIFE batches): LRFU's combined recency and frequency
 *              (Lee et al., IEEE Trans. Computers 50(12), 2001), so popular sets stay resident
 *              through a pause, counted since the last shift of popularity the detector found
 *              (popularity.ts).
 * A fourth, FAST_FREQUENT (the arrival count with a half-life of 50 batches, for a shift of
 * popularity), was dropped when FREQUENT learnt to find shifts itself: on the policy figure (seeds
 * 1–15, bytes summed) the shadows without it page 0.3–0.4 % fewer on popular sets and the phase
 * shift at 2× the budget (early on they followed it for hundreds of batches) and the same elsewhere.
 *
 * Invariants: recordArrival is O(1) and allocates nothing (stamp calls it per arrival); the keys
 * are computed only when victims are chosen; every function here is deterministic.
 */
import {
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
import type { Popularity } from './popularity.js';
import type { ReusePredictor } from './reuse-predictor.js';
import { VictimQueue, WINDOW } from './victim-order.js';

export const RECENT = 0;
export const PREDICTED = 1;
export const FREQUENT = 2;
export const POLICY_COUNT = 3;

/**
 * Records an arrival of the object at `index` in `batch` (its first use, or a return after a gap),
 * its previous use having been in batch `last` (-1: none): the stretch fields (call
 * Popularity.arrival first: it reads the stretch that ended).
 */
export function recordArrival(policy: Float64Array, index: number, last: number, batch: number): void {
  const p = index * POLICY_RECORD;
  if (last >= 0) {
    policy[p + PREV_START] = policy[p + STRETCH_START] as number;
    policy[p + PREV_END] = last;
  }
  policy[p + STRETCH_START] = batch;
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

/** What the keys are computed from: the records, the predictor, the popularity, the batch and its co-use. */
export interface PolicyContext {
  table: ObjectTable;
  predictor: ReusePredictor;
  popularity: Popularity;
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
    const { popularity, batch } = context;
    const state = context.table.policy;
    for (let i = 0; i < count; i++) {
      const index = candidates[i] as number;
      keys[i] = popularity.rateKey(state, index, data[index * RECORD + LAST_BATCH] as number, batch - 1);
    }
  }
  return new VictimQueue(count, priorities, keys, stamps);
}
