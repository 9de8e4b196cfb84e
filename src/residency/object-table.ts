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
 * Invariants: an index below `capacity` is either free (on the free list) or held by one tracked
 * object; `alloc` returns a record set to the never-used state; `data` holds `capacity` records and
 * is replaced (records copied) only by `alloc`, so a caller may hold it across a pass that allocates
 * nothing; FLAGS is RESIDENT + NON_LOCAL_BIT + 4 × the fence id of the last use (0: none), and fence
 * ids are small integers (< 2^29), so the flags stay exact under int32 bit operations.
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

export const RESIDENT = 1;
export const NON_LOCAL_BIT = 2;
/** FLAGS = fenceId × FENCE_UNIT + the two bits above. */
export const FENCE_UNIT = 4;
const BITS = RESIDENT | NON_LOCAL_BIT;

export class ObjectTable {
  /** The records; replaced when the table grows. */
  data = new Float64Array(64 * RECORD);
  private readonly free: number[] = [];
  /** Indices handed out at least once: the next new one. */
  private used = 0;
  /** Fence by id (id 0: none). */
  private readonly fences: (Fence | undefined)[] = [undefined];

  get capacity(): number {
    return this.data.length / RECORD;
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
    return index;
  }

  /** The object no longer tracked: its index may be handed out again. */
  release(index: number): void {
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
  }
}
