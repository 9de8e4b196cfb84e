/**
 * Popularity: the FREQUENT victim policy's estimate of how often each object comes back, and the
 * detector that tells it when popularity has shifted (a new level section: what was popular is not).
 *
 * The estimate is an object's arrival rate: its arrivals (first uses and returns after a gap, as
 * victim-policies.ts counts them) per batch it was tracked and not in use, each arrival and each idle
 * batch weighted 2^(-age / HALF_LIFE) (LRFU's decay, Lee et al. 2001), with PRIOR_ARRIVALS
 * arrivals at the mean rate added so that a few arrivals do not rule. Dividing by the idle batches
 * rather than by time: an object cannot arrive while it is in use, and the popular ones are in use
 * for long stretches, so counting arrivals alone ranks them too low (on the policy figure's popular
 * sets, seeds 1–15, bytes summed, an offline replay ordering by this rate alone pages 1.3 % / 1.9 %
 * more than the popularity oracle at 2× / 4× the budget, by the decayed arrival count 2.0 % / 2.4 %;
 * a Bayesian estimate told the true Zipf weights as its prior, 1.1 % / 1.9 %).
 *
 * The estimate counts only since the current *epoch*. A shift of popularity is found by Page's
 * CUSUM test over the arrivals (Page, Biometrika 41, 1954): each arrival adds the log-likelihood
 * ratio of its gap under "every object at the mean rate" against "at the object's own rate",
 * ln(λ0 / λ) − ABSENCE_WEIGHT × (λ0 − λ) × gap, and the sum, floored at 0, crossing
 * SHIFT_THRESHOLD starts a new epoch there: every estimate starts again from the prior. While
 * popularity holds, arrivals come from the objects with high estimates and the sum stays near 0;
 * after a shift they come from objects the estimate ranks low, and popular ones stop coming.
 * Resetting at the right batch is worth much: in that offline replay, counting only from the shift
 * on, known exactly, pages 1.03× the oracle's bytes on the phase shift (2× and 4×) where counting
 * through it pages 1.17× / 1.12×; found this way, 15 to 90 batches after it, 1.05×.
 *
 * Keys are log2 of decayed sums, sum × 2^(t / HALF_LIFE) for batch t, so they never need rescaling
 * and any two taken at one batch compare as the sums would (victim-policies.ts keeps its counts so).
 *
 * Invariants: `arrival`, `batchDone` and `track` are O(1) and allocate nothing; an object's fields
 * count only batches from max(its TRACKED_AT, epochStart) on, and are read as empty while its EPOCH
 * is not `epoch` (a new epoch costs O(1), not a pass over the objects); everything is deterministic.
 */
import { EPOCH, FREQUENCY, IN_USE, POLICY_RECORD, STRETCH_START, TRACKED_AT } from './object-table.js';

/*
 * The constants below were measured on the policy figure through the manager (seeds 1–15, bytes
 * summed over the seeds, manager ÷ oracle on popular sets and the phase shift at 2× / 4× the
 * budget: 1.023 / 1.026 and 1.058 / 1.056 with these values).
 */
/**
 * Batches for an arrival's weight, and an idle batch's, to halve: a long memory, so popular sets
 * keep their rate through a pause, and a popularity that drifts too slowly for the detector is still
 * followed. No decay at all pages within 0.2 % of it on every row.
 */
export const HALF_LIFE = 1000;
/** Arrivals at the mean rate every estimate starts from: 3 pages within 0.4 % of 1. */
export const PRIOR_ARRIVALS = 1;
/**
 * Nats the CUSUM sum must pass to start a new epoch: 10 finds false shifts on popular sets (0.5 %
 * more there at 2×), 14 finds the real one later (0.4 % more on the phase shift at 4×).
 */
export const SHIFT_THRESHOLD = 12;
/**
 * The weight of the gap term in each arrival's log-likelihood ratio, a robustness factor below
 * the exact 1: the gaps are exponential-tailed, and at 1 their spread alone finds false shifts
 * on popular sets (0.2 % more at 2×, 0.4 % more on the phase shift at 4×); with the log term alone
 * (0) the offline replay finds a false shift every few dozen batches.
 */
export const ABSENCE_WEIGHT = 0.5;

const LN2 = Math.LN2;

/** log2(2^a + 2^b). */
export function addKeys(a: number, b: number): number {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  const [hi, lo] = a > b ? [a, b] : [b, a];
  return hi + Math.log2(1 + 2 ** (lo - hi));
}

/** log2(2^a − 2^b), −Infinity when b ≥ a. */
export function subtractKeys(a: number, b: number): number {
  if (b === -Infinity) return a;
  if (b >= a) return -Infinity;
  return a + Math.log2(-Math.expm1((b - a) * LN2));
}

