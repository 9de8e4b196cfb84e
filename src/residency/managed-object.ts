/**
 * The residency manager's record of one tracked pageable object (d3dx12residency.h's
 * ManagedObject): its size and segment, whether the manager holds it resident, when it was last used
 * (CPU time, LRU stamp, batch, GPU sync point) and its reuse history for the victim order.
 *
 * Invariants: `residentIndex` is its place in the manager's resident list exactly while `resident`
 * (else -1); `tracked` is false once the manager forgot it (sets still holding it skip it); the GPU
 * sync point is (`lastUseFence`, `lastUseValue`), none while `lastUseFence` is undefined. The fields
 * are plain, not getters or objects, so the per-batch pass writes numbers and allocates nothing.
 */
import type { Fence } from '../d3d12/fence.js';
import type { Pageable, ResidencyStatus } from '../d3d12/residency.js';
import type { MemorySegment } from '../api/types.js';
import type { ReuseRecord } from './reuse-predictor.js';
import type { VictimCandidate } from './victim-order.js';

export class ManagedObject implements ReuseRecord, VictimCandidate {
  /** The manager holds one MakeResident reference on the object while this is true. */
  resident: boolean;
  /** Index in the manager's list of resident objects, -1 when not resident. */
  residentIndex = -1;
  tracked = true;
  /** CPU time of the last executeCommandLists that used it (the manager's clock, ms). */
  lastUsedMs = -Infinity;
  /** LRU order: the manager's use counter at the last use (higher: more recent). */
  useStamp = 0;
  /** The batch of the last use (ReuseRecord), -1 before the first. */
  lastBatch = -1;
  meanGap = 0;
  /** The GPU work that last used it: complete once the fence reaches the value. */
  lastUseFence: Fence | undefined = undefined;
  lastUseValue = 0;
  /** Scratch: the gather pass of the batch being formed (de-duplicates across sets). */
  gathered = 0;
  /** Scratch: the residency set fill that last inserted it (ResidencySet's O(1) de-duplication). */
  setMark = 0;
  /** Bytes against the budget, and the segment (fixed for the object's life; read on every execute). */
  readonly size: number;
  readonly segment: MemorySegment;

  constructor(
    readonly pageable: Pageable,
    status: ResidencyStatus,
  ) {
    this.resident = status.resident;
    this.size = status.sizeInBytes;
    this.segment = status.segment;
  }

  /** Whether the GPU work that last used the object has completed. */
  get idle(): boolean {
    return this.lastUseFence === undefined || this.lastUseFence.getCompletedValue() >= this.lastUseValue;
  }

  /**
   * Whether that work has at least been submitted to the GPU (not held behind a queue wait): an
   * eviction queued now runs after it, which is as safe as waiting for it.
   */
  get submitted(): boolean {
    return this.lastUseFence === undefined || this.lastUseFence.getSubmittedValue() >= this.lastUseValue;
  }

  /** Released by the application (it should have ended tracking first). */
  get released(): boolean {
    return this.pageable.released;
  }

  get label(): string {
    return this.pageable.label;
  }
}
