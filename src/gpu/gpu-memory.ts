/**
 * GpuMemory: the WebGPU buffers behind the emulated memory: the pool (LOCAL: video memory, then
 * NON_LOCAL: system memory, as two ranges of one buffer) cut into 64 KiB physical pages, the
 * page-table mirror and the fault log, plus the queue operations on pages: clearing, uploading CPU
 * bytes, reading pages back.
 *
 * One buffer for both segments, bound once: the prelude then indexes one array with no per-access
 * test of the segment (H200, indirection figure in a WGSL harness: 4-byte loads 1.82x direct against
 * 1.89x with a binding per segment, page handles 0.01 less). The price is one buffer limit for both
 * pools together. Physical page numbers stay per segment (the allocators know nothing of the
 * buffer); poolOffset() places them.
 *
 * Invariants: every operation is queue-ordered (queue writes, or command buffers submitted at once),
 * so it lands between the work submitted before and after it; nothing here waits on the GPU except
 * readBack(), which resolves once its copy has completed. Every submission of the emulator's goes
 * through submit(), which first sends the page-table changes made before it (page-table.ts), except
 * the page table's own growth copy and paging.ts's copies, which read no page-table entry. Pool
 * sizes are whole pages; together they are within the device's maxStorageBufferBindingSize and
 * maxBufferSize.
 */
import type { MemorySegment } from '../api/types.js';
import type { PageRun } from '../memory/range-allocator.js';
import { TILE_SIZE } from '../memory/tiling.js';
import { PageTableMirror } from './page-table.js';
import { memberOffset, preludeConstant, preludeLayout } from './prelude.js';
import { checked, guard, LazyScopes, type GuardedError } from './error-guard.js';
import { TextureCache, textureCacheSlots } from './texture-cache.js';
import { TextureMirrors } from './texture-mirrors.js';

export const PAGE_SIZE = TILE_SIZE;

/** How a refusal of the pool buffer names it (create-device.ts tells it from the other buffers by this). */
export const POOL_WHAT = 'the pool (LOCAL and NON_LOCAL)';

/** What a read of a log holding no records returns (shared: nobody writes into it). */
const NO_RECORDS = new Uint32Array(0);

/** Fault records kept per submission; more are counted, not recorded. */
export const FAULT_CAPACITY = 256;

export interface GpuMemoryOptions {
  localBytes: number;
  nonLocalBytes: number;
  /** Pages of virtual address space (the page table's largest size). */
  virtualPages: number;
  /** Bytes of the texture cache (src/gpu/texture-cache.ts); 0: off. */
  textureCacheBytes: number;
  /** Bytes of texture mirrors (src/gpu/texture-mirrors.ts); 0: none. */
  textureMirrorBytes: number;
}

/**
 * The most bytes both pools together may have: whole pages within both buffer limits, and no more
 * pages than a RESIDENT page-table entry holds (2^18: 16 GiB, all that a u32 word index reaches).
 */
export function maxPoolBytes(device: GPUDevice): number {
  const limit = Math.min(
    device.limits.maxStorageBufferBindingSize,
    device.limits.maxBufferSize,
    (preludeConstant('D3D12_PTE_PAGE_LIMIT') + 1) * PAGE_SIZE,
  );
  return Math.floor(limit / PAGE_SIZE) * PAGE_SIZE;
}

export class GpuMemory {
  readonly pageCounts: Record<MemorySegment, number>;
  /** Where each segment's range starts in `pool`, in bytes. */
  private readonly poolStart: Record<MemorySegment, number>;
  readonly pageTable: PageTableMirror;
  readonly faultLogBytes: number;
  /**
   * Queue submissions made for queue work (submit and submitUnmapped, which paging and page-table
   * growth use too): a fault-log read of the last one's copy stands for the queue's idle only while
   * this has not moved since.
   */
  submissions = 0;
  /** Copies of pool pages that the texture units sample (src/gpu/texture-cache.ts). */
  readonly textureCache: TextureCache;
  /** Textures the texture units read whole (src/gpu/texture-mirrors.ts). */
  readonly textureMirrors: TextureMirrors;
  /** Where guarded operations report the errors their scopes caught (the device removes itself). */
  onError: (error: GuardedError) => void = () => undefined;
  /** Queue writes that every submission must follow (the descriptor heaps' pending writes). */
  beforeSubmit: () => void = () => undefined;
  private failNextAllocation = false;
  /** Guarded operations running now (guard() calls inside guard() calls). */
  private guardDepth = 0;
  /** guardAllocations' sections: the scopes of the one running open at its first allocation. */
  private readonly lazy: LazyScopes;
  /** MAP_READ buffers the fault log is copied into, unmapped and free. */
  private readonly faultStaging: GPUBuffer[] = [];

