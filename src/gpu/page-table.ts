/**
 * The GPU mirror of the page table: one u32 entry per 64 KiB virtual page (encoding: prelude.wgsl),
 * in a storage buffer that the prelude reads on every access.
 *
 * Invariants: the CPU model is the authority. The mirror keeps a CPU shadow of the buffer; a change
 * goes into the shadow at once (in the order the model changed) and marks its entries dirty, and
 * flush() sends the dirty entries as queue writes (merged: see dirty-runs.ts). GpuMemory.submit
 * flushes before every submission that can read the table, so work submitted before a change sees
 * the old entries and work submitted after sees the new ones; between two submissions nothing reads
 * the buffer. After a
 * flush the shadow equals the buffer (a write lost by dropNextWriteForTesting is lost from both).
 * Entries past the buffer's end read as UNOWNED (the prelude checks the length), so the buffer
 * starts small and grows (doubling, copied on the queue) as the address space fills; growth happens
 * when a change is made, so the buffer a submission binds is the one its flush writes. Bind groups
 * are made per submission, so they always name the current buffer.
 */
import type { MemorySegment } from '../api/types.js';
import { DirtyRuns } from '../memory/dirty-runs.js';
import { fillWords, type ShiftedCopies } from '../memory/shifted-copies.js';
import { preludeConstant } from './prelude.js';

/** Entries in a new table: 2^18 entries (1 MiB) cover 16 GiB of address space. */
const INITIAL_ENTRIES = 1 << 18;

/**
 * Dirty ranges at most this many entries (4 KiB) apart are sent as one write. A queue.writeBuffer
 * costs about 3 µs however small (tile-mapping-rate's raw 1-tile rows: 3.2e5 writes/s on the H200
 * and on SwiftShader, in Node), in which Dawn copies about 8 KiB (its raw one-write row: 2.6 GB/s on
 * the H200); sending 4 KiB of unchanged entries is cheaper than a second write.
 */
const MERGE_GAP_ENTRIES = 1024;

export class PageTableEncoding {
  /**
   * Both segments are ranges of one pool buffer (gpu-memory.ts): NON_LOCAL page p is pool page
   * nonLocalFirstPage + p, so an entry's word index needs no segment test in WGSL.
   */
  constructor(private readonly nonLocalFirstPage = 0) {}
  readonly unowned = preludeConstant('D3D12_PTE_UNOWNED');
  readonly null = preludeConstant('D3D12_PTE_NULL');
  private readonly shift = preludeConstant('D3D12_PTE_PAYLOAD_SHIFT');
  private readonly resident = preludeConstant('D3D12_PTE_RESIDENT');
  private readonly absentKind = preludeConstant('D3D12_PTE_ABSENT');
  private readonly segmentBit = preludeConstant('D3D12_PTE_SEGMENT_BIT');
  private readonly wordBaseMask = preludeConstant('D3D12_PTE_WORD_BASE_MASK');
  private readonly kindMask = preludeConstant('D3D12_PTE_KIND_MASK');
  /** The largest physical page a RESIDENT entry holds. */
  readonly maxPage = preludeConstant('D3D12_PTE_PAGE_LIMIT');
  private readonly wordsPerPage = preludeConstant('D3D12_WORDS_PER_PAGE');

  /** Backed by `page` of the segment's pool: the page's first word index, segment and kind. */
  residentPage(segment: MemorySegment, page: number): number {
    return (((page + this.firstPage(segment)) * this.wordsPerPage) | this.tag(segment)) >>> 0;
  }

  /**
   * RESIDENT entries for consecutive heap pages: out[i] says page pages[firstHeapPage + i] of the
   * segment's pool. One typed-array read per entry: the tag is computed once.
   */
  residentRun(out: Uint32Array, segment: MemorySegment, pages: Uint32Array, firstHeapPage: number): void {
    const tag = this.tag(segment);
    const words = this.wordsPerPage;
    const first = this.firstPage(segment);
    // (page + first) * words < 2^32 (pool pages <= D3D12_PTE_PAGE_LIMIT + 1); `|` wraps it to int32 and the store back to u32.
    for (let i = 0; i < out.length; i++) out[i] = (((pages[firstHeapPage + i] as number) + first) * words) | tag;
  }

