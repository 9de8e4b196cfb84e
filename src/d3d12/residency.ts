/**
 * DeviceResidency: D3D12's residency calls on a device (MakeResident, Evict, EnqueueMakeResident,
 * SetResidencyPriority, QueryVideoMemoryInfo, SetVideoMemoryReservation) and the budget they are
 * measured against.
 *
 * Pageable objects are heaps and committed resources (their implicit heap); placed resources page
 * with their heap and reserved resources with the heaps their tiles map to. Each pageable has D3D12's
 * reference count: created at 1 (0 with CREATE_NOT_RESIDENT); MakeResident increments, Evict
 * decrements; the memory pages out when the count reaches 0 and no resource in it is mapped (mapped
 * memory stays resident), and pages back in when it rises from 0. Paging is queue work
 * (src/gpu/paging.ts), so these calls never wait for the GPU.
 *
 * Budget per segment: the pool (or `options.localMemoryBudget` / `nonLocalMemoryBudget`, at most the
 * pool), lowered by the debug budget override (UE's D3D12.ResidencyDebugBudgetMB) and, **Chosen**, by
 * the reservation: memory reserved with SetVideoMemoryReservation is set aside for others, as Dawn
 * treats external reservations. Usage counts resident heaps in whole pages.
 */
import type { PagingStats, SegmentStats } from './memory-stats.js';
import type { MemoryBacking } from './memory-backing.js';
import { D3D12Error, invalidArg, show } from '../api/errors.js';
import type { Fence } from './fence.js';
import { checkFenceValue } from './fence.js';
import type { Heap } from './heap.js';
import { Resource } from './resource.js';
import type { MemorySegment } from '../api/types.js';
import { TILE_SIZE } from '../memory/tiling.js';

export type Pageable = Heap | Resource;

/** D3D12_RESIDENCY_PRIORITY values by name. */
export const RESIDENCY_PRIORITIES = {
  MINIMUM: 0x28000000,
  LOW: 0x50000000,
  NORMAL: 0x78000000,
  HIGH: 0xa0010000,
  MAXIMUM: 0xc8000000,
} as const;
export type ResidencyPriority = keyof typeof RESIDENCY_PRIORITIES | number;

/** DXGI_QUERY_VIDEO_MEMORY_INFO. */
export interface VideoMemoryInfo {
  budget: number;
  currentUsage: number;
  availableForReservation: number;
  currentReservation: number;
}

/** Device.getResidencyStatus's answer. */
export interface ResidencyStatus {
  /** Bytes against the segment's budget: the heap's whole pages. */
  sizeInBytes: number;
  segment: MemorySegment;
  resident: boolean;
  /** MakeResident minus Evict calls. */
  residencyReferences: number;
  /** A resource in it is mapped: it stays resident whatever Evict says. */
  mapped: boolean;
  /** Its D3D12_RESIDENCY_PRIORITY (setResidencyPriority; NORMAL unless set). */
  priority: number;
}

/** An out-argument (as D3D12's out pointers) must be a plain object to fill, if given. */
function checkOut(call: string, argument: string, out: unknown): void {
  if (out !== undefined && (typeof out !== 'object' || out === null || Array.isArray(out))) throw invalidArg(call, argument, `must be an object to fill, or omitted, got ${show(out)}`);
}

export interface ResidencyOwner {
  /** Heaps and committed resources of this device, or undefined. */
  pageableHeap(value: unknown): Heap | undefined;
  readonly backing: MemoryBacking | undefined;
  /** Completes `value` on `fence` once the work queued so far is done. */
  completeFenceAfterWork(fence: Fence, value: number): void;
  /** Throws DXGI_ERROR_DEVICE_REMOVED once the device is removed. */
  checkNotRemoved(call: string): void;
}

