/**
 * Memory semantics that need the queue: page-table changes take effect in queue order
 * (executeCommandLists(A); updateTileMappings; executeCommandLists(B): A sees the old mapping, B the
 * new), creating a resource never clears other resources' bytes (a placed resource aliasing another
 * reads its data), and copies are right when a heap's pages are scattered across the pool. The GPU
 * page table is compared with the CPU authority after the remap and over the scattered heap.
 */
import { createDevice } from '../../d3d12/create-device.js';
import { check, pattern, TILE, type Check } from '../bytes.js';
import { flush, readBuffer, runList, uploadBuffer } from '../d3d12-io.js';
import { ScenarioContext } from './context.js';

export async function memorySemantics(gpuDevice: GPUDevice, context = new ScenarioContext()): Promise<Check[]> {
  const checks: Check[] = [];
  {
    const device = await createDevice({ gpuDevice, localMemoryBytes: 8 << 20, nonLocalMemoryBytes: 8 << 20 });
    try {
      const queue = device.createCommandQueue({ type: 'DIRECT' });
      const heap = device.createHeap({ sizeInBytes: 2 * TILE, properties: { type: 'DEFAULT' } });
      const reserved = device.createReservedResource({ dimension: 'BUFFER', width: TILE }, 'COMMON');
      const pages = pattern(2 * TILE, 21);
      const source = device.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: 2 * TILE }, 'COMMON');
      await runList(device, queue, (list) =>
        list.copyBufferRegion(source, 0, uploadBuffer(device, pages), 0, 2 * TILE),
      );

      // A, then a remap, then B, with no wait in between: A reads heap page 0, B heap page 1.
      const outA = device.createCommittedResource(
        { type: 'DEFAULT' },
        [],
        { dimension: 'BUFFER', width: TILE },
        'COMMON',
      );
      const outB = device.createCommittedResource(
        { type: 'DEFAULT' },
        [],
        { dimension: 'BUFFER', width: TILE },
        'COMMON',
      );
      queue.updateTileMappings(reserved, null, null, heap, ['NONE'], [0], [1]);
      const a = device.createCommandList('DIRECT');
      a.copyBufferRegion(outA, 0, reserved, 0, TILE);
      a.close();
      const b = device.createCommandList('DIRECT');
      b.copyBufferRegion(outB, 0, reserved, 0, TILE);
      b.close();
      queue.executeCommandLists([a]);
      context.beforeRemap(device);
      queue.updateTileMappings(reserved, null, null, heap, ['NONE'], [1], [1]);
      queue.executeCommandLists([b]);
      await flush(device, queue);
      checks.push(
        ...(await context.tileMappings(device, 'the remap between A and B', { resource: reserved, page: 0 })),
      );
      checks.push(
        check(
          'A, executed before the remap, read the old page',
          await readBuffer(device, queue, outA, 0, TILE),
          pages.subarray(0, TILE),
        ),
      );
      checks.push(
        check(
          'B, executed after the remap, read the new page',
          await readBuffer(device, queue, outB, 0, TILE),
          pages.subarray(TILE),
        ),
      );

      // A placed resource created over another's bytes reads them: creation clears nothing.
      const alias = device.createPlacedResource(heap, TILE, { dimension: 'BUFFER', width: TILE }, 'COMMON');
      checks.push(
        check(
          'a new placed resource aliasing old data reads that data',
          await readBuffer(device, queue, alias, 0, TILE),
          pages.subarray(TILE),
        ),
      );
      checks.push(
        check('the resource it aliases is unchanged', await readBuffer(device, queue, source, 0, 2 * TILE), pages),
      );
    } finally {
      device.destroy();
    }
  }
  {
    // A pool of 8 pages: 8 one-page heaps, every other one released, then a 4-page heap can only
    // get pages 0, 2, 4 and 6: scattered.
    const device = await createDevice({ gpuDevice, localMemoryBytes: 8 * TILE, nonLocalMemoryBytes: 8 << 20 });
    try {
      const queue = device.createCommandQueue({ type: 'DIRECT' });
      const small = Array.from({ length: 8 }, () =>
        device.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } }),
      );
      small.forEach((heap, i) => {
        if (i % 2 === 0) heap.release();
      });
      const scattered = device.createHeap({ sizeInBytes: 4 * TILE, properties: { type: 'DEFAULT' } });
      const buffer = device.createPlacedResource(scattered, 0, { dimension: 'BUFFER', width: 4 * TILE }, 'COMMON');
      const data = pattern(4 * TILE - 10, 22);
      await runList(device, queue, (list) =>
        list.copyBufferRegion(buffer, 5, uploadBuffer(device, data), 0, data.length),
      );
      checks.push(
        check('a copy across scattered physical pages', await readBuffer(device, queue, buffer, 5, data.length), data),
      );
      const zeros = await readBuffer(device, queue, buffer, 0, 5);
      checks.push(check('the bytes before it are still the zeroed heap', zeros, new Uint8Array(5)));
      checks.push(...(await context.tileMappings(device, 'a heap over scattered physical pages')));
    } finally {
      device.destroy();
    }
  }
  return checks;
}
