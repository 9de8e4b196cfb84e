/**
 * The README's second and third examples (tile mappings checked on the GPU; paging measured), run as
 * written on the test file's WebGPU device, with the results their comments state checked. The first
 * example runs CPU-only in test/unit/operation/d3d12/readme-example.test.ts.
 */
import { expect } from 'vitest';
import { createDevice } from '../../../../src/index.js';
import { gpuTest as test } from '../../../harness/gpu-test.js';

test('README example 2: a fully mapped 16-tile reserved buffer validates with no mismatch', async ({
  device: gpuDevice,
}) => {
  const device = await createDevice({ gpuDevice });
  const heap = device.createHeap({ sizeInBytes: 1 << 20, properties: { type: 'DEFAULT' } });
  const buffer = device.createReservedResource({ dimension: 'BUFFER', width: 1 << 20 }, 'COMMON');
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  queue.updateTileMappings(buffer, null, null, heap, null, null, null);
  const check = await device.validateTileMappings([buffer]);
  expect(check).toEqual({ resources: 1, pages: 16, mismatchCount: 0, mismatches: [] });
  device.destroy();
});

test('README example 3: an evict / makeResident round trip moves 16 MiB each way and completes at the fence', async ({
  device: gpuDevice,
}) => {
  const device = await createDevice({ gpuDevice });
  const heap = device.createHeap({ sizeInBytes: 16 << 20, properties: { type: 'DEFAULT' } });
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  const fence = device.createFence(0);
  const start = performance.now();
  device.evict([heap]);
  device.makeResident([heap]);
  queue.signal(fence, 1);
  await fence.setEventOnCompletion(1);
  const { evictedBytes, restoredBytes } = device.getPagingStats();
  const rate = `${((evictedBytes + restoredBytes) / (performance.now() - start) / 1e6).toFixed(2)} GB/s`;
  expect({ evictedBytes, restoredBytes }).toEqual({ evictedBytes: 16 << 20, restoredBytes: 16 << 20 });
  expect(rate).toMatch(/^\d+\.\d\d GB\/s$/);
  expect(fence.getCompletedValue()).toBe(1);
  device.destroy();
});