export class DeviceResidency {
  private readonly reservation: Record<MemorySegment, number> = { LOCAL: 0, NON_LOCAL: 0 };
  private readonly usage: Record<MemorySegment, number> = { LOCAL: 0, NON_LOCAL: 0 };
  private debugBudget: number | null = null;
  /** Bytes paged, for stats and benchmarks. */
  readonly paged: PagingStats = { evictions: 0, evictedBytes: 0, restores: 0, restoredBytes: 0 };

  constructor(
    private readonly owner: ResidencyOwner,
    /** The pool size of each segment (its upper bound for the budget). */
    private readonly poolBytes: Record<MemorySegment, number>,
    private readonly configuredBudget: Record<MemorySegment, number>,
  ) {}

  /** The size of a segment's pool. */
  poolSize(segment: MemorySegment): number {
    return this.poolBytes[segment];
  }

  /** A segment's pool, budget, usage and free bytes (memory statistics). */
  segmentStats(segment: MemorySegment): Omit<SegmentStats, 'heaps' | 'residentHeaps'> {
    const info = this.queryVideoMemoryInfo(segment);
    return { poolBytes: this.poolBytes[segment], budget: info.budget, currentUsage: info.currentUsage, currentReservation: info.currentReservation, freeBytes: this.freeBytes(segment) };
  }

  /** Device.getResidencyStatus: a pageable object's residency (into `out` if given), or E_INVALIDARG naming `call`. */
  status(call: string, pageable: unknown, out?: ResidencyStatus): ResidencyStatus {
    const heap = this.heapOf(call, 'pageable', pageable);
    checkOut(call, 'status', out);
    const status = out ?? ({} as ResidencyStatus);
    status.sizeInBytes = heap.residentBytes;
    status.segment = heap.segment;
    status.resident = heap.resident;
    status.residencyReferences = heap.residencyReferences;
    status.mapped = heap.residencyLocks > 0;
    status.priority = heap.residencyPriority;
    return status;
  }

  /** A new heap counts against its segment while it is resident. */
  heapCreated(heap: Heap): void {
    if (heap.resident) this.usage[heap.segment] += heap.residentBytes;
  }

  /** A heap's memory was freed for good. */
  heapFreed(heap: Heap): void {
    if (heap.resident) this.usage[heap.segment] -= heap.residentBytes;
    heap.markNotResident();
  }

  budget(segment: MemorySegment): number {
    const base = Math.min(this.configuredBudget[segment], this.poolBytes[segment]);
    const debug = this.debugBudget === null ? base : Math.min(base, this.debugBudget);
    return Math.max(0, debug - this.reservation[segment]);
  }

  /** QueryVideoMemoryInfo; fills `out` (D3D12's pVideoMemoryInfo) when given, so a caller polling it allocates nothing. */
  queryVideoMemoryInfo(segment: unknown, out?: VideoMemoryInfo): VideoMemoryInfo {
    const call = 'queryVideoMemoryInfo';
    if (segment !== 'LOCAL' && segment !== 'NON_LOCAL') throw invalidArg(call, 'memorySegmentGroup', `must be LOCAL or NON_LOCAL, got ${show(segment)}`);
    checkOut(call, 'videoMemoryInfo', out);
    const info = out ?? ({} as VideoMemoryInfo);
    info.budget = this.budget(segment);
    info.currentUsage = this.usage[segment];
    info.availableForReservation = Math.min(this.configuredBudget[segment], this.poolBytes[segment]);
    info.currentReservation = this.reservation[segment];
    return info;
  }

