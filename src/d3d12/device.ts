/**
 * Device (ID3D12Device): creates heaps, resources and queues, answers capability and layout queries.
 *
 * Invariants: every call validates all its arguments (src/validation/) before it changes anything,
 * so a call that throws leaves the device as it was; heap and resource ids are unique per device and
 * never reused; every live resource owns a distinct, non-zero range of the virtual address space.
 */
import { validateGetResourceAllocationInfo } from '../validation/create-resource.js';
import { validateGetCopyableFootprints } from '../validation/texture-copies.js';
import {
  validateCheckFeatureSupport,
  validateCreateCommandList,
  validateCreateCommandQueue,
  type DeviceSettings,
} from '../validation/device.js';
import type { QueryHeapDesc } from '../validation/query.js';
import { validateResourceList } from '../validation/tile-validation.js';
import { orThrow, type HResult } from '../api/errors.js';
import type {
  ClearValue,
  CommandListType,
  CommandQueueDesc,
  CopyableFootprints,
  HeapDesc,
  HeapFlag,
  HeapProperties,
  MemorySegment,
} from '../api/types.js';
import type {
  ResourceAllocationInfo,
  ResourceDesc,
  ResourceStates,
  ResourceTiling,
  TileMappingValidation,
  UnmappedAccessReport,
} from '../api/types.js';
import { GraphicsCommandList } from './command-list.js';
import { CommandQueue } from './command-queue.js';
import { releaseCount } from './device-child.js';
import type { Pageable, ResidencyPriority, ResidencyStatus, VideoMemoryInfo } from '../emulator/device-residency.js';
import { checkFenceValue, Fence } from './fence.js';
import type { Heap } from './heap.js';
import type { ComputePipelineStateDesc, GraphicsPipelineStateDesc, PipelineState } from './pipeline-state.js';
import { createComputePipelineState, createGraphicsPipelineState } from '../emulator/pipeline-creation.js';
import { createSwapChain, type SwapChain } from './swap-chain.js';
import type { QueryHeap } from './query-heap.js';
import { textureDescriptor } from '../emulator/texture-descriptor.js';
import type { Resource } from './resource.js';
import type { InfoQueue } from './info-queue.js';
import type { MemoryStats, PagingStats } from '../emulator/memory-stats.js';
import type { FaultReport } from '../emulator/fault-report.js';
import type { DeviceContext } from '../emulator/device-context.js';
import { featureData, type FeatureData } from '../emulator/feature-support.js';
import { validateTileMappings } from '../emulator/tile-validation.js';
import { readUnmappedAccesses } from '../emulator/unmapped-access.js';

/**
 * The facade: each method validates its arguments and calls the machinery (src/emulator/) through
 * the device's context, which the device's queues and command lists share.
 */
export class Device {
  /** @internal Use createDevice(). */
  constructor(
    /** @internal What the device's objects share (src/emulator/device-context.ts); test hooks reach it. */
    readonly context: DeviceContext,
  ) {}

  /** @internal The validated createDevice options. */
  get settings(): DeviceSettings {
    return this.context.settings;
  }

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

  createCommandQueue(desc: CommandQueueDesc): CommandQueue {
    this.context.removal.check('createCommandQueue');
    const queue = new CommandQueue(this.context, orThrow(validateCreateCommandQueue(desc)));
    this.context.queues.add(queue);
    return queue;
  }

  /** ID3D12Device::CreateCommandList (the list starts open, as D3D12's does). */
  createCommandList(type: CommandListType, initialState?: PipelineState | null): GraphicsCommandList {
    this.context.removal.check('createCommandList');
    orThrow(validateCreateCommandList(type));
    const list = new GraphicsCommandList(this.context, this.context.nextObjectId(), type);
    list.checkInitialState('createCommandList', initialState);
    this.context.commandLists.add(list);
    if (initialState) list.setPipelineState(initialState);
    return list;
  }

  /**
   * ID3D12Device::CreateQueryHeap: TIMESTAMP (direct and compute lists) and COPY_QUEUE_TIMESTAMP
   * (copy lists) heaps, on a WebGPU device with 'timestamp-query'. Other types are not emulated.
   */
  createQueryHeap(desc: QueryHeapDesc): QueryHeap {
    this.context.removal.check('createQueryHeap');
    return this.context.queryHeaps.create(desc);
  }

