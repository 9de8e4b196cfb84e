/**
 * Heap (ID3D12Heap): a range of emulated memory in one segment, holding placed resources and the
 * tiles of reserved resources.
 *
 * Invariants: a heap's id is unique on its device and never reused, so a tile mapping that names a
 * released heap keeps naming that heap. Placed resources hold a reference on their heap (as in
 * D3D12): the heap's memory is freed once the heap is released and its last placed resource is.
 * Tile mappings hold no reference: releasing a heap that tiles map into leaves them mapped to a
 * released heap (they point at nothing; the GPU layer decides what reading them does).
 */
import { DeviceChild } from './device-child.js';
import { D3D12Error } from '../api/errors.js';
import type { HeapDesc, MemorySegment } from '../api/types.js';
import type { PageRun } from '../memory/range-allocator.js';
import type { Evicted } from '../gpu/paging.js';
import { heapSegment, type FullHeapDesc } from '../validation/heap.js';
import { TILE_SIZE } from '../memory/tiling.js';

/** A heap's memory on a GPU-backed device, while it is resident. */
export interface HeapMemory {
  segment: MemorySegment;
  runs: PageRun[];
  /** The physical page of each heap page, in order. */
  pages: Uint32Array;
}

/** D3D12_RESIDENCY_PRIORITY_NORMAL. */
export const RESIDENCY_PRIORITY_NORMAL = 0x78000000;

// Validation takes it as a HeapView (src/validation/create-resource.ts), structurally: an
// `implements` clause would name internal members, which the published types strip.
export class Heap extends DeviceChild {
  // Residency and memory state: read through the accessors below, changed only through the
  // intent-named methods (as Dawn's Pageable), by the device's residency and memory backing.
  #memory?: HeapMemory;
  #cpuCopy?: Uint8Array;
  #evicted?: Evicted;
  /** MakeResident minus Evict calls: resident while above zero (or while locked). */
  #residencyReferences: number;
  #residencyPriority = RESIDENCY_PRIORITY_NORMAL;
  /** Mapped resources lock their heap resident (D3D12: mapped UPLOAD/READBACK memory stays resident). */
  #residencyLocks = 0;
  /** Whether the heap's memory is in its pool (CPU-only device: bookkeeping only). */
  #resident: boolean;
  /** Resident in NON_LOCAL although it prefers LOCAL (demoted by the emulated OS: heap-placement.ts). */
  #demoted = false;
  #onMemoryFreed?: (heap: Heap) => void;
  /** Placed resources that hold a reference on this heap. */
  #placedResources = 0;

  /** @internal Created by Device.createHeap (or as a committed resource's implicit heap). */
  constructor(
    /** Unique among the device's objects of its kind and never reused (an emulator addition): memory statistics, fault reports and info-queue messages name objects by it. */
    readonly id: number,
    /** @internal The validated description (getDesc returns a copy). */
    readonly desc: FullHeapDesc,
    /** @internal */
    readonly flagBits: number,
    /** What created it (its device's MemoryObjects): DeviceChild.createdBy compares against it. */
    creator: object,
    /** @internal A committed resource's heap: not visible through the API. */
    readonly implicitFor?: string,
  ) {
    super(creator);
    const notResident = desc.flags.includes('CREATE_NOT_RESIDENT');
    this.#residencyReferences = notResident ? 0 : 1;
    this.#resident = !notResident;
  }

  /** @internal The heap's pages while resident on a GPU-backed device. */
  get memory(): HeapMemory | undefined {
    return this.#memory;
  }

  /** @internal CPU-accessible heaps on a GPU device: the CPU's copy of the memory, which map() exposes. */
  get cpuCopy(): Uint8Array | undefined {
    return this.#cpuCopy;
  }

  /** @internal While not resident (GPU device): where its bytes are. */
  get evicted(): Evicted | undefined {
    return this.#evicted;
  }

  /** @internal Whether the heap's memory is in its pool. */
  get resident(): boolean {
    return this.#resident;
  }

  /**
   * @internal Resident, and demoted: its bytes live in NON_LOCAL memory though its heap type prefers
   * LOCAL (the OS moved it there while the process was over its LOCAL budget). False when evicted.
   */
  get demoted(): boolean {
    return this.#demoted;
  }

  /** @internal The segment its memory is in now (while resident): NON_LOCAL when demoted, else its own. */
  get currentSegment(): MemorySegment {
    return this.#demoted ? 'NON_LOCAL' : this.segment;
  }

  /** @internal MakeResident minus Evict calls. */
  get residencyReferences(): number {
    return this.#residencyReferences;
  }

  /** @internal D3D12_RESIDENCY_PRIORITY. */
  get residencyPriority(): number {
    return this.#residencyPriority;
  }

  /** @internal Resources mapped now: while above zero the heap stays resident. */
  get residencyLocks(): number {
    return this.#residencyLocks;
  }

