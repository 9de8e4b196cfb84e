/**
 * The GPU page table is updated with merged writes: mapping calls change the CPU shadow only, and
 * the dirty entries reach the GPU before the next submission (or when a fence is signalled) as one
 * queue write per run, runs at most 1024 entries apart sent as one.
 */
import { describe, expect } from 'vitest';
import { createDevice, type CommandQueue, type Device, type Fence } from '../../../../src/index.js';
import { gpuTest } from '../../../harness/gpu-test.js';
import { TILE } from '../../../shared/d3d12-helpers.js';
import { getTileMappingForTesting } from '../../../../src/testing/index.js';

interface Counted {
  d3d: Device;
  queue: CommandQueue;
  /** Page-table writes and submissions, in the order WebGPU saw them. */
  events: string[];
  /** Page-table writes since the last call. */
  writes(): number;
  /** Signals a new fence value on `queue` (which sends what is pending). */
  signal(): void;
}

/** Runs `body` on a new device whose page-table writes and submissions are recorded. */
async function counting(gpuDevice: GPUDevice, body: (counted: Counted) => Promise<void> | void): Promise<void> {
  const d3d = await createDevice({ gpuDevice, localMemoryBytes: 8 << 20, nonLocalMemoryBytes: 4 << 20 });
  const queue = gpuDevice.queue;
  const originalWrite = queue.writeBuffer.bind(queue);
  const originalSubmit = queue.submit.bind(queue);
  const events: string[] = [];
  let seen = 0;
  queue.writeBuffer = (buffer: GPUBuffer, ...rest: unknown[]) => {
    if (buffer.label === 'd3d12 page table') events.push('write');
    return (originalWrite as (...args: unknown[]) => undefined)(buffer, ...rest);
  };
  queue.submit = (buffers: Iterable<GPUCommandBuffer>) => {
    events.push('submit');
    originalSubmit(buffers);
  };
  const d3dQueue = d3d.createCommandQueue({ type: 'DIRECT' });
  const fence: Fence = d3d.createFence(0);
  let value = 0;
  try {
    await body({
      d3d,
      queue: d3dQueue,
      events,
      writes: () => {
        const writes = events.filter((event) => event === 'write').length;
        const since = writes - seen;
        seen = writes;
        return since;
      },
      signal: () => d3dQueue.signal(fence, ++value),
    });
  } finally {
    queue.writeBuffer = originalWrite;
    queue.submit = originalSubmit;
    d3d.destroy();
  }
}

describe('page-table updates are merged and sent before the GPU reads them', () => {
  gpuTest(
    'mapping 100 tiles, in one call or in 100 one-tile calls: nothing written by the calls, one write at the signal',
    async ({ device }) => {
      await counting(device, (c) => {
        const heap = c.d3d.createHeap({ sizeInBytes: 100 * TILE, properties: { type: 'DEFAULT' } });
        const reserved = c.d3d.createReservedResource({ dimension: 'BUFFER', width: 200 * TILE }, 'COMMON');
        c.queue.updateTileMappings(
          reserved,
          [{ x: 50, y: 0, z: 0, subresource: 0 }],
          [{ numTiles: 100 }],
          heap,
          null,
          null,
          null,
        );
        expect(c.writes()).toBe(0);
        // The resource's creation (all NULL) and the mapping inside it: one run.
        c.signal();
        expect(c.writes()).toBe(1);
        expect(getTileMappingForTesting(reserved, 149)?.heapTileOffset).toBe(99);

        for (let i = 0; i < 100; i++)
          c.queue.updateTileMappings(
            reserved,
            [{ x: 199 - i, y: 0, z: 0, subresource: 0 }],
            [{ numTiles: 1 }],
            heap,
            null,
            [i],
            null,
          );
        expect(c.writes()).toBe(0);
        c.signal();
        expect(c.writes()).toBe(1);
        expect(getTileMappingForTesting(reserved, 100)?.heapTileOffset).toBe(99);
        // Nothing pending: a signal writes nothing.
        c.signal();
        expect(c.writes()).toBe(0);
      });
    },
  );

  gpuTest('runs at most 1024 entries apart are one write; 1025 apart, two', async ({ device }) => {
    await counting(device, (c) => {
      const heap = c.d3d.createHeap({ sizeInBytes: 2 * TILE, properties: { type: 'DEFAULT' } });
      const reserved = c.d3d.createReservedResource({ dimension: 'BUFFER', width: 4000 * TILE }, 'COMMON');
      c.signal();
      c.writes();
      const mapTile = (x: number): void =>
        c.queue.updateTileMappings(
          reserved,
          [{ x, y: 0, z: 0, subresource: 0 }],
          [{ numTiles: 1 }],
          heap,
          null,
          null,
          null,
        );
      mapTile(0);
      mapTile(1025); // 1024 clean entries between: merged
      c.signal();
      expect(c.writes()).toBe(1);
      mapTile(3000);
      mapTile(1974); // 1025 clean entries between (1975..2999), added out of order: apart
      c.signal();
      expect(c.writes()).toBe(2);
    });
  });

  gpuTest(
    'an execution submits after the page-table writes of the mappings before it, and only then',
    async ({ device }) => {
      await counting(device, async (c) => {
        const heap = c.d3d.createHeap({ sizeInBytes: 2 * TILE, properties: { type: 'DEFAULT' } });
        const reserved = c.d3d.createReservedResource({ dimension: 'BUFFER', width: 2 * TILE }, 'COMMON');
        const out = c.d3d.createCommittedResource(
          { type: 'DEFAULT' },
          [],
          { dimension: 'BUFFER', width: TILE },
          'COMMON',
        );
        c.signal();
        c.events.length = 0;
        c.queue.updateTileMappings(reserved, null, null, heap, ['NONE'], [0], [2]);
        const list = c.d3d.createCommandList('DIRECT');
        list.copyBufferRegion(out, 0, reserved, 0, 16);
        list.close();
        c.queue.executeCommandLists([list]);
        expect(c.events).toEqual(['write', 'submit']);
        // validateTileMappings submits its check after the writes too (and finds them).
        c.queue.updateTileMappings(reserved, null, null, null, ['NULL'], null, null);
        c.events.length = 0;
        const validation = c.d3d.validateTileMappings([reserved]);
        expect(c.events.slice(0, 2)).toEqual(['write', 'submit']);
        expect((await validation).mismatchCount).toBe(0);
      });
    },
  );
});
