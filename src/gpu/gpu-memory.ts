/**
 * GpuMemory: the WebGPU buffers behind the emulated memory: the two pools (LOCAL: video memory,
 * NON_LOCAL: system memory) cut into 64 KiB physical pages, the page-table mirror and the fault log,
 * plus the queue operations on pages: clearing, uploading CPU bytes, reading pages back.
 *
 * Invariants: every operation is queue-ordered (queue writes, or command buffers submitted at once),
 * so it lands between the work submitted before and after it; nothing here waits on the GPU except
 * readBack(), which resolves once its copy has completed. Pool sizes are whole pages, within the
 * device's maxStorageBufferBindingSize and maxBufferSize.
 */
import type { MemorySegment } from '../d3d12/types.js';
import type { PageRun } from '../memory/physical-pages.js';
import { TILE_SIZE } from '../memory/tiling.js';
import { PageTableMirror } from './page-table.js';
import { preludeLayout } from './prelude.js';

export const PAGE_SIZE = TILE_SIZE;

/** Fault records kept per submission; more are counted, not recorded. */
export const FAULT_CAPACITY = 256;

export interface GpuMemoryOptions {
  localBytes: number;
  nonLocalBytes: number;
  /** Pages of virtual address space (the page table's largest size). */
  virtualPages: number;
}

/** The largest pool a device allows: whole pages within both buffer limits. */
export function maxPoolBytes(device: GPUDevice): number {
  const limit = Math.min(device.limits.maxStorageBufferBindingSize, device.limits.maxBufferSize);
  return Math.floor(limit / PAGE_SIZE) * PAGE_SIZE;
}

export class GpuMemory {
  readonly pools: Record<MemorySegment, GPUBuffer>;
  readonly pageCounts: Record<MemorySegment, number>;
  readonly pageTable: PageTableMirror;
  readonly faultLog: GPUBuffer;
  readonly faultLogBytes: number;

  constructor(
    readonly device: GPUDevice,
    options: GpuMemoryOptions,
  ) {
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    this.pageCounts = { LOCAL: options.localBytes / PAGE_SIZE, NON_LOCAL: options.nonLocalBytes / PAGE_SIZE };
    this.pools = {
      LOCAL: device.createBuffer({ label: 'd3d12 LOCAL pool (video memory)', size: options.localBytes, usage }),
      NON_LOCAL: device.createBuffer({ label: 'd3d12 NON_LOCAL pool (system memory)', size: options.nonLocalBytes, usage }),
    };
    this.pageTable = new PageTableMirror(device, options.virtualPages);
    const layout = preludeLayout();
    this.faultLogBytes = (layout.faultLog.offsets.records ?? 8) + FAULT_CAPACITY * layout.faultRecord.size;
    this.faultLog = device.createBuffer({ label: 'd3d12 fault log', size: this.faultLogBytes, usage });
    device.queue.writeBuffer(this.faultLog, layout.faultLog.offsets.capacity ?? 4, new Uint32Array([FAULT_CAPACITY]));
  }

  /** Zeroes pages (a new heap's memory, as D3D12 zeroes heaps unless CREATE_NOT_ZEROED). */
  clearPages(segment: MemorySegment, runs: readonly PageRun[]): void {
    if (runs.length === 0) return;
    const encoder = this.device.createCommandEncoder({ label: 'd3d12 clear heap pages' });
    for (const run of runs) encoder.clearBuffer(this.pools[segment], run.start * PAGE_SIZE, run.count * PAGE_SIZE);
    this.device.queue.submit([encoder.finish()]);
  }

  /**
   * Writes `data` into a heap's memory at byte `heapOffset` (both multiples of 4 long): one queue
   * write per run of physically contiguous pages. `pages` lists the heap's physical pages in order.
   */
  writeHeapBytes(segment: MemorySegment, pages: Uint32Array, heapOffset: number, data: Uint8Array): void {
    forEachPhysicalSpan(pages, heapOffset, data.byteLength, (poolOffset, dataOffset, length) => {
      this.device.queue.writeBuffer(this.pools[segment], poolOffset, data, dataOffset, length);
    });
  }

  /**
   * Reads `length` bytes of a heap's memory from byte `heapOffset` (multiples of 4), after all work
   * submitted so far; resolves with the bytes once the GPU has copied them.
   */
  async readHeapBytes(segment: MemorySegment, pages: Uint32Array, heapOffset: number, length: number): Promise<Uint8Array> {
    const staging = this.device.createBuffer({ label: 'd3d12 readback', size: Math.max(4, length), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const encoder = this.device.createCommandEncoder({ label: 'd3d12 read heap bytes' });
    forEachPhysicalSpan(pages, heapOffset, length, (poolOffset, dataOffset, spanLength) => {
      encoder.copyBufferToBuffer(this.pools[segment], poolOffset, staging, dataOffset, spanLength);
    });
    this.device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const bytes = new Uint8Array(staging.getMappedRange(0, length).slice(0));
    staging.destroy();
    return bytes;
  }

  /** Reads the fault log and clears it for the next submissions. */
  async takeFaults(): Promise<{ count: number; records: Uint32Array }> {
    const layout = preludeLayout();
    const staging = this.device.createBuffer({ label: 'd3d12 fault readback', size: this.faultLogBytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const encoder = this.device.createCommandEncoder({ label: 'd3d12 take faults' });
    encoder.copyBufferToBuffer(this.faultLog, 0, staging, 0, this.faultLogBytes);
    encoder.clearBuffer(this.faultLog, layout.faultLog.offsets.count ?? 0, 4);
    this.device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const words = new Uint32Array(staging.getMappedRange().slice(0));
    staging.destroy();
    const count = words[(layout.faultLog.offsets.count ?? 0) / 4] ?? 0;
    const recordWords = layout.faultRecord.size / 4;
    const first = (layout.faultLog.offsets.records ?? 8) / 4;
    return { count, records: words.slice(first, first + Math.min(count, FAULT_CAPACITY) * recordWords) };
  }

  destroy(): void {
    this.pools.LOCAL.destroy();
    this.pools.NON_LOCAL.destroy();
    this.pageTable.destroy();
    this.faultLog.destroy();
  }
}

/**
 * Splits a byte range of a heap into spans that are contiguous in the pool: calls
 * `visit(poolOffset, rangeOffset, length)` for each, in order.
 */
export function forEachPhysicalSpan(pages: Uint32Array, heapOffset: number, length: number, visit: (poolOffset: number, rangeOffset: number, length: number) => void): void {
  let done = 0;
  while (done < length) {
    const offset = heapOffset + done;
    const heapPage = Math.floor(offset / PAGE_SIZE);
    const physical = pages[heapPage];
    if (physical === undefined) throw new RangeError(`heap byte ${offset} is past the heap's ${pages.length} pages`);
    // Extend over following heap pages that are physically adjacent.
    let pagesInSpan = 1;
    while (pages[heapPage + pagesInSpan] === physical + pagesInSpan && (heapPage + pagesInSpan) * PAGE_SIZE < heapOffset + length) pagesInSpan++;
    const spanEnd = Math.min(heapOffset + length, (heapPage + pagesInSpan) * PAGE_SIZE);
    visit(physical * PAGE_SIZE + (offset % PAGE_SIZE), done, spanEnd - offset);
    done += spanEnd - offset;
  }
}