  /** @internal The memory backing gives a CPU-accessible heap its CPU copy, once. */
  attachCpuCopy(bytes: Uint8Array): void {
    this.#cpuCopy = bytes;
  }

  /** @internal The heap's bytes are in these pages now. */
  holdPages(memory: HeapMemory): void {
    this.#memory = memory;
    this.#evicted = undefined;
  }

  /** @internal The heap's bytes were paged out to `evicted` (or were never written). */
  holdEvicted(evicted: Evicted): void {
    this.#memory = undefined;
    this.#evicted = evicted;
  }

  /** @internal The heap's memory is gone for good. */
  dropMemory(): void {
    this.#memory = undefined;
    this.#evicted = undefined;
  }

  /** @internal MakeResident. */
  addResidencyReference(): void {
    this.#residencyReferences++;
  }

  /** @internal Evict, `count` times (the caller checked that it holds that many). */
  dropResidencyReferences(count: number): void {
    if (count > this.#residencyReferences)
      throw new D3D12Error(
        'E_FAIL',
        'Heap.dropResidencyReferences',
        'count',
        `${this.label} holds ${this.#residencyReferences} residency reference(s), not ${count}`,
      );
    this.#residencyReferences -= count;
  }

  /** @internal A map of a resource in it: the heap stays resident until the matching unlock. */
  lockResidency(): void {
    this.#residencyLocks++;
  }

  /** @internal */
  unlockResidency(): void {
    if (this.#residencyLocks === 0)
      throw new D3D12Error('E_FAIL', 'Heap.unlockResidency', 'this', `${this.label} is not locked resident`);
    this.#residencyLocks--;
  }

  /** @internal Its memory is in the pool (and counts against the budget) now. */
  markResident(): void {
    this.#resident = true;
  }

  /** @internal Its memory left the pool. */
  markNotResident(): void {
    this.#resident = false;
    this.#demoted = false;
  }

  /** @internal Its memory is (or, on a CPU-only device, counts as) in NON_LOCAL although it prefers LOCAL, or back in its own segment. */
  markDemoted(demoted: boolean): void {
    this.#demoted = demoted;
  }

  /** @internal SetResidencyPriority (validated by the caller). */
  setResidencyPriority(priority: number): void {
    this.#residencyPriority = priority;
  }

  /** @internal Called once, when the heap's memory may be freed (released, and no placed resource holds it). */
  whenMemoryFreed(callback: (heap: Heap) => void): void {
    this.#onMemoryFreed = callback;
  }

  /** @internal The bytes the heap counts against its segment's budget: whole pages. */
  get residentBytes(): number {
    return Math.max(1, Math.ceil(this.desc.sizeInBytes / TILE_SIZE)) * TILE_SIZE;
  }

  get label(): string {
    if (this.implicitFor) return `the implicit heap of ${this.implicitFor}`;
    return `heap #${this.id}${this.nameSuffix}`;
  }

  protected get interfaceName(): string {
    return 'Heap';
  }

  /** @internal */
  get segment(): MemorySegment {
    return heapSegment(this.desc.properties);
  }

  getDesc(): HeapDesc {
    this.live('getDesc');
    return structuredClone(this.desc);
  }

  /** COM Release: the memory returns once no placed resource holds the heap any more. */
  release(): void {
    this.markReleased();
    if (this.#placedResources === 0) this.#onMemoryFreed?.(this);
  }

  /** @internal Whether the heap's memory is gone: released, and no placed resource keeps it alive. */
  get memoryFreed(): boolean {
    return this.released && this.#placedResources === 0;
  }

  /**
   * Test hook (benchmarks and tests): while the heap is evicted on a GPU device, its contents once
   * they reached CPU memory (the page-out's copy completes asynchronously); zeros for a heap created
   * not resident and never made resident; undefined while resident, while a lazily evicted heap's bytes
   * are still in its kept pages (nothing copied them out), or on a CPU-only device. The
   * array is the eviction's own CPU store, not a copy: it holds these bytes until the heap is made
   * resident again, after which a later eviction may reuse it (copy it to keep it).
   * @internal Read through getEvictedBytesForTesting (d3d12-webgpu/testing).
   */
  evictedBytes(): Promise<Uint8Array> | undefined {
    const evicted = this.#evicted;
    if (!evicted || this.#memory || evicted.kept) return undefined;
    return evicted.arrived.then(() => evicted.bytes ?? new Uint8Array(evicted.byteLength));
  }

  /** @internal Placed resources that hold a reference on this heap. */
  get placedReferences(): number {
    return this.#placedResources;
  }

  /** @internal */
  addPlacedReference(): void {
    this.#placedResources++;
  }

  /** @internal */
  dropPlacedReference(): void {
    if (this.#placedResources === 0)
      throw new D3D12Error('E_FAIL', 'Heap.dropPlacedReference', 'this', 'no placed resource holds this heap');
    this.#placedResources--;
    if (this.memoryFreed) this.#onMemoryFreed?.(this);
  }
}
