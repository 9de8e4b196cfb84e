/**
 * Bytes in and out of emulated memory through the public API, as an application moves them: in
 * through an UPLOAD buffer, out through a READBACK buffer, a list run to completion. The scenarios,
 * the tests and the demo use these, so every comparison reads what a D3D12 program would read.
 *
 * Invariant: each helper waits for everything submitted to its queue so far, so the bytes it returns
 * are what the GPU holds after all earlier work; nothing here touches emulator internals.
 */
import type { CommandQueue } from '../d3d12/command-queue.js';
import type { GraphicsCommandList } from '../d3d12/command-list.js';
import type { Device } from '../d3d12/device.js';
import type { Resource } from '../d3d12/resource.js';
import { roundUp } from './bytes.js';

/** Records with `record`, executes on `queue` and waits for the GPU (and the readbacks) to finish. */
export async function runList(
  device: Device,
  queue: CommandQueue,
  record: (list: GraphicsCommandList) => void,
  type: 'DIRECT' | 'COMPUTE' | 'COPY' = 'DIRECT',
): Promise<void> {
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
  const buffer = device.createCommittedResource(
    { type: 'UPLOAD' },
    [],
    { dimension: 'BUFFER', width: roundUp(Math.max(bytes.length, 4), 4) },
    'GENERIC_READ',
  );
  buffer.map().set(bytes);
  buffer.unmap();
  return buffer;
}

/**
 * The one read-back: copies `length` bytes of a buffer from `offset` into a new READBACK buffer with
 * one list of the queue's type (DIRECT, COMPUTE or COPY) executed on `queue`, waits on a fresh fence
 * for everything submitted to `queue` so far, and returns the bytes; the READBACK buffer is
 * released. `stateBefore` is the source's state when the list starts: COMMON and COPY_SOURCE need no
 * barrier (a buffer in COMMON is promoted to COPY_SOURCE by the copy); COPY_DEST gets a transition
 * to COPY_SOURCE first.
 */
export async function readBuffer(
  device: Device,
  queue: CommandQueue,
  source: Resource,
  offset: number,
  length: number,
  stateBefore: 'COMMON' | 'COPY_DEST' | 'COPY_SOURCE' = 'COMMON',
): Promise<Uint8Array> {
  const readback = device.createCommittedResource(
    { type: 'READBACK' },
    [],
    { dimension: 'BUFFER', width: Math.max(4, length) },
    'COPY_DEST',
  );
  await runList(
    device,
    queue,
    (list) => {
      if (stateBefore === 'COPY_DEST')
        list.resourceBarrier([
          { type: 'TRANSITION', transition: { resource: source, stateBefore: 'COPY_DEST', stateAfter: 'COPY_SOURCE' } },
        ]);
      list.copyBufferRegion(readback, 0, source, offset, length);
    },
    queue.type,
  );
  const bytes = readback.map().slice(0, length);
  readback.unmap();
  readback.release();
  return bytes;
}
