/**
 * The residency manager's handle on one tracked pageable object (d3dx12residency.h's
 * ManagedObject): the object, its place in the manager's lists, and its numbers (size, segment,
 * resident flag, when it was last used: CPU time, LRU stamp, batch, GPU sync point; its reuse
 * history for the victim order), which live in the manager's ObjectTable at `index` so the
 * per-batch pass reaches them without visiting this object. The accessors are for the paths that
 * run per eviction, not per batch.
 *
 * Invariants: `residentIndex` is its place in the manager's resident list exactly while `resident`
 * (else -1); `tracked` is false once the manager forgot it (sets still holding it skip it), and
 * from then on `index` may belong to another object, so nothing reads the numbers of an object no
 * longer tracked; the GPU sync point is (`lastUseFence`, `lastUseValue`), none while `lastUseFence`
 * is undefined.
 */
import type { Fence } from '../d3d12/fence.js';
import type { Pageable } from '../emulator/device-residency.js';
import type { MemorySegment } from '../api/types.js';
import { LAST_BATCH, MEAN_GAP, RECORD, SIZE, USE_STAMP, type ObjectTable } from './object-table.js';
import type { ReuseRecord } from './reuse-predictor.js';

export class ManagedObject implements ReuseRecord {
  /** Index in the manager's list of resident objects, -1 when not resident. */
  residentIndex = -1;
  tracked = true;
  /** Scratch: the residency set fill that last inserted it (ResidencySet's O(1) de-duplication). */
  setMark = 0;

  constructor(
    readonly pageable: Pageable,
    private readonly table: ObjectTable,
    /** The record in `table` (valid while tracked). */
    readonly index: number,
  ) {}

  /** The manager holds one MakeResident reference on the object while this is true. */
  get resident(): boolean {
    return this.table.isResident(this.index);
  }

  set resident(resident: boolean) {
    this.table.setResident(this.index, resident);
  }

  /** Bytes against the budget (fixed for the object's life). */
  get size(): number {
    return this.table.data[this.index * RECORD + SIZE] as number;
  }

  get segment(): MemorySegment {
    return this.table.isNonLocal(this.index) ? 'NON_LOCAL' : 'LOCAL';
  }

  /** CPU time of the last executeCommandLists that used it (the manager's clock, ms). */
  get lastUsedMs(): number {
    return this.table.lastUsedMs(this.index);
  }

  /** LRU order: the manager's use counter at the last use (higher: more recent). */
  get useStamp(): number {
    return this.table.data[this.index * RECORD + USE_STAMP] as number;
  }

  /** The batch of the last use (ReuseRecord), -1 before the first. */
  get lastBatch(): number {
    return this.table.data[this.index * RECORD + LAST_BATCH] as number;
  }

  set lastBatch(batch: number) {
    this.table.data[this.index * RECORD + LAST_BATCH] = batch;
  }

  get meanGap(): number {
    return this.table.data[this.index * RECORD + MEAN_GAP] as number;
  }

  set meanGap(gap: number) {
    this.table.data[this.index * RECORD + MEAN_GAP] = gap;
  }

  /** The GPU work that last used it: complete once the fence reaches `lastUseValue`. */
  get lastUseFence(): Fence | undefined {
    return this.table.lastUseFence(this.index);
  }

  get lastUseValue(): number {
    return this.table.lastUseValue(this.index);
  }

  /** Whether the GPU work that last used the object has completed. */
  get idle(): boolean {
    const fence = this.lastUseFence;
    return fence === undefined || fence.getCompletedValue() >= this.lastUseValue;
  }

  /**
   * Whether that work has at least been submitted to the GPU (not held behind a queue wait): an
   * eviction queued now runs after it, which is as safe as waiting for it.
   */
  get submitted(): boolean {
    const fence = this.lastUseFence;
    return fence === undefined || fence.getSubmittedValue() >= this.lastUseValue;
  }

  /** Released by the application (it should have ended tracking first). */
  get released(): boolean {
    return this.pageable.released;
  }

  get label(): string {
    return this.pageable.label;
  }
}
