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
 * treats external reservations. Usage counts resident heaps in whole pages, in the segment their
 * memory is in now: when LOCAL would go over its budget the emulated OS demotes heaps that prefer
 * LOCAL to NON_LOCAL, lowest residency priority first, and promotes them back when room returns
 * (heap-placement.ts); every change below that can cross the budget ends with that rebalancing.
 */
import type { PagingStats, SegmentStats } from './memory-stats.js';
import type { DeviceRemoval } from './device-removal.js';
import type { GpuBackend } from './gpu-backend.js';
import { D3D12Error, invalidArg, show } from '../api/errors.js';
import type { Fence } from '../d3d12/fence.js';
import { checkFenceValue } from '../d3d12/fence.js';
import type { Heap } from '../d3d12/heap.js';
import { Resource } from '../d3d12/resource.js';
import { DescriptorHeap } from '../d3d12/descriptor-heap.js';
import type { MemorySegment } from '../api/types.js';
import { TILE_SIZE } from '../memory/tiling.js';
import { HeapPlacement, type PlacementPlan } from './heap-placement.js';

/** ID3D12Pageable: heaps, committed resources, and shader-visible descriptor heaps (their memory pages like a committed resource). */
export type Pageable = Heap | Resource | DescriptorHeap;

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
  /** The segment its heap type prefers (DEFAULT: LOCAL; UPLOAD, READBACK: NON_LOCAL). */
  segment: MemorySegment;
  resident: boolean;
  /**
   * Resident in NON_LOCAL memory although `segment` is LOCAL: the emulated OS demoted it while the
   * process was over its LOCAL budget (its bytes and GPU virtual addresses are unchanged; it counts
   * in NON_LOCAL usage). False while evicted.
   */
  demoted: boolean;
  /** MakeResident minus Evict calls. */
  residencyReferences: number;
  /** A resource in it is mapped: it stays resident whatever Evict says. */
  mapped: boolean;
  /** Its D3D12_RESIDENCY_PRIORITY (setResidencyPriority; NORMAL unless set). */
  priority: number;
}

/** An out-argument (as D3D12's out pointers) must be a plain object to fill, if given. */
function checkOut(call: string, argument: string, out: unknown): void {
  if (out !== undefined && (typeof out !== 'object' || out === null || Array.isArray(out)))
    throw invalidArg(call, argument, `must be an object to fill, or omitted, got ${show(out)}`);
}

/** What device residency needs of its device's context (src/emulator/device-context.ts). */
export interface ResidencyOwner {
  /** The device's heaps and resources (ownHeap: implicit heaps of committed resources are not its heaps). */
  readonly objects: {
    ownHeap(value: unknown): Heap | undefined;
    ownResource(value: unknown): Resource | undefined;
  };
  readonly descriptorHeaps: { own(value: unknown): DescriptorHeap | undefined };
  /** The GPU side; undefined on a CPU-only device. */
  readonly backend: Pick<GpuBackend, 'backing' | 'workDone'> | undefined;
  /** Whether the device was removed (a removed device moves no memory). */
  readonly removal: Pick<DeviceRemoval, 'check' | 'reason'>;
}

export class DeviceResidency {
  private readonly reservation: Record<MemorySegment, number> = { LOCAL: 0, NON_LOCAL: 0 };
  private readonly usage: Record<MemorySegment, number> = { LOCAL: 0, NON_LOCAL: 0 };
  private debugBudget: number | null = null;
  /** Bytes paged, for stats and benchmarks. */
  readonly paged: PagingStats = {
    evictions: 0,
    evictedBytes: 0,
    restores: 0,
    restoredBytes: 0,
    demotions: 0,
    demotedBytes: 0,
    promotions: 0,
    promotedBytes: 0,
  };
  /** Where resident heaps that prefer LOCAL live now (demotion). */
  private readonly placement: HeapPlacement;

