/**
 * Device (ID3D12Device): creates heaps, resources and queues, answers capability and layout queries.
 *
 * Invariants: every call validates all its arguments (src/validation/) before it changes anything,
 * so a call that throws leaves the device as it was; heap and resource ids are unique per device and
 * never reused; every live resource owns a distinct, non-zero range of the virtual address space.
 */
import type { MappedSegment, TileSpan } from '../memory/tile-mappings.js';
import { validateGetResourceAllocationInfo } from '../validation/create-resource.js';
import { validateGetCopyableFootprints } from '../validation/texture-copies.js';
import {
  validateCheckFeatureSupport,
  validateCreateCommandList,
  validateCreateCommandQueue,
  type DeviceSettings,
} from '../validation/device.js';
import type { QueryHeapDesc } from '../validation/query.js';
import { validateCorruptEntry, validateResourceList } from '../validation/tile-validation.js';
import { invalidArg, orThrow, type HResult } from '../api/errors.js';
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
import {
  DeviceResidency,
  type Pageable,
  type ResidencyPriority,
  type ResidencyStatus,
  type VideoMemoryInfo,
} from '../emulator/device-residency.js';
import { checkFenceValue, Fence } from './fence.js';
import type { GpuBackend } from '../emulator/gpu-backend.js';
import type { Heap } from './heap.js';
import type { MemoryBacking } from '../emulator/memory-backing.js';
import { PipelineState, type ComputePipelineStateDesc, type GraphicsPipelineStateDesc } from './pipeline-state.js';
import { createComputePipelineState, createGraphicsPipelineState } from '../emulator/pipeline-creation.js';
import { createSwapChain, type SwapChain } from './swap-chain.js';
import type { QueryHeap } from './query-heap.js';
import { QueryHeaps } from '../emulator/query-heaps.js';
import { MemoryObjects } from '../emulator/memory-objects.js';
import { textureDescriptor } from '../emulator/texture-descriptor.js';
import { Resource } from './resource.js';
import { DeferredRelease } from '../emulator/deferred-release.js';
import { InfoQueue } from './info-queue.js';
import type { MemoryStats, PagingStats } from '../emulator/memory-stats.js';
import { DeviceRemoval } from '../emulator/device-removal.js';
import type { FaultRecord, FaultReport, SubmittedList } from '../emulator/fault-report.js';
import { featureData, type FeatureData } from '../emulator/feature-support.js';
import { corruptPageTableEntry, validateTileMappings } from '../emulator/tile-validation.js';
import { readUnmappedAccesses } from '../emulator/unmapped-access.js';

