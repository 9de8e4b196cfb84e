/**
 * Device (ID3D12Device): creates heaps, resources and queues, answers capability and layout queries.
 *
 * Invariants: every call validates all its arguments (src/validation/) before it changes anything,
 * so a call that throws leaves the device as it was; heap and resource ids are unique per device and
 * never reused; every live resource owns a distinct, non-zero range of the virtual address space.
 */
import { packedMipInfo, subresourceTiling, TILE_SIZE } from '../memory/tiling.js';
import { TileMappingTable } from '../memory/tile-mappings.js';
import { VA_PAGE_SIZE, VirtualAddressSpace, type VirtualRange } from '../memory/virtual-address-space.js';
import {
  validateCreateCommittedResource,
  validateCreatePlacedResource,
  validateCreateReservedResource,
  validateGetResourceAllocationInfo,
  type CreationPlan,
} from '../validation/create-resource.js';
import {
  validateCheckFeatureSupport,
  validateCreateCommandQueue,
  validateCreateDevice,
  validateGetResourceTiling,
  type DeviceSettings,
} from '../validation/device.js';
import { heapFlagNames, validateCreateHeap, type FullHeapDesc } from '../validation/heap.js';
import type { ResourceCaps } from '../validation/resource-desc.js';
import { CommandQueue, type QueueOwner } from './command-queue.js';
import { D3D12Error, orThrow } from './errors.js';
import { Heap } from './heap.js';
import { Resource, type ResourceKind } from './resource.js';
import type {
  ClearValue,
  CommandQueueDesc,
  DeviceOptions,
  HeapDesc,
  HeapFlag,
  HeapProperties,
  ResourceAllocationInfo,
  ResourceDesc,
  ResourceHeapTier,
  ResourceStates,
  ResourceTiling,
  TiledResourcesTier,
} from './types.js';

/** MaxGPUVirtualAddressBitsPerResource and ...PerProcess: 1 TiB, the whole emulated space. */
export const VIRTUAL_ADDRESS_BITS = 40;

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

/** Opens an emulated D3D12 device. */
export function createDevice(options: DeviceOptions = {}): Promise<Device> {
  try {
    return Promise.resolve(new Device(orThrow(validateCreateDevice(options))));
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

export class Device implements QueueOwner {
  private readonly addressSpace = new VirtualAddressSpace(VIRTUAL_ADDRESS_BITS);
  /** Every heap ever created (ids are never reused, so tile mappings can name released heaps). */
  private readonly heaps = new Map<number, Heap>();
  private readonly resources = new WeakSet<Resource>();
  private nextHeapId = 1;
  private nextResourceId = 1;

  /** @internal Use createDevice(). */
  constructor(readonly settings: DeviceSettings) {}

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

  createHeap(desc: HeapDesc): Heap {
    const checked = orThrow(validateCreateHeap(desc, { resourceHeapTier: this.settings.resourceHeapTier }));
    const { flagBits, ...full } = checked;
    const heap = new Heap(this.nextHeapId++, full, flagBits);
    this.heaps.set(heap.id, heap);
    return heap;
  }

  createCommittedResource(
    heapProperties: HeapProperties,
    heapFlags: HeapFlag[],
    desc: ResourceDesc,
    initialState: ResourceStates,
    optimizedClearValue?: ClearValue | null,
  ): Resource {
    const plan = orThrow(validateCreateCommittedResource(this.caps, heapProperties, heapFlags, desc, initialState, optimizedClearValue));
    const virtualRange = this.reserveAddresses('createCommittedResource', plan.layout.sizeInBytes, 0);
    const id = this.nextResourceId++;
    const heapDesc: FullHeapDesc = {
      sizeInBytes: plan.layout.sizeInBytes,
      properties: plan.heapProperties,
      alignment: plan.alignment,
      flags: heapFlagNames(plan.heapFlagBits),
    };
    const heap = new Heap(this.nextHeapId++, heapDesc, plan.heapFlagBits, `committed resource #${id}`);
    this.heaps.set(heap.id, heap);
    return this.makeResource(id, 'committed', plan, virtualRange, { heap, heapOffset: 0 });
  }

  createPlacedResource(heap: Heap, heapOffset: number, desc: ResourceDesc, initialState: ResourceStates, optimizedClearValue?: ClearValue | null): Resource {
    const plan = orThrow(validateCreatePlacedResource(this.caps, this.ownHeap(heap), heapOffset, desc, initialState, optimizedClearValue));
    // A small texture placed inside a page keeps its offset in its address (see VirtualAddressSpace).
    const virtualRange = this.reserveAddresses('createPlacedResource', plan.layout.sizeInBytes, plan.heapOffset % VA_PAGE_SIZE);
    heap.addPlacedReference();
    return this.makeResource(this.nextResourceId++, 'placed', plan, virtualRange, { heap, heapOffset: plan.heapOffset });
  }

  createReservedResource(desc: ResourceDesc, initialState: ResourceStates, optimizedClearValue?: ClearValue | null): Resource {
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
    return new CommandQueue(this, orThrow(validateCreateCommandQueue(desc)));
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
  heapById(id: number): Heap | undefined {
    return this.heaps.get(id);
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
    });
    this.resources.add(resource);
    return resource;
  }

  private releaseResource(resource: Resource): void {
    this.addressSpace.release(resource.virtualRange);
    if (resource.kind === 'placed') resource.heap?.dropPlacedReference();
    if (resource.kind === 'committed' && resource.heap) {
      resource.heap.release();
      this.heaps.delete(resource.heap.id);
    }
  }
}