  createFence(initialValue = 0): Fence {
    checkFenceValue('createFence', 'initialValue', initialValue);
    this.context.removal.check('createFence');
    const fence = new Fence(this.context.nextObjectId(), initialValue);
    this.context.fences.add(fence);
    return fence;
  }

  /**
   * ID3D12Device::CreateComputePipelineState: WGSL that uses the prelude (shaders/prelude/).
   * Compiles asynchronously; a compile error rejects with E_INVALIDARG quoting the compiler, with
   * line numbers counted in `desc.code`.
   */
  async createComputePipelineState(desc: ComputePipelineStateDesc): Promise<PipelineState> {
    this.context.removal.check('createComputePipelineState');
    const state = await createComputePipelineState(this.gpuDevice, desc, this.context.settings.unmappedAccess, () =>
      this.context.nextObjectId(),
    );
    this.context.pipelines.add(state);
    return state;
  }

  /**
   * ID3D12Device::CreateGraphicsPipelineState: a @vertex and a @fragment entry point over the
   * graphics prelude (memory read only), drawing into back buffers of `desc.rtvFormat`. Asynchronous,
   * like createComputePipelineState.
   */
  async createGraphicsPipelineState(desc: GraphicsPipelineStateDesc): Promise<PipelineState> {
    this.context.removal.check('createGraphicsPipelineState');
    const state = await createGraphicsPipelineState(
      this.gpuDevice,
      desc,
      { faults: this.context.settings.gpuValidation, unmappedAccess: this.context.settings.unmappedAccess },
      () => this.context.nextObjectId(),
    );
    this.context.pipelines.add(state);
    return state;
  }

  /** A swap chain over a WebGPU canvas context (IDXGIFactory::CreateSwapChainForHwnd's counterpart). */
  createSwapChain(
    context: GPUCanvasContext,
    desc: { format?: string; alphaMode?: GPUCanvasAlphaMode } = {},
  ): SwapChain {
    this.context.removal.check('createSwapChain');
    return createSwapChain(this.gpuDevice, context, desc);
  }

  /**
   * A texture descriptor for the prelude's d3d12_tex2d_* functions (the emulator's stand-in for a
   * shader resource view): copy the words into a buffer and pass the buffer's address to shaders.
   */
  writeTextureDescriptor(resource: Resource): Uint32Array {
    return textureDescriptor('writeTextureDescriptor', this.context.ownResource(resource));
  }

  /**
   * Waits for the work submitted so far and returns the page faults it caused (then forgets them):
   * each names the address, the resource and tile or the heap, and the command list and command.
   */
  async readFaults(): Promise<FaultReport[]> {
    if (!this.context.backend) return [];
    await this.context.backend.settle();
    return this.context.removal.takeFaults();
  }

  /**
   * With gpuValidation: { unmappedAccess: true }: the accesses to NULL tiles of reserved resources
   * recorded since the last call, after the work submitted so far (then clears them). Rejects with
   * DXGI_ERROR_INVALID_CALL on a device without the option (see unmapped-access.ts).
   */
  readUnmappedAccesses(): Promise<UnmappedAccessReport> {
    return readUnmappedAccesses(this.context.settings.unmappedAccess, this.context.backend?.unmappedAccesses);
  }

  /**
   * GPU-side validation of tile mappings (an emulator addition): one dispatch reads the GPU's page
   * table for every page of `resources` (left out: every live resource) and compares it with what
   * the API was told, at this point in the queue. Resolves with each page that differs, decoded
   * (see tile-validation.ts).
   */
  async validateTileMappings(resources?: Resource[]): Promise<TileMappingValidation> {
    const call = 'validateTileMappings';
    const { memory } = this.context.requireBackend(call);
    const list =
      orThrow(validateResourceList(call, resources, (value) => this.context.ownResource(value))) ??
      [...this.context.objects.live].filter((resource) => !resource.released);
    return validateTileMappings(
      {
        memory,
        heapById: (id) => this.context.objects.heapById(id),
        heaps: () => this.context.objects.heapsWithMemory(),
      },
      list,
    );
  }

  /** Frees the GPU memory (the WebGPU device itself stays the caller's); the device is removed. */
  destroy(): void {
    // Later calls fail as on a removed device, and no fence is left waiting.
    this.context.removal.remove('DXGI_ERROR_DEVICE_REMOVED', 'Device.destroy() was called', []);
    this.context.queryHeaps.destroyAll();
    this.context.backend?.destroy();
    this.context.backend = undefined;
  }
}