/** The key of batches from..to (inclusive), each weighted 2^(t / HALF_LIFE); −Infinity when empty. */
export function batchesKey(from: number, to: number): number {
  if (to < from) return -Infinity;
  // Σ 2^(t/h) for t = from..to = 2^(from/h) × (2^(n/h) − 1) / (2^(1/h) − 1), n = to − from + 1.
  return from / HALF_LIFE + Math.log2(Math.expm1(((to - from + 1) / HALF_LIFE) * LN2) / UNIT);
}
const UNIT = Math.expm1(LN2 / HALF_LIFE);

export class Popularity {
  /** The current epoch (objects with another EPOCH count nothing in it) and its first batch. */
  epoch = 0;
  epochStart = 0;
  /** Epochs started by the detector (for tests and stats). */
  shifts = 0;
  /** Tracked objects: the idle batches of all of them add up at this many per batch, less those in use. */
  private tracked = 0;
  /** The epoch's arrivals and idle object-batches, all objects together, as keys: the mean rate λ0. */
  private arrivals = -Infinity;
  private idle = -Infinity;
  /** The CUSUM sum (nats). */
  private sum = 0;

  /** The object at `index` starts being tracked before batch `batch`. */
  track(policy: Float64Array, index: number, batch: number): void {
    policy[index * POLICY_RECORD + TRACKED_AT] = batch;
    this.tracked++;
  }

  /** The object stops being tracked. */
  untrack(): void {
    this.tracked--;
  }

  /** Batch `batch` used `inUse` tracked objects: the others were idle in it (call after its arrivals). */
  batchDone(batch: number, inUse: number): void {
    const idle = this.tracked - inUse;
    if (idle > 0) this.idle = addKeys(this.idle, Math.log2(idle) + batch / HALF_LIFE);
  }

  /** log2 of the mean rate λ0 (arrivals per idle batch, the prior's) through batch `through`. */
  private meanRateKey(through: number): number {
    const t = through / HALF_LIFE;
    return addKeys(this.arrivals, t) - addKeys(this.idle, t);
  }

  /**
   * log2 of the arrival rate of the object at `index` through batch `through`, its last use in
   * `last` (−1: none) of a stretch begun in its STRETCH_START. Higher: more popular.
   */
  rateKey(policy: Float64Array, index: number, last: number, through: number): number {
    const p = index * POLICY_RECORD;
    const current = policy[p + EPOCH] === this.epoch;
    const start = Math.max(policy[p + TRACKED_AT] as number, this.epochStart);
    // Batches in use since the start: the stretches before the last (IN_USE), then the last.
    let inUse = current ? (policy[p + IN_USE] as number) : -Infinity;
    if (last >= start) inUse = addKeys(inUse, batchesKey(Math.max(policy[p + STRETCH_START] as number, start), last));
    const idle = subtractKeys(batchesKey(start, through), inUse);
    const t = through / HALF_LIFE;
    const prior = Math.log2(PRIOR_ARRIVALS) + t;
    const count = addKeys(current ? (policy[p + FREQUENCY] as number) : -Infinity, prior);
    return count - addKeys(idle, prior - this.meanRateKey(through));
  }

  /**
   * Records an arrival of the object at `index` in `batch`, its previous use in `last` (−1: none):
   * first the CUSUM step on the estimate it had, then the arrival joins the epoch's counts. Call
   * before recordArrival moves STRETCH_START.
   */
  arrival(policy: Float64Array, index: number, last: number, batch: number): void {
    const p = index * POLICY_RECORD;
    const start = Math.max(policy[p + TRACKED_AT] as number, this.epochStart);
    const gap = batch - Math.max(last + 1, start);
    if (gap > 0 && this.arrivals !== -Infinity) {
      const rate = 2 ** this.rateKey(policy, index, last, batch - 1);
      const mean = 2 ** this.meanRateKey(batch - 1);
      this.sum = Math.max(0, this.sum + Math.log(mean / rate) - ABSENCE_WEIGHT * (mean - rate) * gap);
      if (this.sum > SHIFT_THRESHOLD) this.shift(batch);
    }
    if (policy[p + EPOCH] !== this.epoch) {
      policy[p + EPOCH] = this.epoch;
      policy[p + FREQUENCY] = -Infinity;
      policy[p + IN_USE] = -Infinity;
    }
    // The stretch that ended in `last` joins the batches in use (from the epoch's start on).
    const from = Math.max(policy[p + STRETCH_START] as number, this.epochStart, policy[p + TRACKED_AT] as number);
    if (last >= from) policy[p + IN_USE] = addKeys(policy[p + IN_USE] as number, batchesKey(from, last));
    const t = batch / HALF_LIFE;
    policy[p + FREQUENCY] = addKeys(policy[p + FREQUENCY] as number, t);
    this.arrivals = addKeys(this.arrivals, t);
  }

  /** A new epoch from `batch` on: every estimate starts again. */
  private shift(batch: number): void {
    this.epoch++;
    this.shifts++;
    this.epochStart = batch;
    this.arrivals = -Infinity;
    this.idle = -Infinity;
    this.sum = 0;
  }
}
