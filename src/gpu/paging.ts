/**
 * Pager: moving heaps' bytes out of their pool into CPU memory (evict) and back (restore), many
 * heaps per call. Both are queue operations, so neither stalls the CPU:
 *   - evict copies every heap's pages, after all work submitted before it, into read chunks
 *     (staging-buffers.ts), one command buffer and one submission for the call, then maps each chunk
 *     once; when a chunk's map resolves its bytes are copied into the heaps' CPU stores
 *     (cpu-stores.ts). The pages are not copied anywhere else: until the bytes arrived they still
 *     hold them, and MemoryBacking either gives them back to the heap (a restore before arrival:
 *     nothing to copy) or, when another heap needs them first, calls stage() to copy them into a GPU
 *     buffer before they are reused.
 *   - restore writes CPU bytes into the new pages: through mapped write chunks when the call moves
 *     more than DIRECT_WRITE_MAX_BYTES, else with queue writes; from the staged GPU copy where the
 *     bytes never reached the CPU; a heap that never had contents is cleared (or left as the pages
 *     are when it asked not to be zeroed). One submission for the call.
 *
 * Invariants: an Evicted holds the heap's bytes in exactly one place whenever it is read: `bytes`
 * once they arrived, else `staged` once stage() ran, else the heap's old pages (MemoryBacking keeps
 * them from reuse until then). A store goes back to CpuStores only when nothing will read it again.
 */
import type { MemorySegment } from '../api/types.js';
import type { PageRun } from '../memory/range-allocator.js';
import { CpuStores } from '../memory/cpu-stores.js';
import { forEachPhysicalSpan, PAGE_SIZE, type GpuMemory } from './gpu-memory.js';
import { STAGING_CHUNK_BYTES, StagingBuffers } from './staging-buffers.js';

/**
 * Restores of at most 4 MiB per call go by queue.writeBuffer: Dawn stages such writes in its 4 MiB
 * upload ring (on the H200, 1 MiB at 13 GB/s against 7.6 through a mapped chunk); larger writes
 * make Dawn allocate a staging buffer per write (16 MiB: 3.2 GB/s against 12.6 mapped).
 */
const DIRECT_WRITE_MAX_BYTES = 4 * 2 ** 20;

/** A heap's contents while it is not resident. */
export interface Evicted {
  byteLength: number;
  /** The bytes in CPU memory, once they arrived. */
  bytes?: Uint8Array;
  /** A GPU copy of them, made when the old pages were taken for other use before the bytes arrived. */
  staged?: GPUBuffer;
  /** Resolves when the copy to CPU memory has finished (or failed: a lost device) or was cancelled. */
  arrived: Promise<void>;
  /** Nothing will read these contents again (restored from the old pages, or the heap was freed). */
  cancelled?: boolean;
  /**
   * Lazy eviction: nothing was copied; the bytes are in the heap's old pages, kept for it until an
   * allocation takes them (src/emulator/old-pages.ts), which replaces these contents with a page-out's.
   */
  kept?: true;
}

/** Contents of a heap that never had any (created not resident): zero when restored. */
export function neverWritten(byteLength: number): Evicted {
  return { byteLength, arrived: Promise.resolve() };
}

/** One heap's pages, in heap order, in its segment's pool. */
export interface PagedHeap {
  segment: MemorySegment;
  pages: Uint32Array;
}

/** A heap being restored: its new pages and what it held. */
export interface RestoredHeap extends PagedHeap {
  runs: readonly PageRun[];
  evicted: Evicted;
  /** Clear the pages when there are no contents (not CREATE_NOT_ZEROED). */
  zero: boolean;
}

/** A piece of a heap's bytes in a staging chunk. */
interface ChunkPart {
  heap: number;
  heapOffset: number;
  chunkOffset: number;
  length: number;
}

export class Pager {
  private readonly staging: StagingBuffers;
  private readonly stores = new CpuStores();
  /** Bytes stage() copied on the GPU (pages reused before their bytes reached CPU memory). */
  stagedBytes = 0;
  /** Bytes evict() copied out of the pool, and restore() wrote back (zero-fills not counted): tests and benchmarks. */
  copiedOutBytes = 0;
  copiedInBytes = 0;

  constructor(private readonly memory: GpuMemory) {
    const largestPool = Math.max(memory.pageCounts.LOCAL, memory.pageCounts.NON_LOCAL) * PAGE_SIZE;
    this.staging = new StagingBuffers(memory, Math.min(STAGING_CHUNK_BYTES, largestPool));
  }