  constructor(
    private readonly owner: ResidencyOwner,
    /** The pool size of each segment (its upper bound for the budget). */
    private readonly poolBytes: Record<MemorySegment, number>,
    private readonly configuredBudget: Record<MemorySegment, number>,
  ) {
    this.placement = new HeapPlacement({
      budget: (segment) => this.budget(segment),
      usage: (segment) => this.usage[segment],
      freeBytes: (segment) => this.freeBytes(segment),
      get backing() {
        return owner.backend?.backing;
      },
      moved: (heap, from, to) => {
        this.usage[from] -= heap.residentBytes;
        this.usage[to] += heap.residentBytes;
        if (to === 'NON_LOCAL') {
          this.paged.demotions++;
          this.paged.demotedBytes += heap.residentBytes;
        } else {
          this.paged.promotions++;
          this.paged.promotedBytes += heap.residentBytes;
        }
      },
    });
  }

  /** The size of a segment's pool. */
  poolSize(segment: MemorySegment): number {
    return this.poolBytes[segment];
  }

  /** A segment's pool, budget, usage and free bytes (memory statistics). */
  segmentStats(segment: MemorySegment): Omit<SegmentStats, 'heaps' | 'residentHeaps'> {
    const info = this.queryVideoMemoryInfo(segment);
    return {
      poolBytes: this.poolBytes[segment],
      budget: info.budget,
      currentUsage: info.currentUsage,
      currentReservation: info.currentReservation,
      freeBytes: this.freeBytes(segment),
    };
  }

  /** Device.getResidencyStatus: a pageable object's residency (into `out` if given), or E_INVALIDARG naming `call`. */
  status(call: string, pageable: unknown, out?: ResidencyStatus): ResidencyStatus {
    const heap = this.heapOf(call, 'pageable', pageable);
    checkOut(call, 'status', out);
    const status = out ?? ({} as ResidencyStatus);
    status.sizeInBytes = heap.residentBytes;
    status.segment = heap.segment;
    status.resident = heap.resident;
    status.demoted = heap.demoted;
    status.residencyReferences = heap.residencyReferences;
    status.mapped = heap.residencyLocks > 0;
    status.priority = heap.residencyPriority;
    return status;
  }

  /**
   * Where a new resident heap goes (its segment, or NON_LOCAL demoted) and what moves first to make
   * room; undefined for a heap created not resident, or when it fits nowhere (the pool allocation
   * then fails as it always did). Changes nothing.
   */
  planCreation(heap: Heap): PlacementPlan | undefined {
    return heap.resident ? this.placement.plan([heap]) : undefined;
  }

  /** Carries out planCreation's moves for a heap about to be created (its pages are taken next). */
  applyCreation(call: string, heap: Heap, plan: PlacementPlan): void {
    this.placement.apply(call, plan);
    heap.markDemoted(plan.segmentOf(heap) !== heap.segment);
  }

  /** A new heap counts against the segment it is in while it is resident. */
  heapCreated(heap: Heap): void {
    if (!heap.resident) return;
    this.usage[heap.currentSegment] += heap.residentBytes;
    this.placement.admitted(heap);
  }

  /** A heap's memory was freed for good: heaps demoted for want of room may move back. */
  heapFreed(heap: Heap): void {
    if (heap.resident) {
      this.usage[heap.currentSegment] -= heap.residentBytes;
      this.placement.left(heap);
    }
    heap.markNotResident();
    this.rebalance('Heap.release');
  }

  /** Demotes or promotes heaps as the budget, usage and priorities now ask (not on a removed device). */
  private rebalance(call: string): void {
    if (this.owner.removal.reason !== 'S_OK') return;
    this.placement.rebalance(call);
  }

  budget(segment: MemorySegment): number {
    const base = Math.min(this.configuredBudget[segment], this.poolBytes[segment]);
    const debug = this.debugBudget === null ? base : Math.min(base, this.debugBudget);
    return Math.max(0, debug - this.reservation[segment]);
  }

