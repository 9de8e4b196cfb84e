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
 * They are written when an object comes back after a gap and when victims are chosen, never on a
 * use in consecutive batches, so they stay out of the hot record.
 *
 * Invariants: an index below `capacity` is either free (on the free list) or held by one tracked
 * object; `alloc` returns a record set to the never-used state; `data` holds `capacity` records and
 * `policy` `capacity` policy records, both replaced (records copied) only by `alloc`, so a caller may
 * hold them across a pass that allocates nothing; FLAGS is RESIDENT + NON_LOCAL_BIT + 4 × the fence
 * id of the last use (0: none), and fence ids are small integers (< 2^29), so the flags stay exact
 * under int32 bit operations; SHADOWS is -1 exactly while the index is free (below `highWater`).
 */
import type { Fence } from '../d3d12/fence.js';

/** Float64s per record: 64 bytes, one cache line. */
export const RECORD = 8;
/** Bytes against the budget. */
export const SIZE = 0;
/** RESIDENT | NON_LOCAL_BIT | fence id × FENCE_UNIT. */
export const FLAGS = 1;
/** The batch of the last use (ReuseRecord.lastBatch), -1 before the first. */
export const LAST_BATCH = 2;
/** Mean reuse gap in batches (ReuseRecord.meanGap), 0 before the first gap. */
export const MEAN_GAP = 3;
/** LRU order: the manager's use counter at the last use (higher: more recent). */
export const USE_STAMP = 4;
/** CPU time (ms) of the last executeCommandLists that used the object; -Infinity before. */
export const LAST_USED_MS = 5;
/** The fence value that marks the last use complete (with the fence id in FLAGS). */
export const LAST_USE_VALUE = 6;
/** Scratch: the gather pass that last took the object (de-duplicates across a batch's sets). */
export const GATHERED = 7;

/** Float64s per policy record. */
export const POLICY_RECORD = 6;
/** The batch the current (or last) stretch of consecutive uses began, -1 before the first use. */
export const STRETCH_START = 0;
/** The stretch before it: first and last batch, -1 while there was none. */
export const PREV_START = 1;
export const PREV_END = 2;
/** The decayed count of arrivals (first uses and returns after a gap) as a log2 key (victim-policies.ts). */
export const FREQUENCY = 3;
/** Bit p: the object is in policy p's shadow cache (policy-selector.ts); -1 while the index is free. */
export const SHADOWS = 4;
/** FREQUENCY with the short half-life of FAST_FREQUENT (victim-policies.ts), as a log2 key. */
export const FAST_FREQUENCY = 5;

export const RESIDENT = 1;
export const NON_LOCAL_BIT = 2;
/** FLAGS = fenceId × FENCE_UNIT + the two bits above. */
export const FENCE_UNIT = 4;
const BITS = RESIDENT | NON_LOCAL_BIT;

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
    policy[p + FREQUENCY] = -Infinity;
    policy[p + SHADOWS] = 0;
    policy[p + FAST_FREQUENCY] = -Infinity;
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

  /** The fence of the object's last use, undefined before the first. */
  lastUseFence(index: number): Fence | undefined {
    return this.fences[Math.floor((this.data[index * RECORD + FLAGS] as number) / FENCE_UNIT)];
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
