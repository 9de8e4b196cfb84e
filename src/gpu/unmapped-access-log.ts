/**
 * The unmapped-access log on the GPU (gpuValidation.unmappedAccess): one storage buffer, bound at
 * group 0 binding 4 of every prelude pipeline, holding a 64-bit count of accesses to NULL tiles, the
 * first `capacity` records of them, and a bitmap of one bit per page-table entry (layout:
 * shaders/prelude/unmapped-access.wgsl, read here with wgsl_reflect).
 *
 * Invariants: the bitmap covers the page table whenever the buffer is bound (`binding` grows it
 * first, by a queue copy that keeps every bit and record); `drain` copies the log out and clears it
 * in queue order, so each access lands in exactly one drain. A device without the option binds a
 * placeholder of the header alone (capacity 0, no bitmap) and clears the dispatch's flag.
 */
import type { GpuMemory } from './gpu-memory.js';
import { memberOffset, preludeConstant, preludeLayout } from './prelude.js';

/** Where a record's fields sit in its words (the WGSL's D3D12_UNMAPPED_RECORD_* constants). */
export const UNMAPPED_RECORD = {
  words: preludeConstant('D3D12_UNMAPPED_RECORD_WORDS'),
  vaLow: preludeConstant('D3D12_UNMAPPED_RECORD_VA_LOW'),
  vaHigh: preludeConstant('D3D12_UNMAPPED_RECORD_VA_HIGH'),
  submission: preludeConstant('D3D12_UNMAPPED_RECORD_SUBMISSION'),
  commandList: preludeConstant('D3D12_UNMAPPED_RECORD_COMMAND_LIST'),
  commandIndex: preludeConstant('D3D12_UNMAPPED_RECORD_COMMAND_INDEX'),
  access: preludeConstant('D3D12_UNMAPPED_RECORD_ACCESS'),
  /** The `access` value of a write (anything else is a read). */
  write: preludeConstant('D3D12_ACCESS_WRITE'),
} as const;

/** What one drain read: the count, the records written (UNMAPPED_RECORD.words each) and the page bitmap. */
export interface UnmappedAccessWords {
  /** Accesses recorded since the previous drain, records or not. */
  count: number;
  records: Uint32Array;
  /** Bit p % 32 of word p / 32: virtual page p was accessed while NULL. */
  bitmap: Uint32Array;
}

/** What the executor binds for the log: the buffer, and the dispatch constants that go with it. */
export interface UnmappedAccessBinding {
  buffer: GPUBuffer;
  /** Whether dispatches record (the dispatch constants' unmapped_access flag). */
  recording: boolean;
  /** The submission's serial, written into each record. */
  submission: number;
}

const header = (): {
  words: number;
  countLow: number;
  countHigh: number;
  records: number;
  capacity: number;
  bitmap: number;
} => {
  const log = preludeLayout().unmappedAccessLog;
  return {
    words: memberOffset(log, 'words'),
    countLow: memberOffset(log, 'count_low'),
    countHigh: memberOffset(log, 'count_high'),
    records: memberOffset(log, 'records'),
    capacity: memberOffset(log, 'capacity'),
    bitmap: memberOffset(log, 'bitmap'),
  };
};

// A function: GPUBufferUsage exists only where WebGPU does (CPU-only devices import this module too).
const usage = (): number => GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

/** The placeholder a device without unmappedAccess binds: the header and 16 bytes of words (never written), capacity 0. */
export function createUnmappedAccessPlaceholder(memory: GpuMemory): GPUBuffer {
  return memory.guard('allocating the unmapped-access placeholder', () =>
    memory.createBuffer({ label: 'd3d12 unmapped-access log (off)', size: header().words + 16, usage: usage() }),
  );
}

export class UnmappedAccessLog {
  private buffer: GPUBuffer;
  /** Words of bitmap the buffer holds: pages / 32 of the page table it covers. */
  private bitmapWords = 0;
  private readonly at = header();

  constructor(
    private readonly memory: GpuMemory,
    /** Records the log keeps per drain. */
    readonly capacity: number,
  ) {
    this.buffer = this.allocate(Math.ceil(memory.pageTable.gpuBuffer.size / 4 / 32));
  }

  private get recordWords(): number {
    return this.capacity * UNMAPPED_RECORD.words;
  }

  /** A new buffer for `bitmapWords` words of bitmap, its header written (zero: no accesses). */
  private allocate(bitmapWords: number): GPUBuffer {
    const buffer = this.memory.guard('allocating the unmapped-access log', () => {
      const made = this.memory.createBuffer({
        label: 'd3d12 unmapped-access log',
        size: this.at.words + (this.recordWords + bitmapWords) * 4,
        usage: usage(),
      });
      this.memory.device.queue.writeBuffer(made, this.at.capacity, new Uint32Array([this.capacity]));
      this.memory.device.queue.writeBuffer(made, this.at.bitmap, new Uint32Array([this.recordWords]));
      return made;
    });
    this.bitmapWords = bitmapWords;
    return buffer;
  }

  /** The buffer to bind for a submission, grown first (bits and records kept) to cover `pageTableEntries`. */
  binding(pageTableEntries: number, submission: number): UnmappedAccessBinding {
    const needed = Math.ceil(pageTableEntries / 32);
    if (needed > this.bitmapWords) {
      const old = this.buffer;
      const grown = this.allocate(needed);
      this.memory.guard('growing the unmapped-access log', () => {
        const encoder = this.memory.device.createCommandEncoder({ label: 'd3d12 unmapped-access log growth' });
        encoder.copyBufferToBuffer(old, 0, grown, 0, old.size);
        this.memory.submit([encoder.finish()]);
      });
      // Work already submitted keeps the old buffer alive until it completes.
      old.destroy();
      this.buffer = grown;
    }
    return { buffer: this.buffer, recording: true, submission };
  }

  /**
   * Copies the log out and clears its count and bitmap, after all work submitted so far and before
   * any submitted later; resolves with what it held once the copy has landed.
   */
  drain(): Promise<UnmappedAccessWords> {
    const size = this.buffer.size;
    const bitmapOffset = this.at.words + this.recordWords * 4;
    const staging = this.memory.guard('reading the unmapped-access log', () => {
      const copy = this.memory.createBuffer({
        label: 'd3d12 unmapped-access readback',
        size,
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      });
      const encoder = this.memory.device.createCommandEncoder({ label: 'd3d12 drain unmapped-access log' });
      encoder.copyBufferToBuffer(this.buffer, 0, copy, 0, size);
      encoder.clearBuffer(this.buffer, this.at.countLow, 4);
      encoder.clearBuffer(this.buffer, this.at.countHigh, 4);
      encoder.clearBuffer(this.buffer, this.at.records, 4);
      if (size > bitmapOffset) encoder.clearBuffer(this.buffer, bitmapOffset, size - bitmapOffset);
      this.memory.submit([encoder.finish()]);
      return copy;
    });
    return staging.mapAsync(GPUMapMode.READ).then(() => {
      const words = new Uint32Array(staging.getMappedRange().slice(0));
      staging.destroy();
      const count = (words[this.at.countLow / 4] ?? 0) + (words[this.at.countHigh / 4] ?? 0) * 2 ** 32;
      const first = this.at.words / 4;
      return {
        count,
        // Slots claimed (at most capacity were written), not the count: a wrapped count is small again.
        records: words.slice(
          first,
          first + Math.min(words[this.at.records / 4] ?? 0, this.capacity) * UNMAPPED_RECORD.words,
        ),
        bitmap: words.slice(bitmapOffset / 4),
      };
    });
  }

  destroy(): void {
    this.buffer.destroy();
  }
}
