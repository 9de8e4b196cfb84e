/**
 * MappedStores: small evicted heaps' bytes kept in mapped MAP_WRITE | COPY_SRC buffers instead of
 * ArrayBuffers, so that making the heap resident again copies nothing on the CPU: the restore unmaps
 * the store and copies it into the new pages on the GPU. This is how Windows' video memory manager
 * pages: an evicted allocation lives in system memory the GPU can read, and paging it in is a DMA
 * copy. The eviction's CPU copy (mapped read chunk → store) is the same length either way; only
 * where it writes changes.
 *
 * Why: a 1 MiB restore through queue.writeBuffer spends most of makeResident's time in the write's
 * own copy into Dawn's staging (H100, Node: makeResident 112 µs against 64.5 µs for the raw write
 * alone, bench/results/node-nvidia-h100-80gb-hbm3.json at d891513); the restore from a mapped store
 * pays an unmap and one copy command per contiguous span instead.
 *
 * Only heaps of at most MAX_STORE_BYTES get one (larger restores go through the pager's mapped
 * chunks, already faster than raw writes), and at most MAX_LIVE_BYTES of stores exist at once, in at
 * most MAX_LIVE_STORES buffers (a mapped buffer is a shared-memory region in a browser: their count
 * is bounded); past either, the eviction uses a CPU store as before.
 *
 * Invariants: a store is owned by at most one evicted heap, or idle; an idle store is mapped and no
 * queued work uses it; `live` counts every buffer made and not destroyed, idle ones included. Every
 * buffer is made through GpuMemory.createBuffer (callers hold error scopes: GpuMemory.guard).
 */
import type { GpuMemory } from './gpu-memory.js';

/** Heaps up to 4 MiB: the restores that go by queue.writeBuffer without stores (paging.ts). */
export const MAX_STORE_BYTES = 4 * 2 ** 20;
/**
 * 64 MiB of stores at once on a GPU: sixteen 4 MiB heaps or a thousand 64 KiB ones evicted at a time.
 * None on an adapter that runs on the CPU (SwiftShader): there the restore's GPU copy is a CPU copy
 * too, after a submission that costs more than the queue write it replaces (Node, SwiftShader at
 * 7097fb4: restore 1 MiB 2.24 GB/s against 2.99 with CPU stores, evict 1 MiB 0.87 against 1.28).
 */
export const MAX_LIVE_BYTES = 64 * 2 ** 20;
/** Buffers at once (see the header). */
const MAX_LIVE_STORES = 256;
/** Idle stores kept for the next evictions of their size. */
const RETAINED_IDLE = 8;
/**
 * Bytes after the heap's in every store: room for page-table entries the restore sends in its own
 * submission (a queue write of them cost a 1 MiB restore about 11 µs of CPU on the H200): 1,024
 * entries, a 64 MiB range of pages.
 */
export const STORE_TAIL_BYTES = 4096;

export interface MappedStore {
  buffer: GPUBuffer;
  /** The heap's bytes in the mapped range: valid until the buffer is unmapped. */
  bytes: Uint8Array;
  /** The STORE_TAIL_BYTES after them (at offset bytes.byteLength in the buffer). */
  tail: Uint8Array;
}

/** Views of a mapped store's heap bytes and tail. */
function viewsOf(buffer: GPUBuffer, byteLength: number): MappedStore {
  const range = buffer.getMappedRange();
  return {
    buffer,
    bytes: new Uint8Array(range, 0, byteLength),
    tail: new Uint8Array(range, byteLength, STORE_TAIL_BYTES),
  };
}

export class MappedStores {
  private readonly idle: MappedStore[] = [];
  private liveBytes = 0;
  private liveStores = 0;
  private destroyed = false;

  constructor(
    private readonly memory: GpuMemory,
    /** Bytes of stores alive at most (heap bytes; 0: no stores, every eviction uses a CPU store). */
    private maxLiveBytes: number,
  ) {}

  /** A mapped store of exactly `byteLength` bytes, or undefined when the heap is too large or the limits are reached. */
  take(byteLength: number): MappedStore | undefined {
    if (this.destroyed || byteLength > MAX_STORE_BYTES) return undefined;
    for (let i = this.idle.length - 1; i >= 0; i--) {
      const store = this.idle[i] as MappedStore;
      if (store.bytes.byteLength !== byteLength) continue;
      this.idle.splice(i, 1);
      return store;
    }
    // Make room by dropping idle stores of other sizes before refusing.
    while (
      (this.liveBytes + byteLength > this.maxLiveBytes || this.liveStores >= MAX_LIVE_STORES) &&
      this.idle.length > 0
    )
      this.drop(this.idle.shift() as MappedStore);
    if (this.liveBytes + byteLength > this.maxLiveBytes || this.liveStores >= MAX_LIVE_STORES) return undefined;
    const buffer = this.memory.createBuffer({
      label: 'd3d12 evicted heap (mapped store)',
      size: byteLength + STORE_TAIL_BYTES,
      usage: GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC,
      mappedAtCreation: true,
    });
    this.liveBytes += byteLength;
    this.liveStores++;
    return viewsOf(buffer, byteLength);
  }

  /** A store still mapped whose bytes nobody needs (its heap was freed, or the eviction failed): idle again. */
  giveBack(store: MappedStore): void {
    if (this.destroyed || store.buffer.mapState !== 'mapped') this.drop(store);
    else this.keep(store);
  }

  /** A store the caller unmapped and submitted copies from: it maps itself again, then is idle. */
  recycle(store: MappedStore): void {
    store.buffer.mapAsync(GPUMapMode.WRITE).then(
      () => {
        if (this.destroyed) this.drop(store);
        // (The old views were detached by the unmap: the size comes from the buffer.)
        else this.keep(viewsOf(store.buffer, store.buffer.size - STORE_TAIL_BYTES));
      },
      // A lost device: the store is gone.
      () => this.drop(store),
    );
  }

  /** Bytes of stores alive (idle or owned): tests. */
  get liveBytesForTesting(): number {
    return this.liveBytes;
  }

  /** Test hook: the limit on stores alive (stores alive past it stay until given back). */
  setMaxLiveBytesForTesting(bytes: number): void {
    this.maxLiveBytes = bytes;
  }

  destroy(): void {
    this.destroyed = true;
    for (const store of this.idle.splice(0)) this.drop(store);
  }

  private keep(store: MappedStore): void {
    this.idle.push(store);
    while (this.idle.length > RETAINED_IDLE) this.drop(this.idle.shift() as MappedStore);
  }

  private drop(store: MappedStore): void {
    this.liveBytes -= store.buffer.size - STORE_TAIL_BYTES;
    this.liveStores--;
    store.buffer.destroy();
  }
}
