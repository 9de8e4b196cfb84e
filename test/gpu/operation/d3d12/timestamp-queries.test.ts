/**
 * Timestamp queries on the GPU: EndQuery around work, ResolveQueryData into a READBACK buffer (and
 * into a reserved buffer with a NULL tile), read back and checked: results are UINT64 nanoseconds,
 * in submission order, around work that takes time; untouched bytes stay as they were.
 */
import { describe, expect } from 'vitest';
import { createDevice, D3D12Error, type Resource } from '../../../../src/index.js';
import { gpuTest } from '../../../harness/gpu-test.js';
import { readBuffer, runList, TILE } from '../../../shared/d3d12-helpers.js';

const BUSY_WGSL = `
@compute @workgroup_size(64)
fn busy(@builtin(global_invocation_id) id: vec3u) {
  var x = id.x;
  for (var i = 0u; i < 2000u; i++) { x = x * 1664525u + 1013904223u; }
  d3d12_store(d3d12_address_add(d3d12_root_descriptor(1u), (id.x % 1024u) * 4u), x);
}`;

const u64s = (bytes: Uint8Array): bigint[] =>
  Array.from({ length: bytes.length / 8 }, (_, i) =>
    new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(i * 8, true),
  );

describe('timestamp queries', () => {
  gpuTest(
    'EndQuery around a dispatch resolves to increasing nanoseconds in a READBACK buffer',
    async ({ device: gpuDevice }) => {
      const device = await createDevice({ gpuDevice, localMemoryBytes: 16 << 20, nonLocalMemoryBytes: 16 << 20 });
      try {
        const queue = device.createCommandQueue({ type: 'DIRECT' });
        expect(queue.getTimestampFrequency()).toBe(1e9);
        const heap = device.createQueryHeap({ type: 'TIMESTAMP', count: 4 });
        expect(heap.getDesc()).toEqual({ type: 'TIMESTAMP', count: 4, nodeMask: 0 });
        const scratch = device.createCommittedResource(
          { type: 'DEFAULT' },
          [],
          { dimension: 'BUFFER', width: 4096 },
          'COMMON',
        );
        const readback = device.createCommittedResource(
          { type: 'READBACK' },
          [],
          { dimension: 'BUFFER', width: 64 },
          'COPY_DEST',
        );
        const busy = await device.createComputePipelineState({ code: BUSY_WGSL, entryPoint: 'busy' });
        const va = scratch.getGPUVirtualAddress();
        await runList(device, queue, (list) => {
          list.endQuery(heap, 'TIMESTAMP', 0);
          list.setPipelineState(busy);
          list.setComputeRootUnorderedAccessView(1, va);
          list.dispatch(256);
          list.endQuery(heap, 'TIMESTAMP', 1);
          list.dispatch(256);
          list.endQuery(heap, 'TIMESTAMP', 2);
          // Results 0..2 at byte 16; query 3 (never written) is not resolved; bytes 0..15 stay zero.
          list.resolveQueryData(heap, 'TIMESTAMP', 0, 3, readback, 16);
        });
        const bytes = readback.map(0).slice();
        readback.unmap(0, { begin: 0, end: 0 });
        const [t0 = 0n, t1 = 0n, t2 = 0n] = u64s(bytes.subarray(16, 40));
        expect(Array.from(bytes.subarray(0, 16))).toEqual(new Array(16).fill(0));
        expect(Array.from(bytes.subarray(40))).toEqual(new Array(24).fill(0));
        expect(t0).toBeGreaterThan(0n);
        expect(t1).toBeGreaterThan(t0);
        expect(t2).toBeGreaterThan(t1);
        // Both dispatches do the same work: neither interval is zero, and they are the same order of magnitude.
        const [a, b] = [Number(t1 - t0), Number(t2 - t1)];
        expect(Math.max(a, b) / Math.min(a, b)).toBeLessThan(20);
      } finally {
        device.destroy();
      }
    },
  );

  gpuTest(
    'a resolve into a reserved buffer lands in mapped tiles and drops on NULL tiles',
    async ({ device: gpuDevice }) => {
      const device = await createDevice({ gpuDevice, localMemoryBytes: 16 << 20, nonLocalMemoryBytes: 16 << 20 });
      try {
        const queue = device.createCommandQueue({ type: 'DIRECT' });
        const heap = device.createQueryHeap({ type: 'TIMESTAMP', count: 2 });
        const reserved: Resource = device.createReservedResource({ dimension: 'BUFFER', width: 2 * TILE }, 'COPY_DEST');
        const pages = device.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
        // Tile 0 mapped, tile 1 NULL.
        queue.updateTileMappings(
          reserved,
          [{ x: 0, y: 0, z: 0, subresource: 0 }],
          [{ numTiles: 1 }],
          pages,
          ['NONE'],
          [0],
          [1],
        );
        await runList(device, queue, (list) => {
          list.endQuery(heap, 'TIMESTAMP', 0);
          list.endQuery(heap, 'TIMESTAMP', 1);
          list.resolveQueryData(heap, 'TIMESTAMP', 0, 2, reserved, TILE - 8);
        });
        const first = u64s(await readBuffer(device, queue, reserved, TILE - 8, 8, 'COMMON'))[0] ?? 0n;
        const dropped = await readBuffer(device, queue, reserved, TILE, 8, 'COMMON');
        expect(first).toBeGreaterThan(0n);
        expect(Array.from(dropped)).toEqual(new Array(8).fill(0));
      } finally {
        device.destroy();
      }
    },
  );

  gpuTest('a copy list takes a COPY_QUEUE_TIMESTAMP heap, not a TIMESTAMP one', async ({ device: gpuDevice }) => {
    const device = await createDevice({ gpuDevice, localMemoryBytes: 16 << 20, nonLocalMemoryBytes: 16 << 20 });
    try {
      const list = device.createCommandList('COPY');
      const copyHeap = device.createQueryHeap({ type: 'COPY_QUEUE_TIMESTAMP', count: 1 });
      list.endQuery(copyHeap, 'TIMESTAMP', 0);
      const direct = device.createQueryHeap({ type: 'TIMESTAMP', count: 1 });
      expect(() => list.endQuery(direct, 'TIMESTAMP', 0)).toThrow(D3D12Error);
      direct.release();
      expect(() => device.createCommandList('DIRECT').endQuery(direct, 'TIMESTAMP', 0)).toThrow(/was released/);
    } finally {
      device.destroy();
    }
  });

  gpuTest(
    'results persist across submissions; a released heap is refused at execute; release behind a queue wait waits for the work',
    async ({ device: gpuDevice }) => {
      const device = await createDevice({ gpuDevice, localMemoryBytes: 16 << 20, nonLocalMemoryBytes: 16 << 20 });
      try {
        const queue = device.createCommandQueue({ type: 'DIRECT' });
        const heap = device.createQueryHeap({ type: 'TIMESTAMP', count: 2 });
        const readback = device.createCommittedResource(
          { type: 'READBACK' },
          [],
          { dimension: 'BUFFER', width: 16 },
          'COPY_DEST',
        );
        // EndQuery in one submission, ResolveQueryData in the next: D3D12 keeps the value.
        await runList(device, queue, (list) => list.endQuery(heap, 'TIMESTAMP', 0));
        await runList(device, queue, (list) => list.resolveQueryData(heap, 'TIMESTAMP', 0, 1, readback, 0));
        const kept = u64s(readback.map(0).slice(0, 8))[0] ?? 0n;
        readback.unmap(0, { begin: 0, end: 0 });
        expect(kept).toBeGreaterThan(0n);

        // Work held behind a wait resolves into the heap's pages after release(): they must still be its.
        const gate = device.createFence(0);
        const done = device.createFence(0);
        const held = device.createCommandList('DIRECT');
        held.endQuery(heap, 'TIMESTAMP', 1);
        held.resolveQueryData(heap, 'TIMESTAMP', 1, 1, readback, 8);
        held.close();
        queue.wait(gate, 1);
        queue.executeCommandLists([held]);
        queue.signal(done, 1);
        heap.release();
        // A new heap now would take freed pages if the old heap's were freed too early.
        const other = device.createQueryHeap({ type: 'TIMESTAMP', count: 2 });
        gate.signal(1);
        await done.setEventOnCompletion(1);
        const late = u64s(readback.map(0).slice(8, 16))[0] ?? 0n;
        readback.unmap(0, { begin: 0, end: 0 });
        expect(late).toBeGreaterThan(kept);
        // Executing the list again names the released heap.
        expect(() => queue.executeCommandLists([held])).toThrow(/uses query heap #\d+, which was released/);
        other.release();
      } finally {
        device.destroy();
      }
    },
  );
});
