/**
 * MemoryObjects: a device's heaps and resources. It creates them (after validation in
 * src/validation/), gives each resource its GPU virtual addresses and each heap its pages, knows which
 * objects are the device's own, and frees a released object's memory and addresses once its owner's
 * deferred release lets it (see deferred-release.ts).
 *
 * Invariants: heap and resource ids are unique per device and never reused (a tile mapping naming a
 * released heap keeps naming that heap); every live resource owns a distinct, non-zero range of the
 * virtual address space; a call that throws has taken no pages, addresses or ids.
 */
import { DeviceChild } from '../d3d12/device-child.js';
import { D3D12Error, orThrow } from '../api/errors.js';
import type {
  ClearValue,
  HeapDesc,
  HeapFlag,
  HeapProperties,
  ResourceDesc,
  ResourceStates,
  ResourceTiling,
} from '../api/types.js';
import { packedMipInfo, subresourceTiling, TILE_SIZE } from '../memory/tiling.js';
import { TileMappingTable } from '../memory/tile-mappings.js';
import { VA_PAGE_SIZE, VirtualAddressSpace, type VirtualRange } from '../memory/virtual-address-space.js';
import {
  validateCreateCommittedResource,
  validateCreatePlacedResource,
  validateCreateReservedResource,
  type CreationPlan,
} from '../validation/create-resource.js';
import { validateGetResourceTiling, type DeviceSettings } from '../validation/device.js';
import { cpuAccessible, heapFlagNames, validateCreateHeap, type FullHeapDesc } from '../validation/heap.js';
import type { ResourceCaps } from '../validation/resource-desc.js';
import { VIRTUAL_ADDRESS_BITS } from './feature-support.js';
import type { GpuBackend } from './gpu-backend.js';
import { Heap, type HeapMemory } from '../d3d12/heap.js';
import { mib } from './memory-backing.js';
import type { PlacementPlan } from './heap-placement.js';
import { memoryStats, type MemoryStats } from './memory-stats.js';
import type { DeviceResidency } from './device-residency.js';
import { Resource, type ResourceKind } from '../d3d12/resource.js';

export interface MemoryObjectsOwner {
  /** The GPU side; undefined on a CPU-only device. */
  backend(): GpuBackend | undefined;
  checkNotRemoved(call: string): void;
  /** COM Release: runs `free` once no GPU work may use the object any more. */
  retire(object: Heap | Resource, free: () => void): void;
}

export class MemoryObjects {
  private readonly addressSpace = new VirtualAddressSpace(VIRTUAL_ADDRESS_BITS);
  /** Every heap ever created (ids are never reused, so tile mappings can name released heaps). */
  private readonly heaps = new Map<number, Heap>();
  /** Live resources (released ones leave once freed). */
  readonly live = new Set<Resource>();
  private nextHeapId = 1;
  private nextResourceId = 1;

  constructor(
    private readonly owner: MemoryObjectsOwner,
    private readonly residency: DeviceResidency,
    private readonly settings: DeviceSettings,
  ) {}

  private get gpu(): GpuBackend | undefined {
    return this.owner.backend();
  }

  get caps(): ResourceCaps {
    return { tiledResourcesTier: this.settings.tiledResourcesTier, maxResourceBytes: 2 ** VIRTUAL_ADDRESS_BITS };
  }

  /** What each segment, heap (whose memory is not yet freed) and live resource holds (see memory-stats.ts). */
  memoryStats(): MemoryStats {
    return memoryStats({
      heaps: this.heapsWithMemory(),
      resources: this.live,
      segment: (segment) => this.residency.segmentStats(segment),
      paging: this.residency.paged,
    });
  }

