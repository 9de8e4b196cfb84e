/**
 * A batch's objects (ResidencyManager.executeCommandLists) and the passes over them: the gather of
 * its residency sets, each tracked object once, as ObjectTable indices, with the bytes the batch
 * needs and misses per segment, read from the table's records (the member objects themselves are
 * not visited), and the stamp that marks them used. A single non-empty set is used as it is (its
 * members are unique already); several are de-duplicated with a per-record mark.
 *
 * A set's sums are kept on it while nothing is evicted: a set that was all resident and still is
 * needs no pass at all (the steady state of a frame loop within budget).
 *
 * Invariants: nothing but the records' GATHERED marks, the sets' cached checks (`releasesChecked`,
 * `untracksChecked`, `residentAsOf` and sums: ResidencySet's invariants) and the Gathered it fills
 * changes, so a refusal leaves the manager as it was. A set is looked through for released objects
 * only when Device.getReleaseCount() moved since it opened (insert refuses objects released before)
 * or since it was last looked through and held none, and for objects no longer tracked only when the
 * manager's untrack count moved since it was last found all tracked.
 */
import { invalidArg } from '../api/errors.js';
import {
  FLAGS,
  GATHERED,
  LAST_BATCH,
  MEAN_GAP,
  NON_LOCAL_BIT,
  RECORD,
  RESIDENT,
  SIZE,
  USE_STAMP,
  type ObjectTable,
} from './object-table.js';
import type { ResidencySet } from './residency-set.js';
import type { Popularity } from './popularity.js';
import type { ReusePredictor } from './reuse-predictor.js';
import { recordArrival } from './victim-policies.js';

/**
 * A batch's objects and bytes. The manager keeps one and refills it for every batch, so a gather
 * allocates nothing once the scratch array is large enough; it is valid until the next gather.
 */
export class Gathered {
  /** The batch's ObjectTable indices, the first `count` entries: with a single set, the set's own array (read only). */
  indices: Int32Array = new Int32Array(0);
  count = 0;
  /** The batch's one set when `indices` are that set's own (takeSet), else null. */
  single: ResidencySet | null = null;
  needsLocal = 0;
  needsNonLocal = 0;
  missingLocal = 0;
  missingNonLocal = 0;
  /** The de-duplicated indices of a batch of several sets. */
  private scratch = new Int32Array(64);

  /** Adds the record at `index` (the caller has checked it is tracked and not yet gathered). */
  private add(data: Float64Array, index: number): void {
    const at = index * RECORD;
    const flags = data[at + FLAGS] as number;
    const size = data[at + SIZE] as number;
    if ((flags & NON_LOCAL_BIT) === 0) {
      this.needsLocal += size;
      if ((flags & RESIDENT) === 0) this.missingLocal += size;
    } else {
      this.needsNonLocal += size;
      if ((flags & RESIDENT) === 0) this.missingNonLocal += size;
    }
  }

  /** Starts a batch. */
  private reset(): void {
    this.count = 0;
    this.needsLocal = 0;
    this.needsNonLocal = 0;
    this.missingLocal = 0;
    this.missingNonLocal = 0;
  }

  /**
   * The set's members as the batch (one set: already unique, all tracked). When nothing was evicted
   * since a gather found them all resident, their sums are the set's and no record is read.
   */
  private takeSet(data: Float64Array, set: ResidencySet, evictions: number): void {
    this.reset();
    const indices = set.indices();
    const count = set.size;
    this.indices = indices;
    this.count = count;
    this.single = set;
    if (set.residentAsOf === evictions) {
      this.needsLocal = set.needsLocal;
      this.needsNonLocal = set.needsNonLocal;
      return;
    }
    for (let j = 0; j < count; j++) this.add(data, indices[j] as number);
    if (this.missingLocal + this.missingNonLocal === 0) {
      set.residentAsOf = evictions;
      set.needsLocal = this.needsLocal;
      set.needsNonLocal = this.needsNonLocal;
    }
  }

  /** Each tracked member of `sets` once, by the mark. */
  private takeSets(data: Float64Array, sets: readonly (ResidencySet | null)[], untracks: number, mark: number): void {
    this.reset();
    this.single = null;
    for (const set of sets) {
      if (!set || set.size === 0) continue;
      const allTracked = confirmTracked(set, untracks);
      const members = set.objects();
      const indices = set.indices();
      const count = set.size;
      if (this.scratch.length < this.count + count) this.growScratch(this.count + count);
      const scratch = this.scratch;
      for (let j = 0; j < count; j++) {
        if (!allTracked && !members[j]?.tracked) continue;
        const index = indices[j] as number;
        const at = index * RECORD + GATHERED;
        if (data[at] === mark) continue;
        data[at] = mark;
        scratch[this.count++] = index;
        this.add(data, index);
      }
    }
    this.indices = this.scratch;
  }

