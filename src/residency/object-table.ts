/**
 * ObjectTable: the numbers the residency manager keeps per tracked object (size, segment, resident
 * flag, LRU stamp, reuse history, last use), as one record of RECORD float64s per object in a single
 * Float64Array, at a dense index the table hands out.
 *
 * Why: executeCommandLists reads and writes these for every object of a batch, in the order of the
 * batch's residency sets, which is scattered over the tracked objects. As fields of separate JS
 * objects each visit was a cache and TLB miss in a heap of 100,000 objects; here it is one 64-byte
 * record in a compact array, reached from the set's Int32Array of indices.
 *
 * Beside it, `policy` holds POLICY_RECORD float64s per object for the victim policies
 * (victim-policies.ts): the use history they read and the shadow caches' bits (policy-selector.ts).
 * They are written when an object comes back after a gap, when victims are chosen and (CHARGED)
 * by the shift detector's sweep of a few records a batch, never on a use in consecutive batches, so
 * they stay out of the hot record.
 *
 * A use's time and sync point are the batch's, alike for all its objects: the stamp writes them
 * once per batch into a ring of the last BATCH_LOG batches (logBatch), and a record holds only the
 * batch. A record's own LAST_USED_MS, LAST_USE_VALUE and fence are its values once its batch left
 * the ring (spill copies them in, at least every BATCH_LOG / 2 batches, before the slot is reused);
 * the accessors read the ring while it holds the record's batch. So a use costs two stores into the
 * record (batch, LRU stamp) instead of five: at 1,000 of 10,000 objects, the manager's overhead over a
 * plain submit went from 16 to 10 µs (Node, SwiftShader host).
 *
 * Invariants: an index below `capacity` is either free (on the free list) or held by one tracked
 * object; `alloc` returns a record set to the never-used state; `data` holds `capacity` records and
 * `policy` `capacity` policy records, both replaced (records copied) only by `alloc`, so a caller may
 * hold them across a pass that allocates nothing; FLAGS is RESIDENT + NON_LOCAL_BIT + 4 × the fence
 * id of the last use (0: none), and fence ids are small integers (< 2^29), so the flags stay exact
 * under int32 bit operations; SHADOWS is -1 exactly while the index is free (below `highWater`);
 * for a record whose LAST_BATCH b is not -1, the ring's slot b % BATCH_LOG is tagged b, or the
 * record's own last-use fields hold b's values (both may hold, alike).
 */
import type { Fence } from '../d3d12/fence.js';

/** Float64s per record: 64 bytes, one cache line. */
export const RECORD = 8;
/** Bytes against the budget. */
export const SIZE = 0;
/** RESIDENT | NON_LOCAL_BIT | fence id × FENCE_UNIT (the last use's, once spilled). */
export const FLAGS = 1;
/** The batch of the last use (ReuseRecord.lastBatch), -1 before the first. */
export const LAST_BATCH = 2;
/** Mean reuse gap in batches (ReuseRecord.meanGap), 0 before the first gap. */
export const MEAN_GAP = 3;
/** LRU order: the manager's use counter at the last use (higher: more recent). */
export const USE_STAMP = 4;
/** CPU time (ms) of the last executeCommandLists that used the object, once spilled (lastUsedMs reads it); -Infinity before. */
export const LAST_USED_MS = 5;
/** The fence value that marks the last use complete (with the fence id in FLAGS), once spilled (lastUseValue reads it). */
export const LAST_USE_VALUE = 6;
/** Scratch: the gather pass that last took the object (de-duplicates across a batch's sets). */
export const GATHERED = 7;

/** Float64s per policy record. */
export const POLICY_RECORD = 12;
/** The batch the current (or last) stretch of consecutive uses began, -1 before the first use. */
export const STRETCH_START = 0;
/** The stretch before it: first and last batch, -1 while there was none. */
export const PREV_START = 1;
export const PREV_END = 2;
/** Bit p: the object is in policy p's shadow cache (policy-selector.ts); -1 while the index is free. */
export const SHADOWS = 3;
/** The first batch the object was tracked for (popularity.ts). */
export const TRACKED_AT = 4;
/**
 * The object's counts in one epoch of popularity.ts: the epoch (-1: none), the decayed count of its
 * arrivals (first uses and returns after a gap) in it and its decayed batches in use in it before
 * the last stretch, both as log2 keys. A second slot of the same three follows at SECOND_SLOT:
 * one counts for the current epoch, the other for the candidate the shift detector would start.
 */
