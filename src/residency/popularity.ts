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
 * The estimate counts only since the current *epoch*; a shift of popularity starts a new one,
 * found by Page's CUSUM test (Page, Biometrika 41, 1954) of "the epoch's rates hold" against "the
 * rates changed". The sum adds the log-likelihood ratio of each observation, less DRIFT a batch, and
 * is floored at 0; the batch after it was last at 0 is the *candidate* start, Page's estimate of
 * where a shift it finds began. The changed rates are estimated from the data since then (the
 * CUSUM with nonanticipating estimates, Lorden & Pollak, Annals of Statistics 33, 2005): each
 * object's *candidate* rate λc is the estimate above counted from the candidate start only (the
 * mean rate at first), λ its epoch rate. An arrival adds ln(λc / λ), each batch the object was
 * idle λ − λc (the point process's log-likelihood ratio). While popularity holds, arrivals come from
 * objects with high estimates and the sum stays near 0; after a shift they come from objects the
 * epoch ranks low, and the popular ones stop coming. An idle batch is charged once, from the
 * candidate start on: at the object's next arrival or when a sweep of SWEEP objects a batch, round
 * robin, reaches it. Charged only at arrivals, as before, a newly popular object's first return
 * brought its whole gap, idle under the old ranking, as evidence against the shift, and a popular
 * object that stopped coming was no evidence until it came back. DRIFT (Page's reference value)
 * brings the sum back to 0 when the evidence stalls: the two estimates agree once the candidate
 * has counted most of the epoch, and a sum stuck above 0 would keep the candidate start forever.
 *
 * Crossing SHIFT_THRESHOLD makes the candidate the epoch: its counts, kept beside the epoch's in a
 * second slot per object, become the estimate, so the arrivals between the shift and its detection
 * are kept. On the policy figure (.prof-policy's replay through the manager, seeds 1–15, bytes
 * summed over the seeds, manager ÷ popularity oracle on the phase shift at 2× / 4× the budget): a
 * new epoch started empty at the detection and evidence from arrivals only (the gap term weighted
 * 0.5, threshold 12) paged 1.058 / 1.056; this detector pages 1.049 / 1.042; without the sweep
 * 1.063 / 1.047, starting the new epoch empty 1.054 / 1.044, weighing λ against the mean rate
 * rather than λc 1.054 / 1.045; told the shift's batch, the estimate pages 1.043 / 1.035. Held out
 * (seeds 16–30): 1.066 / 1.055 before, 1.051 / 1.045 now; popular sets 1.034 / 1.026 before,
 * 1.037 / 1.027 now (seeds 1–15: 1.023 / 1.026 before, 1.023 / 1.023 now). The figure's own rows
 * (medians of seeds 1–5): phase shift 1.047 / 1.030, from 1.067 / 1.054.
 *
 * Keys are log2 of decayed sums, sum × 2^(t / HALF_LIFE) for batch t, so they never need rescaling
 * and any two taken at one batch compare as the sums would (victim-policies.ts keeps its counts so).
 *
 * Invariants: `arrival`, `sweep`, `batchDone` and `track` are O(1) and allocate nothing; an
 * object's counts for an epoch count only batches from max(its TRACKED_AT, the epoch's start) on,
 * and read as empty while neither slot holds that epoch (a new epoch or candidate costs O(1), not a
 * pass over the objects); the candidate starts no earlier than the epoch, and no slot holds an
 * epoch later than the candidate; everything is deterministic.
 */
import {
  CHARGED,
  EPOCH,
  FREQUENCY,
  IN_USE,
  LAST_BATCH,
  POLICY_RECORD,
  RECORD,
  SECOND_SLOT,
  SHADOWS,
  STRETCH_START,
  TRACKED_AT,
  type ObjectTable,
} from './object-table.js';

/*
 * The constants below were chosen on the policy figure's seeds 1–15 as above (manager ÷ oracle on
 * popular sets and the phase shift at 2× / 4× the budget: 1.023 / 1.023 and 1.049 / 1.042 with
 * these values) and checked on seeds 16–30 (1.037 / 1.027 and 1.051 / 1.045).
 */
/**
 * Batches for an arrival's weight, and an idle batch's, to halve: a long memory, so popular sets
 * keep their rate through a pause, and a popularity that drifts too slowly for the detector is still
 * followed. No decay at all paged within 0.2 % of it on every row (with the earlier detector).
 */
export const HALF_LIFE = 1000;
/** Arrivals at the mean rate every estimate starts from: 0.5 pages 0.5–0.6 % more on the phase shift, 2 up to 0.2 %. */
export const PRIOR_ARRIVALS = 1;
/**
 * Nats the CUSUM sum must pass to start a new epoch. The members of a set arrive together and each
 * adds its own term, so one set's evidence counts several times over (four on the figure). 16
 * finds false shifts on popular sets (1.6 % / 1.1 % more paged there), 30 pages within 0.2 % of 25.
 */
export const SHIFT_THRESHOLD = 25;
/** Nats the CUSUM sum loses a batch: 0 pages 0.7 % more on the phase shift at 2×, 0.05 to 0.2 within 0.2 %. */
export const DRIFT = 0.1;
/**
 * Objects whose idle batches the sweep charges a batch (an idle object is charged at least every
 * tracked ÷ SWEEP batches; about 3 µs a batch in a Node replay on a shared 2-core host): 2 pages 0.3 % more on the
 * phase shift at 2×, all of them (the figure has 56 to 116 objects) within 0.1 %.
 */
export const SWEEP = 8;

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

/** log2 of the prior's arrivals through batch `through`: PRIOR_ARRIVALS, keyed as counts are. */
function priorKey(through: number): number {
  return Math.log2(PRIOR_ARRIVALS) + through / HALF_LIFE;
}

/** The key of a rate from its arrivals' and idle batches' keys, with the prior's (priorKey; its idle batches at the mean rate) added. */
function rateOf(count: number, idle: number, prior: number, priorIdle: number): number {
  return addKeys(count, prior) - addKeys(idle, priorIdle);
}

/** The offset of the slot of the policy record at `p` that counts for `epoch`, or −1 when neither does. */
function slotOf(policy: Float64Array, p: number, epoch: number): number {
  if (policy[p + EPOCH] === epoch) return p;
  if (policy[p + SECOND_SLOT + EPOCH] === epoch) return p + SECOND_SLOT;
  return -1;
}

export class Popularity {
  /** The current epoch (objects with no slot for it count nothing in it) and its first batch. */
  epoch = 0;
  epochStart = 0;
  /** The candidate epoch, counting from the batch after the CUSUM sum was last at 0. */
  candidate = 1;
  candidateStart = 0;
  /** Epochs started by the detector (for tests and stats). */
  shifts = 0;
  /** The CUSUM sum (nats). */
  sum = 0;
  private nextEpoch = 2;
  /** Tracked objects: the idle batches of all of them add up at this many per batch, less those in use. */
  private tracked = 0;
  /** The epoch's arrivals and idle object-batches, all objects together, as keys: the mean rate λ0. */
  private arrivals = -Infinity;
  private idle = -Infinity;
  /** The same for the candidate. */
  private candidateArrivals = -Infinity;
  private candidateIdle = -Infinity;
  /** The next index the sweep looks at. */
  private cursor = 0;
  /** countsIn's results (two numbers, without allocating). */
  private countKey = -Infinity;
  private idleKey = -Infinity;

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
    if (idle > 0) {
      const key = Math.log2(idle) + batch / HALF_LIFE;
      this.idle = addKeys(this.idle, key);
      this.candidateIdle = addKeys(this.candidateIdle, key);
    }
    this.step(-DRIFT, batch + 1);
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
    this.countsIn(policy, index * POLICY_RECORD, this.epoch, this.epochStart, last, through);
    const prior = priorKey(through);
    return rateOf(this.countKey, this.idleKey, prior, prior - this.meanRateKey(through));
  }

  /**
   * The keys of the arrivals (countKey) and idle batches (idleKey) through `through` of the object
   * at record `p` in `epoch`, which started at `from`.
   */
  private countsIn(policy: Float64Array, p: number, epoch: number, from: number, last: number, through: number): void {
    const slot = slotOf(policy, p, epoch);
    const start = Math.max(policy[p + TRACKED_AT] as number, from);
    // Batches in use since the start: the stretches before the last (IN_USE), then the last.
    let inUse = slot >= 0 ? (policy[slot + IN_USE] as number) : -Infinity;
    if (last >= start) inUse = addKeys(inUse, batchesKey(Math.max(policy[p + STRETCH_START] as number, start), last));
    this.idleKey = subtractKeys(batchesKey(start, through), inUse);
    this.countKey = slot >= 0 ? (policy[slot + FREQUENCY] as number) : -Infinity;
  }

  /** The first batch of the object at record `p`, last used in `last`, the CUSUM has not charged idle. */
  private uncharged(policy: Float64Array, p: number, last: number): number {
    const tracked = policy[p + TRACKED_AT] as number;
    return Math.max(last + 1, tracked, this.candidateStart, (policy[p + CHARGED] as number) + 1);
  }

  /**
   * The CUSUM's term for the object at record `p` (last used in `last`), rates through `through`:
   * an arrival's log ratio if `arrived`, and its idle batches from `from` through `through`.
   */
  private evidence(
    policy: Float64Array,
    p: number,
    last: number,
    from: number,
    through: number,
    arrived: boolean,
  ): number {
    // The prior is the same for both rates: its keys once.
    const prior = priorKey(through);
    const priorIdle = prior - this.meanRateKey(through);
    this.countsIn(policy, p, this.epoch, this.epochStart, last, through);
    const epoch = rateOf(this.countKey, this.idleKey, prior, priorIdle);
    this.countsIn(policy, p, this.candidate, this.candidateStart, last, through);
    const candidate = rateOf(this.countKey, this.idleKey, prior, priorIdle);
    const batches = Math.max(0, through - from + 1);
    return (arrived ? (candidate - epoch) * LN2 : 0) - (2 ** candidate - 2 ** epoch) * batches;
  }

  /**
   * Adds `x` to the CUSUM sum; at 0 the candidate starts again at `next`, past the threshold it
   * becomes the epoch.
   */
  private step(x: number, next: number): void {
    const sum = this.sum + x;
    if (sum <= 0) {
      this.sum = 0;
      this.restartCandidate(next);
    } else if (sum > SHIFT_THRESHOLD) {
      this.shift(next);
    } else {
      this.sum = sum;
    }
  }

  /**
   * Records an arrival of the object at `index` in `batch`, its previous use in `last` (−1: none):
   * first the CUSUM step on the estimates it had, then the arrival joins the epoch's counts and the
   * candidate's. Call before recordArrival moves STRETCH_START.
   */
  arrival(policy: Float64Array, index: number, last: number, batch: number): void {
    const p = index * POLICY_RECORD;
    const start = Math.max(policy[p + TRACKED_AT] as number, this.epochStart);
    if (batch > Math.max(last + 1, start) && this.arrivals !== -Infinity)
      this.step(this.evidence(policy, p, last, this.uncharged(policy, p, last), batch - 1, true), batch);
    policy[p + CHARGED] = batch;
    this.count(policy, p, this.epoch, this.epochStart, this.candidate, last, batch);
    this.count(policy, p, this.candidate, this.candidateStart, this.epoch, last, batch);
    const t = batch / HALF_LIFE;
    this.arrivals = addKeys(this.arrivals, t);
    this.candidateArrivals = addKeys(this.candidateArrivals, t);
  }

  /**
   * Charges the idle batches through `batch` of the next SWEEP tracked objects of `table`, round
   * robin (call after the batch's arrivals, with every record's LAST_BATCH written).
   */
  sweep(table: ObjectTable, batch: number): void {
    const { data, policy, highWater } = table;
    if (this.arrivals === -Infinity) return;
    for (let j = Math.min(SWEEP, highWater); j > 0; j--) {
      const index = this.cursor < highWater ? this.cursor : 0;
      this.cursor = index + 1;
      const p = index * POLICY_RECORD;
      if ((policy[p + SHADOWS] as number) < 0) continue; // free
      const last = data[index * RECORD + LAST_BATCH] as number;
      const from = this.uncharged(policy, p, last);
      if (from > batch) continue; // in use, or charged through `batch`
      const x = this.evidence(policy, p, last, from, batch, false);
      policy[p + CHARGED] = batch;
      this.step(x, batch + 1);
    }
  }

  /** Adds the arrival to the object's counts in `epoch` (from `from`), claiming the slot `other` does not hold. */
  private count(
    policy: Float64Array,
    p: number,
    epoch: number,
    from: number,
    other: number,
    last: number,
    batch: number,
  ): void {
    let slot = slotOf(policy, p, epoch);
    if (slot < 0) {
      slot = policy[p + EPOCH] === other ? p + SECOND_SLOT : p;
      policy[slot + EPOCH] = epoch;
      policy[slot + FREQUENCY] = -Infinity;
      policy[slot + IN_USE] = -Infinity;
    }
    // The stretch that ended in `last` joins the batches in use (from the epoch's start on).
    const start = Math.max(policy[p + STRETCH_START] as number, from, policy[p + TRACKED_AT] as number);
    if (last >= start) policy[slot + IN_USE] = addKeys(policy[slot + IN_USE] as number, batchesKey(start, last));
    policy[slot + FREQUENCY] = addKeys(policy[slot + FREQUENCY] as number, batch / HALF_LIFE);
  }

  /** A candidate epoch from `batch` on, empty. */
  private restartCandidate(batch: number): void {
    this.candidate = this.nextEpoch++;
    this.candidateStart = batch;
    this.candidateArrivals = -Infinity;
    this.candidateIdle = -Infinity;
  }

  /** A shift found: the candidate becomes the epoch, and a new candidate starts at `next`. */
  private shift(next: number): void {
    this.shifts++;
    this.epoch = this.candidate;
    this.epochStart = this.candidateStart;
    this.arrivals = this.candidateArrivals;
    this.idle = this.candidateIdle;
    this.sum = 0;
    this.restartCandidate(next);
  }
}