// Device is the QueueOwner, ListOwner and ResidencyOwner of its objects (checked where it is passed
// as one); no `implements` clause, since those members are internal and stripped from the published types.
export class Device {
  private readonly commandLists = new WeakSet<GraphicsCommandList>();
  private readonly fences = new WeakSet<Fence>();
  private readonly pipelines = new WeakSet<PipelineState>();
  private nextObjectId = 1;
  private gpu: GpuBackend | undefined;
  private readonly queues = new Set<CommandQueue>();
  /** ID3D12InfoQueue: the debug layer's messages. */
  private readonly infoQueue = new InfoQueue();
  /** Releases waiting for GPU work that may use what they free (see deferred-release.ts). */
  private readonly releases = new DeferredRelease({
    queues: this.queues,
    gpu: () => this.gpu,
    infoQueue: this.infoQueue,
  });
  private readonly queryHeaps = new QueryHeaps(
    {
      backend: () => this.gpu,
      createResultBuffer: (bytes) =>
        this.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width: bytes }, 'COMMON'),
      nextObjectId: () => this.nextObjectId++,
    },
    this.releases,
  );
  private readonly allFences = new Set<Fence>();
  private readonly residency: DeviceResidency;
  /** Heaps and resources: creation, addresses, pages, freeing (see memory-objects.ts). */
  private readonly objects: MemoryObjects;
  /** Why the device stopped working, and the faults it saw (see device-removal.ts). */
  private readonly removal: DeviceRemoval;

  /** @internal Use createDevice(). */
  constructor(
    /** @internal The validated createDevice options. */
    readonly settings: DeviceSettings,
    pools: Record<MemorySegment, number>,
  ) {
    this.residency = new DeviceResidency(this, pools, {
      LOCAL: settings.localMemoryBudget ?? pools.LOCAL,
      NON_LOCAL: settings.nonLocalMemoryBudget ?? pools.NON_LOCAL,
    });
    this.objects = new MemoryObjects(
      {
        backend: () => this.gpu,
        checkNotRemoved: (call) => this.checkNotRemoved(call),
        retire: (object, free) => this.releases.retire(object, free),
      },
      this.residency,
      settings,
    );
    this.removal = new DeviceRemoval(settings.onPageFault, this.allFences, {
      resources: this.objects.live,
      heapById: (id) => this.objects.heapById(id),
      decode: (entry) => this.gpu?.memory.pageTable.encoding.decode(entry),
    });
  }

  // ---- residency (see emulator/device-residency.ts) ------------------------------------------------------------

  /** ID3D12Device::MakeResident: heaps and committed resources; reference counted. */
  makeResident(objects: Pageable[]): void {
    this.residency.makeResident(objects);
  }

  /** ID3D12Device::Evict: pages out at count 0 (mapped memory stays resident until unmapped). */
  evict(objects: Pageable[]): void {
    this.residency.evict(objects);
  }

  /** ID3D12Device3::EnqueueMakeResident: `fence` reaches `fenceValueToSignal` once the objects are resident. */
  enqueueMakeResident(
    flags: 'NONE' | 'DENY_OVERBUDGET',
    objects: Pageable[],
    fenceToSignal: Fence,
    fenceValueToSignal: number,
  ): void {
    this.residency.enqueueMakeResident(flags, objects, this.ownFence(fenceToSignal), fenceValueToSignal);
  }

  setResidencyPriority(objects: Pageable[], priorities: ResidencyPriority[]): void {
    this.residency.setResidencyPriority(objects, priorities);
  }

  /**
   * IDXGIAdapter3::QueryVideoMemoryInfo for the emulated adapter. As D3D12 writes through
   * pVideoMemoryInfo, `videoMemoryInfo` (if given) is filled and returned: polling allocates nothing.
   */
  queryVideoMemoryInfo(memorySegmentGroup: MemorySegment, videoMemoryInfo?: VideoMemoryInfo): VideoMemoryInfo {
    return this.residency.queryVideoMemoryInfo(memorySegmentGroup, videoMemoryInfo);
  }

  /** IDXGIAdapter3::SetVideoMemoryReservation (node 0). */
  setVideoMemoryReservation(memorySegmentGroup: MemorySegment, reservation: number): void {
    this.residency.setVideoMemoryReservation(memorySegmentGroup, reservation);
  }

  /** UE's D3D12.ResidencyDebugBudgetMB: lowers every budget to `bytes` (0: maximum pressure); null clears it. */
  setResidencyDebugBudget(bytes: number | null): void {
    this.residency.setDebugBudget(bytes);
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
    return { ...this.residency.paged };
  }

  /**
   * What each memory segment, heap and resource holds, as plain data (see memory-stats.ts): in the
   * spirit of D3D12MA's BuildStatsString, for tools, demos and tests.
   */
  getMemoryStats(): MemoryStats {
    return this.objects.memoryStats();
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
    return this.residency.status('getResidencyStatus', pageable, status);
  }

  /** @internal */
  pageableHeap(value: unknown): Heap | undefined {
    if (value instanceof Resource) return this.ownResource(value)?.kind === 'committed' ? value.heap : undefined;
    return this.ownHeap(value);
  }

  /** @internal */
  get backing(): MemoryBacking | undefined {
    return this.gpu?.backing;
  }

  /** @internal */
  reservedResources(): Resource[] {
    return this.objects.reservedResources();
  }

  /** @internal */
  completeFenceAfterWork(fence: Fence, value: number): void {
    fence.completeAfter(this.gpu?.workDone(), value);
    fence.reach(value);
  }

  /**
   * ID3D12InfoQueue (what QueryInterface on a debug device gives): the debug layer's messages as
   * data, for example OBJECT_DELETED_WHILE_STILL_IN_USE.
   */
  getInfoQueue(): InfoQueue {
    return this.infoQueue;
  }

  // ---- removal -----------------------------------------------------------------------------

  /** ID3D12Device::GetDeviceRemovedReason: S_OK while the device works. */
  getDeviceRemovedReason(): HResult | 'S_OK' {
    return this.removal.reason;
  }

  /**
   * What DRED's page-fault output gives in D3D12, and more: every fault that removed the device, each
   * naming the address, the resource and tile, the heap, the command list and command. Null while
   * the device works.
   */
  getPageFaultReport(): { message: string; faults: FaultReport[] } | null {
    return this.removal.report();
  }

  /** @internal Throws DXGI_ERROR_DEVICE_REMOVED once the device is removed. */
  checkNotRemoved(call: string): void {
    this.removal.check(call);
  }

  /** The next buffer the emulator allocates after creation is refused by WebGPU: tests of what a refusal does. */
  failNextAllocationForTesting(): void {
    this.gpu?.memory.failNextAllocationForTesting();
  }

  /** @internal The WebGPU device behind this one was lost. */
  deviceLost(reason: string | undefined, message: string): void {
    this.removal.remove(
      'DXGI_ERROR_DEVICE_REMOVED',
      `the WebGPU device was lost (reason: ${reason ?? 'unknown'}): ${message}`,
      [],
    );
  }

  /** @internal */
  attachBackend(backend: GpuBackend): void {
    this.gpu = backend;
  }

  /** @internal The GPU side; undefined on a CPU-only device. */
  get backend(): GpuBackend | undefined {
    return this.gpu;
  }

  /** The WebGPU device behind the emulated memory (undefined on a CPU-only device). */
  get gpuDevice(): GPUDevice | undefined {
    return this.gpu?.memory.device;
  }

  /** @internal */
  get maxThreadGroupsPerDimension(): number {
    return this.gpu?.memory.device.limits.maxComputeWorkgroupsPerDimension ?? 65535;
  }

  checkFeatureSupport<F extends keyof FeatureData>(feature: F): FeatureData[F] {
    const name = orThrow(validateCheckFeatureSupport(feature));
    return featureData(this.settings)[name as F];
  }

  createHeap(desc: HeapDesc): Heap {
    this.checkNotRemoved('createHeap');
    return this.objects.createHeap(desc);
  }

  createCommittedResource(
    heapProperties: HeapProperties,
    heapFlags: HeapFlag[],
    desc: ResourceDesc,
    initialState: ResourceStates,
    optimizedClearValue?: ClearValue | null,
  ): Resource {
    this.checkNotRemoved('createCommittedResource');
    return this.objects.createCommittedResource(heapProperties, heapFlags, desc, initialState, optimizedClearValue);
  }

  createPlacedResource(
    heap: Heap,
    heapOffset: number,
    desc: ResourceDesc,
    initialState: ResourceStates,
    optimizedClearValue?: ClearValue | null,
  ): Resource {
    this.checkNotRemoved('createPlacedResource');
    return this.objects.createPlacedResource(heap, heapOffset, desc, initialState, optimizedClearValue);
  }

  createReservedResource(
    desc: ResourceDesc,
    initialState: ResourceStates,
    optimizedClearValue?: ClearValue | null,
  ): Resource {
    this.checkNotRemoved('createReservedResource');
    return this.objects.createReservedResource(desc, initialState, optimizedClearValue);
  }

  /** D3D12's GetResourceAllocationInfo(visibleMask, descs): the size and alignment of the resources placed back to back. */
  getResourceAllocationInfo(descs: ResourceDesc | ResourceDesc[]): ResourceAllocationInfo {
    return orThrow(validateGetResourceAllocationInfo(this.objects.caps, descs));
  }

  /** D3D12's GetResourceTiling, its out-parameters as one object; the subresource count is clamped. */
  getResourceTiling(resource: Resource, firstSubresource?: number, numSubresources?: number): ResourceTiling {
    return this.objects.resourceTiling(resource, firstSubresource, numSubresources);
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
      validateGetCopyableFootprints(this.objects.caps, desc, firstSubresource, numSubresources, baseOffset),
    );
  }

  createCommandQueue(desc: CommandQueueDesc): CommandQueue {
    this.checkNotRemoved('createCommandQueue');
    const queue = new CommandQueue(this, orThrow(validateCreateCommandQueue(desc)));
    this.queues.add(queue);
    return queue;
  }

  /** ID3D12Device::CreateCommandList (the list starts open, as D3D12's does). */
  createCommandList(type: CommandListType, initialState?: PipelineState | null): GraphicsCommandList {
    this.checkNotRemoved('createCommandList');
    orThrow(validateCreateCommandList(type));
    const list = new GraphicsCommandList(this, this.nextObjectId, type);
    list.checkInitialState('createCommandList', initialState);
    this.nextObjectId++;
    this.commandLists.add(list);
    if (initialState) list.setPipelineState(initialState);
    return list;
  }

  /**
   * ID3D12Device::CreateQueryHeap: TIMESTAMP (direct and compute lists) and COPY_QUEUE_TIMESTAMP
   * (copy lists) heaps, on a WebGPU device with 'timestamp-query'. Other types are not emulated.
   */
  createQueryHeap(desc: QueryHeapDesc): QueryHeap {
    this.checkNotRemoved('createQueryHeap');
    return this.queryHeaps.create(desc);
  }

  /** @internal */
  ownQueryHeap(value: unknown): QueryHeap | undefined {
    return this.queryHeaps.own(value);
  }

  createFence(initialValue = 0): Fence {
    checkFenceValue('createFence', 'initialValue', initialValue);
    this.checkNotRemoved('createFence');
    const fence = new Fence(this.nextObjectId++, initialValue);
    this.fences.add(fence);
    this.allFences.add(fence);
    return fence;
  }

  /**
   * ID3D12Device::CreateComputePipelineState: WGSL that uses the prelude (shaders/prelude/).
   * Compiles asynchronously; a compile error rejects with E_INVALIDARG quoting the compiler, with
   * line numbers counted in `desc.code`.
   */
  async createComputePipelineState(desc: ComputePipelineStateDesc): Promise<PipelineState> {
    this.checkNotRemoved('createComputePipelineState');
    const state = await createComputePipelineState(
      this.gpuDevice,
      desc,
      this.settings.unmappedAccess,
      () => this.nextObjectId++,
    );
    this.pipelines.add(state);
    return state;
  }

  /**
   * ID3D12Device::CreateGraphicsPipelineState: a @vertex and a @fragment entry point over the
   * graphics prelude (memory read only), drawing into back buffers of `desc.rtvFormat`. Asynchronous,
   * like createComputePipelineState.
   */
  async createGraphicsPipelineState(desc: GraphicsPipelineStateDesc): Promise<PipelineState> {
    this.checkNotRemoved('createGraphicsPipelineState');
    const state = await createGraphicsPipelineState(
      this.gpuDevice,
      desc,
      { faults: this.settings.gpuValidation, unmappedAccess: this.settings.unmappedAccess },
      () => this.nextObjectId++,
    );
    this.pipelines.add(state);
    return state;
  }

  /** A swap chain over a WebGPU canvas context (IDXGIFactory::CreateSwapChainForHwnd's counterpart). */
  createSwapChain(
    context: GPUCanvasContext,
    desc: { format?: string; alphaMode?: GPUCanvasAlphaMode } = {},
  ): SwapChain {
    this.checkNotRemoved('createSwapChain');
    return createSwapChain(this.gpuDevice, context, desc);
  }

  /**
   * A texture descriptor for the prelude's d3d12_tex2d_* functions (the emulator's stand-in for a
   * shader resource view): copy the words into a buffer and pass the buffer's address to shaders.
   */
  writeTextureDescriptor(resource: Resource): Uint32Array {
    return textureDescriptor('writeTextureDescriptor', this.ownResource(resource));
  }

  /**
   * Waits for the work submitted so far and returns the page faults it caused (then forgets them):
   * each names the address, the resource and tile or the heap, and the command list and command.
   */
  async readFaults(): Promise<FaultReport[]> {
    if (!this.gpu) return [];
    await this.gpu.settle();
    return this.removal.takeFaults();
  }

  /**
   * With gpuValidation: { unmappedAccess: true }: the accesses to NULL tiles of reserved resources
   * recorded since the last call, after the work submitted so far (then clears them). Rejects with
   * DXGI_ERROR_INVALID_CALL on a device without the option (see unmapped-access.ts).
   */
  readUnmappedAccesses(): Promise<UnmappedAccessReport> {
    return readUnmappedAccesses(this.settings.unmappedAccess, this.gpu?.unmappedAccesses);
  }

  /**
   * GPU-side validation of tile mappings (an emulator addition): one dispatch reads the GPU's page
   * table for every page of `resources` (left out: every live resource) and compares it with what
   * the API was told, at this point in the queue. Resolves with each page that differs, decoded
   * (see tile-validation.ts).
   */
  async validateTileMappings(resources?: Resource[]): Promise<TileMappingValidation> {
    const call = 'validateTileMappings';
    const memory = this.pageTableFor(call);
    const list =
      orThrow(validateResourceList(call, resources, (value) => this.ownResource(value))) ??
      [...this.objects.live].filter((resource) => !resource.released);
    return validateTileMappings(
      { memory, heapById: (id) => this.objects.heapById(id), heaps: () => this.objects.heapsWithMemory() },
      list,
    );
  }

  /**
   * Self-check of validateTileMappings: writes `entry` (default: one that points elsewhere) into the
   * GPU page table at page `page` of `resource`, behind the CPU authority's back.
   */
  corruptPageTableEntryForTesting(resource: Resource, page: number, entry?: number): void {
    const memory = this.pageTableFor('corruptPageTableEntryForTesting');
    const candidate = this.ownResource(resource);
    const own = orThrow(validateCorruptEntry(candidate, candidate?.virtualRange.pageCount, page, entry));
    corruptPageTableEntry(memory, own, page, entry, (id) => this.objects.heapById(id));
  }

  /** Self-check of validateTileMappings: the next page-table write is lost (the GPU keeps the old entries). */
  dropNextPageTableWriteForTesting(): void {
    this.pageTableFor('dropNextPageTableWriteForTesting').pageTable.dropNextWriteForTesting();
  }

  /** The GPU memory holding the page table, for `call`: throws on a removed or CPU-only device. */
  private pageTableFor(call: string): NonNullable<GpuBackend['memory']> {
    this.checkNotRemoved(call);
    const memory = this.gpu?.memory;
    if (!memory)
      throw invalidArg(
        call,
        'this',
        'this device has no GPU memory (created with gpuDevice: null, or where WebGPU is unavailable)',
      );
    return memory;
  }

  /** Frees the GPU memory (the WebGPU device itself stays the caller's); the device is removed. */
  destroy(): void {
    // Later calls fail as on a removed device, and no fence is left waiting.
    this.removal.remove('DXGI_ERROR_DEVICE_REMOVED', 'Device.destroy() was called', []);
    this.queryHeaps.destroyAll();
    this.gpu?.destroy();
    this.gpu = undefined;
  }

  /** @internal The heap if it is one of this device's (implicit heaps of committed resources are not). */
  ownHeap(value: unknown): Heap | undefined {
    return this.objects.ownHeap(value);
  }

  /** @internal */
  ownResource(value: unknown): Resource | undefined {
    return this.objects.ownResource(value);
  }

  /** @internal */
  ownCommandList(value: unknown): GraphicsCommandList | undefined {
    return value instanceof GraphicsCommandList && this.commandLists.has(value) ? value : undefined;
  }

  /** @internal */
  ownFence(value: unknown): Fence | undefined {
    return value instanceof Fence && this.fences.has(value) ? value : undefined;
  }

  /** @internal */
  ownPipelineState(value: unknown): PipelineState | undefined {
    return value instanceof PipelineState && this.pipelines.has(value) ? value : undefined;
  }

  /** @internal The live resources whose address ranges hold any of `addresses`. */
  resourcesAt(addresses: readonly bigint[]): Resource[] {
    return this.objects.resourcesAt(addresses);
  }

  /** @internal */
  heapById(id: number): Heap | undefined {
    return this.objects.heapById(id);
  }

  /** @internal */
  tilesChanged(resource: Resource, spans: readonly TileSpan[]): void {
    this.gpu?.backing.writeTiles(resource, spans);
  }

  /** @internal */
  tilesMapped(resource: Resource, heapId: number, segments: readonly MappedSegment[]): void {
    this.gpu?.backing.writeSegments(resource, heapId, segments);
  }

  /** @internal tilesMapped for one NONE segment into `heap`, with no segment list (per-tile calls). */
  tileRangeMapped(resource: Resource, heap: Heap, first: number, count: number, heapTile: number): void {
    this.gpu?.backing.writeSegment(resource, heap.id, heap.memory, first, count, 'NONE', heapTile);
  }

  /** @internal Faults of one submission arrived; `lists` names its command lists and their commands. */
  recordFaults(records: FaultRecord[], lost: number, lists: ReadonlyMap<number, SubmittedList>): void {
    this.removal.recordFaults(records, lost, lists);
  }

  /** @internal A queue operation, a readback or a guarded WebGPU call failed after its call returned. */
  recordFailure(call: string, error: unknown): void {
    this.removal.recordFailure(call, error);
  }

  /** @internal Every queue has run its held work: releases that waited for it now wait for the GPU. */
  queueDrained(): void {
    this.releases.queueDrained();
  }
}