  setVideoMemoryReservation(segment: unknown, bytes: unknown): void {
    const call = 'setVideoMemoryReservation';
    if (segment !== 'LOCAL' && segment !== 'NON_LOCAL') throw invalidArg(call, 'memorySegmentGroup', `must be LOCAL or NON_LOCAL, got ${show(segment)}`);
    const available = Math.min(this.configuredBudget[segment], this.poolBytes[segment]);
    if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0 || bytes > available) {
      throw invalidArg(call, 'reservation', `must be an integer from 0 to availableForReservation (${available}), got ${show(bytes)}`);
    }
    this.reservation[segment] = bytes;
  }

  /** UE's D3D12.ResidencyDebugBudgetMB: a smaller budget (0 = maximum pressure), or null to clear it. */
  setDebugBudget(bytes: unknown): void {
    if (bytes !== null && (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0)) {
      throw invalidArg('setResidencyDebugBudget', 'bytes', `must be a non-negative integer or null, got ${show(bytes)}`);
    }
    this.debugBudget = bytes;
  }

  private heapsOf(call: string, objects: unknown): Heap[] {
    if (!Array.isArray(objects)) throw invalidArg(call, 'objects', `must be an array of heaps and committed resources, got ${show(objects)}`);
    return objects.map((object: unknown, i) => this.heapOf(call, `objects[${i}]`, object));
  }

  /** The heap behind a pageable object (a live heap or committed resource of this device), or throws. */
  heapOf(call: string, argument: string, object: unknown): Heap {
    if (object instanceof Resource && object.kind !== 'committed') {
      throw invalidArg(call, argument, `${object.label} is not pageable: a ${object.kind} resource pages with ${object.kind === 'placed' ? 'its heap' : 'the heaps its tiles map to'}`);
    }
    const heap = this.owner.pageableHeap(object);
    if (!heap) throw invalidArg(call, argument, 'must be a heap or committed resource of this device');
    if (heap.released || (object instanceof Resource && object.released)) throw invalidArg(call, argument, `${object instanceof Resource ? object.label : heap.label} was released`);
    return heap;
  }

  /** Pages every heap that goes from 0 to 1 back in, or throws E_OUTOFMEMORY changing nothing. */
  private raise(call: string, heaps: readonly Heap[], denyOverBudget: boolean): void {
    const rising = [...new Set(heaps.filter((heap) => !heap.resident))];
    const needed: Record<MemorySegment, number> = { LOCAL: 0, NON_LOCAL: 0 };
    for (const heap of rising) needed[heap.segment] += heap.residentBytes;
    for (const segment of ['LOCAL', 'NON_LOCAL'] as const) {
      if (needed[segment] === 0) continue;
      if (denyOverBudget && this.usage[segment] + needed[segment] > this.budget(segment)) {
        throw new D3D12Error('E_OUTOFMEMORY', call, 'flags', `DENY_OVERBUDGET: making these objects resident needs ${needed[segment]} bytes of ${segment} memory; usage is ${this.usage[segment]} of a ${this.budget(segment)}-byte budget`);
      }
      const free = this.freeBytes(segment);
      if (needed[segment] > free) {
        throw new D3D12Error('E_OUTOFMEMORY', call, 'objects', `making these objects resident needs ${needed[segment]} bytes of ${segment} memory and ${free} are free (evict something first)`);
      }
    }
    for (const heap of heaps) heap.addResidencyReference();
    this.pageIn(call, rising);
  }

  /** ID3D12Device::MakeResident. */
  makeResident(objects: unknown): void {
    this.owner.checkNotRemoved('makeResident');
    this.raise('makeResident', this.heapsOf('makeResident', objects), false);
  }

  /** ID3D12Device3::EnqueueMakeResident: signals `fence` with `value` once the objects are resident. */
  enqueueMakeResident(flags: unknown, objects: unknown, fence: Fence | undefined, value: unknown): void {
    const call = 'enqueueMakeResident';
    this.owner.checkNotRemoved(call);
    if (flags !== 'NONE' && flags !== 'DENY_OVERBUDGET') throw invalidArg(call, 'flags', `must be NONE or DENY_OVERBUDGET, got ${show(flags)}`);
    const heaps = this.heapsOf(call, objects);
    if (!fence) throw invalidArg(call, 'fenceToSignal', 'must be a fence created by this device');
    checkFenceValue(call, 'fenceValueToSignal', value);
    this.raise(call, heaps, flags === 'DENY_OVERBUDGET');
    this.owner.completeFenceAfterWork(fence, value as number);
  }

  /** ID3D12Device::Evict: decrements; pages out at 0 unless a resource in it is mapped. */
  evict(objects: unknown): void {
    const call = 'evict';
    this.owner.checkNotRemoved(call);
    const heaps = this.heapsOf(call, objects);
    const drops = new Map<Heap, number>();
    for (const heap of heaps) drops.set(heap, (drops.get(heap) ?? 0) + 1);
    for (const [heap, count] of drops) {
      if (heap.residencyReferences < count) {
        throw invalidArg(call, 'objects', `${heap.label} would be evicted more times than it was made resident (count ${heap.residencyReferences})`);
      }
    }
    for (const [heap, count] of drops) heap.dropResidencyReferences(count);
    this.pageOutIfUnused([...drops.keys()]);
  }

  /**
   * Map() of a resource in `heap`: **Chosen**, as Dawn's D3D12 backend locks a mapped heap
   * (ResidencyManager::LockAllocation): an evicted heap is paged in for the CPU, and every mapped
   * heap stays resident until its last unmap; its residency count does not change. Throws
   * E_OUTOFMEMORY, changing nothing, when the pool cannot take it.
   */
  lockForMap(call: string, heap: Heap): void {
    if (!heap.resident) {
      const free = this.freeBytes(heap.segment);
      if (heap.residentBytes > free) {
        throw new D3D12Error('E_OUTOFMEMORY', call, 'this', `${heap.label} is evicted, and paging it in to map it needs ${heap.residentBytes} bytes of ${heap.segment} memory; ${free} are free (evict something first)`);
      }
      this.pageIn(call, [heap]);
    }
    heap.lockResidency();
  }

  private freeBytes(segment: MemorySegment): number {
    const backing = this.owner.backing;
    return backing ? backing.freePages(segment) * TILE_SIZE : this.poolBytes[segment] - this.usage[segment];
  }

  /** Pages heaps back in: one paging submission for all of them. */
  private pageIn(call: string, heaps: readonly Heap[]): void {
    if (heaps.length === 0) return;
    this.owner.backing?.pageIn(call, heaps);
    for (const heap of heaps) {
      heap.markResident();
      this.usage[heap.segment] += heap.residentBytes;
      this.paged.restores++;
      this.paged.restoredBytes += heap.residentBytes;
    }
  }

  /** Pages out every heap whose count is 0, unless mapped memory keeps it: one paging submission for all. */
  pageOutIfUnused(heaps: readonly Heap[]): void {
    const out = heaps.filter((heap) => heap.residencyReferences === 0 && heap.residencyLocks === 0 && heap.resident && !heap.released);
    if (out.length === 0) return;
    this.owner.backing?.pageOut(out);
    for (const heap of out) {
      heap.markNotResident();
      this.usage[heap.segment] -= heap.residentBytes;
      this.paged.evictions++;
      this.paged.evictedBytes += heap.residentBytes;
    }
  }

  /** ID3D12Device1::SetResidencyPriority. */
  setResidencyPriority(objects: unknown, priorities: unknown): void {
    const call = 'setResidencyPriority';
    const heaps = this.heapsOf(call, objects);
    if (!Array.isArray(priorities) || priorities.length !== heaps.length) {
      throw invalidArg(call, 'priorities', `must be an array with one priority per object (${heaps.length}), got ${show(priorities)}`);
    }
    const values = priorities.map((priority: unknown, i) => {
      if (typeof priority === 'string' && Object.hasOwn(RESIDENCY_PRIORITIES, priority)) return RESIDENCY_PRIORITIES[priority as keyof typeof RESIDENCY_PRIORITIES];
      if (typeof priority === 'number' && Number.isInteger(priority) && priority >= 0 && priority <= 0xffffffff) return priority;
      throw invalidArg(call, `priorities[${i}]`, `must be MINIMUM, LOW, NORMAL, HIGH, MAXIMUM or a 32-bit value, got ${show(priority)}`);
    });
    heaps.forEach((heap, i) => heap.setResidencyPriority(values[i] as number));
  }
}
