/**
 * Device (ID3D12Device): creates heaps, resources and queues, answers capability and layout queries.
 *
 * Invariants: every call validates all its arguments (src/validation/) before it changes anything,
 * so a call that throws leaves the device as it was; heap and resource ids are unique per device and
 * never reused; every live resource owns a distinct, non-zero range of the virtual address space.
 */
import { packedMipInfo, subresourceTiling, TILE_SIZE } from '../memory/tiling.js';
import { TileMappingTable, type TileSpan } from '../memory/tile-mappings.js';
import { VA_PAGE_SIZE, VirtualAddressSpace, type VirtualRange } from '../memory/virtual-address-space.js';
import { GpuMemory, maxPoolBytes } from '../gpu/gpu-memory.js';
import { GuardError } from '../gpu/error-guard.js';
import { preludeConstant } from '../gpu/prelude.js';
import { createGraphicsPreludePipeline, createPreludePipeline, type GraphicsPipelines } from '../gpu/pipelines.js';

const TOPOLOGIES: Record<PrimitiveTopology, GPUPrimitiveTopology> = {
  TRIANGLELIST: 'triangle-list',
  TRIANGLESTRIP: 'triangle-strip',
  LINELIST: 'line-list',
  LINESTRIP: 'line-strip',
  POINTLIST: 'point-list',
};
import { requestWebGPUDevice } from '../gpu/request-device.js';
import {
  validateCreateCommittedResource,
  validateCreatePlacedResource,
  validateCreateReservedResource,
  validateGetResourceAllocationInfo,
  type CreationPlan,
} from '../validation/create-resource.js';
import {
  validateCheckFeatureSupport,
  validateCreateCommandList,
  validateCreateCommandQueue,
  validateCreateComputePipelineState,
  validateCreateGraphicsPipelineState,
  validateCreateDevice,
  validateGetResourceTiling,
  type DeviceSettings,
} from '../validation/device.js';
import { heapFlagNames, validateCreateHeap, type FullHeapDesc } from '../validation/heap.js';
import type { ResourceCaps } from '../validation/resource-desc.js';
import { GraphicsCommandList, type ListOwner } from './command-list.js';
import { CommandQueue, type QueueOwner } from './command-queue.js';
import { D3D12Error, invalidArg, orThrow, show, type HResult } from '../api/errors.js';
import { DeviceResidency, type Pageable, type ResidencyOwner, type ResidencyPriority, type VideoMemoryInfo } from './residency.js';
import { checkFenceValue, Fence } from './fence.js';
import { GpuBackend } from './gpu-backend.js';
import { Heap } from './heap.js';
import { MemoryBacking, mib } from './memory-backing.js';
import { PipelineState, type ComputePipelineStateDesc, type GraphicsPipelineStateDesc, type PrimitiveTopology } from './pipeline-state.js';
import { SwapChain } from './swap-chain.js';
import { QueryHeap } from './query-heap.js';
import { createTimestampQuerySet, timestampsSupported } from '../gpu/queries.js';
import { QUERY_RESULT_BYTES, validateQueryHeapDesc, type QueryHeapDesc } from '../validation/query.js';
import { CANVAS_FORMAT_NAMES, CanvasSurface, canvasFormat, isCanvasContext, preferredCanvasFormat } from '../gpu/canvas-surface.js';
import { textureDescriptor } from './texture-descriptor.js';
import { Resource, type ResourceKind } from './resource.js';
import { DeferredRelease, type WorkUse } from './deferred-release.js';
import { InfoQueue } from './info-queue.js';
import { memoryStats, type MemoryStats, type PagingStats } from './memory-stats.js';
import { describeFaults, MAX_FAULT_REPORTS, type FaultRecord, type FaultReport, type SubmittedList } from './fault-report.js';
import { cpuAccessible } from '../validation/heap.js';
import type {
  ClearValue,
  CommandListType,
  CommandQueueDesc,
  DeviceOptions,
  HeapDesc,
  HeapFlag,
  HeapProperties,
  MemorySegment,
  ResourceAllocationInfo,
  ResourceDesc,
  ResourceHeapTier,
  ResourceStates,
  ResourceTiling,
  TiledResourcesTier,
} from '../api/types.js';

/** MaxGPUVirtualAddressBitsPerResource and ...PerProcess: the whole emulated space (the prelude's D3D12_VA_BITS). */
export const VIRTUAL_ADDRESS_BITS = preludeConstant('D3D12_VA_BITS');

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
}

export interface FeatureDataOptions {
  tiledResourcesTier: TiledResourcesTier;
  resourceHeapTier: ResourceHeapTier;
  maxGPUVirtualAddressBitsPerResource: number;
  standardSwizzle64KBSupported: false;
  crossAdapterRowMajorTextureSupported: false;
  crossNodeSharingTier: 'NOT_SUPPORTED';
}

export interface FeatureDataGpuVirtualAddressSupport {
  maxGPUVirtualAddressBitsPerResource: number;
  maxGPUVirtualAddressBitsPerProcess: number;
}

