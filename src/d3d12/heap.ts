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
import type { HeapView } from '../validation/create-resource.js';

/** A heap's memory on a GPU-backed device, while it is resident. */
export interface HeapMemory {
  segment: MemorySegment;
  runs: PageRun[];
  /** The physical page of each heap page, in order. */
  pages: Uint32Array;
}

/** D3D12_RESIDENCY_PRIORITY_NORMAL. */
export const RESIDENCY_PRIORITY_NORMAL = 0x78000000;

export class Heap extends DeviceChild implements HeapView {
  /** Set by the device's memory backing while the heap is resident; undefined on a CPU-only device. */
  memory?: HeapMemory;
  /** CPU-accessible heaps on a GPU device: the CPU's copy of the memory, which map() exposes. */
  cpuCopy?: Uint8Array;
  /** While not resident (GPU device): where its bytes are. */
  evicted?: Evicted;
  /** MakeResident minus Evict calls: resident while above zero (or while mapped). */
  residencyCount: number;
  /** D3D12_RESIDENCY_PRIORITY. */
  residencyPriority = RESIDENCY_PRIORITY_NORMAL;
  /** Mapped resources keep their heap resident (D3D12: mapped UPLOAD/READBACK memory stays resident). */
  mappedResources = 0;
  /** Whether the heap's memory is in its pool (CPU-only device: bookkeeping only). */
  resident: boolean;
  /** Called once, when the heap's memory may be freed (released, and no placed resource holds it). */
  onMemoryFreed?: (heap: Heap) => void;
  /** Placed resources that hold a reference on this heap. */
  private placedResources = 0;

  /** @internal Created by Device.createHeap (or as a committed resource's implicit heap). */
  constructor(
    readonly id: number,
    readonly desc: FullHeapDesc,
    readonly flagBits: number,
    /** A committed resource's heap: not visible through the API. */
    readonly implicitFor?: string,
  ) {
    super();
    const notResident = desc.flags.includes('CREATE_NOT_RESIDENT');
    this.residencyCount = notResident ? 0 : 1;
    this.resident = !notResident;
  }

  /** The bytes the heap counts against its segment's budget: whole pages. */
  get residentBytes(): number {
    return Math.max(1, Math.ceil(this.desc.sizeInBytes / 65536)) * 65536;
  }

  get label(): string {
    if (this.implicitFor) return `the implicit heap of ${this.implicitFor}`;
    return `heap #${this.id}${this.nameSuffix}`;
  }

  protected get interfaceName(): string {
    return 'Heap';
  }

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
    if (this.placedResources === 0) this.onMemoryFreed?.(this);
  }

  /** Whether the heap's memory is gone: released, and no placed resource keeps it alive. */
  get memoryFreed(): boolean {
    return this.released && this.placedResources === 0;
  }

  isReleasedForTesting(): boolean {
    return this.released;
  }

  /** @internal */
  addPlacedReference(): void {
    this.placedResources++;
  }

  /** @internal */
  dropPlacedReference(): void {
    if (this.placedResources === 0) throw new D3D12Error('E_FAIL', 'Heap.dropPlacedReference', 'this', 'no placed resource holds this heap');
    this.placedResources--;
    if (this.memoryFreed) this.onMemoryFreed?.(this);
  }
}