  /** RESIDENT entries for scattered heap pages: out[i] says page pages[heapPages[first + i]]. */
  residentGather(
    out: Uint32Array,
    segment: MemorySegment,
    pages: Uint32Array,
    heapPages: Uint32Array,
    first: number,
  ): void {
    const tag = this.tag(segment);
    const words = this.wordsPerPage;
    const firstPage = this.firstPage(segment);
    for (let i = 0; i < out.length; i++)
      out[i] = (((pages[heapPages[first + i] as number] as number) + firstPage) * words) | tag;
  }

  private tag(segment: MemorySegment): number {
    return (segment === 'NON_LOCAL' ? this.segmentBit : 0) | this.resident;
  }

  private firstPage(segment: MemorySegment): number {
    return segment === 'NON_LOCAL' ? this.nonLocalFirstPage : 0;
  }

  /**
   * The pool word index of a RESIDENT entry's first word, or -1 for any other entry: two bit
   * operations, for callers that look up entries per copy job (page-copies.ts).
   */
  residentWordBase(entry: number): number {
    return (entry & this.kindMask) === this.resident ? (entry & this.wordBaseMask) >>> 0 : -1;
  }

  /** Mapped to a heap that has no memory now (evicted, or released); the entry names the heap. */
  absent(heapId: number): number {
    return ((heapId << this.shift) | this.absentKind) >>> 0;
  }

  /** What an entry says, for fault reports and tests. */
  decode(entry: number): {
    kind: 'unowned' | 'null' | 'resident' | 'absent';
    segment?: MemorySegment;
    page?: number;
    heapId?: number;
  } {
    const kind = entry & preludeConstant('D3D12_PTE_KIND_MASK');
    if (kind === this.resident) {
      const segment: MemorySegment = entry & this.segmentBit ? 'NON_LOCAL' : 'LOCAL';
      return {
        kind: 'resident',
        segment,
        page: ((entry & this.wordBaseMask) >>> 0) / this.wordsPerPage - this.firstPage(segment),
      };
    }
    if (kind === this.absentKind) return { kind: 'absent', heapId: entry >>> this.shift };
    return { kind: kind === this.null ? 'null' : 'unowned' };
  }
}

export class PageTableMirror {
  readonly encoding: PageTableEncoding;
  private buffer: GPUBuffer;
  private entries: number;
  /** What the buffer holds once the dirty entries are sent (see the header). */
  private shadow: Uint32Array;
  private readonly dirty = new DirtyRuns(MERGE_GAP_ENTRIES);
  private dropNextWrite = false;

  constructor(
    private readonly device: GPUDevice,
    /** The address space's page count: the table never needs more entries. */
    private readonly maxEntries: number,
    /** The first buffer, of initialBytes(maxEntries) (allocated and checked by the caller). */
    initial: GPUBuffer,
    /** Runs a growth inside error scopes (GpuMemory.guard). */
    private readonly guarded: <T>(what: string, fn: () => T) => T,
    /** Submits a growth's copy (GpuMemory.submitUnmapped, which counts every queue submission). */
    private readonly submit: (commandBuffers: GPUCommandBuffer[]) => void,
    /** The pool page where NON_LOCAL's range starts (PageTableEncoding). */
    nonLocalFirstPage = 0,
  ) {
    this.encoding = new PageTableEncoding(nonLocalFirstPage);
    this.entries = initial.size / 4;
    this.buffer = initial;
    // A new buffer is zero: every entry UNOWNED (0).
    this.shadow = new Uint32Array(this.entries);
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
    return this.device.createBuffer({
      label: 'd3d12 page table',
      size: entries * 4,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
    });
  }

  private growTo(page: number): void {
    if (page < this.entries) return;
    let entries = this.entries;
    while (entries <= page) entries *= 2;
    entries = Math.min(entries, this.maxEntries);
    this.guarded(`growing the page table to ${entries * 4} bytes`, () => {
      const grown = this.createBuffer(entries);
      const encoder = this.device.createCommandEncoder({ label: 'd3d12 page table growth' });
      // Entries still dirty are not in the old buffer yet; they stay dirty and flush() writes them
      // into the new one, before any submission that reads it.
      encoder.copyBufferToBuffer(this.buffer, 0, grown, 0, this.entries * 4);
      this.submit([encoder.finish()]);
      // Work already submitted keeps the old buffer alive until it completes.
      this.buffer.destroy();
      this.buffer = grown;
    });
    const shadow = new Uint32Array(entries);
    shadow.set(this.shadow);
    this.shadow = shadow;
    this.entries = entries;
  }