export interface FeatureDataArchitecture {
  nodeIndex: number;
  tileBasedRenderer: false;
  uma: false;
  cacheCoherentUMA: false;
}

export interface FeatureData {
  OPTIONS: FeatureDataOptions;
  GPU_VIRTUAL_ADDRESS_SUPPORT: FeatureDataGpuVirtualAddressSupport;
  ARCHITECTURE: FeatureDataArchitecture;
}

/** Default pool sizes, within the adapter's limits: enough for tests and demos, not all of memory. */
export const DEFAULT_LOCAL_MEMORY_BYTES = 256 * 2 ** 20;
export const DEFAULT_NON_LOCAL_MEMORY_BYTES = 64 * 2 ** 20;

/**
 * Opens an emulated D3D12 device. Memory lives on `options.gpuDevice`, or, when it is left out, on a
 * device from navigator.gpu where the browser has one. `gpuDevice: null` (or no WebGPU at all) gives
 * a CPU-only device: the whole object model, tiling and tile mappings, but no memory, so executing
 * command lists and mapping are refused.
 */
export async function createDevice(options: DeviceOptions = {}): Promise<Device> {
  const settings = orThrow(validateCreateDevice(options));
  let gpuDevice = settings.gpuDevice;
  if (gpuDevice === undefined && typeof navigator !== 'undefined' && navigator.gpu) {
    gpuDevice = await requestWebGPUDevice(navigator.gpu);
  }
  if (!gpuDevice) {
    // A CPU-only device keeps the residency bookkeeping against nominal pools of the asked sizes.
    return new Device(settings, {
      LOCAL: settings.localMemoryBytes ?? DEFAULT_LOCAL_MEMORY_BYTES,
      NON_LOCAL: settings.nonLocalMemoryBytes ?? DEFAULT_NON_LOCAL_MEMORY_BYTES,
    });
  }
  const largest = maxPoolBytes(gpuDevice);
  const limits = `this adapter allows ${largest} bytes per pool (maxBufferSize ${gpuDevice.limits.maxBufferSize}, maxStorageBufferBindingSize ${gpuDevice.limits.maxStorageBufferBindingSize})`;
  const pool = (asked: number | undefined, fallback: number, name: string): number => {
    const bytes = asked ?? Math.min(fallback, largest);
    if (bytes > largest) throw invalidArg('createDevice', `options.${name}`, `${bytes} bytes exceed what this GPU allows for one pool: ${limits}`);
    return Math.max(TILE_SIZE, Math.floor(bytes / TILE_SIZE) * TILE_SIZE);
  };
  const pools = {
    LOCAL: pool(settings.localMemoryBytes, DEFAULT_LOCAL_MEMORY_BYTES, 'localMemoryBytes'),
    NON_LOCAL: pool(settings.nonLocalMemoryBytes, DEFAULT_NON_LOCAL_MEMORY_BYTES, 'nonLocalMemoryBytes'),
  };
  const memory = await allocateMemory(gpuDevice, pools, { LOCAL: settings.localMemoryBytes === undefined, NON_LOCAL: settings.nonLocalMemoryBytes === undefined }, limits);
  const device = new Device(settings, pools);
  // A lost WebGPU device (destroyed by its owner, a driver reset) removes the emulated one.
  void gpuDevice.lost.then((info) => device.deviceLost(info.reason, info.message));
  // Errors WebGPU reports after a call returned (a refused staging buffer, say) remove the device.
  memory.onError = (error) => device.recordFailure(error.what, new GuardError(error));
  let backend: GpuBackend | undefined;
  const backing = new MemoryBacking(memory, (id) => device.heapById(id), (heap) => backend?.flushMapped(heap));
  device.attachBackend(
    backend = await GpuBackend.create(memory, backing, { tiledResourcesTier: settings.tiledResourcesTier, validation: settings.gpuValidation }, {
      faults: (records, lost, lists) => device.recordFaults(records, lost, lists),
      failed: (error) => device.recordFailure('GPU readback', error),
    }),
  );
  return device;
}

/** The smallest pool a default size falls back to when WebGPU refuses the default. */
const SMALLEST_DEFAULT_POOL = 16 * 2 ** 20;

/**
 * The pools, page table and fault log, each checked (src/gpu/error-guard.ts). A default-sized pool
 * WebGPU refuses is halved and tried again, down to SMALLEST_DEFAULT_POOL (the defaults follow what
 * the adapter can give); a size the caller asked for is refused with E_OUTOFMEMORY, naming the
 * buffer, its size and the adapter's limits. `pools` is updated to the sizes that were taken.
 */