  /**
   * Marks every object of the batch used now, in batch order (so LRU stamps rise along it): the
   * reuse predictor sees each gap first, as ReusePredictor.used does, and an arrival (a first use or
   * a return after a gap) reaches the popularity estimate and the victim policies' records
   * (Popularity.arrival, recordArrival), then Popularity.sweep; the last use becomes
   * (batch, now, the fence `fenceId` at `useValue`). `counter` is the manager's use counter; returns
   * it advanced. A use in consecutive batches touches the object's main record only.
   */
  stamp(
    table: ObjectTable,
    predictor: ReusePredictor,
    popularity: Popularity,
    counter: number,
    batch: number,
    now: number,
    fenceId: number,
    useValue: number,
  ): number {
    const { indices, count } = this;
    // The time and the sync point are the batch's: logged once (ObjectTable.logBatch), not per object.
    table.logBatch(batch, now, fenceId, useValue);
    const data = table.data;
    for (let j = 0; j < count; j++) {
      const index = indices[j] as number;
      const at = index * RECORD;
      const last = data[at + LAST_BATCH] as number;
      data[at + LAST_BATCH] = batch;
      if (last < batch - 1) {
        if (last >= 0) data[at + MEAN_GAP] = predictor.gap(batch - last, data[at + MEAN_GAP] as number);
        popularity.arrival(table.policy, index, last, batch);
        recordArrival(table.policy, index, last, batch);
      }
      data[at + USE_STAMP] = ++counter;
    }
    // Every last use written: the shift detector charges a few idle objects (a deferred stamp, which
    // has no arrivals, skips it: those records do not hold their last use yet).
    popularity.sweep(table, batch);
    return counter;
  }

  private growScratch(atLeast: number): void {
    let length = this.scratch.length * 2;
    while (length < atLeast) length *= 2;
    const grown = new Int32Array(length);
    grown.set(this.scratch.subarray(0, this.count));
    this.scratch = grown;
  }

  /**
   * Fills this with each tracked object of `sets` once and the bytes the batch needs and misses per
   * segment. With `call`, refuses a set holding a released object, changing nothing but scratch
   * marks; a set is looked through for released objects only when something was released since it
   * opened or was last looked through. `untracks` and `evictions` are the manager's counts of objects it stopped tracking and of
   * objects it stopped holding resident; `mark` is new for every gather.
   */
  gather(
    table: ObjectTable,
    sets: readonly (ResidencySet | null)[],
    call: string | null,
    releases: number,
    untracks: number,
    evictions: number,
    mark: number,
  ): this {
    if (call !== null) {
      for (let i = 0; i < sets.length; i++) {
        const set = sets[i];
        if (!set || set.releasesChecked === releases) continue;
        for (const managed of set.objects()) {
          if (managed.tracked && managed.released)
            throw invalidArg(
              call,
              `residencySets[${i}]`,
              `holds ${managed.label}, which was released (endTrackingObject before release)`,
            );
        }
        // None is: the set needs no look until the next release (a member released later moves the count).
        set.releasesChecked = releases;
      }
    }
    let only: ResidencySet | undefined;
    let nonEmpty = 0;
    for (const set of sets) {
      if (set && set.size > 0) {
        only = set;
        nonEmpty++;
      }
    }
    // One set holds each object once already: no marks, no copy (the common case: a list per call),
    // unless it holds an object no longer tracked.
    if (nonEmpty === 1 && confirmTracked(only as ResidencySet, untracks))
      this.takeSet(table.data, only as ResidencySet, evictions);
    else this.takeSets(table.data, sets, untracks, mark);
    return this;
  }
}

/**
 * Whether every member of `set` is still tracked; looks at the members only when the manager
 * stopped tracking something since the set was last confirmed, and confirms it when they all are.
 */
function confirmTracked(set: ResidencySet, untracks: number): boolean {
  if (set.untracksChecked === untracks) return true;
  for (const managed of set.objects()) if (!managed.tracked) return false;
  set.untracksChecked = untracks;
  return true;
}