export const EPOCH = 5;
export const FREQUENCY = 6;
export const IN_USE = 7;
export const SECOND_SLOT = 3;
/** The batch through which the object's idle batches were charged to the shift detector (popularity.ts), -1 before. */
export const CHARGED = 11;

export const RESIDENT = 1;
export const NON_LOCAL_BIT = 2;
/** FLAGS = fenceId × FENCE_UNIT + the two bits above. */
export const FENCE_UNIT = 4;
const BITS = RESIDENT | NON_LOCAL_BIT;

/**
 * Batches the ring of last uses holds: 2,048 (64 KiB), so a spill looks through the records once per
 * 1,024 batches (at 100,000 objects about 0.2 ms, 0.2 µs a batch).
 */
export const BATCH_LOG = 2048;
const SPILL_INTERVAL = BATCH_LOG / 2;
/** Float64s per ring slot: the batch (the tag), its CPU time, its fence id, its sync value. */
const SLOT = 4;
const TAG = 0;
const SLOT_MS = 1;
const SLOT_FENCE = 2;
const SLOT_VALUE = 3;

export class ObjectTable {
  /** The records; replaced when the table grows. */
  data = new Float64Array(64 * RECORD);
  /** The policy records; replaced when the table grows. */
  policy = new Float64Array(64 * POLICY_RECORD).fill(-1);
  private readonly free: number[] = [];
  /** Indices handed out at least once: the next new one. */
  private used = 0;
  /** Fence by id (id 0: none). */
  private readonly fences: (Fence | undefined)[] = [undefined];
  /** The last uses of the last BATCH_LOG batches, by batch % BATCH_LOG (tag -1: empty). */
  private readonly log = new Float64Array(BATCH_LOG * SLOT).fill(-1);
  /** The batch of the last spill. */
  private spilledAt = 0;

  get capacity(): number {
    return this.data.length / RECORD;
  }

  /** Indices handed out at least once: every tracked object's index is below it. */
  get highWater(): number {
    return this.used;
  }

  /** A record for a newly tracked object, in the never-used state. */
  alloc(size: number, nonLocal: boolean, resident: boolean): number {
    let index = this.free.pop();
    if (index === undefined) {
      index = this.used++;
      if (index === this.capacity) this.grow();
    }
    const data = this.data;
    const at = index * RECORD;
    data[at + SIZE] = size;
    data[at + FLAGS] = (resident ? RESIDENT : 0) | (nonLocal ? NON_LOCAL_BIT : 0);
    data[at + LAST_BATCH] = -1;
    data[at + MEAN_GAP] = 0;
    data[at + USE_STAMP] = 0;
    data[at + LAST_USED_MS] = -Infinity;
    data[at + LAST_USE_VALUE] = 0;
    data[at + GATHERED] = 0;
    const policy = this.policy;
    const p = index * POLICY_RECORD;
    policy[p + STRETCH_START] = -1;
    policy[p + PREV_START] = -1;
    policy[p + PREV_END] = -1;
    policy[p + SHADOWS] = 0;
    policy[p + TRACKED_AT] = 0;
    for (let slot = p; slot <= p + SECOND_SLOT; slot += SECOND_SLOT) {
      policy[slot + EPOCH] = -1;
      policy[slot + FREQUENCY] = -Infinity;
      policy[slot + IN_USE] = -Infinity;
    }
    policy[p + CHARGED] = -1;
    return index;
  }

  /** The object no longer tracked: its index may be handed out again. */
  release(index: number): void {
    this.policy[index * POLICY_RECORD + SHADOWS] = -1;
    this.free.push(index);
  }

  /** An id for `fence` to store in FLAGS (ids are never reused: the manager keeps one fence per queue). */
  addFence(fence: Fence): number {
    this.fences.push(fence);
    return this.fences.length - 1;
  }