  private constructor(
    readonly device: GPUDevice,
    /** Both segments' pages: LOCAL's first, then NON_LOCAL's. */
    readonly pool: GPUBuffer,
    localBytes: number,
    pageTable: GPUBuffer,
    virtualPages: number,
    readonly faultLog: GPUBuffer,
    textureCacheBytes: number,
    textureMirrorBytes: number,
  ) {
    this.lazy = new LazyScopes(device, (error) => this.onError(error));
    this.pageCounts = { LOCAL: localBytes / PAGE_SIZE, NON_LOCAL: (pool.size - localBytes) / PAGE_SIZE };
    this.poolStart = { LOCAL: 0, NON_LOCAL: localBytes };
    this.pageTable = new PageTableMirror(
      device,
      virtualPages,
      pageTable,
      (what, fn) => this.guard(what, fn),
      (commandBuffers) => this.submitUnmapped(commandBuffers),
      this.pageCounts.LOCAL,
    );
    this.faultLogBytes = faultLog.size;
    this.textureCache = new TextureCache(
      device,
      pool,
      pool.size / PAGE_SIZE,
      textureCacheSlots(textureCacheBytes),
      (d) => this.createBuffer(d),
    );
    this.textureMirrors = new TextureMirrors(
      device,
      pool,
      this.textureCache.tags,
      pool.size / PAGE_SIZE,
      textureMirrorBytes,
      this.pageTable,
      (d) => this.createBuffer(d),
    );
    device.queue.writeBuffer(
      faultLog,
      memberOffset(preludeLayout().faultLog, 'capacity'),
      new Uint32Array([FAULT_CAPACITY]),
    );
  }

  /**
   * Allocates the pool, the page table and the fault log, each checked inside error scopes: rejects
   * with a GuardError naming the buffer and its size when WebGPU refuses one (and frees the others).
   */
  static async create(device: GPUDevice, options: GpuMemoryOptions): Promise<GpuMemory> {
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    const made: GPUBuffer[] = [];
    const allocate = async (what: string, label: string, size: number): Promise<GPUBuffer> => {
      const buffer = await checked(device, `${what} (${size} bytes)`, () =>
        device.createBuffer({ label, size, usage }),
      );
      made.push(buffer);
      return buffer;
    };
    try {
      const pool = await allocate(
        POOL_WHAT,
        'd3d12 pool (LOCAL video memory, then NON_LOCAL system memory)',
        options.localBytes + options.nonLocalBytes,
      );
      const pageTable = await allocate(
        'the page table',
        'd3d12 page table',
        PageTableMirror.initialBytes(options.virtualPages),
      );
      const layout = preludeLayout();
      const faultLog = await allocate(
        'the fault log',
        'd3d12 fault log',
        memberOffset(layout.faultLog, 'records') + FAULT_CAPACITY * layout.faultRecord.size,
      );
      return new GpuMemory(
        device,
        pool,
        options.localBytes,
        pageTable,
        options.virtualPages,
        faultLog,
        options.textureCacheBytes,
        options.textureMirrorBytes,
      );
    } catch (error) {
      for (const buffer of made) buffer.destroy();
      throw error;
    }
  }

  /**
   * A buffer the emulator allocates after creation (staging, constants, jobs): call inside `guard`,
   * which reports WebGPU refusing it. The one place such buffers are made, so a test can plant a
   * refusal (failNextAllocationForTesting).
   */
  createBuffer(descriptor: GPUBufferDescriptor): GPUBuffer {
    if (this.guardDepth === 0) this.lazy.open();
    if (this.failNextAllocation) {
      this.failNextAllocation = false;
      // Larger than the device allows: WebGPU refuses it, as it refuses memory it does not have.
      return this.device.createBuffer({ ...descriptor, size: this.device.limits.maxBufferSize + PAGE_SIZE });
    }
    return this.device.createBuffer(descriptor);
  }

  /** The next createBuffer is refused by WebGPU (for tests of what a refusal does). */
  failNextAllocationForTesting(): void {
    this.failNextAllocation = true;
  }

  /** Runs WebGPU work inside error scopes of its own; what they catch goes to `onError`. */
  guard<T>(what: string | (() => string), fn: () => T): T {
    // Inside guardAllocations, its scopes open first: they must enclose these (scopes are a stack),
    // and what follows may use what this allocates.
    if (this.guardDepth === 0) this.lazy.open();
    this.guardDepth++;
    try {
      return guard(this.device, what, fn, (error) => this.onError(error));
    } finally {
      this.guardDepth--;
    }
  }

