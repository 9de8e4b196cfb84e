import { expect } from 'vitest';
import { gpuTest } from '../../harness/gpu-test.js';
import { createDevice } from '../../../src/index.js';

gpuTest('scratch: upload → reserved buffer → readback', async ({ device: gpuDevice }) => {
  const device = await createDevice({ gpuDevice, localMemoryBytes: 16 << 20, nonLocalMemoryBytes: 8 << 20 });
  const TILE = 65536;
  const upload = device.createCommittedResource({ type: 'UPLOAD' }, [], { dimension: 'BUFFER', width: 4 * TILE }, 'GENERIC_READ');
  const readback = device.createCommittedResource({ type: 'READBACK' }, [], { dimension: 'BUFFER', width: 4 * TILE }, 'COPY_DEST');
  const reserved = device.createReservedResource({ dimension: 'BUFFER', width: 4 * TILE }, 'COMMON');
  const heap = device.createHeap({ sizeInBytes: 4 * TILE, properties: { type: 'DEFAULT' } });
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  queue.updateTileMappings(reserved, [{ x: 1, y: 0, z: 0, subresource: 0 }], [{ numTiles: 2 }], heap, ['NONE'], [2], [2]);
  const data = upload.map();
  const words = new Uint32Array(data.buffer, data.byteOffset, data.byteLength / 4);
  for (let i = 0; i < words.length; i++) words[i] = i * 7 + 1;
  upload.unmap();
  const list = device.createCommandList('DIRECT');
  list.copyBufferRegion(reserved, 0, upload, 0, 4 * TILE);
  list.resourceBarrier([{ type: 'TRANSITION', transition: { resource: reserved, stateBefore: 'COPY_DEST', stateAfter: 'COPY_SOURCE' } }]);
  list.copyBufferRegion(readback, 1, reserved, 1, 4 * TILE - 2);
  list.close();
  queue.executeCommandLists([list]);
  const fence = device.createFence(0);
  queue.signal(fence, 1);
  await fence.setEventOnCompletion(1);
  const out = readback.map();
  const outWords = new Uint32Array(out.buffer, out.byteOffset, out.byteLength / 4);
  // tiles 0 and 3 are NULL: read 0 (tier 3); tiles 1, 2 mapped
  expect(outWords[TILE / 4 + 5]).toBe((TILE / 4 + 5) * 7 + 1);
  expect(outWords[5]).toBe(0);
  expect(outWords[3 * TILE / 4 + 5]).toBe(0);
  expect(out[1]).toBe(0);
  expect(await device.readFaults()).toEqual([]);
  device.destroy();
});
