/**
 * MappedStores: mapped MAP_WRITE | COPY_SRC buffers that hold evicted heaps' bytes, so that a restore
 * is what it is in D3D12 under WDDM: a DMA copy from system memory back into video memory, in the
 * restore's own submission (unmap, copyBufferToBuffer), with no CPU copy of the bytes at all. The
 * eviction pays that copy instead: when its readback chunk maps, it copies the bytes into a mapped
 * store (where it would otherwise copy them into a CPU store, src/memory/cpu-stores.ts), so an
 * eviction copies as many bytes as before and a restore none.
 *
 * Why: a restore through queue.writeBuffer spends its call copying the bytes into Dawn's upload ring
 * (1 MiB: about 100 µs of the H100's 176 µs makeResident, bench/results, paging figure) before the
 * GPU copies them; from a mapped store the call only unmaps and submits, and the GPU reads the bytes
 * where they are. On SwiftShader (a CPU Vulkan) the "GPU" copy is itself a memcpy inside the submit,
 * so there the two paths cost about the same.
 *
 * Memory: every store is a buffer of exactly its heap's size plus `tailBytes` (room for the
 * page-table entries the restore writes in the same submission: paging.ts). The heap bytes of all
 * stores together, held by evicted heaps, idle (mapped) or waiting to map again after a restore, stay
 * within `maxBytes` (MAPPED_STORE_BYTES; the tails add at most tailBytes per 64 KiB page of it);
 * take() destroys idle and waiting stores, least recently given back first, to make room for a new
 * one, and answers undefined when even that is not enough (the eviction then uses a CPU store).
 *
 * Invariants: an idle store is mapped and nobody holds it; a store given back unmapped (its bytes
 * copied by a submitted restore) waits, unmapped, until the next eviction asks it to map again
 * (remap), and is idle once mapped; `bytes` is the sum of the
 * heap bytes of all stores not destroyed. Buffers are made through GpuMemory.createBuffer inside guard
 * (take() runs in a map callback, outside any D3D12 call's scopes).
 */
import type { GpuMemory } from './gpu-memory.js';

/**
 * 64 MiB of evicted bytes kept mapped at most: the paging figure's largest heap, and 16 one-MiB
 * heaps of a streaming working set; beside the staging chunks' 2 × 4 × 16 MiB (staging-buffers.ts).
 * Evicted bytes beyond it live in CPU stores and are restored by queue writes, as before.
 */
export const MAPPED_STORE_BYTES = 64 * 2 ** 20;

/** A store: the buffer and, while it is mapped, a view of all of it. */
export interface MappedStore {
  buffer: GPUBuffer;
  /** The mapped range (detached once unmapped: never read after restore() unmapped it). */
  mapped: Uint8Array;
  /** The heap bytes' length: the tail starts there. */
  byteLength: number;
  /** The mapped tail, as words (page-table entries). */
  tail: Uint32Array;
}

/** A store's views of its buffer's mapped range. */
function views(buffer: GPUBuffer, byteLength: number): Pick<MappedStore, 'mapped' | 'tail'> {
  const range = buffer.getMappedRange();
  return { mapped: new Uint8Array(range), tail: new Uint32Array(range, byteLength) };
}

export class MappedStores {
  /** Idle stores (mapped), least recently idle first. */
  private readonly idle: MappedStore[] = [];
  /** Stores given back unmapped, not yet asked to map again (remap()). */
  private readonly waiting: MappedStore[] = [];
  /** Stores taken and not given back (destroyed with the pager). */
  private readonly held = new Set<MappedStore>();
  /** Heap bytes of all stores not destroyed (held, idle, waiting, re-mapping), tails not counted. */
  private bytes = 0;
  private destroyed = false;

  constructor(
    private readonly memory: GpuMemory,
    /** Bytes after each store's heap bytes (paging.ts: page-table entries). */
    readonly tailBytes: number,
    /** The bound on all stores' bytes (a test may lower it: 0 keeps every evicted heap in CPU stores). */
    public maxBytes = MAPPED_STORE_BYTES,
  ) {}

  /** Bytes of all stores now (for tests). */
  get bytesForTesting(): number {
    return this.bytes;
  }

  /**
   * A mapped store for `byteLength` heap bytes (an idle one of that size, or one made while the
   * stores stay within maxBytes), or undefined.
   */
  take(byteLength: number): MappedStore | undefined {
    if (this.destroyed || byteLength > this.maxBytes) return undefined;
    const size = byteLength + this.tailBytes;
    for (let i = this.idle.length - 1; i >= 0; i--) {
      const store = this.idle[i] as MappedStore;
      if (store.buffer.size !== size) continue;
      this.idle.splice(i, 1);
      this.held.add(store);
      return store;
    }
    while (this.bytes + byteLength > this.maxBytes && this.idle.length + this.waiting.length > 0)
      this.drop((this.idle.shift() ?? this.waiting.shift()) as MappedStore);
    if (this.bytes + byteLength > this.maxBytes) return undefined;
    let buffer: GPUBuffer;
    try {
      buffer = this.memory.guard(
        () => `keeping ${byteLength} evicted bytes mapped`,
        () =>
          this.memory.createBuffer({
            label: 'd3d12 evicted heap (mapped)',
            size,
            usage: GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC,
            mappedAtCreation: true,
          }),
      );
    } catch {
      // mappedAtCreation throws (RangeError) when even the CPU side of the mapping cannot be had.
      return undefined;
    }
    this.bytes += byteLength;
    const store = { buffer, byteLength, ...views(buffer, byteLength) };
    this.held.add(store);
    return store;
  }

  /**
   * A store nobody holds any more: mapped, it is idle at once; unmapped (a restore's copies out of it
   * are submitted), it waits for remap().
   */
  giveBack(store: MappedStore): void {
    this.held.delete(store);
    if (this.destroyed) store.buffer.destroy();
    else if (store.buffer.mapState === 'mapped') this.idle.push(store);
    else this.waiting.push(store);
  }

  /**
   * Asks the stores restores unmapped to map again (each after the copies out of it): called by an
   * eviction before it maps its readback chunks, so they are idle again by the time its bytes arrive,
   * rather than by the restore, whose call a mapAsync would lengthen (about 19 µs in Node on
   * SwiftShader's host, .prof/rb3.ts) for stores only an eviction needs.
   */
  remap(): void {
    for (const store of this.waiting.splice(0)) this.mapAgain(store);
  }

  private mapAgain(store: MappedStore): void {
    store.buffer.mapAsync(GPUMapMode.WRITE).then(
      () => {
        if (this.destroyed) {
          store.buffer.destroy();
          return;
        }
        Object.assign(store, views(store.buffer, store.byteLength));
        this.idle.push(store);
      },
      // A lost device (or a destroyed one): the store is gone.
      () => this.drop(store),
    );
  }

  private drop(store: MappedStore): void {
    this.bytes -= store.byteLength;
    store.buffer.destroy();
  }

  destroy(): void {
    this.destroyed = true;
    for (const store of this.idle.splice(0)) this.drop(store);
    for (const store of this.waiting.splice(0)) this.drop(store);
    for (const store of this.held) this.drop(store);
    this.held.clear();
  }
}
