/**
 * DeviceMemory: the calls of ID3D12Device on memory, which Device inherits: heaps, committed, placed
 * and reserved resources, their tiling and footprints, residency (MakeResident, Evict, budgets),
 * memory statistics, feature support and device removal.
 *
 * Invariants: as Device's (device.ts): every call validates all its arguments before it changes
 * anything; heap and resource ids are unique per device and never reused.
 */
import type { DeviceContext } from '../emulator/device-context.js';
import { validateGetResourceAllocationInfo } from '../validation/create-resource.js';
import { validateGetCopyableFootprints } from '../validation/texture-copies.js';
import { validateCheckFeatureSupport } from '../validation/device.js';
import { orThrow, type HResult } from '../api/errors.js';
import type {
  ClearValue,
  CopyableFootprints,
  HeapDesc,
  HeapFlag,
  HeapProperties,
  MemorySegment,
} from '../api/types.js';
import type { ResourceAllocationInfo, ResourceDesc, ResourceStates, ResourceTiling } from '../api/types.js';
import { releaseCount } from './device-child.js';
import type { Pageable, ResidencyPriority, ResidencyStatus, VideoMemoryInfo } from '../emulator/device-residency.js';
import type { Fence } from './fence.js';
import type { Heap } from './heap.js';
import type { Resource } from './resource.js';
import type { InfoQueue } from './info-queue.js';
import type { MemoryStats, PagingStats } from '../emulator/memory-stats.js';
import type { FaultReport } from '../emulator/fault-report.js';
import { featureData, type FeatureData } from '../emulator/feature-support.js';

/** The memory half of the facade (Device adds queues, lists, pipelines and binding). */
export class DeviceMemory {
  /** @internal Use createDevice(). */
  constructor(
    /** @internal What the device's objects share (src/emulator/device-context.ts); test hooks reach it. */
    readonly context: DeviceContext,
  ) {}

  // ---- residency (see emulator/device-residency.ts) --------------------------------------------

  /** ID3D12Device::MakeResident: heaps and committed resources; reference counted. */
  makeResident(objects: Pageable[]): void {
    this.context.residency.makeResident(objects);
  }

  /** ID3D12Device::Evict: pages out at count 0 (mapped memory stays resident until unmapped). */
  evict(objects: Pageable[]): void {
    this.context.residency.evict(objects);
  }

  /** ID3D12Device3::EnqueueMakeResident: `fence` reaches `fenceValueToSignal` once the objects are resident. */
  enqueueMakeResident(
    flags: 'NONE' | 'DENY_OVERBUDGET',
    objects: Pageable[],
    fenceToSignal: Fence,
    fenceValueToSignal: number,
  ): void {
    this.context.residency.enqueueMakeResident(
      flags,
      objects,
      this.context.ownFence(fenceToSignal),
      fenceValueToSignal,
    );
  }

  setResidencyPriority(objects: Pageable[], priorities: ResidencyPriority[]): void {
    this.context.residency.setResidencyPriority(objects, priorities);
  }

  /**
   * IDXGIAdapter3::QueryVideoMemoryInfo for the emulated adapter. As D3D12 writes through
   * pVideoMemoryInfo, `videoMemoryInfo` (if given) is filled and returned: polling allocates nothing.
   */
  queryVideoMemoryInfo(memorySegmentGroup: MemorySegment, videoMemoryInfo?: VideoMemoryInfo): VideoMemoryInfo {
    return this.context.residency.queryVideoMemoryInfo(memorySegmentGroup, videoMemoryInfo);
  }

  /** IDXGIAdapter3::SetVideoMemoryReservation (node 0). */
  setVideoMemoryReservation(memorySegmentGroup: MemorySegment, reservation: number): void {
    this.context.residency.setVideoMemoryReservation(memorySegmentGroup, reservation);
  }

  /** UE's D3D12.ResidencyDebugBudgetMB: lowers every budget to `bytes` (0: maximum pressure); null clears it. */
  setResidencyDebugBudget(bytes: number | null): void {
    this.context.residency.setDebugBudget(bytes);
  }

  /**
   * A counter that grows whenever a heap, resource or query heap is released (of any device in this
   * process; an emulator addition): a tool holding many objects learns from one read whether any
   * may have been released since it last looked, without asking each (the residency manager checks
   * its sets this way).
   */
  getReleaseCount(): number {
    return releaseCount();
  }

  /** Paging counters (evictions, restores, demotions, promotions and their bytes), for stats and benchmarks. */
  getPagingStats(): PagingStats {
    return { ...this.context.residency.paged };
  }

