/**
 * Resource (ID3D12Resource): a range of GPU virtual addresses whose pages point into heap memory.
 *   committed: an implicit heap of exactly the resource, mapped once;
 *   placed:    a heap's memory from an offset, mapped once;
 *   reserved:  its own address range, mapped tile by tile by updateTileMappings (starting NULL).
 *
 * Unlike D3D12, where GetGPUVirtualAddress returns 0 for textures, every resource here has a
 * non-zero address: shaders reach textures, too, through the emulated page table.
 */
import { DeviceChild } from './device-child.js';
import { invalidArg, show } from '../api/errors.js';
import type { Heap } from './heap.js';
import type { FullResourceDesc } from '../api/types.js';
import { TILE_SIZE, tileByteOffset, type ResourceLayout } from '../memory/tiling.js';
import type { TileMappingTable } from '../memory/tile-mappings.js';
import type { VirtualRange } from '../memory/virtual-address-space.js';
import { cpuAccessible, type ResourceCategory } from '../validation/heap.js';

export type ResourceKind = 'committed' | 'placed' | 'reserved';

/** What the test view of the page table returns for a mapped tile. */
export interface TileMappingForTesting {
  heap: Heap;
  heapTileOffset: number;
}

export interface ResourceInit {
  id: number;
  kind: ResourceKind;
  desc: FullResourceDesc;
  category: ResourceCategory;
  layout: ResourceLayout;
  virtualRange: VirtualRange;
  initialState: number;
  /** Committed and placed resources: the heap and the byte offset in it. */
  heap?: Heap;
  heapOffset?: number;
  /** Reserved resources: the tile page table. */
  tileMappings?: TileMappingTable;
  /** Resolves a heap id of a tile mapping to the heap. */
  heapById: (id: number) => Heap | undefined;
  /** Called once, by release(). */
  onRelease: (resource: Resource) => void;
  /** Called by map() before it counts the map: the CPU may write through the returned view. */
  onMap: (resource: Resource) => void;
  /** Called by unmap(), with the range the CPU wrote when the caller names one. */
  onUnmap: (resource: Resource, written: Range | undefined) => void;
  /** Whether the device has GPU memory (map needs it). */
  gpuBacked: boolean;
  /** What created it (its device's MemoryObjects): DeviceChild.createdBy compares against it. */
  creator: object;
}

/** D3D12_RANGE: bytes [begin, end) of a subresource. */
export interface Range {
  begin: number;
  end: number;
}

// Validation takes it as a ResourceView, structurally (see heap.ts).
export class Resource extends DeviceChild {
  /** Unique among the device's objects of its kind and never reused (an emulator addition): memory statistics, fault reports and info-queue messages name objects by it. */
  readonly id: number;
  /** @internal Committed, placed or reserved. */
  readonly kind: ResourceKind;
  /** @internal The validated description (getDesc returns a copy). */
  readonly desc: FullResourceDesc;
  /** @internal Buffer, render-target texture or other texture (heap tier 1 rules). */
  readonly category: ResourceCategory;
  /** @internal Subresources, tiles and byte size. */
  readonly layout: ResourceLayout;
  /** @internal Its GPU virtual address range. */
  readonly virtualRange: VirtualRange;
  /** @internal The state the resource was created in (D3D12_RESOURCE_STATES bits). */
  readonly initialState: number;
  /** The current state of each subresource, as executed command lists leave it (call order). */
  #states: number[];
  /** Times map() was called without unmap(). */
  #mapCount = 0;
  /**
   * @internal
   * UPLOAD resources stay in GENERIC_READ and READBACK resources in COPY_DEST: no barrier may change
   * them and they never decay (D3D12_HEAP_TYPE_UPLOAD / READBACK).
   */
  readonly fixedState: number | undefined;
  /** @internal Committed and placed: the heap whose memory it is. */
  readonly heap?: Heap;
  /** @internal Placed: its byte offset in the heap (0 otherwise). */
  readonly heapOffset: number;
  /** @internal Reserved: the CPU page table of its tiles. */
  readonly tileMappings?: TileMappingTable;
  private readonly heapById: (id: number) => Heap | undefined;
  private readonly onRelease: (resource: Resource) => void;
  private readonly onMap: (resource: Resource) => void;
  private readonly onUnmap: (resource: Resource, written: Range | undefined) => void;
  private readonly gpuBacked: boolean;

  /** @internal Created by the Device's create*Resource methods. */
  constructor(init: ResourceInit) {
    super(init.creator);
    this.id = init.id;
    this.kind = init.kind;
    this.desc = init.desc;
    this.category = init.category;
    this.layout = init.layout;
    this.virtualRange = init.virtualRange;
    this.initialState = init.initialState;
    this.#states = new Array<number>(init.layout.mipLevels * init.layout.arraySize).fill(init.initialState);
    const heapType = init.heap?.desc.properties.type;
    this.fixedState = heapType === 'UPLOAD' || heapType === 'READBACK' ? init.initialState : undefined;
    this.heap = init.heap;
    this.heapOffset = init.heapOffset ?? 0;
    this.tileMappings = init.tileMappings;
    this.heapById = init.heapById;
    this.onRelease = init.onRelease;
    this.onMap = init.onMap;
    this.onUnmap = init.onUnmap;
    this.gpuBacked = init.gpuBacked;
  }

  /** @internal The state of each subresource (D3D12_RESOURCE_STATES bits), as executed lists leave it. */
  get states(): readonly number[] {
    return this.#states;
  }