async function allocateMemory(gpuDevice: GPUDevice, pools: Record<MemorySegment, number>, defaulted: Record<MemorySegment, boolean>, limits: string): Promise<GpuMemory> {
  for (;;) {
    try {
      return await GpuMemory.create(gpuDevice, { localBytes: pools.LOCAL, nonLocalBytes: pools.NON_LOCAL, virtualPages: 2 ** VIRTUAL_ADDRESS_BITS / VA_PAGE_SIZE });
    } catch (error) {
      if (!(error instanceof GuardError)) throw error;
      const segment = (['LOCAL', 'NON_LOCAL'] as const).find((s) => error.detail.what.startsWith(`the ${s} pool`));
      if (segment && error.detail.outOfMemory && defaulted[segment] && pools[segment] / 2 >= SMALLEST_DEFAULT_POOL) {
        pools[segment] /= 2;
        continue;
      }
      const argument = segment === 'LOCAL' ? 'options.localMemoryBytes' : segment === 'NON_LOCAL' ? 'options.nonLocalMemoryBytes' : 'options';
      throw new D3D12Error(error.detail.outOfMemory ? 'E_OUTOFMEMORY' : 'E_FAIL', 'createDevice', argument, `WebGPU refused ${error.detail.what}: ${error.detail.message.split('\n')[0] ?? ''} (${limits})`);
    }
  }
}