  /** Copies the heaps' pages out to CPU memory: one submission, one map per chunk. */
  evict(heaps: readonly PagedHeap[]): Evicted[] {
    const chunkBytes = this.staging.chunkBytes;
    const encoder = this.memory.device.createCommandEncoder({ label: 'd3d12 evict' });
    const chunks: { buffer: GPUBuffer; used: number; parts: ChunkPart[] }[] = [];
    let chunk: (typeof chunks)[number] | undefined;
    heaps.forEach(({ segment, pages }, heap) => {
      forEachPhysicalSpan(pages, 0, pages.length * PAGE_SIZE, (poolOffset, heapOffset, length) => {
        for (let done = 0; done < length;) {
          if (!chunk || chunk.used === chunkBytes)
            chunks.push((chunk = { buffer: this.staging.takeRead(), used: 0, parts: [] }));
          const take = Math.min(length - done, chunkBytes - chunk.used);
          encoder.copyBufferToBuffer(
            this.memory.pool,
            this.memory.poolOffset(segment, poolOffset + done),
            chunk.buffer,
            chunk.used,
            take,
          );
          chunk.parts.push({ heap, heapOffset: heapOffset + done, chunkOffset: chunk.used, length: take });
          chunk.used += take;
          done += take;
        }
      });
    });
    this.memory.submitUnmapped([encoder.finish()]);
    for (const { pages } of heaps) this.copiedOutBytes += pages.length * PAGE_SIZE;

    const evicted: Evicted[] = heaps.map(({ pages }) => ({
      byteLength: pages.length * PAGE_SIZE,
      arrived: Promise.resolve(),
    }));
    const stores: (Uint8Array | undefined)[] = heaps.map(() => undefined);
    const storeOf = (heap: number): Uint8Array | undefined => {
      const contents = evicted[heap] as Evicted;
      if (contents.cancelled) return undefined;
      return (stores[heap] ??= this.stores.take(contents.byteLength));
    };
    const copied = chunks.map(({ buffer, used, parts }) =>
      buffer.mapAsync(GPUMapMode.READ, 0, used).then(
        () => {
          const mapped = new Uint8Array(buffer.getMappedRange(0, used));
          for (const part of parts)
            storeOf(part.heap)?.set(mapped.subarray(part.chunkOffset, part.chunkOffset + part.length), part.heapOffset);
          buffer.unmap();
          this.staging.giveBackRead(buffer);
        },
        // A failed map (a lost device): the bytes stay where they are (the old pages or `staged`).
        () => {
          this.staging.giveBackRead(buffer);
          return Promise.reject(new Error('evict: the readback map failed'));
        },
      ),
    );
    // Each heap's bytes arrive when every chunk holding a part of them has been copied.
    const chunksOf = heaps.map(() => [] as Promise<void>[]);
    chunks.forEach(({ parts }, c) => {
      for (const heap of new Set(parts.map((part) => part.heap))) chunksOf[heap]?.push(copied[c] as Promise<void>);
    });
    evicted.forEach((contents, heap) => {
      contents.arrived = Promise.all(chunksOf[heap] as Promise<void>[]).then(
        () => {
          const store = stores[heap];
          if (contents.cancelled) {
            if (store) this.stores.giveBack(store);
            return;
          }
          contents.bytes = store ?? this.stores.take(contents.byteLength);
          // Restores queued meanwhile copied from `staged`; destroying it now is safe for them.
          contents.staged?.destroy();
          contents.staged = undefined;
        },
        () => {
          const store = stores[heap];
          if (store) this.stores.giveBack(store);
        },
      );
    });
    return evicted;
  }