  /** QueryVideoMemoryInfo; fills `out` (D3D12's pVideoMemoryInfo) when given, so a caller polling it allocates nothing. */
  queryVideoMemoryInfo(segment: unknown, out?: VideoMemoryInfo): VideoMemoryInfo {
    const call = 'queryVideoMemoryInfo';
    if (segment !== 'LOCAL' && segment !== 'NON_LOCAL')
      throw invalidArg(call, 'memorySegmentGroup', `must be LOCAL or NON_LOCAL, got ${show(segment)}`);
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
    if (segment !== 'LOCAL' && segment !== 'NON_LOCAL')
      throw invalidArg(call, 'memorySegmentGroup', `must be LOCAL or NON_LOCAL, got ${show(segment)}`);
    const available = Math.min(this.configuredBudget[segment], this.poolBytes[segment]);
    if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0 || bytes > available) {
      throw invalidArg(
        call,
        'reservation',
        `must be an integer from 0 to availableForReservation (${available}), got ${show(bytes)}`,
      );
    }
    this.reservation[segment] = bytes;
    this.rebalance(call);
  }

  /** UE's D3D12.ResidencyDebugBudgetMB: a smaller budget (0 = maximum pressure), or null to clear it. */
  setDebugBudget(bytes: unknown): void {
    if (bytes !== null && (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0)) {
      throw invalidArg(
        'setResidencyDebugBudget',
        'bytes',
        `must be a non-negative integer or null, got ${show(bytes)}`,
      );
    }
    this.debugBudget = bytes;
    this.rebalance('setResidencyDebugBudget');
  }

  private heapsOf(call: string, objects: unknown): Heap[] {
    if (!Array.isArray(objects))
      throw invalidArg(call, 'objects', `must be an array of heaps and committed resources, got ${show(objects)}`);
    // The argument's name is built only for a message: a per-call string costs a small call's bookkeeping.
    return objects.map((object: unknown, i) => this.heapOf(call, i, object));
  }

  /** Heaps, committed resources and shader-visible descriptor heaps of this device (the heap behind them), or undefined. */
  private pageableHeap(value: unknown): Heap | undefined {
    if (value instanceof Resource)
      return this.owner.objects.ownResource(value)?.kind === 'committed' ? value.heap : undefined;
    if (value instanceof DescriptorHeap) return this.owner.descriptorHeaps.own(value)?.memory?.heap;
    return this.owner.objects.ownHeap(value);
  }

  /** The heap behind a pageable object (a live heap, committed resource or shader-visible descriptor heap of this device), or throws. */
  heapOf(call: string, at: string | number, object: unknown): Heap {
    const heap = this.pageableHeap(object);
    if (
      heap &&
      !heap.released &&
      !((object instanceof Resource || object instanceof DescriptorHeap) && object.released)
    )
      return heap;
    return this.refusedPageable(call, typeof at === 'number' ? `objects[${at}]` : at, object);
  }

  /** Why `object` is not a pageable heapOf accepts (it throws, naming `argument`). */
  private refusedPageable(call: string, argument: string, object: unknown): never {
    if (object instanceof Resource && object.kind !== 'committed') {
      throw invalidArg(
        call,
        argument,
        `${object.label} is not pageable: a ${object.kind} resource pages with ${object.kind === 'placed' ? 'its heap' : 'the heaps its tiles map to'}`,
      );
    }
    const descriptors = object instanceof DescriptorHeap ? this.owner.descriptorHeaps.own(object) : undefined;
    if (descriptors && !descriptors.released && !descriptors.memory)
      throw invalidArg(
        call,
        argument,
        `${descriptors.label} is not shader-visible: its descriptors live in CPU memory, which does not page (**Chosen**: refused, where D3D12 accepts the call and does nothing)`,
      );
    const heap = this.pageableHeap(object);
    if (!heap && !descriptors)
      throw invalidArg(
        call,
        argument,
        'must be a heap, committed resource or shader-visible descriptor heap of this device',
      );
    // heapOf refuses only these: a released heap, committed resource or descriptor heap.
    const label = object instanceof Resource || object instanceof DescriptorHeap ? object.label : (heap as Heap).label;
    throw invalidArg(call, argument, `${label} was released`);
  }

  /**
   * Pages every heap that goes from 0 to 1 back in (demoting others, or landing demoted, when LOCAL
   * would go over budget), or throws E_OUTOFMEMORY changing nothing.
   */
  private raise(call: string, heaps: readonly Heap[], denyOverBudget: boolean): void {
    const only = heaps.length === 1 ? (heaps[0] as Heap) : undefined;
    const rising = only ? (only.resident ? [] : [only]) : [...new Set(heaps.filter((heap) => !heap.resident))];
    const needed: Record<MemorySegment, number> = { LOCAL: 0, NON_LOCAL: 0 };
    for (const heap of rising) needed[heap.segment] += heap.residentBytes;
    for (const segment of ['LOCAL', 'NON_LOCAL'] as const) {
      if (denyOverBudget && needed[segment] > 0 && this.usage[segment] + needed[segment] > this.budget(segment)) {
        throw new D3D12Error(
          'E_OUTOFMEMORY',
          call,
          'flags',
          `DENY_OVERBUDGET: making these objects resident needs ${needed[segment]} bytes of ${segment} memory; usage is ${this.usage[segment]} of a ${this.budget(segment)}-byte budget`,
        );
      }
    }
    const plan = this.placement.plan(rising);
    if (!plan) {
      // Some segment is short of pages even after demotion (D3D12: "only when there is no memory available").
      const segment = needed.LOCAL > this.freeBytes('LOCAL') ? 'LOCAL' : 'NON_LOCAL';
      const demotion =
        segment === 'LOCAL'
          ? `; demotion cannot make the room either (${this.demotionRoom()} bytes of NON_LOCAL memory are free within its budget)`
          : '';
      throw new D3D12Error(
        'E_OUTOFMEMORY',
        call,
        'objects',
        `making these objects resident needs ${needed[segment]} bytes of ${segment} memory and ${this.freeBytes(segment)} are free (evict something first)${demotion}`,
      );
    }
    for (const heap of heaps) heap.addResidencyReference();
    this.placement.apply(call, plan);
    this.pageIn(call, rising, plan.segmentOf);
  }

  /** NON_LOCAL bytes demoted heaps could take now: its free pool within its budget. */
  private demotionRoom(): number {
    return Math.max(0, Math.min(this.freeBytes('NON_LOCAL'), this.budget('NON_LOCAL') - this.usage.NON_LOCAL));
  }

  /** ID3D12Device::MakeResident. */
  makeResident(objects: unknown): void {
    this.owner.removal.check('makeResident');
    this.raise('makeResident', this.heapsOf('makeResident', objects), false);
  }

  /** ID3D12Device3::EnqueueMakeResident: signals `fence` with `value` once the objects are resident. */
  enqueueMakeResident(flags: unknown, objects: unknown, fence: Fence | undefined, value: unknown): void {
    const call = 'enqueueMakeResident';
    this.owner.removal.check(call);
    if (flags !== 'NONE' && flags !== 'DENY_OVERBUDGET')
      throw invalidArg(call, 'flags', `must be NONE or DENY_OVERBUDGET, got ${show(flags)}`);
    const heaps = this.heapsOf(call, objects);
    if (!fence) throw invalidArg(call, 'fenceToSignal', 'must be a fence created by this device');
    checkFenceValue(call, 'fenceValueToSignal', value);
    this.raise(call, heaps, flags === 'DENY_OVERBUDGET');
    // Once the work queued so far is done (as a queue's signal would be).
    fence.completeAfter(this.owner.backend?.workDone(), value as number);
    fence.reach(value as number);
  }

  /** ID3D12Device::Evict: decrements; pages out at 0 unless a resource in it is mapped. */
  evict(objects: unknown): void {
    const call = 'evict';
    this.owner.removal.check(call);
    const heaps = this.heapsOf(call, objects);
    const drops = new Map<Heap, number>();
    for (const heap of heaps) drops.set(heap, (drops.get(heap) ?? 0) + 1);
    for (const [heap, count] of drops) {
      if (heap.residencyReferences < count) {
        throw invalidArg(
          call,
          'objects',
          `${heap.label} would be evicted more times than it was made resident (count ${heap.residencyReferences})`,
        );
      }
    }
    for (const [heap, count] of drops) heap.dropResidencyReferences(count);
    this.pageOutIfUnused([...drops.keys()], call);
  }

  /**
   * Map() of a resource in `heap`: **Chosen**, as Dawn's D3D12 backend locks a mapped heap
   * (ResidencyManager::LockAllocation): an evicted heap is paged in for the CPU, and every mapped
   * heap stays resident until its last unmap; its residency count does not change. Throws
   * E_OUTOFMEMORY, changing nothing, when the pool cannot take it.
   */
  lockForMap(call: string, heap: Heap): void {
    if (!heap.resident) {
      const plan = this.placement.plan([heap]);
      if (!plan) {
        throw new D3D12Error(
          'E_OUTOFMEMORY',
          call,
          'this',
          `${heap.label} is evicted, and paging it in to map it needs ${heap.residentBytes} bytes of ${heap.segment} memory; ${this.freeBytes(heap.segment)} are free (evict something first)`,
        );
      }
      this.placement.apply(call, plan);
      this.pageIn(call, [heap], plan.segmentOf);
    }
    heap.lockResidency();
  }

  private freeBytes(segment: MemorySegment): number {
    const backing = this.owner.backend?.backing;
    return backing ? backing.freePages(segment) * TILE_SIZE : this.poolBytes[segment] - this.usage[segment];
  }

  /** Pages heaps back in, each into the segment the placement chose: one paging submission for all of them. */
  private pageIn(call: string, heaps: readonly Heap[], segmentOf: PlacementPlan['segmentOf']): void {
    if (heaps.length === 0) return;
    this.owner.backend?.backing.pageIn(call, heaps, segmentOf);
    for (const heap of heaps) {
      heap.markResident();
      heap.markDemoted(segmentOf(heap) !== heap.segment);
      this.usage[heap.currentSegment] += heap.residentBytes;
      this.placement.admitted(heap);
      this.paged.restores++;
      this.paged.restoredBytes += heap.residentBytes;
    }
  }

  /**
   * Pages out every heap whose count is 0, unless mapped memory keeps it: one paging submission for
   * all; then demoted heaps may move back into the room.
   */
  pageOutIfUnused(heaps: readonly Heap[], call = 'evict'): void {
    const out = heaps.filter(
      (heap) => heap.residencyReferences === 0 && heap.residencyLocks === 0 && heap.resident && !heap.released,
    );
    if (out.length === 0) return;
    this.owner.backend?.backing.pageOut(out);
    for (const heap of out) {
      this.usage[heap.currentSegment] -= heap.residentBytes;
      this.placement.left(heap);
      heap.markNotResident();
      this.paged.evictions++;
      this.paged.evictedBytes += heap.residentBytes;
    }
    this.rebalance(call);
  }

  /** ID3D12Device1::SetResidencyPriority. */
  setResidencyPriority(objects: unknown, priorities: unknown): void {
    const call = 'setResidencyPriority';
    const heaps = this.heapsOf(call, objects);
    if (!Array.isArray(priorities) || priorities.length !== heaps.length) {
      throw invalidArg(
        call,
        'priorities',
        `must be an array with one priority per object (${heaps.length}), got ${show(priorities)}`,
      );
    }
    const values = priorities.map((priority: unknown, i) => {
      if (typeof priority === 'string' && Object.hasOwn(RESIDENCY_PRIORITIES, priority))
        return RESIDENCY_PRIORITIES[priority as keyof typeof RESIDENCY_PRIORITIES];
      if (typeof priority === 'number' && Number.isInteger(priority) && priority >= 0 && priority <= 0xffffffff)
        return priority;
      throw invalidArg(
        call,
        `priorities[${i}]`,
        `must be MINIMUM, LOW, NORMAL, HIGH, MAXIMUM or a 32-bit value, got ${show(priority)}`,
      );
    });
    heaps.forEach((heap, i) => heap.setResidencyPriority(values[i] as number));
    // A new order may swap a demoted heap with a LOCAL one.
    this.rebalance(call);
  }
}