  /**
   * Runs `fn` as guard would, but opens the error scopes only at its first allocation (createBuffer,
   * or a guard inside it) and keeps them open to its end: a call that allocates nothing makes no
   * scope at all (see LazyScopes). For queue operations whose other WebGPU calls use only objects
   * known good (the pool, the page table, checked pipelines, buffers allocated inside scopes).
   */
  guardAllocations<T>(what: string | (() => string), fn: () => T): T {
    if (this.lazy.active || this.guardDepth > 0) return fn();
    this.lazy.begin(what);
    try {
      return fn();
    } finally {
      this.lazy.close();
    }
  }

  /**
   * Submits command buffers after the page-table changes made so far: the one way the emulator
   * submits (see the header), so no submission can read entries older than the CPU model's.
   */
  submit(commandBuffers: GPUCommandBuffer[]): void {
    this.beforeSubmit();
    this.pageTable.flush();
    this.submitUnmapped(commandBuffers);
  }

  /**
   * Submits command buffers that read no page-table entry (paging's copies between pool offsets and
   * staging buffers): no flush first. Counted in `submissions` as every queue submission the
   * emulator makes for the caller's queue work.
   */
  submitUnmapped(commandBuffers: GPUCommandBuffer[]): void {
    this.submissions++;
    this.device.queue.submit(commandBuffers);
  }

  /** The byte offset in `pool` of `offset` bytes into the segment's range (a physical page times PAGE_SIZE, plus bytes). */
  poolOffset(segment: MemorySegment, offset: number): number {
    return this.poolStart[segment] + offset;
  }

  /** Sends the page-table changes made so far as queue writes (a fence signalled next covers them). */
  flushPageTable(): void {
    this.pageTable.flush();
  }

  /** Zeroes pages (a new heap's memory, as D3D12 zeroes heaps unless CREATE_NOT_ZEROED). */
  clearPages(segment: MemorySegment, runs: readonly PageRun[]): void {
    if (runs.length === 0) return;
    const encoder = this.device.createCommandEncoder({ label: 'd3d12 clear heap pages' });
    for (const run of runs)
      encoder.clearBuffer(this.pool, this.poolOffset(segment, run.start * PAGE_SIZE), run.count * PAGE_SIZE);
    this.submit([encoder.finish()]);
    for (const run of runs) this.pagesWritten(segment, run.start, run.count);
  }

  /**
   * Queue writes just changed pages `first` to `first + count - 1` of a segment: the texture cache
   * drops its copies of them (src/gpu/texture-cache.ts). Every queue write into the pool calls this.
   */
  pagesWritten(segment: MemorySegment, first: number, count: number): void {
    this.textureCache.pagesWritten(this.poolStart[segment] / PAGE_SIZE + first, count);
    this.textureMirrors.pagesWritten(this.poolStart[segment] / PAGE_SIZE + first, count);
  }

  /** pagesWritten for every page of `pages` (a heap's physical pages), run by run. */
  pageListWritten(segment: MemorySegment, pages: Uint32Array): void {
    forEachPhysicalSpan(pages, 0, pages.length * PAGE_SIZE, (poolOffset, _, length) =>
      this.pagesWritten(segment, poolOffset / PAGE_SIZE, length / PAGE_SIZE),
    );
  }

  /**
   * Writes `data` into a heap's memory at byte `heapOffset` (both multiples of 4 long): one queue
   * write per run of physically contiguous pages. `pages` lists the heap's physical pages in order.
   */
  writeHeapBytes(segment: MemorySegment, pages: Uint32Array, heapOffset: number, data: Uint8Array): void {
    forEachPhysicalSpan(pages, heapOffset, data.byteLength, (poolOffset, dataOffset, length) => {
      this.device.queue.writeBuffer(this.pool, this.poolOffset(segment, poolOffset), data, dataOffset, length);
      const first = Math.floor(poolOffset / PAGE_SIZE);
      this.pagesWritten(segment, first, Math.ceil((poolOffset + length) / PAGE_SIZE) - first);
    });
  }