  /** @internal An executed list left subresource `sub` in `state` (or it decayed). */
  setState(sub: number, state: number): void {
    if (!Number.isInteger(sub) || sub < 0 || sub >= this.#states.length)
      throw invalidArg(
        'Resource.setState',
        'sub',
        `must be a subresource below ${this.#states.length}, got ${show(sub)}`,
      );
    this.#states[sub] = state;
  }

  /** @internal What saveStates took, put back (a checked call that must change nothing). */
  restoreStates(saved: readonly number[]): void {
    this.#states = [...saved];
  }

  /** @internal Times map() was called without unmap(). */
  get mapCount(): number {
    return this.#mapCount;
  }

  get label(): string {
    return `${this.kind} resource #${this.id}${this.nameSuffix}`;
  }

  protected get interfaceName(): string {
    return 'Resource';
  }

  getDesc(): FullResourceDesc {
    this.live('getDesc');
    return structuredClone(this.desc);
  }

  /** The resource's GPU virtual address: non-zero, unique among live resources, a bigint. */
  getGPUVirtualAddress(): bigint {
    this.live('getGPUVirtualAddress');
    return this.virtualRange.address;
  }

  /**
   * COM Release: the address range (and a committed resource's memory) returns once no GPU work may
   * use it; a placed resource then lets go of its heap. A mapping still open ends with it.
   */
  release(): void {
    this.markReleased();
    while (this.#mapCount > 0) {
      this.#mapCount--;
      this.onUnmap(this, undefined);
    }
    this.onRelease(this);
  }

  /**
   * ID3D12Resource::Map: the buffer's bytes in CPU-accessible memory (UPLOAD, READBACK or a CUSTOM
   * heap with a CPU page property), as a view that stays valid until the resource is released.
   * Writes are seen by command lists executed after them; after a fence signalled behind GPU work
   * completes, the view holds what that work wrote. Maps nest (each map needs an unmap).
   */
  map(subresource = 0, readRange?: Range | null): Uint8Array {
    const call = 'Resource.map';
    this.live('map');
    const heap = this.heap;
    if (this.kind === 'reserved' || !heap || !cpuAccessible(heap.desc.properties)) {
      throw invalidArg(
        call,
        'this',
        `${this.label} is not in CPU-accessible memory (an UPLOAD, READBACK or CPU-visible CUSTOM heap); copy through an UPLOAD or READBACK buffer`,
      );
    }
    if (this.desc.dimension !== 'BUFFER')
      throw invalidArg(
        call,
        'this',
        `${this.label} is a texture; only buffers are mapped here (texture layouts are opaque, as with UNKNOWN layout in D3D12)`,
      );
    if (subresource !== 0)
      throw invalidArg(call, 'subresource', `a buffer has one subresource, 0; got ${show(subresource)}`);
    if (readRange != null) checkRange(call, 'readRange', readRange, this.desc.width);
    const cpuCopy = heap.cpuCopy;
    if (!this.gpuBacked || !cpuCopy)
      throw invalidArg(
        call,
        'this',
        'this device has no GPU memory to map (created with gpuDevice: null, or where WebGPU is unavailable)',
      );
    // An evicted heap is paged in and stays resident while mapped (as Dawn locks mapped heaps); that
    // can fail with E_OUTOFMEMORY, before anything changed.
    this.onMap(this);
    this.#mapCount++;
    return cpuCopy.subarray(this.heapOffset, this.heapOffset + this.desc.width);
  }

  /**
   * ID3D12Resource::Unmap. `writtenRange`, as in D3D12, names the bytes the CPU wrote: only those go
   * to the GPU (without it, the whole resource does).
   */
  unmap(subresource = 0, writtenRange?: Range | null): void {
    const call = 'Resource.unmap';
    this.live('unmap');
    if (subresource !== 0)
      throw invalidArg(call, 'subresource', `a buffer has one subresource, 0; got ${show(subresource)}`);
    if (writtenRange != null) checkRange(call, 'writtenRange', writtenRange, this.desc.width);
    if (this.#mapCount === 0) throw invalidArg(call, 'this', `${this.label} is not mapped`);
    this.#mapCount--;
    this.onUnmap(this, writtenRange ?? undefined);
  }

  /**
   * The CPU page table's entry for resource tile `tileIndex` (read-only view for tests): the heap and
   * heap tile behind it, or null for a NULL tile. For a placed small texture whose offset is not a
   * whole tile, the heap tile holding the tile's first byte.
   * @internal Read through getTileMappingForTesting (d3d12-webgpu/testing).
   */
  tileMapping(tileIndex: number): TileMappingForTesting | null {
    this.live('getTileMappingForTesting');
    if (!Number.isSafeInteger(tileIndex) || tileIndex < 0 || tileIndex >= this.layout.numTiles) {
      throw invalidArg(
        'Resource.getTileMappingForTesting',
        'tileIndex',
        `must be an integer below ${this.layout.numTiles}, got ${show(tileIndex)}`,
      );
    }
    if (this.tileMappings) {
      const mapping = this.tileMappings.get(tileIndex);
      const heap = mapping ? this.heapById(mapping.heapId) : undefined;
      return mapping && heap ? { heap, heapTileOffset: mapping.heapTile } : null;
    }
    const heap = this.heap as Heap;
    return { heap, heapTileOffset: Math.floor((this.heapOffset + tileByteOffset(this.layout, tileIndex)) / TILE_SIZE) };
  }
}

function checkRange(call: string, argument: string, range: Range, width: number): void {
  const ok =
    typeof range === 'object' &&
    Number.isSafeInteger(range.begin) &&
    Number.isSafeInteger(range.end) &&
    range.begin >= 0 &&
    range.begin <= range.end &&
    range.end <= width;
  if (!ok)
    throw invalidArg(call, argument, `must be {begin, end} with 0 <= begin <= end <= ${width}, got ${show(range)}`);
}
