/**
 * The residency manager's record of one tracked pageable object (d3dx12residency.h's
 * ManagedObject): its size and segment, whether the manager holds it resident, when it was last
 * used (CPU time and GPU sync point), and its place in the LRU.
 */
import type { Fence } from '../d3d12/fence.js';
import type { Pageable, ResidencyStatus } from '../d3d12/residency.js';
import type { MemorySegment } from '../api/types.js';
import type { LruNode } from './lru.js';

export interface SyncPoint {
  fence: Fence;
  value: number;
}

export class ManagedObject implements LruNode {
  prev: LruNode | null = null;
  next: LruNode | null = null;
  inList = false;
  /** The manager holds one MakeResident reference on the object while this is true. */
  resident: boolean;
  /** CPU time of the last executeCommandLists that used it (the manager's clock, ms). */
  lastUsedMs = -Infinity;
  /** The GPU work that last used it; complete once the fence reaches the value. */
  lastUse: SyncPoint | undefined;
  /** Marks membership in the batch being executed (a batch number). */
  batch = 0;
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
    return !this.lastUse || this.lastUse.fence.getCompletedValue() >= this.lastUse.value;
  }

  /**
   * Whether that work has at least been submitted to the GPU (not held behind a queue wait): an
   * eviction queued now runs after it, which is as safe as waiting for it.
   */
  get submitted(): boolean {
    return !this.lastUse || this.lastUse.fence.getSubmittedValue() >= this.lastUse.value;
  }

  /** Released by the application (it should have ended tracking first). */
  get released(): boolean {
    return this.pageable.released;
  }

  get label(): string {
    return this.pageable.label;
  }
}