  /**
   * What each memory segment, heap and resource holds, as plain data (see memory-stats.ts): in the
   * spirit of D3D12MA's BuildStatsString, for tools, demos and tests.
   */
  getMemoryStats(): MemoryStats {
    return this.context.objects.memoryStats();
  }

  /** getMemoryStats() as JSON text (D3D12MA's BuildStatsString). */
  buildStatsString(): string {
    return JSON.stringify(this.getMemoryStats(), null, 2);
  }

  /**
   * An emulator addition (what the residency manager reads beside D3D12's own calls): a heap's or
   * committed resource's size, segment, residency, MakeResident count, whether it is mapped and its
   * residency priority, as the application knows them from its own calls. Anything MakeResident
   * refuses is E_INVALIDARG. `status` (if given) is filled and returned instead of a new object.
   */
  getResidencyStatus(pageable: Pageable, status?: ResidencyStatus): ResidencyStatus {
    return this.context.residency.status('getResidencyStatus', pageable, status);
  }

  /**
   * ID3D12InfoQueue (what QueryInterface on a debug device gives): the debug layer's messages as
   * data, for example OBJECT_DELETED_WHILE_STILL_IN_USE.
   */
  getInfoQueue(): InfoQueue {
    return this.context.infoQueue;
  }

  // ---- removal -----------------------------------------------------------------------------

  /** ID3D12Device::GetDeviceRemovedReason: S_OK while the device works. */
  getDeviceRemovedReason(): HResult | 'S_OK' {
    return this.context.removal.reason;
  }

  /**
   * What DRED's page-fault output gives in D3D12, and more: every fault that removed the device, each
   * naming the address, the resource and tile, the heap, the command list and command. Null while
   * the device works.
   */
  getPageFaultReport(): { message: string; faults: FaultReport[] } | null {
    return this.context.removal.report();
  }

  /** The WebGPU device behind the emulated memory (undefined on a CPU-only device). */
  get gpuDevice(): GPUDevice | undefined {
    return this.context.backend?.memory.device;
  }

  checkFeatureSupport<F extends keyof FeatureData>(feature: F): FeatureData[F] {
    const name = orThrow(validateCheckFeatureSupport(feature));
    return featureData(this.context.settings)[name as F];
  }

  createHeap(desc: HeapDesc): Heap {
    this.context.removal.check('createHeap');
    return this.context.objects.createHeap(desc);
  }

  createCommittedResource(
    heapProperties: HeapProperties,
    heapFlags: HeapFlag[],
    desc: ResourceDesc,
    initialState: ResourceStates,
    optimizedClearValue?: ClearValue | null,
  ): Resource {
    this.context.removal.check('createCommittedResource');
    return this.context.objects.createCommittedResource(
      heapProperties,
      heapFlags,
      desc,
      initialState,
      optimizedClearValue,
    );
  }

  createPlacedResource(
    heap: Heap,
    heapOffset: number,
    desc: ResourceDesc,
    initialState: ResourceStates,
    optimizedClearValue?: ClearValue | null,
  ): Resource {
    this.context.removal.check('createPlacedResource');
    return this.context.objects.createPlacedResource(heap, heapOffset, desc, initialState, optimizedClearValue);
  }

  createReservedResource(
    desc: ResourceDesc,
    initialState: ResourceStates,
    optimizedClearValue?: ClearValue | null,
  ): Resource {
    this.context.removal.check('createReservedResource');
    return this.context.objects.createReservedResource(desc, initialState, optimizedClearValue);
  }

  /** D3D12's GetResourceAllocationInfo(visibleMask, descs): the size and alignment of the resources placed back to back. */
  getResourceAllocationInfo(descs: ResourceDesc | ResourceDesc[]): ResourceAllocationInfo {
    return orThrow(validateGetResourceAllocationInfo(this.context.objects.caps, descs));
  }

  /** D3D12's GetResourceTiling, its out-parameters as one object; the subresource count is clamped. */
  getResourceTiling(resource: Resource, firstSubresource?: number, numSubresources?: number): ResourceTiling {
    return this.context.objects.resourceTiling(resource, firstSubresource, numSubresources);
  }

  /**
   * ID3D12Device::GetCopyableFootprints, its out-parameters as one object: where subresources
   * [firstSubresource, + numSubresources) of `desc` go in an upload or readback buffer for
   * copyTextureRegion. An invalid description or range throws E_INVALIDARG (D3D12 fills all-ones).
   */
  getCopyableFootprints(
    desc: ResourceDesc,
    firstSubresource: number,
    numSubresources: number,
    baseOffset: number,
  ): CopyableFootprints {
    return orThrow(
      validateGetCopyableFootprints(this.context.objects.caps, desc, firstSubresource, numSubresources, baseOffset),
    );
  }
}
