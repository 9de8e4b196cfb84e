/**
 * StampDeferral: step 3 of ResidencyManager.executeCommandLists (the stamp of a batch's objects:
 * Gathered.stamp) deferred where that is exact. A batch of one set that was also the whole previous
 * batch, with every member resident, changes only its members' batch and LRU stamps (their last use
 * was the batch before: no arrival, no reuse gap), so the stamp is remembered as (set, batch, use
 * counter before it) and written into the records when anything next reads or reuses them
 * (`settle`). A frame loop within budget that submits the same set every frame then costs O(1) per
 * batch instead of a record write per object (10,000 objects scattered over 100,000: a cache miss
 * each, about 60 µs a batch on SwiftShader's host).
 *
 * Invariants: `deferred`, when set, is `lastSingle`, was not reopened since (ResidencyManager calls
 * `opened` first), and its members are all tracked (the manager settles before it forgets an
 * object, whose record may then be handed out again); the records it has not written hold a last use
 * no later than `deferredBatch`, and settle gives them exactly what the eager stamps would have.
 */
import type { Gathered } from './gather.js';
import { LAST_BATCH, RECORD, USE_STAMP, type ObjectTable } from './object-table.js';
import type { ResidencySet } from './residency-set.js';
import type { Popularity } from './popularity.js';
import type { ReusePredictor } from './reuse-predictor.js';

export class StampDeferral {
  /** The previous batch's set when it was that batch's only set, and that batch. */
  private lastSingle: ResidencySet | null = null;
  private lastSingleBatch = -1;
  /** The set whose last stamp its records do not hold yet (null: every record holds its own). */
  private deferred: ResidencySet | null = null;
  private deferredBatch = -1;
  /** The use counter before the deferred stamp. */
  private deferredBase = 0;

  constructor(
    private readonly table: ObjectTable,
    private readonly predictor: ReusePredictor,
    private readonly popularity: Popularity,
  ) {}

  /**
   * Stamps batch `batch`'s objects (`gathered`) with the use counter from `counter`, now or deferred;
   * returns the counter advanced past them, as Gathered.stamp does.
   */
  stamp(gathered: Gathered, counter: number, batch: number, now: number, fenceId: number, useValue: number): number {
    const set = gathered.single;
    const consecutive = set !== null && set === this.lastSingle && this.lastSingleBatch === batch - 1;
    this.lastSingle = set;
    this.lastSingleBatch = batch;
    if (consecutive && gathered.missingLocal + gathered.missingNonLocal === 0 && !this.table.spillDue(batch)) {
      this.table.logBatch(batch, now, fenceId, useValue);
      this.deferred = set;
      this.deferredBatch = batch;
      this.deferredBase = counter;
      return counter + gathered.count;
    }
    this.settle();
    return gathered.stamp(this.table, this.predictor, this.popularity, counter, batch, now, fenceId, useValue);
  }

  /** `set` opens and forgets its members: its deferred stamp is written first, and it starts no run. */
  opened(set: ResidencySet): void {
    if (this.deferred === set) this.settle();
    if (this.lastSingle === set) this.lastSingle = null;
  }

  /** Writes a deferred stamp into its set's records (before anything reads or reuses them). */
  settle(): void {
    const set = this.deferred;
    if (set === null) return;
    this.deferred = null;
    const data = this.table.data;
    const indices = set.indices();
    const batch = this.deferredBatch;
    let counter = this.deferredBase;
    for (let j = 0; j < set.size; j++) {
      const at = (indices[j] as number) * RECORD;
      data[at + LAST_BATCH] = batch;
      data[at + USE_STAMP] = ++counter;
    }
  }
}