  /**
   * The entries from `firstPage` on, for the caller to fill now (before any other call on the
   * mirror, which may grow the shadow): a view of the shadow, marked dirty. When the write is to be
   * lost (dropNextWriteForTesting), a scratch array instead.
   */
  entriesAt(firstPage: number, count: number): Uint32Array {
    if (count <= 0) return new Uint32Array(0);
    if (this.dropNextWrite) {
      this.dropNextWrite = false;
      return new Uint32Array(count);
    }
    this.growTo(firstPage + count - 1);
    this.dirty.add(firstPage, count);
    return this.shadow.subarray(firstPage, firstPage + count);
  }

  /**
   * The entry of `page` as the next submission reads it: the shadow, which flush() sends before
   * every submission (UNOWNED past the table's end, as the prelude reads it).
   */
  entryAt(page: number): number {
    return this.shadow[page] ?? this.encoding.unowned;
  }

  /**
   * The entries of `count` pages from `firstPage` as the next submission reads them, to read now
   * and not keep (a view of the shadow where it reaches; UNOWNED past the table's end).
   */
  peekEntries(firstPage: number, count: number): Uint32Array {
    if (firstPage + count <= this.entries) return this.shadow.subarray(firstPage, firstPage + count);
    const entries = new Uint32Array(count).fill(this.encoding.unowned);
    if (firstPage < this.entries) entries.set(this.shadow.subarray(firstPage, this.entries));
    return entries;
  }

  /**
   * Writes entries [first, first + count) of `source` to the entries from `firstPage` on (sent at
   * the next flush), as one memmove in every V8 (see shifted-copies.ts).
   */
  copyFrom(firstPage: number, source: ShiftedCopies, first: number, count: number): void {
    if (this.claim(firstPage, count)) source.copyTo(this.shadow, firstPage, first, count);
  }

  /**
   * Whether the caller may write entries [firstPage, firstPage + count) of the shadow now: grown to
   * hold them and marked dirty; false for no entries, or when the write is to be lost
   * (dropNextWriteForTesting).
   */
  private claim(firstPage: number, count: number): boolean {
    if (count <= 0) return false;
    if (this.dropNextWrite) {
      this.dropNextWrite = false;
      return false;
    }
    this.growTo(firstPage + count - 1);
    this.dirty.add(firstPage, count);
    return true;
  }

  /** Writes `values` to the entries from `firstPage` on (sent at the next flush). */
  write(firstPage: number, values: Uint32Array): void {
    if (values.length > 0) this.entriesAt(firstPage, values.length).set(values);
  }

  /** Writes one entry (sent at the next flush): entriesAt without its view, for per-tile callers. */
  writeOne(page: number, value: number): void {
    if (this.dropNextWrite) {
      this.dropNextWrite = false;
      return;
    }
    // growTo's own test, inline: per-tile callers almost never grow the table.
    if (page >= this.entries) this.growTo(page);
    this.dirty.add(page, 1);
    this.shadow[page] = value;
  }

  /** Writes one value to `count` entries from `firstPage` on (sent at the next flush). */
  fill(firstPage: number, count: number, value: number): void {
    if (this.claim(firstPage, count)) fillWords(this.shadow, firstPage, firstPage + count, value);
  }

  /**
   * Sends the dirty entries: one queue write per merged run. GpuMemory.submit calls it before every
   * submission; a fence's completion (GpuBackend.workDone) also waits for what it sends.
   */
  flush(): void {
    if (this.dirty.empty) return;
    const runs = this.dirty.take();
    for (let i = 0; i < runs.length; i += 2) {
      const start = runs[i] as number;
      const end = runs[i + 1] as number;
      this.device.queue.writeBuffer(this.buffer, start * 4, this.shadow, start, end - start);
    }
  }

  /**
   * Self-check of GPU-side validation: the next write (the next entriesAt, write or fill) is lost,
   * as a lost queue write would be, so the GPU keeps the old entries while the CPU model moves on.
   */
  dropNextWriteForTesting(): void {
    this.dropNextWrite = true;
  }

  /** Self-check of GPU-side validation: writes `entry` at `page` behind the CPU model's back. */
  corruptEntryForTesting(page: number, entry: number): void {
    this.growTo(page);
    this.shadow[page] = entry;
    this.dirty.add(page, 1);
  }

  destroy(): void {
    this.buffer.destroy();
  }
}