  /** D3D12's GetResourceTiling, its out-parameters as one object; the subresource count is clamped. */
  resourceTiling(resource: Resource, firstSubresource?: number, numSubresources?: number): ResourceTiling {
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

  /** Every heap whose memory is not yet freed (explicit and implicit). */
  heapsWithMemory(): Heap[] {
    return [...this.heaps.values()].filter((heap) => !heap.memoryFreed);
  }

  /** Live reserved resources (their tiles follow the heaps they map into). */
  reservedResources(): Resource[] {
    return [...this.live].filter((resource) => resource.tileMappings);
  }

  /** Throws E_OUTOFMEMORY for a heap no pool could ever hold (nothing changes). */
  private checkFitsPool(call: string, argument: string, heap: Heap): void {
    // On a GPU, even created not resident, a heap must fit its pool: it could never be made resident
    // otherwise (and CPU-accessible heaps take a CPU copy of their size at once). A CPU-only device
    // keeps the object model only, of any size.
    const pool = this.residency.poolSize(heap.segment);
    if (this.gpu && !heap.resident && heap.residentBytes > pool) {
      throw new D3D12Error(
        'E_OUTOFMEMORY',
        call,
        argument,
        `needs ${mib(heap.residentBytes)} of ${heap.segment} memory to be made resident, more than the whole ${mib(pool)} pool holds`,
      );
    }
  }

  /**
   * Physical pages for a new heap, unless it starts not resident: in its segment, or demoted to
   * NON_LOCAL (after other heaps moved) when LOCAL would go over budget (`plan`: planCreation's).
   * Throws E_OUTOFMEMORY before anything changes when the pool is short.
   */
  private takePages(
    call: string,
    argument: string,
    heap: Heap,
    plan: PlacementPlan | undefined,
  ): HeapMemory | undefined {
    if (!heap.resident) return undefined;
    // No plan: the heap fits nowhere, and the allocation below says so (a CPU-only device goes over).
    if (plan) this.residency.applyCreation(call, heap, plan);
    return this.gpu?.backing.allocate(call, argument, heap.currentSegment, heap.desc.sizeInBytes);
  }

  private registerHeap(heap: Heap, pages: HeapMemory | undefined): Heap {
    this.heaps.set(heap.id, heap);
    this.gpu?.backing.attach(heap, pages);
    this.residency.heapCreated(heap);
    const free = (): void => {
      this.gpu?.backing.free(heap);
      this.residency.heapFreed(heap);
    };
    // A committed resource's heap goes with its resource, whose release already waited for the GPU.
    heap.whenMemoryFreed(() => (heap.implicitFor ? free() : this.owner.retire(heap, free)));
    return heap;
  }

  createHeap(desc: HeapDesc): Heap {
    const checked = orThrow(validateCreateHeap(desc, { resourceHeapTier: this.settings.resourceHeapTier }));
    const { flagBits, ...full } = checked;
    const heap = new Heap(this.nextHeapId, full, flagBits, this);
    this.checkFitsPool('createHeap', 'desc.sizeInBytes', heap);
    const pages = this.takePages('createHeap', 'desc.sizeInBytes', heap, this.residency.planCreation(heap));
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
    const plan = orThrow(
      validateCreateCommittedResource(this.caps, heapProperties, heapFlags, desc, initialState, optimizedClearValue),
    );
    const heapDesc: FullHeapDesc = {
      sizeInBytes: plan.layout.sizeInBytes,
      properties: plan.heapProperties,
      alignment: plan.alignment,
      flags: heapFlagNames(plan.heapFlagBits),
    };
    const id = this.nextResourceId;
    const heap = new Heap(this.nextHeapId, heapDesc, plan.heapFlagBits, this, `committed resource #${id}`);
    this.checkFitsPool('createCommittedResource', 'desc', heap);
    // Planned (changing nothing) before the addresses, which may fail; carried out after them.
    const placement = this.residency.planCreation(heap);
    const virtualRange = this.reserveAddresses('createCommittedResource', plan.layout.sizeInBytes, 0);
    let pages: HeapMemory | undefined;
    try {
      pages = this.takePages('createCommittedResource', 'desc', heap, placement);
    } catch (error) {
      this.addressSpace.release(virtualRange);
      throw error;
    }
    this.nextHeapId++;
    this.nextResourceId++;
    this.registerHeap(heap, pages);
    return this.makeResource(id, 'committed', plan, virtualRange, { heap, heapOffset: 0 });
  }

  createPlacedResource(
    heap: Heap,
    heapOffset: number,
    desc: ResourceDesc,
    initialState: ResourceStates,
    optimizedClearValue?: ClearValue | null,
  ): Resource {
    const plan = orThrow(
      validateCreatePlacedResource(this.caps, this.ownHeap(heap), heapOffset, desc, initialState, optimizedClearValue),
    );
    // A small texture placed inside a page keeps its offset in its address (see VirtualAddressSpace).
    const virtualRange = this.reserveAddresses(
      'createPlacedResource',
      plan.layout.sizeInBytes,
      plan.heapOffset % VA_PAGE_SIZE,
    );
    heap.addPlacedReference();
    return this.makeResource(this.nextResourceId++, 'placed', plan, virtualRange, {
      heap,
      heapOffset: plan.heapOffset,
    });
  }

  createReservedResource(
    desc: ResourceDesc,
    initialState: ResourceStates,
    optimizedClearValue?: ClearValue | null,
  ): Resource {
    const plan = orThrow(validateCreateReservedResource(this.caps, desc, initialState, optimizedClearValue));
    const virtualRange = this.reserveAddresses('createReservedResource', plan.layout.numTiles * TILE_SIZE, 0);
    return this.makeResource(this.nextResourceId++, 'reserved', plan, virtualRange, {
      tileMappings: new TileMappingTable(plan.layout.numTiles),
    });
  }

  /** The heap if it is one of this device's (implicit heaps of committed resources are not). */
  ownHeap(value: unknown): Heap | undefined {
    return value instanceof Heap && DeviceChild.createdBy(value, this) && !value.implicitFor ? value : undefined;
  }

  /** The resource if this device created it. */
  ownResource(value: unknown): Resource | undefined {
    return value instanceof Resource && DeviceChild.createdBy(value, this) ? value : undefined;
  }

  /** The live resources whose address ranges hold any of `addresses`. */
  resourcesAt(addresses: readonly bigint[]): Resource[] {
    if (addresses.length === 0) return [];
    // At every dispatch of every execution: no intermediate arrays.
    const found: Resource[] = [];
    for (const resource of this.live) {
      const start = resource.virtualRange.address;
      const end = start + BigInt(resource.virtualRange.pageCount * TILE_SIZE);
      for (const address of addresses) {
        if (address >= start && address < end) {
          found.push(resource);
          break;
        }
      }
    }
    return found;
  }

  /** Any heap this device ever created, released ones included. */
  heapById(id: number): Heap | undefined {
    return this.heaps.get(id);
  }

  private reserveAddresses(call: string, sizeInBytes: number, offsetInPage: number): VirtualRange {
    const range = this.addressSpace.reserve(sizeInBytes, offsetInPage);
    if (!range) {
      throw new D3D12Error(
        'E_OUTOFMEMORY',
        call,
        'desc',
        `the resource needs ${sizeInBytes} bytes of GPU virtual address space, and only ${this.addressSpace.freeBytes} of the ${this.addressSpace.sizeInBytes} remain (or are too fragmented)`,
      );
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
      onRelease: (released) => this.owner.retire(released, () => this.freeResource(released)),
      onMap: (mapped) => {
        this.owner.checkNotRemoved('Resource.map');
        // Mapped memory is resident (paged in if it was evicted) and stays so, whatever Evict says meanwhile.
        if (mapped.heap) this.residency.lockForMap('Resource.map', mapped.heap);
        this.gpu?.markMapped(mapped);
      },
      onUnmap: (unmapped, written) => {
        this.gpu?.markUnmapped(unmapped, written);
        if (!unmapped.heap) return;
        unmapped.heap.unlockResidency();
        this.residency.pageOutIfUnused([unmapped.heap], 'Resource.unmap');
      },
      gpuBacked: this.gpu !== undefined,
      creator: this,
    });
    this.live.add(resource);
    this.gpu?.backing.mapResource(resource);
    // Shaders may write UAV-capable resources in CPU-visible CUSTOM memory: read them back after dispatches.
    if (
      resource.heap &&
      cpuAccessible(resource.heap.desc.properties) &&
      resource.desc.flags.includes('ALLOW_UNORDERED_ACCESS')
    ) {
      this.gpu?.shaderVisibleCpuMemory.add(resource);
    }
    return resource;
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
