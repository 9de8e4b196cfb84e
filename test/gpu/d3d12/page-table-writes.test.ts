/**
 * The GPU page table is updated with one queue write per run of changed pages, not one per tile.
 */
import { describe, expect } from 'vitest';
import { createDevice, type Device } from '../../../src/index.js';
import { gpuTest } from '../../harness/gpu-test.js';

const TILE = 65536;

/** Counts queue writes into the page-table buffer while `body` runs. */
async function pageTableWrites(gpuDevice: GPUDevice, body: (device: Device) => void): Promise<number> {
  const device = await createDevice({ gpuDevice, localMemoryBytes: 8 << 20, nonLocalMemoryBytes: 4 << 20 });
  const queue = gpuDevice.queue;
  const original = queue.writeBuffer.bind(queue);
  let writes = 0;
  queue.writeBuffer = ((buffer: GPUBuffer, ...rest: unknown[]) => {
    if (buffer.label === 'd3d12 page table') writes++;
    return (original as (...args: unknown[]) => undefined)(buffer, ...rest);
  });
  try {
    body(device);
  } finally {
    queue.writeBuffer = original;
    device.destroy();
  }
  return writes;
}

describe('page-table updates are batched', () => {
  gpuTest('mapping 100 contiguous tiles is one write', async ({ device }) => {
    let reserved: ReturnType<Device['createReservedResource']> | undefined;
    const writes = await pageTableWrites(device, (d) => {
      const heap = d.createHeap({ sizeInBytes: 100 * TILE, properties: { type: 'DEFAULT' } });
      reserved = d.createReservedResource({ dimension: 'BUFFER', width: 200 * TILE }, 'COMMON');
      const queue = d.createCommandQueue({ type: 'DIRECT' });
      queue.updateTileMappings(reserved, [{ x: 50, y: 0, z: 0, subresource: 0 }], [{ numTiles: 100 }], heap, null, null, null);
    });
    // One write for the reserved resource's creation (all NULL), one for the mapping.
    expect(writes).toBe(2);
    expect(reserved?.getTileMappingForTesting(149)?.heapTileOffset).toBe(99);
  });

  gpuTest('100 one-tile regions side by side in one call are one write; two separated runs are two', async ({ device }) => {
    const writes = await pageTableWrites(device, (d) => {
      const heap = d.createHeap({ sizeInBytes: 100 * TILE, properties: { type: 'DEFAULT' } });
      const reserved = d.createReservedResource({ dimension: 'BUFFER', width: 300 * TILE }, 'COMMON');
      const queue = d.createCommandQueue({ type: 'DIRECT' });
      const coordinates = Array.from({ length: 100 }, (_, i) => ({ x: 99 - i, y: 0, z: 0, subresource: 0 }));
      queue.updateTileMappings(reserved, coordinates, null, heap, null, Array.from({ length: 100 }, (_, i) => i), null);
      queue.updateTileMappings(reserved, [{ x: 150, y: 0, z: 0, subresource: 0 }, { x: 200, y: 0, z: 0, subresource: 0 }], [{ numTiles: 10 }, { numTiles: 10 }], heap, ['NULL'], null, null);
    });
    // creation + one coalesced write + two separated runs
    expect(writes).toBe(4);
  });
});