export class Device implements QueueOwner, ListOwner, ResidencyOwner {
  private readonly addressSpace = new VirtualAddressSpace(VIRTUAL_ADDRESS_BITS);
  /** Every heap ever created (ids are never reused, so tile mappings can name released heaps). */
  private readonly heaps = new Map<number, Heap>();
  /** Live resources (released ones leave). */
  private readonly live = new Set<Resource>();
  private readonly resources = new WeakSet<Resource>();
  private readonly commandLists = new WeakSet<GraphicsCommandList>();
  private readonly fences = new WeakSet<Fence>();
  private readonly pipelines = new WeakSet<PipelineState>();
  private readonly queryHeaps = new WeakSet<QueryHeap>();
  /** Query heaps not yet released, and released ones waiting for held queue work (see releaseQueryHeap). */
  private readonly liveQueryHeaps = new Set<QueryHeap>();
  private nextHeapId = 1;
  private nextResourceId = 1;
  private nextObjectId = 1;
  private gpu: GpuBackend | undefined;
  private readonly queues = new Set<CommandQueue>();
  /** Releases waiting for GPU work that may use what they free (see deferred-release.ts). */
  private readonly releases = new DeferredRelease({
    holdsWork: () => [...this.queues].some((queue) => queue.holdsWork),
    workDone: () => this.gpu?.workDone(),
    workInFlight: () => this.workInFlight(),
  });
  /** ID3D12InfoQueue: the debug layer's messages. */
  private readonly infoQueue = new InfoQueue();
  /** Faults reported by the GPU, not yet taken by readFaults() (at most MAX_FAULT_REPORTS). */
  private readonly faultReports: FaultReport[] = [];
  /** Faults seen but not kept: past a submission's fault-log capacity, or past MAX_FAULT_REPORTS. */
  private faultsLost = 0;
  /** Failures of queue operations that ran after their call returned. */
  private readonly failures: string[] = [];
  private readonly allFences = new Set<Fence>();
  private readonly residency: DeviceResidency;
  /** Set once the device is removed (a page fault, or a failure after a call returned). */
  private removal: { reason: HResult; message: string; faults: FaultReport[] } | undefined;

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
  }

  // ---- residency (see residency.ts) ------------------------------------------------------------

  /** ID3D12Device::MakeResident: heaps and committed resources; reference counted. */
  makeResident(objects: Pageable[]): void {
    this.residency.makeResident(objects);
  }

  /** ID3D12Device::Evict: pages out at count 0 (mapped memory stays resident until unmapped). */
  evict(objects: Pageable[]): void {
    this.residency.evict(objects);
  }

  /** ID3D12Device3::EnqueueMakeResident: `fence` reaches `fenceValueToSignal` once the objects are resident. */
  enqueueMakeResident(flags: 'NONE' | 'DENY_OVERBUDGET', objects: Pageable[], fenceToSignal: Fence, fenceValueToSignal: number): void {
    this.residency.enqueueMakeResident(flags, objects, this.ownFence(fenceToSignal), fenceValueToSignal);
  }

  setResidencyPriority(objects: Pageable[], priorities: ResidencyPriority[]): void {
    this.residency.setResidencyPriority(objects, priorities);
  }

  /** IDXGIAdapter3::QueryVideoMemoryInfo for the emulated adapter. */
  queryVideoMemoryInfo(memorySegmentGroup: MemorySegment): VideoMemoryInfo {
    return this.residency.queryVideoMemoryInfo(memorySegmentGroup);
  }

  /** IDXGIAdapter3::SetVideoMemoryReservation (node 0). */
  setVideoMemoryReservation(memorySegmentGroup: MemorySegment, reservation: number): void {
    this.residency.setVideoMemoryReservation(memorySegmentGroup, reservation);
  }

  /** UE's D3D12.ResidencyDebugBudgetMB: lowers every budget to `bytes` (0: maximum pressure); null clears it. */
  setResidencyDebugBudget(bytes: number | null): void {
    this.residency.setDebugBudget(bytes);
  }

  /** Paging counters (evictions, restores, bytes), for stats and benchmarks. */
  getPagingStats(): PagingStats {
    return { ...this.residency.paged };
  }

  /**
   * What each memory segment, heap and resource holds, as plain data (see memory-stats.ts): in the
   * spirit of D3D12MA's BuildStatsString, for tools, demos and tests.
   */
  getMemoryStats(): MemoryStats {
    return memoryStats({
      heaps: [...this.heaps.values()].filter((heap) => !heap.memoryFreed),
      resources: this.live,
      segment: (segment) => {
        const info = this.residency.queryVideoMemoryInfo(segment);
        return { poolBytes: this.residency.poolSize(segment), budget: info.budget, currentUsage: info.currentUsage, currentReservation: info.currentReservation, freeBytes: this.residency.freePoolBytes(segment) };
      },
      paging: this.residency.paged,
    });
  }

  /** getMemoryStats() as JSON text (D3D12MA's BuildStatsString). */
  buildStatsString(): string {
    return JSON.stringify(this.getMemoryStats(), null, 2);
  }

  /**
   * The residency state of a pageable object (a heap or committed resource of this device), as a
   * D3D12 application knows it from its own calls: its size against the budget, its segment, whether
   * it is resident, its MakeResident reference count and whether mapped memory keeps it resident
   * (an emulator addition; what the residency manager reads beside D3D12's own calls). Anything else
   * (a placed or reserved resource, another device's object, a released one) is E_INVALIDARG, as
   * MakeResident would refuse it.
   */
  getResidencyStatus(pageable: Pageable): ResidencyStatus {
    const heap = this.residency.heapOf('getResidencyStatus', 'pageable', pageable);
    return { sizeInBytes: heap.residentBytes, segment: heap.segment, resident: heap.resident, residencyReferences: heap.residencyReferences, mapped: heap.residencyLocks > 0 };
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
    return [...this.live].filter((resource) => resource.tileMappings);
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
    return this.removal?.reason ?? 'S_OK';
  }

  /**
   * What DRED's page-fault output gives in D3D12, and more: every fault that removed the device, each
   * naming the address, the resource and tile, the heap, the command list and command. Null while
   * the device works.
   */
  getPageFaultReport(): { message: string; faults: FaultReport[] } | null {
    return this.removal ? structuredClone({ message: this.removal.message, faults: this.removal.faults }) : null;
  }

  /** @internal Throws DXGI_ERROR_DEVICE_REMOVED once the device is removed. */
  checkNotRemoved(call: string): void {
    if (this.removal) throw new D3D12Error('DXGI_ERROR_DEVICE_REMOVED', call, 'this', `the device was removed: ${this.removal.message}`);
  }

  /** The next buffer the emulator allocates after creation is refused by WebGPU: tests of what a refusal does. */
  failNextAllocationForTesting(): void {
    this.gpu?.memory.failNextAllocationForTesting();
  }

  /** @internal The WebGPU device behind this one was lost. */
  deviceLost(reason: string | undefined, message: string): void {
    this.remove('DXGI_ERROR_DEVICE_REMOVED', `the WebGPU device was lost (reason: ${reason ?? 'unknown'}): ${message}`, []);
  }

  private remove(reason: HResult, message: string, faults: FaultReport[]): void {
    if (this.removal) return;
    this.removal = { reason, message, faults };
    // As in D3D12, a removed device's fences complete (with the largest value), so nothing waits forever.
    for (const fence of this.allFences) fence.complete(Number.MAX_SAFE_INTEGER);
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

  private get caps(): ResourceCaps {
    return { tiledResourcesTier: this.settings.tiledResourcesTier, maxResourceBytes: 2 ** VIRTUAL_ADDRESS_BITS };
  }

  checkFeatureSupport<F extends keyof FeatureData>(feature: F): FeatureData[F] {
    const name = orThrow(validateCheckFeatureSupport(feature));
    const data: FeatureData = {
      OPTIONS: {
        tiledResourcesTier: this.settings.tiledResourcesTier,
        resourceHeapTier: this.settings.resourceHeapTier,
        maxGPUVirtualAddressBitsPerResource: VIRTUAL_ADDRESS_BITS,
        standardSwizzle64KBSupported: false,
        crossAdapterRowMajorTextureSupported: false,
        crossNodeSharingTier: 'NOT_SUPPORTED',
      },
      GPU_VIRTUAL_ADDRESS_SUPPORT: {
        maxGPUVirtualAddressBitsPerResource: VIRTUAL_ADDRESS_BITS,
        maxGPUVirtualAddressBitsPerProcess: VIRTUAL_ADDRESS_BITS,
      },
      ARCHITECTURE: { nodeIndex: 0, tileBasedRenderer: false, uma: false, cacheCoherentUMA: false },
    };
    return data[name as F];
  }

  /** Physical pages for a new heap, unless it starts not resident (nothing else changes before they are taken). */
  private takePages(call: string, argument: string, heap: Heap): ReturnType<MemoryBacking['allocate']> | undefined {
    // On a GPU, even created not resident, a heap must fit its pool: it could never be made resident
    // otherwise (and CPU-accessible heaps take a CPU copy of their size at once). A CPU-only device
    // keeps the object model only, of any size.
    const pool = this.residency.poolSize(heap.segment);
    if (this.gpu && !heap.resident && heap.residentBytes > pool) {
      throw new D3D12Error('E_OUTOFMEMORY', call, argument, `needs ${mib(heap.residentBytes)} of ${heap.segment} memory to be made resident, more than the whole ${mib(pool)} pool holds`);
    }
    return heap.resident ? this.gpu?.backing.allocate(call, argument, heap.segment, heap.desc.sizeInBytes) : undefined;
  }

  private registerHeap(heap: Heap, pages: ReturnType<MemoryBacking['allocate']> | undefined): Heap {
    this.heaps.set(heap.id, heap);
    this.gpu?.backing.attach(heap, pages);
    this.residency.heapCreated(heap);
    const free = (): void => {
      this.gpu?.backing.free(heap, this.reservedResources());
      this.residency.heapFreed(heap);
    };
    // A committed resource's heap goes with its resource, whose release already waited for the GPU.
    heap.whenMemoryFreed(() => (heap.implicitFor ? free() : this.retire(heap, free)));
    return heap;
  }

  createHeap(desc: HeapDesc): Heap {
    this.checkNotRemoved('createHeap');
    const checked = orThrow(validateCreateHeap(desc, { resourceHeapTier: this.settings.resourceHeapTier }));
    const { flagBits, ...full } = checked;
    const heap = new Heap(this.nextHeapId, full, flagBits);
    const pages = this.takePages('createHeap', 'desc.sizeInBytes', heap);
    this.nextHeapId++;
    return this.registerHeap(heap, pages);
  }

  createCommittedResource(
    heapProperties: HeapProperties,
    heapFlags: HeapFlag[],
    desc: ResourceDesc,
    initialState: ResourceStates,
    optimizedClearValue?: ClearValue | null,
  ): Resource {
    this.checkNotRemoved('createCommittedResource');
    const plan = orThrow(validateCreateCommittedResource(this.caps, heapProperties, heapFlags, desc, initialState, optimizedClearValue));
    const heapDesc: FullHeapDesc = {
      sizeInBytes: plan.layout.sizeInBytes,
      properties: plan.heapProperties,
      alignment: plan.alignment,
      flags: heapFlagNames(plan.heapFlagBits),
    };
    const id = this.nextResourceId;
    const heap = new Heap(this.nextHeapId, heapDesc, plan.heapFlagBits, `committed resource #${id}`);
    const pages = this.takePages('createCommittedResource', 'desc', heap);
    let virtualRange: VirtualRange;
    try {
      virtualRange = this.reserveAddresses('createCommittedResource', plan.layout.sizeInBytes, 0);
    } catch (error) {
      if (pages) this.gpu?.backing.allocators[heap.segment].releaseRuns(pages.runs);
      throw error;
    }
    this.nextHeapId++;
    this.nextResourceId++;
    this.registerHeap(heap, pages);
    return this.makeResource(id, 'committed', plan, virtualRange, { heap, heapOffset: 0 });
  }

  createPlacedResource(heap: Heap, heapOffset: number, desc: ResourceDesc, initialState: ResourceStates, optimizedClearValue?: ClearValue | null): Resource {
    this.checkNotRemoved('createPlacedResource');
    const plan = orThrow(validateCreatePlacedResource(this.caps, this.ownHeap(heap), heapOffset, desc, initialState, optimizedClearValue));
    // A small texture placed inside a page keeps its offset in its address (see VirtualAddressSpace).
    const virtualRange = this.reserveAddresses('createPlacedResource', plan.layout.sizeInBytes, plan.heapOffset % VA_PAGE_SIZE);
    heap.addPlacedReference();
    return this.makeResource(this.nextResourceId++, 'placed', plan, virtualRange, { heap, heapOffset: plan.heapOffset });
  }

  createReservedResource(desc: ResourceDesc, initialState: ResourceStates, optimizedClearValue?: ClearValue | null): Resource {
    this.checkNotRemoved('createReservedResource');
    const plan = orThrow(validateCreateReservedResource(this.caps, desc, initialState, optimizedClearValue));
    const virtualRange = this.reserveAddresses('createReservedResource', plan.layout.numTiles * TILE_SIZE, 0);
    return this.makeResource(this.nextResourceId++, 'reserved', plan, virtualRange, { tileMappings: new TileMappingTable(plan.layout.numTiles) });
  }

  /** D3D12's GetResourceAllocationInfo(visibleMask, descs): the size and alignment of the resources placed back to back. */
  getResourceAllocationInfo(descs: ResourceDesc | ResourceDesc[]): ResourceAllocationInfo {
    return orThrow(validateGetResourceAllocationInfo(this.caps, descs));
  }

  /** D3D12's GetResourceTiling, its out-parameters as one object; the subresource count is clamped. */
  getResourceTiling(resource: Resource, firstSubresource?: number, numSubresources?: number): ResourceTiling {
    const own = this.ownResource(resource);
    const { first, count } = orThrow(validateGetResourceTiling(own, firstSubresource, numSubresources));
    const layout = resource.layout;
    return {
      numTilesForEntireResource: layout.numTiles,
      packedMipDesc: packedMipInfo(layout),
      standardTileShapeForNonPackedMips: { ...layout.tileShape },
      subresourceTilings: Array.from({ length: count }, (_, i) => subresourceTiling(layout, first + i)),
    };
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
    const call = 'createQueryHeap';
    this.checkNotRemoved(call);
    const problem = validateQueryHeapDesc(desc, timestampsSupported(this.gpu?.memory.device));
    if (problem) throw problem;
    const gpu = this.gpu as GpuBackend;
    const id = this.nextObjectId++;
    const full: Required<QueryHeapDesc> = { type: desc.type, count: desc.count, nodeMask: desc.nodeMask ?? 0 };
    const bytes = Math.ceil((desc.count * QUERY_RESULT_BYTES) / TILE_SIZE) * TILE_SIZE;
    let results: Resource;
    try {
      results = this.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width: bytes }, 'COMMON');
    } catch (error) {
      if (error instanceof D3D12Error) throw new D3D12Error(error.hresult, call, 'desc.count', `${desc.count} queries need ${bytes} bytes of LOCAL memory for their results: ${error.rule}`);
      throw error;
    }
    results.setName(`query heap #${id} results`);
    let querySet: GPUQuerySet;
    try {
      querySet = gpu.memory.guard(`createQueryHeap (a query set of ${desc.count})`, () => createTimestampQuerySet(gpu.memory.device, desc.count, `d3d12 query heap #${id}`));
    } catch (error) {
      results.release();
      throw new D3D12Error('E_OUTOFMEMORY', call, 'desc.count', `WebGPU could not create a query set of ${desc.count}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const heap = new QueryHeap(id, full, querySet, results, (released) => this.releaseQueryHeap(released));
    this.queryHeaps.add(heap);
    this.liveQueryHeaps.add(heap);
    return heap;
  }

  /** @internal */
  ownQueryHeap(value: unknown): QueryHeap | undefined {
    return value instanceof QueryHeap && this.queryHeaps.has(value) ? value : undefined;
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
    const checked = orThrow(validateCreateComputePipelineState(desc));
    const gpu = this.gpu;
    if (!gpu) throw invalidArg('createComputePipelineState', 'this', 'this device has no GPU (created with gpuDevice: null, or where WebGPU is unavailable)');
    let pipeline: GPUComputePipeline;
    try {
      pipeline = await createPreludePipeline(gpu.memory.device, checked.code, checked.entryPoint, checked.label ?? 'd3d12 pipeline state');
    } catch (error) {
      throw invalidArg('createComputePipelineState', 'desc.code', `does not compile:\n${error instanceof Error ? error.message : String(error)}`);
    }
    const state = new PipelineState(this.nextObjectId++, 'compute', checked.label, pipeline);
    this.pipelines.add(state);
    return state;
  }

  /**
   * ID3D12Device::CreateGraphicsPipelineState: a @vertex and a @fragment entry point over the
   * graphics prelude (memory read only), drawing into back buffers of `desc.rtvFormat`. Asynchronous,
   * like createComputePipelineState.
   */
  async createGraphicsPipelineState(desc: GraphicsPipelineStateDesc): Promise<PipelineState> {
    const call = 'createGraphicsPipelineState';
    this.checkNotRemoved(call);
    const checked = orThrow(validateCreateGraphicsPipelineState(desc));
    const gpu = this.gpu;
    if (!gpu) throw invalidArg(call, 'this', 'this device has no GPU (created with gpuDevice: null, or where WebGPU is unavailable)');
    const targetFormat = canvasFormat(checked.rtvFormat);
    if (!targetFormat) throw invalidArg(call, 'desc.rtvFormat', `must be a back-buffer format (${CANVAS_FORMAT_NAMES.join(', ')}), got ${checked.rtvFormat}`);
    let pipelines: GraphicsPipelines;
    try {
      pipelines = await createGraphicsPreludePipeline(gpu.memory.device, {
        code: checked.code,
        vertexEntryPoint: checked.vertexEntryPoint,
        fragmentEntryPoint: checked.fragmentEntryPoint,
        targetFormat,
        topology: TOPOLOGIES[checked.primitiveTopology],
        blend: checked.blend === 'ALPHA_BLEND' ? 'alpha' : 'none',
        label: checked.label ?? 'd3d12 graphics pipeline state',
      }, this.settings.gpuValidation);
    } catch (error) {
      throw invalidArg(call, 'desc.code', `does not compile:\n${error instanceof Error ? error.message : String(error)}`);
    }
    const state = new PipelineState(this.nextObjectId++, 'graphics', checked.label, pipelines.render, checked.rtvFormat, pipelines.vertexReplay);
    this.pipelines.add(state);
    return state;
  }

  /** A swap chain over a WebGPU canvas context (IDXGIFactory::CreateSwapChainForHwnd's counterpart). */
  createSwapChain(context: GPUCanvasContext, desc: { format?: string; alphaMode?: GPUCanvasAlphaMode } = {}): SwapChain {
    const call = 'createSwapChain';
    this.checkNotRemoved(call);
    const gpu = this.gpu;
    if (!gpu) throw invalidArg(call, 'this', 'this device has no GPU');
    if (!isCanvasContext(context)) throw invalidArg(call, 'context', 'must be a WebGPU canvas context (canvas.getContext(\'webgpu\'))');
    const format = desc.format ?? preferredCanvasFormat();
    const gpuFormat = canvasFormat(format);
    if (!gpuFormat) throw invalidArg(call, 'desc.format', `must be one of ${CANVAS_FORMAT_NAMES.join(', ')}, got ${show(format)}`);
    const alphaMode = desc.alphaMode ?? 'opaque';
    if (alphaMode !== 'opaque' && alphaMode !== 'premultiplied') throw invalidArg(call, 'desc.alphaMode', `must be 'opaque' or 'premultiplied', got ${show(alphaMode)}`);
    return new SwapChain(new CanvasSurface(context, gpu.memory.device, gpuFormat, alphaMode), format);
  }

  /**
   * A texture descriptor for the prelude's d3d12_tex2d_* functions (the emulator's stand-in for a
   * shader resource view): copy the words into a buffer and pass the buffer's address to shaders.
   */
  writeTextureDescriptor(resource: Resource): Uint32Array {
    const call = 'writeTextureDescriptor';
    const own = this.ownResource(resource);
    if (!own) throw invalidArg(call, 'resource', 'must be a resource created by this device');
    if (own.released) throw invalidArg(call, 'resource', `${own.label} was released`);
    return textureDescriptor(call, own);
  }

  /**
   * Waits for the work submitted so far and returns the page faults it caused (then forgets them):
   * each names the address, the resource and tile or the heap, and the command list and command.
   */
  async readFaults(): Promise<FaultReport[]> {
    if (!this.gpu) return [];
    await this.gpu.settle();
    const reports = this.faultReports.splice(0);
    if (this.faultsLost > 0 && reports.length > 0) (reports[reports.length - 1] as FaultReport).message += `; ${this.faultsLost} more fault(s) were not kept`;
    this.faultsLost = 0;
    return reports;
  }

  /** Frees the GPU memory (the WebGPU device itself stays the caller's); the device is removed. */
  destroy(): void {
    // Later calls fail as on a removed device, and no fence is left waiting.
    this.remove('DXGI_ERROR_DEVICE_REMOVED', 'Device.destroy() was called', []);
    for (const heap of this.liveQueryHeaps) heap.querySet.destroy();
    this.liveQueryHeaps.clear();
    this.gpu?.destroy();
    this.gpu = undefined;
  }

  /** @internal The heap if it is one of this device's (implicit heaps of committed resources are not). */
  ownHeap(value: unknown): Heap | undefined {
    return value instanceof Heap && this.heaps.get(value.id) === value && !value.implicitFor ? value : undefined;
  }

  /** @internal */
  ownResource(value: unknown): Resource | undefined {
    return value instanceof Resource && this.resources.has(value) ? value : undefined;
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
    if (addresses.length === 0) return [];
    return [...this.live].filter((resource) => {
      const start = resource.virtualRange.address;
      const end = start + BigInt(resource.virtualRange.pageCount * TILE_SIZE);
      return addresses.some((address) => address >= start && address < end);
    });
  }

  /** @internal */
  heapById(id: number): Heap | undefined {
    return this.heaps.get(id);
  }

  /** @internal */
  tilesChanged(resource: Resource, spans: readonly TileSpan[]): void {
    this.gpu?.backing.writeTiles(resource, spans);
  }

  private reserveAddresses(call: string, sizeInBytes: number, offsetInPage: number): VirtualRange {
    const range = this.addressSpace.reserve(sizeInBytes, offsetInPage);
    if (!range) {
      throw new D3D12Error('E_OUTOFMEMORY', call, 'desc', `the resource needs ${sizeInBytes} bytes of GPU virtual address space, and only ${this.addressSpace.freeBytes} of the ${this.addressSpace.sizeInBytes} remain (or are too fragmented)`);
    }
    return range;
  }

  private makeResource(
    id: number,
    kind: ResourceKind,
    plan: CreationPlan,
    virtualRange: VirtualRange,
    backing: { heap?: Heap; heapOffset?: number; tileMappings?: TileMappingTable },
  ): Resource {
    const resource = new Resource({
      id,
      kind,
      desc: plan.desc,
      category: plan.category,
      layout: plan.layout,
      virtualRange,
      initialState: plan.initialState,
      ...backing,
      heapById: (heapId) => this.heaps.get(heapId),
      onRelease: (released) => this.releaseResource(released),
      onMap: (mapped) => {
        this.checkNotRemoved('Resource.map');
        // Mapped memory is resident (paged in if it was evicted) and stays so, whatever Evict says meanwhile.
        if (mapped.heap) this.residency.lockForMap('Resource.map', mapped.heap);
        this.gpu?.markMapped(mapped);
      },
      onUnmap: (unmapped, written) => {
        this.gpu?.markUnmapped(unmapped, written);
        if (!unmapped.heap) return;
        unmapped.heap.unlockResidency();
        this.residency.pageOutIfUnused(unmapped.heap);
      },
      gpuBacked: this.gpu !== undefined,
    });
    this.resources.add(resource);
    this.live.add(resource);
    this.gpu?.backing.mapResource(resource);
    // Shaders may write UAV-capable resources in CPU-visible CUSTOM memory: read them back after dispatches.
    if (resource.heap && cpuAccessible(resource.heap.desc.properties) && resource.desc.flags.includes('ALLOW_UNORDERED_ACCESS')) {
      this.gpu?.shaderVisibleCpuMemory.add(resource);
    }
    return resource;
  }

  /** @internal Faults of one submission arrived; `lists` names its command lists and their commands. */
  recordFaults(records: FaultRecord[], lost: number, lists: ReadonlyMap<number, SubmittedList>): void {
    const reports = describeFaults(records, 0, {
      resources: this.live,
      heapById: (id) => this.heaps.get(id),
      list: (id) => lists.get(id),
      decode: (entry) => this.gpu?.memory.pageTable.encoding.decode(entry),
    });
    const room = Math.max(0, MAX_FAULT_REPORTS - this.faultReports.length);
    this.faultReports.push(...reports.slice(0, room));
    this.faultsLost += lost + Math.max(0, reports.length - room);
    if (this.settings.onPageFault === 'remove-device' && reports.length > 0) {
      if (lost > 0) (reports[reports.length - 1] as FaultReport).message += `; ${lost} more fault(s) were not recorded`;
      this.remove('DXGI_ERROR_DEVICE_HUNG', (reports[0] as FaultReport).message, reports);
    }
  }

  /** @internal A queue operation or a readback failed after its call returned. */
  recordFailure(call: string, error: unknown): void {
    const message = `${call} failed after the call returned: ${error instanceof Error ? error.message : String(error)}`;
    this.failures.push(message);
    this.remove('DXGI_ERROR_DEVICE_REMOVED', message, []);
  }

  /** @internal */
  operationFailed(call: string, error: unknown): void {
    this.recordFailure(call, error);
  }

  /** @internal Every queue has run its held work: releases that waited for it now wait for the GPU. */
  queueDrained(): void {
    this.releases.queueDrained();
  }

  /** A released query heap: held work may still resolve into its result pages, so they wait for it. */
  private releaseQueryHeap(heap: QueryHeap): void {
    this.releases.release(heap, () => this.freeQueryHeap(heap));
  }

  private freeQueryHeap(heap: QueryHeap): void {
    this.liveQueryHeaps.delete(heap);
    heap.querySet.destroy();
    if (!heap.results.released) heap.results.release();
  }

  /** What deferred releases wait for: held and running executions. */
  private workInFlight(): WorkUse[] {
    const work: WorkUse[] = [...(this.gpu?.running ?? [])];
    for (const queue of this.queues) {
      const held = queue.heldWork();
      if (held) work.push(held);
    }
    return work;
  }

  /**
   * COM Release of a heap's memory or a resource: deferred while GPU work may use it (see
   * deferred-release.ts), with the debug layer's OBJECT_DELETED_WHILE_STILL_IN_USE in the info queue
   * when lists that use it are known.
   */
  private retire(object: Heap | Resource, free: () => void): void {
    const users = this.releases.release(object, free);
    if (users.length === 0) return;
    const type = object instanceof Resource ? 'Resource' : 'Heap';
    const lists = users.map((user) => `${user.label} (${user.state === 'waiting' ? 'held behind a queue wait' : 'executing'})`).join(', ');
    this.infoQueue.add({
      category: 'EXECUTION',
      severity: 'WARNING',
      id: 'OBJECT_DELETED_WHILE_STILL_IN_USE',
      description: `${object.label} was released while GPU work still uses it: ${lists}. In D3D12 that work would read freed memory; here the memory and addresses are kept until it completes.`,
      object: { type, id: object.id, name: object.getName(), label: object.label },
      commandLists: users,
    });
  }

  private releaseResource(resource: Resource): void {
    this.retire(resource, () => this.freeResource(resource));
  }

  /** A released resource's memory and addresses go back, once no GPU work may use them. */
  private freeResource(resource: Resource): void {
    this.live.delete(resource);
    this.gpu?.shaderVisibleCpuMemory.delete(resource);
    this.gpu?.backing.unmapResource(resource);
    this.addressSpace.release(resource.virtualRange);
    if (resource.kind === 'placed') resource.heap?.dropPlacedReference();
    if (resource.kind === 'committed' && resource.heap) {
      resource.heap.release();
      this.heaps.delete(resource.heap.id);
    }
  }
}