  /**
   * Reads `length` bytes of a heap's memory from byte `heapOffset` (multiples of 4), after all work
   * submitted so far; resolves with the bytes once the GPU has copied them.
   */
  async readHeapBytes(
    segment: MemorySegment,
    pages: Uint32Array,
    heapOffset: number,
    length: number,
  ): Promise<Uint8Array> {
    const staging = this.createBuffer({
      label: 'd3d12 readback',
      size: Math.max(4, length),
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    const encoder = this.device.createCommandEncoder({ label: 'd3d12 read heap bytes' });
    forEachPhysicalSpan(pages, heapOffset, length, (poolOffset, dataOffset, spanLength) => {
      encoder.copyBufferToBuffer(this.pool, this.poolOffset(segment, poolOffset), staging, dataOffset, spanLength);
    });
    this.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const bytes = new Uint8Array(staging.getMappedRange(0, length).slice(0));
    staging.destroy();
    return bytes;
  }

  /** A MAP_READ buffer the size of the fault log, for a submission to copy the log into (reused once read). */
  faultSlot(): GPUBuffer {
    return (
      this.faultStaging.pop() ??
      this.createBuffer({
        label: 'd3d12 fault log copy',
        size: this.faultLogBytes,
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      })
    );
  }

  /** Encodes the copy of the fault log into `slot` (at the end of a submission's command buffer). */
  encodeFaultCopy(encoder: GPUCommandEncoder, slot: GPUBuffer): void {
    encoder.copyBufferToBuffer(this.faultLog, 0, slot, 0, this.faultLogBytes);
  }

  /** Encodes clearing the fault log's counters (at the start of the first submission after a read). */
  encodeFaultClear(encoder: GPUCommandEncoder): void {
    const log = preludeLayout().faultLog;
    encoder.clearBuffer(this.faultLog, memberOffset(log, 'count'), 4);
    encoder.clearBuffer(this.faultLog, memberOffset(log, 'more'), 4);
    encoder.clearBuffer(this.faultLog, memberOffset(log, 'mirror_dirty'), 4);
  }

  /**
   * Reads a slot a submission copied the fault log into, once that submission has run: `count`
   * records taken (at most FAULT_CAPACITY of them written), `more` faults counted without a record.
   * The slot is reused afterwards.
   */
  async readFaultSlot(
    slot: GPUBuffer,
  ): Promise<{ count: number; more: number; records: Uint32Array; staleTiles: number }> {
    const log = preludeLayout().faultLog;
    const recordWords = preludeLayout().faultRecord.size / 4;
    const first = memberOffset(log, 'records') / 4;
    let count: number;
    let more: number;
    let records: Uint32Array;
    let staleTiles: number;
    try {
      await slot.mapAsync(GPUMapMode.READ);
      // The counters first; the records are copied only when there are some (rarely).
      const words = new Uint32Array(slot.getMappedRange());
      count = words[memberOffset(log, 'count') / 4] ?? 0;
      more = words[memberOffset(log, 'more') / 4] ?? 0;
      // No copy (an ArrayBuffer, at every read) when there are none.
      records = count > 0 ? words.slice(first, first + Math.min(count, FAULT_CAPACITY) * recordWords) : NO_RECORDS;
      // Mirror tiles stores made stale (texture-mirrors.wgsl): the mirrors fill them again.
      staleTiles = words[memberOffset(log, 'mirror_dirty') / 4] ?? 0;
      if (staleTiles > 0) {
        const at = memberOffset(log, 'mirror_dirty_tiles') / 4;
        const capacity = preludeConstant('D3D12_MIRROR_DIRTY_CAPACITY');
        this.textureMirrors.reportStale(words.subarray(at, at + Math.min(staleTiles, capacity)), staleTiles > capacity);
      }
      slot.unmap();
      this.faultStaging.push(slot);
    } catch (error) {
      slot.destroy();
      throw error;
    }
    return { count, more, records, staleTiles };
  }

  destroy(): void {
    this.pool.destroy();
    this.pageTable.destroy();
    this.faultLog.destroy();
    this.textureCache.destroy();
    this.textureMirrors.destroy();
    for (const staging of this.faultStaging.splice(0)) staging.destroy();
  }
}

/**
 * Splits a byte range of a heap into spans that are contiguous in the pool: calls
 * `visit(poolOffset, rangeOffset, length)` for each, in order.
 */
export function forEachPhysicalSpan(
  pages: Uint32Array,
  heapOffset: number,
  length: number,
  visit: (poolOffset: number, rangeOffset: number, length: number) => void,
): void {
  let done = 0;
  while (done < length) {
    const offset = heapOffset + done;
    const heapPage = Math.floor(offset / PAGE_SIZE);
    const physical = pages[heapPage];
    if (physical === undefined) throw new RangeError(`heap byte ${offset} is past the heap's ${pages.length} pages`);
    // Extend over following heap pages that are physically adjacent.
    let pagesInSpan = 1;
    while (
      pages[heapPage + pagesInSpan] === physical + pagesInSpan &&
      (heapPage + pagesInSpan) * PAGE_SIZE < heapOffset + length
    )
      pagesInSpan++;
    const spanEnd = Math.min(heapOffset + length, (heapPage + pagesInSpan) * PAGE_SIZE);
    visit(physical * PAGE_SIZE + (offset % PAGE_SIZE), done, spanEnd - offset);
    done += spanEnd - offset;
  }
}
