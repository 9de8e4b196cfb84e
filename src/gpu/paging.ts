/**
 * Paging: moving a heap's bytes out of its pool into CPU memory (evict) and back (make resident).
 * Both are queue operations, so neither stalls the CPU:
 *   - evict copies the heap's pages, after all work submitted before it, into a GPU buffer and from
 *     there into a mappable one, then maps it; the bytes reach CPU memory when the map resolves. The
 *     pages can be reused at once: anything that writes them is queued after the copy.
 *   - restore writes the CPU bytes into the new pages with queue writes; if the CPU does not have them
 *     yet (the evict's map has not resolved), it copies them from the GPU buffer instead, also in
 *     queue order. A heap that never had contents (created not resident) is cleared, or left as the
 *     pages are when it asked not to be zeroed.
 *
 * Invariants: an Evicted holds the heap's bytes in exactly one place at any time it is read: `bytes`
 * once the map resolved, else `staged` (the GPU copy, kept until the map resolves).
 */
import type { MemorySegment } from '../api/types.js';
import type { PageRun } from '../memory/range-allocator.js';
import { forEachPhysicalSpan, PAGE_SIZE, type GpuMemory } from './gpu-memory.js';

/** A heap's contents while it is not resident. */
export interface Evicted {
  byteLength: number;
  /** The bytes in CPU memory, once they arrived. */
  bytes?: Uint8Array;
  /** Until then, a GPU copy of them. */
  staged?: GPUBuffer;
  /** Resolves when `bytes` is set. */
  arrived: Promise<void>;
}

/** Contents of a heap that never had any (created not resident): zero when restored. */
export function neverWritten(byteLength: number): Evicted {
  return { byteLength, arrived: Promise.resolve() };
}

/** Copies the pages (a heap's, in order) out to CPU memory. The pages may be reused at once. */
export function evictPages(memory: GpuMemory, segment: MemorySegment, pages: Uint32Array): Evicted {
  const device = memory.device;
  const byteLength = pages.length * PAGE_SIZE;
  const staged = memory.createBuffer({ label: 'd3d12 evicted heap (staged)', size: byteLength, usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
  const readable = memory.createBuffer({ label: 'd3d12 evicted heap (readback)', size: byteLength, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder({ label: 'd3d12 evict' });
  forEachPhysicalSpan(pages, 0, byteLength, (poolOffset, offset, length) => {
    encoder.copyBufferToBuffer(memory.pools[segment], poolOffset, staged, offset, length);
  });
  encoder.copyBufferToBuffer(staged, 0, readable, 0, byteLength);
  device.queue.submit([encoder.finish()]);
  const evicted: Evicted = { byteLength, staged, arrived: Promise.resolve() };
  evicted.arrived = readable.mapAsync(GPUMapMode.READ).then(
    () => {
      evicted.bytes = new Uint8Array(readable.getMappedRange().slice(0));
      readable.destroy();
      // Restores queued before this point copied from `staged`; destroying it now is safe for them.
      evicted.staged?.destroy();
      evicted.staged = undefined;
    },
    // A failed map (a lost device) leaves the bytes in `staged`, where restores still find them.
    () => readable.destroy(),
  );
  return evicted;
}

/** Puts evicted contents into new pages (a heap's, in order), in queue order. */
export function restorePages(memory: GpuMemory, segment: MemorySegment, pages: Uint32Array, runs: readonly PageRun[], evicted: Evicted, zero: boolean): void {
  const device = memory.device;
  const length = Math.min(evicted.byteLength, pages.length * PAGE_SIZE);
  if (evicted.bytes) {
    memory.writeHeapBytes(segment, pages, 0, evicted.bytes.subarray(0, length));
    return;
  }
  if (evicted.staged) {
    const staged = evicted.staged;
    const encoder = device.createCommandEncoder({ label: 'd3d12 restore (from staged copy)' });
    forEachPhysicalSpan(pages, 0, length, (poolOffset, offset, spanLength) => {
      encoder.copyBufferToBuffer(staged, offset, memory.pools[segment], poolOffset, spanLength);
    });
    device.queue.submit([encoder.finish()]);
    return;
  }
  if (zero) memory.clearPages(segment, runs);
}
