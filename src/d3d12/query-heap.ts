/**
 * ID3D12QueryHeap for timestamps: `count` queries that EndQuery writes and ResolveQueryData copies
 * out as UINT64 ticks of the queue's timestamp frequency (CommandQueue.getTimestampFrequency).
 *
 * Invariants: the heap owns one WebGPU query set of `count` timestamps and one internal DEFAULT
 * buffer resource of count × 8 bytes (rounded up to a page) that resolves land in before a copy job
 * moves them to the destination; both live until release() and, if a queue then holds work behind a
 * wait (which may resolve into those pages), until that work has run. The internal resource counts against
 * the LOCAL budget, as a real query heap's memory does.
 */
import type { QueryHeapDesc } from '../validation/query.js';
import { DeviceChild } from './device-child.js';
import type { Resource } from './resource.js';

// Validation takes it as a QueryHeapView, structurally (see heap.ts).
export class QueryHeap extends DeviceChild {
  /** @internal Created by Device.createQueryHeap. */
  constructor(
    /** Unique among the device's objects of its kind and never reused (an emulator addition): memory statistics, fault reports and info-queue messages name objects by it. */
    readonly id: number,
    /** @internal The validated description (getDesc returns a copy). */
    readonly desc: Required<QueryHeapDesc>,
    /** @internal The WebGPU query set. */
    readonly querySet: GPUQuerySet,
    /** @internal Where resolved results are staged, in emulated memory. */
    readonly results: Resource,
    /** Frees the query set and the staging memory once no held queue work can use them. */
    private readonly onRelease: (heap: QueryHeap) => void,
    /** What created it (its device's QueryHeaps): DeviceChild.createdBy compares against it. */
    creator: object,
  ) {
    super(creator);
  }

  get label(): string {
    return `query heap #${this.id}${this.nameSuffix}`;
  }

  protected get interfaceName(): string {
    return 'QueryHeap';
  }

  getDesc(): Required<QueryHeapDesc> {
    this.live('getDesc');
    return { ...this.desc };
  }

  /** COM Release: the query set and the staging memory go (after work held behind queue waits). */
  release(): void {
    this.markReleased();
    this.onRelease(this);
  }
}
