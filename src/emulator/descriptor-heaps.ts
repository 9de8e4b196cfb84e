/**
 * DescriptorHeaps: a device's descriptor heaps (CreateDescriptorHeap, Release) and the calls that
 * write descriptors (Create*View, CreateSampler, CopyDescriptors[Simple]), with the handles they
 * take resolved to a heap and an index.
 *
 * A shader-visible heap's descriptors live in emulated memory (an internal DEFAULT buffer, pageable
 * like a committed resource: MakeResident, Evict and residency sets take the heap). Writes go to the
 * heap's CPU copy and are sent to that memory before the next submission (flush, called by
 * GpuMemory.submit), as queue writes: work submitted before a write reads the old descriptor, work
 * submitted after it the new one, which is as D3D12 orders a descriptor write against
 * ExecuteCommandLists. A heap evicted meanwhile keeps its writes pending until it is resident again.
 *
 * Invariants: a CPU handle names a descriptor of a live heap of this device, at a multiple of the
 * heap's increment from its start (anything else is refused before anything changes); every heap's
 * CPU handles are a range of their own (cpuBase, 2^32 bytes apart), so a handle of another device's
 * heap, or of a released one, matches none of this device's.
 */
import type { CpuDescriptorHandle, DescriptorHeapType } from '../api/binding-types.js';
import { invalidArg, orThrow, show } from '../api/errors.js';
import { DeviceChild } from '../d3d12/device-child.js';
import { DescriptorHeap, type DescriptorRecord } from '../d3d12/descriptor-heap.js';
import type { Resource } from '../d3d12/resource.js';
import type { GpuMemory } from '../gpu/gpu-memory.js';
import { TILE_SIZE } from '../memory/tiling.js';
import { shaderVisible, validateCreateDescriptorHeap } from '../validation/descriptor-heap.js';
import { D3D12Error } from '../api/errors.js';
import { descriptorIncrement } from './descriptor-encoding.js';

/** CPU handles of one heap: 2^32 bytes (a heap has at most 2^20 descriptors of at most 320 bytes). */
const CPU_RANGE = 2 ** 32;
/** Heaps made in this process so far (CPU handle ranges are unique per process, as pointers are). */
let heapsMade = 0;

export interface DescriptorHeapOwner {
  nextObjectId(): number;
  /** An internal DEFAULT buffer of `bytes` for a shader-visible heap (throws what createCommittedResource throws). */
  createMemory(bytes: number): Resource;
}

/** A descriptor a CPU handle names. */
export interface DescriptorSlot {
  heap: DescriptorHeap;
  index: number;
}

export class DescriptorHeaps {
  /** Live heaps by CPU range (cpuBase / CPU_RANGE). */
  private readonly byRange = new Map<number, DescriptorHeap>();
  /** Shader-visible heaps whose memory is not yet freed (flush sends their writes; faults name them). */
  private readonly visible = new Set<DescriptorHeap>();

  constructor(private readonly owner: DescriptorHeapOwner) {}

  create(desc: unknown): DescriptorHeap {
    const call = 'createDescriptorHeap';
    const checked = orThrow(validateCreateDescriptorHeap(desc));
    const increment = descriptorIncrement(checked.type);
    const id = this.owner.nextObjectId();
    let memory: Resource | undefined;
    if (shaderVisible(checked)) {
      const bytes = Math.ceil((checked.numDescriptors * increment) / TILE_SIZE) * TILE_SIZE;
      try {
        memory = this.owner.createMemory(bytes);
      } catch (error) {
        if (error instanceof D3D12Error)
          throw new D3D12Error(
            error.hresult,
            call,
            'desc.numDescriptors',
            `${checked.numDescriptors} descriptors of ${increment} bytes need ${bytes} bytes of LOCAL memory: ${error.rule}`,
          );
        throw error;
      }
    }
    const cpuBase = ++heapsMade * CPU_RANGE;
    const heap = new DescriptorHeap(
      id,
      checked,
      increment,
      cpuBase,
      memory,
      (released) => this.release(released),
      this,
    );
    memory?.setName(`${heap.label} memory`);
    this.byRange.set(cpuBase / CPU_RANGE, heap);
    if (memory) this.visible.add(heap);
    return heap;
  }

  /** The heap if it is one of this device's. */
  own(value: unknown): DescriptorHeap | undefined {
    return value instanceof DescriptorHeap && DeviceChild.createdBy(value, this) ? value : undefined;
  }

  /**
   * The descriptor `handle` names: a D3D12_CPU_DESCRIPTOR_HANDLE of a live heap of this device, of
   * `type` when given, with `count` descriptors from it inside the heap. Throws naming `argument`.
   */
  resolve(call: string, argument: string, handle: unknown, type?: DescriptorHeapType, count = 1): DescriptorSlot {
    const ptr = (handle as CpuDescriptorHandle | null)?.ptr;
    if (
      typeof handle !== 'object' ||
      handle === null ||
      typeof ptr !== 'number' ||
      !Number.isSafeInteger(ptr) ||
      ptr < 0
    )
      throw invalidArg(
        call,
        argument,
        `must be a D3D12_CPU_DESCRIPTOR_HANDLE ({ ptr }) from one of this device's descriptor heaps, got ${show(handle)}`,
      );
    const heap = this.byRange.get(Math.floor(ptr / CPU_RANGE));
    if (!heap) throw invalidArg(call, argument, `0x${ptr.toString(16)} is in no live descriptor heap of this device`);
    const offset = ptr - heap.cpuBase;
    if (offset % heap.incrementSize !== 0)
      throw invalidArg(
        call,
        argument,
        `0x${ptr.toString(16)} is ${offset} bytes into ${heap.label}, not a multiple of its increment (${heap.incrementSize})`,
      );
    const index = offset / heap.incrementSize;
    if (index + count > heap.desc.numDescriptors)
      throw invalidArg(
        call,
        argument,
        count === 1
          ? `descriptor ${index} is past the end of ${heap.label} (${heap.desc.numDescriptors} descriptors)`
          : `descriptors [${index}, ${index + count}) run past the end of ${heap.label} (${heap.desc.numDescriptors} descriptors)`,
      );
    if (type !== undefined && heap.type !== type)
      throw invalidArg(call, argument, `names a descriptor of ${heap.label}; this call writes ${type} descriptors`);
    return { heap, index };
  }

