/**
 * The GPU mirror of the page table: one u32 entry per 64 KiB virtual page (encoding: prelude.wgsl),
 * in a storage buffer that the prelude reads on every access.
 *
 * Invariants: the CPU model is the authority; this mirror only receives writes, as queue writes, in
 * the order the model changed, so work submitted before a change sees the old entries and work
 * submitted after sees the new ones. Entries past the buffer's end read as UNOWNED (the prelude
 * checks the length), so the buffer starts small and grows (doubling, copied on the queue) as the
 * address space fills. Bind groups are made per submission, so they always name the current buffer.
 */
import type { MemorySegment } from '../api/types.js';
import { preludeConstant } from './prelude.js';

/** Entries in a new table: 2^18 entries (1 MiB) cover 16 GiB of address space. */
const INITIAL_ENTRIES = 1 << 18;

export class PageTableEncoding {
  readonly unowned = preludeConstant('D3D12_PTE_UNOWNED');
  readonly null = preludeConstant('D3D12_PTE_NULL');
  private readonly shift = preludeConstant('D3D12_PTE_PAYLOAD_SHIFT');
  private readonly resident = preludeConstant('D3D12_PTE_RESIDENT');
  private readonly absentKind = preludeConstant('D3D12_PTE_ABSENT');
  private readonly segmentBit = preludeConstant('D3D12_PTE_SEGMENT_BIT');
  private readonly wordBaseMask = preludeConstant('D3D12_PTE_WORD_BASE_MASK');
  /** The largest physical page a RESIDENT entry holds. */
  readonly maxPage = preludeConstant('D3D12_PTE_PAGE_LIMIT');
  private readonly wordsPerPage = preludeConstant('D3D12_WORDS_PER_PAGE');

  /** Backed by `page` of the segment's pool: the page's first word index, segment and kind. */
  residentPage(segment: MemorySegment, page: number): number {
    return ((page * this.wordsPerPage) | (segment === 'NON_LOCAL' ? this.segmentBit : 0) | this.resident) >>> 0;
  }

  /** Mapped to a heap that has no memory now (evicted, or released); the entry names the heap. */
  absent(heapId: number): number {
    return ((heapId << this.shift) | this.absentKind) >>> 0;
  }

  /** What an entry says, for fault reports and tests. */
  decode(entry: number): { kind: 'unowned' | 'null' | 'resident' | 'absent'; segment?: MemorySegment; page?: number; heapId?: number } {
    const kind = entry & preludeConstant('D3D12_PTE_KIND_MASK');
    if (kind === this.resident) {
      return { kind: 'resident', segment: entry & this.segmentBit ? 'NON_LOCAL' : 'LOCAL', page: ((entry & this.wordBaseMask) >>> 0) / this.wordsPerPage };
    }
    if (kind === this.absentKind) return { kind: 'absent', heapId: entry >>> this.shift };
    return { kind: kind === this.null ? 'null' : 'unowned' };
  }
}

export class PageTableMirror {
  readonly encoding = new PageTableEncoding();
  private buffer: GPUBuffer;
  private entries: number;
  private dropNextWrite = false;

  constructor(
    private readonly device: GPUDevice,
    /** The address space's page count: the table never needs more entries. */
    private readonly maxEntries: number,
    /** The first buffer, of initialBytes(maxEntries) (allocated and checked by the caller). */
    initial: GPUBuffer,
    /** Runs a growth inside error scopes (GpuMemory.guard). */
    private readonly guarded: <T>(what: string, fn: () => T) => T,
  ) {
    this.entries = initial.size / 4;
    this.buffer = initial;
  }

  /** The size of a new table's buffer. */
  static initialBytes(maxEntries: number): number {
    return Math.min(INITIAL_ENTRIES, maxEntries) * 4;
  }

  get gpuBuffer(): GPUBuffer {
    return this.buffer;
  }

  private createBuffer(entries: number): GPUBuffer {
    // New buffers are zero: every entry starts UNOWNED (0).
    return this.device.createBuffer({ label: 'd3d12 page table', size: entries * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
  }

  private growTo(page: number): void {
    if (page < this.entries) return;
    let entries = this.entries;
    while (entries <= page) entries *= 2;
    entries = Math.min(entries, this.maxEntries);
    this.guarded(`growing the page table to ${entries * 4} bytes`, () => {
      const grown = this.createBuffer(entries);
      const encoder = this.device.createCommandEncoder({ label: 'd3d12 page table growth' });
      encoder.copyBufferToBuffer(this.buffer, 0, grown, 0, this.entries * 4);
      this.device.queue.submit([encoder.finish()]);
      // Work already submitted keeps the old buffer alive until it completes.
      this.buffer.destroy();
      this.buffer = grown;
    });
    this.entries = entries;
  }

  /** Writes `values` to the entries from `firstPage` on: one queue write. */
  write(firstPage: number, values: Uint32Array): void {
    if (values.length === 0) return;
    if (this.dropNextWrite) {
      this.dropNextWrite = false;
      return;
    }
    this.growTo(firstPage + values.length - 1);
    this.device.queue.writeBuffer(this.buffer, firstPage * 4, values);
  }

  /**
   * Self-check of GPU-side validation: the next write() is skipped, as a lost queue write would be,
   * so the GPU keeps the old entries while the CPU model moves on.
   */
  dropNextWriteForTesting(): void {
    this.dropNextWrite = true;
  }

  /** Self-check of GPU-side validation: writes `entry` at `page` behind the CPU model's back. */
  corruptEntryForTesting(page: number, entry: number): void {
    this.growTo(page);
    this.device.queue.writeBuffer(this.buffer, page * 4, new Uint32Array([entry]));
  }

  /** Writes one value to `count` entries from `firstPage` on. */
  fill(firstPage: number, count: number, value: number): void {
    this.write(firstPage, new Uint32Array(count).fill(value));
  }

  destroy(): void {
    this.buffer.destroy();
  }
}