  /**
   * Records batch `batch`'s use (its CPU time, and the fence `fenceId` at `useValue` that marks it
   * complete) for the records the stamp gives LAST_BATCH `batch`; batches come in rising order.
   */
  logBatch(batch: number, now: number, fenceId: number, useValue: number): void {
    if (this.spillDue(batch)) this.spill(batch);
    const at = (batch % BATCH_LOG) * SLOT;
    const log = this.log;
    log[at + TAG] = batch;
    log[at + SLOT_MS] = now;
    log[at + SLOT_FENCE] = fenceId;
    log[at + SLOT_VALUE] = useValue;
  }

  /** Whether logBatch(batch) looks through the records (ResidencyManager settles deferred stamps first). */
  spillDue(batch: number): boolean {
    return batch - this.spilledAt >= SPILL_INTERVAL;
  }

  /**
   * Copies the ring's last uses into the records whose batch is BATCH_LOG / 2 or more before
   * `batch`: the slot of such a batch may be reused before the next spill.
   */
  private spill(batch: number): void {
    const { data, log } = this;
    const horizon = batch - SPILL_INTERVAL;
    for (let index = 0; index < this.used; index++) {
      const at = index * RECORD;
      const last = data[at + LAST_BATCH] as number;
      if (last < 0 || last > horizon) continue;
      const slot = (last % BATCH_LOG) * SLOT;
      if (log[slot + TAG] !== last) continue; // spilled before
      data[at + LAST_USED_MS] = log[slot + SLOT_MS] as number;
      data[at + LAST_USE_VALUE] = log[slot + SLOT_VALUE] as number;
      data[at + FLAGS] = ObjectTable.withFence(data[at + FLAGS] as number, log[slot + SLOT_FENCE] as number);
    }
    this.spilledAt = batch;
  }

  /** The ring slot offset holding the record's last use, or -1 when the record holds it. */
  private slotOf(index: number): number {
    const last = this.data[index * RECORD + LAST_BATCH] as number;
    if (last < 0) return -1;
    const slot = (last % BATCH_LOG) * SLOT;
    return this.log[slot + TAG] === last ? slot : -1;
  }

  /** CPU time (the manager's clock) of the object's last use; -Infinity before the first. */
  lastUsedMs(index: number): number {
    const slot = this.slotOf(index);
    return slot < 0 ? (this.data[index * RECORD + LAST_USED_MS] as number) : (this.log[slot + SLOT_MS] as number);
  }

  /** The fence value that marks the last use complete (0 before the first). */
  lastUseValue(index: number): number {
    const slot = this.slotOf(index);
    return slot < 0 ? (this.data[index * RECORD + LAST_USE_VALUE] as number) : (this.log[slot + SLOT_VALUE] as number);
  }

  /** The fence of the object's last use, undefined before the first. */
  lastUseFence(index: number): Fence | undefined {
    const slot = this.slotOf(index);
    return this.fences[
      slot < 0
        ? Math.floor((this.data[index * RECORD + FLAGS] as number) / FENCE_UNIT)
        : (this.log[slot + SLOT_FENCE] as number)
    ];
  }

  isResident(index: number): boolean {
    return ((this.data[index * RECORD + FLAGS] as number) & RESIDENT) !== 0;
  }

  setResident(index: number, resident: boolean): void {
    const at = index * RECORD + FLAGS;
    const flags = this.data[at] as number;
    this.data[at] = resident ? flags | RESIDENT : flags & ~RESIDENT;
  }

  isNonLocal(index: number): boolean {
    return ((this.data[index * RECORD + FLAGS] as number) & NON_LOCAL_BIT) !== 0;
  }

  /** FLAGS with the last use's fence set to `fenceId`, the bits kept. */
  static withFence(flags: number, fenceId: number): number {
    return (flags & BITS) + fenceId * FENCE_UNIT;
  }

  private grow(): void {
    const data = new Float64Array(this.data.length * 2);
    data.set(this.data);
    this.data = data;
    const policy = new Float64Array(this.policy.length * 2).fill(-1);
    policy.set(this.policy);
    this.policy = policy;
  }
}
