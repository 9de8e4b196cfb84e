/**
 * ReusePredictor: how long until a tracked object is used again, estimated from the reuse gaps the
 * manager has seen (an online stand-in for Belady's MIN, which knows the answer).
 *
 * Time is counted in the manager's batches. A gap is the number of batches between two uses that are
 * not consecutive (an object used batch after batch is one stretch of use, not many gaps of 1). Each
 * object keeps its mean gap (an exponential moving average). Two histograms hold what gaps looked
 * like: `normalized` the gaps of objects with a mean, divided by that mean (so objects of different
 * popularity share one shape), `first` the first gap of objects seen once (in batches). The
 * expected remaining time of an object idle for `age` batches is the mean residual life of that shape
 * at its age: for gaps of one length (a cyclic scan) it falls with age, so the object due soonest is
 * kept; for heavy-tailed gaps it grows, so the oldest goes, as in LRU. Past every gap seen, an object
 * is stale: its estimate is STALE plus its age, after every live estimate (so stale objects go in LRU
 * order); so is every object while its histogram has seen fewer than MIN_OBSERVATIONS gaps.
 *
 * Invariants: bucket counts are non-negative and decay geometrically per observation (through a
 * growing increment, so an observation costs O(1)); estimates are finite and non-negative.
 */

/** Two buckets per octave: gaps differing by 41 % land in different buckets. */
const PER_OCTAVE = 2;
/** Twelve octaves: normalized gaps from 1/16 to 256 × the mean, first gaps from 1 to 4096 batches. */
const OCTAVES = 12;
const BUCKETS = PER_OCTAVE * OCTAVES;
/** Each observation ages the older ones by 0.5 %: the shape follows the last few hundred gaps. */
const DECAY = 0.995;
/** The moving average's weight of a new gap: recent behaviour counts, one outlier does not rule. */
const MEAN_WEIGHT = 0.3;
/** Above any live estimate (batches): stale objects order after live ones, by age. */
export const STALE = 1e12;
/**
 * Gaps a histogram must have seen before its shape is trusted; until then its objects count as stale
 * and the victim order is plain LRU (a handful of gaps says little, and LRU is the library's policy).
 */
export const MIN_OBSERVATIONS = 16;
/** Counts are rescaled before the increment overflows doubles' useful range. */
const RESCALE_AT = 1e200;

/** What the predictor keeps on each object (fields of ManagedObject). */
export interface ReuseRecord {
  /** The batch of the last use; -1 when never used. */
  lastBatch: number;
  /** Mean reuse gap in batches; 0 before the first gap. */
  meanGap: number;
}

class GapHistogram {
  private readonly counts = new Float64Array(BUCKETS);
  /** Each bucket's representative value: the geometric middle of its range. */
  private readonly values: Float64Array;
  private increment = 1;
  private observations = 0;

  constructor(private readonly lowest: number) {
    this.values = Float64Array.from({ length: BUCKETS }, (_, k) => lowest * 2 ** ((k + 0.5) / PER_OCTAVE));
  }

  add(value: number): void {
    const k = Math.max(0, Math.min(BUCKETS - 1, Math.floor(Math.log2(value / this.lowest) * PER_OCTAVE)));
    this.counts[k] = (this.counts[k] as number) + this.increment;
    this.observations++;
    this.increment /= DECAY;
    if (this.increment > RESCALE_AT) {
      for (let i = 0; i < BUCKETS; i++) this.counts[i] = (this.counts[i] as number) / this.increment;
      this.increment = 1;
    }
  }

  /** E[gap − age | gap > age], or -1 when no gap longer than `age` was seen (or too few gaps at all). */
  meanResidual(age: number): number {
    if (this.observations < MIN_OBSERVATIONS) return -1;
    let weight = 0;
    let sum = 0;
    for (let k = 0; k < BUCKETS; k++) {
      const value = this.values[k] as number;
      if (value <= age) continue;
      const count = this.counts[k] as number;
      weight += count;
      sum += count * (value - age);
    }
    return weight > 0 ? sum / weight : -1;
  }
}

export class ReusePredictor {
  private readonly normalized = new GapHistogram(1 / 16);
  private readonly first = new GapHistogram(1);

  /** Records a use of `record` in `batch` (call once per batch it is in, before `lastBatch` moves). */
  used(record: ReuseRecord, batch: number): void {
    const last = record.lastBatch;
    record.lastBatch = batch;
    // Never used, or used in the batch before: no gap.
    if (last < 0 || last >= batch - 1) return;
    record.meanGap = this.gap(batch - last, record.meanGap);
  }

  /**
   * Records a reuse gap of an object whose mean gap was `meanGap` (0: its first gap); returns its
   * new mean. `used` without the record: the manager's per-batch pass keeps records in a table.
   */
  gap(gap: number, meanGap: number): number {
    if (meanGap > 0) {
      this.normalized.add(gap / meanGap);
      return meanGap + MEAN_WEIGHT * (gap - meanGap);
    }
    this.first.add(gap);
    return gap;
  }

  /** Batches until `record` is expected to be used again, seen from `batch` (larger: evict sooner). */
  expectedWait(record: ReuseRecord, batch: number): number {
    return this.waitAt(record.lastBatch, record.meanGap, batch);
  }

  /** expectedWait of a record's two numbers (the manager's keys read them from its table). */
  waitAt(lastBatch: number, meanGap: number, batch: number): number {
    if (lastBatch < 0) return STALE + batch;
    const age = batch - lastBatch;
    const residual = meanGap > 0 ? this.normalized.meanResidual(age / meanGap) * meanGap : this.first.meanResidual(age);
    return residual < 0 ? STALE + age : residual;
  }
}