  /** Copies evicted bytes that have not arrived out of the old pages into a GPU buffer (they are about to be reused). */
  stage(evicted: Evicted, heap: PagedHeap): void {
    if (evicted.bytes || evicted.staged || evicted.cancelled) return;
    const staged = this.memory.createBuffer({
      label: 'd3d12 evicted heap (staged)',
      size: evicted.byteLength,
      usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
    const encoder = this.memory.device.createCommandEncoder({
      label: 'd3d12 evict (staging pages about to be reused)',
    });
    forEachPhysicalSpan(heap.pages, 0, evicted.byteLength, (poolOffset, offset, length) => {
      encoder.copyBufferToBuffer(
        this.memory.pool,
        this.memory.poolOffset(heap.segment, poolOffset),
        staged,
        offset,
        length,
      );
    });
    this.memory.submitUnmapped([encoder.finish()]);
    evicted.staged = staged;
    this.stagedBytes += evicted.byteLength;
  }

  /** Nothing will read these contents again: their store goes back for reuse. */
  release(evicted: Evicted): void {
    evicted.cancelled = true;
    if (evicted.bytes) this.stores.giveBack(evicted.bytes);
    evicted.bytes = undefined;
    // Work queued before this point that copies from `staged` keeps it alive until it completes.
    evicted.staged?.destroy();
    evicted.staged = undefined;
  }

  /**
   * Puts evicted contents into the heaps' new pages, in queue order: queue writes, and one submission
   * for the GPU copies and clears (none when there are none: an empty submission costs as much as
   * a 1 MiB write on SwiftShader).
   */
  restore(heaps: readonly RestoredHeap[]): void {
    const device = this.memory.device;
    let encoder: GPUCommandEncoder | undefined;
    const encode = (): GPUCommandEncoder => (encoder ??= device.createCommandEncoder({ label: 'd3d12 restore' }));
    const uploaded = heaps.reduce((sum, { evicted }) => sum + (evicted.bytes ? evicted.bytes.byteLength : 0), 0);
    const upload =
      uploaded > DIRECT_WRITE_MAX_BYTES ? new ChunkUpload(this.staging, encode(), device.queue) : undefined;
    const pool = this.memory.pool;
    for (const { segment, pages, runs, evicted, zero } of heaps) {
      const at = (offset: number): number => this.memory.poolOffset(segment, offset);
      const length = Math.min(evicted.byteLength, pages.length * PAGE_SIZE);
      const bytes = evicted.bytes;
      const staged = evicted.staged;
      if (bytes || staged) this.copiedInBytes += length;
      if (bytes) {
        forEachPhysicalSpan(pages, 0, length, (poolOffset, offset, spanLength) => {
          if (upload) upload.write(pool, at(poolOffset), bytes.subarray(offset, offset + spanLength));
          else device.queue.writeBuffer(pool, at(poolOffset), bytes, offset, spanLength);
        });
      } else if (staged) {
        forEachPhysicalSpan(pages, 0, length, (poolOffset, offset, spanLength) =>
          encode().copyBufferToBuffer(staged, offset, pool, at(poolOffset), spanLength),
        );
      } else if (zero) {
        for (const run of runs) encode().clearBuffer(pool, at(run.start * PAGE_SIZE), run.count * PAGE_SIZE);
      }
    }
    upload?.finish();
    if (encoder) this.memory.submitUnmapped([encoder.finish()]);
    for (const { segment, pages } of heaps) this.memory.pageListWritten(segment, pages);
    upload?.recycle();
    // The bytes are in the queue's hands now (writeBuffer and the mapped chunks copied them).
    for (const { evicted } of heaps) this.release(evicted);
  }

  destroy(): void {
    this.staging.destroy();
  }
}

/** Bytes written into mapped write chunks, each copied into the pool by the restore's encoder. */
class ChunkUpload {
  private chunk:
    { buffer: GPUBuffer; mapped: Uint8Array; used: number; copies: [GPUBuffer, number, number, number][] } | undefined;
  private readonly done: GPUBuffer[] = [];

  constructor(
    private readonly staging: StagingBuffers,
    private readonly encoder: GPUCommandEncoder,
    private readonly queue: GPUQueue,
  ) {}

  write(pool: GPUBuffer, poolOffset: number, bytes: Uint8Array): void {
    for (let done = 0; done < bytes.byteLength;) {
      if (!this.chunk || this.chunk.used === this.staging.chunkBytes) {
        this.seal();
        const buffer = this.staging.takeWrite();
        // Every kept chunk is still being re-mapped: the rest goes through the queue.
        if (!buffer) {
          this.queue.writeBuffer(pool, poolOffset + done, bytes, done, bytes.byteLength - done);
          return;
        }
        this.chunk = { buffer, mapped: new Uint8Array(buffer.getMappedRange()), used: 0, copies: [] };
      }
      const chunk = this.chunk;
      const take = Math.min(bytes.byteLength - done, this.staging.chunkBytes - chunk.used);
      chunk.mapped.set(bytes.subarray(done, done + take), chunk.used);
      chunk.copies.push([pool, chunk.used, poolOffset + done, take]);
      chunk.used += take;
      done += take;
    }
  }

  /** Unmaps the current chunk and encodes its copies. */
  private seal(): void {
    const chunk = this.chunk;
    if (!chunk) return;
    chunk.buffer.unmap();
    for (const [pool, from, to, length] of chunk.copies)
      this.encoder.copyBufferToBuffer(chunk.buffer, from, pool, to, length);
    this.done.push(chunk.buffer);
    this.chunk = undefined;
  }

  finish(): void {
    this.seal();
  }

  /** After the submission: the chunks map themselves again. */
  recycle(): void {
    for (const buffer of this.done) this.staging.recycleWrite(buffer);
  }
}
