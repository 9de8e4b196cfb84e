/**
 * What the paging figure's measurements share (paging-throughput.ts, paging-lazy.ts): the byte
 * pattern a heap is filled with, the library side (a device, a queue, a fence), filling a heap through
 * an UPLOAD buffer and checking its first, middle and last tiles, so that every row pages known bytes
 * and a benchmark of the wrong work throws instead of reporting a number.
 */
import {
  createDevice,
  TILE_SIZE,
  type CommandQueue,
  type Device,
  type EvictionMode,
  type Fence,
  type Resource,
} from '../../src/index.js';

export const MIB = 2 ** 20;
/** Bytes of pattern per upload while filling a heap: bounds the UPLOAD buffer in the NON_LOCAL pool. */
export const UPLOAD_CHUNK = 4 * MIB;
/** Tiles read back after the last restore (first, middle, last). */
export const CHECKED_TILES = 3;

/** The byte pattern a heap is filled with: the validators' own (src/validate/bytes.ts), different everywhere and never all zero. */
export { pattern } from '../../src/validate/bytes.js';

export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

export const gbPerSecond = (bytes: number, ms: number): number => bytes / (ms / 1000) / 1e9;

/** The library side: a device, a queue and a fence to learn when queue work completed. */
export interface Library {
  device: Device;
  queue: CommandQueue;
  fence: Fence;
  fenceValue: number;
}

/** Signals the library's queue and resolves once everything before the signal has completed. */
/**
 * A device for paging `heapBytes` heaps (LOCAL: one heap's worth; NON_LOCAL: the upload chunk that
 * fills it and the readback of the checked tiles), with a DIRECT queue and a fence.
 */
export async function pagingLibrary(
  gpuDevice: GPUDevice,
  heapBytes: number,
  eviction?: EvictionMode,
): Promise<Library> {
  const device = await createDevice({
    gpuDevice,
    ...(eviction ? { eviction } : {}),
    localMemoryBytes: heapBytes,
    nonLocalMemoryBytes: Math.min(UPLOAD_CHUNK, heapBytes) + CHECKED_TILES * TILE_SIZE,
  });
  return { device, queue: device.createCommandQueue({ type: 'DIRECT' }), fence: device.createFence(0), fenceValue: 0 };
}

export function signal(library: Library): Promise<void> {
  library.queue.signal(library.fence, ++library.fenceValue);
  return library.fence.setEventOnCompletion(library.fenceValue);
}

/** Writes `data` into a buffer resource through an UPLOAD buffer, a chunk at a time. */
export async function fill(library: Library, target: Resource, data: Uint8Array): Promise<void> {
  const { device, queue } = library;
  const chunk = Math.min(UPLOAD_CHUNK, data.length);
  const upload = device.createCommittedResource(
    { type: 'UPLOAD' },
    [],
    { dimension: 'BUFFER', width: chunk },
    'GENERIC_READ',
  );
  for (let offset = 0; offset < data.length; offset += chunk) {
    upload.map().set(data.subarray(offset, offset + chunk));
    upload.unmap();
    const list = device.createCommandList('DIRECT');
    list.copyBufferRegion(target, offset, upload, 0, chunk);
    list.close();
    queue.executeCommandLists([list]);
    // The upload buffer is rewritten next: wait until this copy has read it.
    await signal(library);
  }
  upload.release();
}

/** Reads the first, middle and last tiles of a buffer resource back and compares them with `data`. */
export async function checkTiles(library: Library, source: Resource, data: Uint8Array, what: string): Promise<void> {
  const { device, queue } = library;
  const tiles = data.length / TILE_SIZE;
  const checked = [0, tiles >> 1, tiles - 1];
  const readback = device.createCommittedResource(
    { type: 'READBACK' },
    [],
    { dimension: 'BUFFER', width: CHECKED_TILES * TILE_SIZE },
    'COPY_DEST',
  );
  const list = device.createCommandList('DIRECT');
  checked.forEach((tile, k) => list.copyBufferRegion(readback, k * TILE_SIZE, source, tile * TILE_SIZE, TILE_SIZE));
  list.close();
  queue.executeCommandLists([list]);
  await signal(library);
  const bytes = readback.map().slice(0, CHECKED_TILES * TILE_SIZE);
  readback.unmap();
  readback.release();
  checked.forEach((tile, k) => {
    const at = firstDifference(
      bytes.subarray(k * TILE_SIZE, (k + 1) * TILE_SIZE),
      data.subarray(tile * TILE_SIZE, (tile + 1) * TILE_SIZE),
    );
    if (at >= 0)
      throw new Error(`paging-throughput: ${what}: tile ${tile} differs from what was written, first at byte ${at}`);
  });
}
