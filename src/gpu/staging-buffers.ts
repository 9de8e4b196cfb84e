/**
 * StagingBuffers: the mappable buffers paging moves bytes through, kept and reused rather than made
 * per eviction. Two kinds, each of CHUNK bytes:
 *   - read chunks (MAP_READ | COPY_DST): an eviction copies pages into one, maps it and copies the
 *     bytes out to a CPU store (cpu-stores.ts), then gives it back unmapped;
 *   - write chunks (MAP_WRITE | COPY_SRC): kept mapped while idle, so a restore writes CPU bytes
 *     straight into mapped memory, unmaps, copies them into the pool, and the chunk maps itself
 *     again in the background.
 *
 * Why: on the H200 (Node/Dawn, one session's transfer harness) a heap-sized MAP_READ buffer made per
 * eviction and sliced into a fresh ArrayBuffer moved 1.1 / 1.8 / 0.9 GB/s at 1 / 16 / 64 MiB, a
 * reused buffer copied into a reused CPU store 5.2 / 7.4 / 3.9 and 16 MiB chunks with their maps
 * overlapped 6.0 / 8.7 / 5.1; queue.writeBuffer restored 16 / 64 MiB at 3.2 / 2.4 GB/s, a mapped
 * MAP_WRITE buffer at 12.6 / 6.5.
 *
 * Invariants: an idle read chunk is unmapped and no queued work uses it; an idle write chunk is
 * mapped. At most RETAINED_CHUNKS of each kind are kept; chunks taken beyond that are made for the
 * occasion and destroyed when given back. Every buffer is made through GpuMemory.createBuffer
 * (callers hold error scopes: GpuMemory.guard).
 */
import type { GpuMemory } from './gpu-memory.js';

/** 16 MiB: the chunk size that measured fastest on the H200 (above: 8.7 GB/s against 6.7 at 4 MiB). */
export const STAGING_CHUNK_BYTES = 16 * 2 ** 20;
/**
 * Chunks kept per kind: four cover a 64 MiB heap in flight at once, and bound the mappable memory
 * kept for paging to 2 × 4 × 16 MiB.
 */
const RETAINED_CHUNKS = 4;

export class StagingBuffers {
  private readonly idleRead: GPUBuffer[] = [];
  private readonly idleWrite: GPUBuffer[] = [];
  /** Write chunks made or being re-mapped (kept ones only): bounds how many exist. */
  private writeChunks = 0;
  private destroyed = false;

  constructor(
    private readonly memory: GpuMemory,
    /** Bytes per chunk: STAGING_CHUNK_BYTES, or less where the pools are smaller. */
    readonly chunkBytes: number,
  ) {}

  /** An unmapped read chunk no queued work uses; made if none is idle. */
  takeRead(): GPUBuffer {
    return (
      this.idleRead.pop() ??
      this.memory.createBuffer({
        label: 'd3d12 paging readback',
        size: this.chunkBytes,
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      })
    );
  }

  /** A read chunk whose map has been read and unmapped (or failed): kept for the next eviction, or destroyed. */
  giveBackRead(buffer: GPUBuffer): void {
    if (!this.destroyed && this.idleRead.length < RETAINED_CHUNKS && buffer.mapState === 'unmapped')
      this.idleRead.push(buffer);
    else buffer.destroy();
  }

  /**
   * A mapped write chunk, or undefined when all kept ones are in flight (being re-mapped) and the
   * caller should write through the queue instead. A chunk is made mapped at creation while fewer
   * than RETAINED_CHUNKS exist.
   */
  takeWrite(): GPUBuffer | undefined {
    const idle = this.idleWrite.pop();
    if (idle) return idle;
    if (this.writeChunks >= RETAINED_CHUNKS) return undefined;
    this.writeChunks++;
    return this.memory.createBuffer({
      label: 'd3d12 paging upload',
      size: this.chunkBytes,
      usage: GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC,
      mappedAtCreation: true,
    });
  }

  /** A write chunk unmapped and whose copies are submitted: it maps itself again, then is idle. */
  recycleWrite(buffer: GPUBuffer): void {
    buffer.mapAsync(GPUMapMode.WRITE).then(
      () => {
        if (this.destroyed) buffer.destroy();
        else this.idleWrite.push(buffer);
      },
      // A lost device: the chunk is gone; one may be made again.
      () => {
        this.writeChunks--;
        buffer.destroy();
      },
    );
  }

  destroy(): void {
    this.destroyed = true;
    for (const buffer of this.idleRead.splice(0)) buffer.destroy();
    for (const buffer of this.idleWrite.splice(0)) buffer.destroy();
  }
}
