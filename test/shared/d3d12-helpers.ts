/**
 * Helpers for GPU scenarios that run in both test projects (Node.js + Dawn, and the browser): put
 * bytes in through an UPLOAD buffer, get bytes out through a READBACK buffer, run a list and wait.
 * Everything goes through the public API, as an application would.
 */
import type { CommandQueue, Device, GraphicsCommandList, Resource } from '../../src/index.js';

const TILE = 65536;
const roundUp = (n: number, to: number): number => Math.ceil(n / to) * to;

/** Records with `record`, executes on `queue` and waits for the GPU (and the readbacks) to finish. */
export async function runList(device: Device, queue: CommandQueue, record: (list: GraphicsCommandList) => void, type: 'DIRECT' | 'COMPUTE' | 'COPY' = 'DIRECT'): Promise<void> {
  const list = device.createCommandList(type);
  record(list);
  list.close();
  queue.executeCommandLists([list]);
  await flush(device, queue);
}

/** Waits until everything submitted to `queue` so far has completed. */
export async function flush(device: Device, queue: CommandQueue): Promise<void> {
  const fence = device.createFence(0);
  queue.signal(fence, 1);
  await fence.setEventOnCompletion(1);
}

/** An UPLOAD buffer holding `bytes` (from its offset 0). */
export function uploadBuffer(device: Device, bytes: Uint8Array): Resource {
  const buffer = device.createCommittedResource({ type: 'UPLOAD' }, [], { dimension: 'BUFFER', width: roundUp(Math.max(bytes.length, 4), 4) }, 'GENERIC_READ');
  buffer.map().set(bytes);
  buffer.unmap();
  return buffer;
}

/**
 * The one read-back of the tests: copies `length` bytes of a buffer from `offset` into a new
 * READBACK buffer with one list of the queue's type (DIRECT, COMPUTE or COPY) executed on `queue`,
 * waits on a fresh fence for everything submitted to `queue` so far, and returns the bytes; the
 * READBACK buffer is released. `stateBefore` is the source's state when the list starts: COMMON
 * and COPY_SOURCE need no barrier (a buffer in COMMON is promoted to COPY_SOURCE by the copy);
 * COPY_DEST gets a transition to COPY_SOURCE first.
 */
export async function readBuffer(device: Device, queue: CommandQueue, source: Resource, offset: number, length: number, stateBefore: 'COMMON' | 'COPY_DEST' | 'COPY_SOURCE' = 'COMMON'): Promise<Uint8Array> {
  const readback = device.createCommittedResource({ type: 'READBACK' }, [], { dimension: 'BUFFER', width: Math.max(4, length) }, 'COPY_DEST');
  await runList(device, queue, (list) => {
    if (stateBefore === 'COPY_DEST') list.resourceBarrier([{ type: 'TRANSITION', transition: { resource: source, stateBefore: 'COPY_DEST', stateAfter: 'COPY_SOURCE' } }]);
    list.copyBufferRegion(readback, 0, source, offset, length);
  }, queue.type);
  const bytes = readback.map().slice(0, length);
  readback.unmap();
  readback.release();
  return bytes;
}

/** A deterministic byte pattern: different for every tile and every offset, never all zero. */
export function pattern(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let x = (seed * 0x9e3779b1) >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

/** The first index where two byte arrays differ, or -1. */
export function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return -1;
}

export { TILE };