  /** Writes one descriptor (its checks done). */
  write(slot: DescriptorSlot, words: Uint32Array, record: DescriptorRecord): void {
    slot.heap.write(slot.index, words, record);
  }

  /**
   * CopyDescriptors: `destStarts[i]` receives `destSizes[i]` descriptors (null sizes: 1 each), taken
   * in order from the source ranges; both sides count the same number, in heaps of `type`, and the
   * sources are in heaps that are not shader-visible. Every range is checked before any descriptor
   * moves; the copy behaves as if the sources were read first.
   */
  copy(
    call: string,
    destStarts: unknown,
    destSizes: unknown,
    srcStarts: unknown,
    srcSizes: unknown,
    type: DescriptorHeapType,
  ): void {
    const dest = this.ranges(
      call,
      'destDescriptorRangeStarts',
      'destDescriptorRangeSizes',
      destStarts,
      destSizes,
      type,
    );
    const src = this.ranges(call, 'srcDescriptorRangeStarts', 'srcDescriptorRangeSizes', srcStarts, srcSizes, type);
    const count = (ranges: typeof dest): number => ranges.reduce((sum, r) => sum + r.count, 0);
    if (count(dest) !== count(src))
      throw invalidArg(
        call,
        'srcDescriptorRangeSizes',
        `the source ranges hold ${count(src)} descriptors, the destination ranges ${count(dest)}: they must match`,
      );
    src.forEach((range, i) => {
      if (shaderVisible(range.heap.desc))
        throw invalidArg(
          call,
          `srcDescriptorRangeStarts[${i}]`,
          `is in ${range.heap.label}; copies read non-shader-visible heaps only (shader-visible ones may be write-combined or GPU memory)`,
        );
    });
    // Read every source first, as D3D12 copies overlapping ranges.
    const taken: { words: Uint32Array; record: DescriptorRecord | undefined }[] = [];
    for (const range of src) {
      const per = range.heap.incrementSize / 4;
      for (let i = range.index; i < range.index + range.count; i++)
        taken.push({ words: range.heap.words.slice(i * per, (i + 1) * per), record: range.heap.records[i] });
    }
    let next = 0;
    for (const range of dest) {
      for (let i = range.index; i < range.index + range.count; i++) {
        const { words, record } = taken[next++] as (typeof taken)[number];
        range.heap.words.set(words, i * (range.heap.incrementSize / 4));
        range.heap.records[i] = record;
      }
      range.heap.markDirty(range.index, range.index + range.count);
    }
  }

  private ranges(
    call: string,
    startsName: string,
    sizesName: string,
    starts: unknown,
    sizes: unknown,
    type: DescriptorHeapType,
  ): (DescriptorSlot & { count: number })[] {
    if (!Array.isArray(starts))
      throw invalidArg(call, startsName, `must be an array of CPU descriptor handles, got ${show(starts)}`);
    if (sizes !== null && sizes !== undefined && (!Array.isArray(sizes) || sizes.length !== starts.length))
      throw invalidArg(
        call,
        sizesName,
        `must be null (one descriptor each) or an array of ${starts.length} counts, got ${show(sizes)}`,
      );
    return starts.map((start: unknown, i) => {
      const size: unknown = Array.isArray(sizes) ? sizes[i] : 1;
      if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0 || size > 0xffffffff)
        throw invalidArg(call, `${sizesName}[${i}]`, `must be a count (a UINT), got ${show(size)}`);
      const slot =
        size === 0
          ? this.resolve(call, `${startsName}[${i}]`, start, type, 0)
          : this.resolve(call, `${startsName}[${i}]`, start, type, size);
      return { ...slot, count: size };
    });
  }

  /** Sends every shader-visible heap's pending writes to its memory, where it is resident (before a submission). */
  flush(memory: GpuMemory): void {
    for (const heap of this.visible) {
      if (heap.dirtyFrom >= heap.dirtyTo) continue;
      const pages = heap.memory?.heap?.memory;
      if (!pages) continue;
      const from = heap.dirtyFrom * heap.incrementSize;
      const to = heap.dirtyTo * heap.incrementSize;
      memory.writeHeapBytes(pages.segment, pages.pages, from, new Uint8Array(heap.words.buffer, from, to - from));
      heap.dirtyFrom = Infinity;
      heap.dirtyTo = 0;
    }
  }

  /** The shader-visible heap whose memory holds `address`, and the descriptor there (for fault reports). */
  descriptorAt(address: bigint): DescriptorSlot | undefined {
    for (const heap of this.visible) {
      const start = heap.memory?.getGPUVirtualAddress();
      if (start === undefined || address < start) continue;
      const offset = Number(address - start);
      if (offset < heap.desc.numDescriptors * heap.incrementSize)
        return { heap, index: Math.floor(offset / heap.incrementSize) };
    }
    return undefined;
  }

  /**
   * COM Release: the heap's handles stop resolving at once; its memory is an internal resource,
   * released as one (freed once no GPU work that may read it is pending: deferred-release.ts).
   */
  private release(heap: DescriptorHeap): void {
    this.byRange.delete(heap.cpuBase / CPU_RANGE);
    this.visible.delete(heap);
    heap.memory?.release();
  }
}
