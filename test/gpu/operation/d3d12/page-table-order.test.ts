/**
 * Page-table changes are held in the CPU shadow and sent before the next submission that can read
 * them, so the queue-order invariant holds at every kind of submission: a dispatch executed right
 * after a mapping change reads the new tile and one executed right before it the old (no wait in
 * between); work held behind a queue wait sees the mapping queued before it once it runs, and work
 * of another queue meanwhile the old one; the table's growth keeps pending changes; a heap's page
 * events rewrite exactly the reserved tiles that map into it now. Each result is read back and
 * compared with the data the CPU model says the tile holds, and the GPU table with the CPU
 * authority (validateTileMappings).
 */
import { describe, expect } from 'vitest';
import {
  createDevice,
  type CommandQueue,
  type Device,
  type Heap,
  type PipelineState,
  type Resource,
} from '../../../../src/index.js';
import { gpuTest } from '../../../harness/gpu-test.js';
import { flush, pattern, readBuffer, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';
import { getTileMappingForTesting } from '../../../../src/testing/index.js';

/** Words each read copies: the first 256 bytes of a tile. */
const WORDS = 64;

/** Copies WORDS words from root descriptor 1 to root descriptor 2, through the page table. */
const COPY_WORDS = `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let value = d3d12_load(d3d12_address_add(d3d12_root_descriptor(1u), id.x * 4u));
  d3d12_store(d3d12_address_add(d3d12_root_descriptor(2u), id.x * 4u), value);
}`;

interface Scene {
  d3d: Device;
  queue: CommandQueue;
  heap: Heap;
  /** What each heap tile holds. */
  data: Uint8Array;
  pso: PipelineState;
}

/** A heap of `tiles` tiles filled with a pattern, and the copy pipeline. */
async function scene(gpuDevice: GPUDevice, tiles = 2, localMemoryBytes = 8 << 20): Promise<Scene> {
  const d3d = await createDevice({ gpuDevice, localMemoryBytes, nonLocalMemoryBytes: 4 << 20 });
  const queue = d3d.createCommandQueue({ type: 'DIRECT' });
  const heap = d3d.createHeap({ sizeInBytes: tiles * TILE, properties: { type: 'DEFAULT' } });
  const data = pattern(tiles * TILE, 0x3c);
  const whole = d3d.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: tiles * TILE }, 'COMMON');
  const list = d3d.createCommandList('DIRECT');
  list.copyBufferRegion(whole, 0, uploadBuffer(d3d, data), 0, tiles * TILE);
  list.close();
  queue.executeCommandLists([list]);
  await flush(d3d, queue);
  const pso = await d3d.createComputePipelineState({ code: COPY_WORDS, entryPoint: 'main', label: 'copy words' });
  return { d3d, queue, heap, data, pso };
}

const reservedBuffer = (d3d: Device, tiles: number): Resource =>
  d3d.createReservedResource({ dimension: 'BUFFER', width: tiles * TILE, flags: ['ALLOW_UNORDERED_ACCESS'] }, 'COMMON');
const output = (d3d: Device, reads = 1): Resource =>
  d3d.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'BUFFER', width: reads * WORDS * 4, flags: ['ALLOW_UNORDERED_ACCESS'] },
    'COMMON',
  );

/** Executes on `queue` a dispatch copying the first WORDS words at `address` into `out` from byte `at` (no wait). */
function dispatchRead(s: Scene, queue: CommandQueue, address: bigint, out: Resource, at = 0): void {
  const list = s.d3d.createCommandList('DIRECT');
  list.setPipelineState(s.pso);
  list.setComputeRootUnorderedAccessView(1, address);
  list.setComputeRootUnorderedAccessView(2, out.getGPUVirtualAddress() + BigInt(at));
  list.dispatch(1);
  list.close();
  queue.executeCommandLists([list]);
}

/** The first WORDS words of heap tile `tile`, as the CPU model says the heap holds them. */
const heapWords = (s: Scene, tile: number): number[] => [...new Uint32Array(s.data.buffer, tile * TILE, WORDS)];

async function words(s: Scene, out: Resource, at = 0): Promise<number[]> {
  const bytes = await readBuffer(s.d3d, s.queue, out, at, WORDS * 4);
  return [...new Uint32Array(bytes.buffer, bytes.byteOffset, WORDS)];
}

const mapTile = (queue: CommandQueue, resource: Resource, tile: number, heap: Heap | null, heapTile: number): void =>
  queue.updateTileMappings(
    resource,
    [{ x: tile, y: 0, z: 0, subresource: 0 }],
    [{ numTiles: 1 }],
    heap,
    [heap ? 'NONE' : 'NULL'],
    [heapTile],
    [1],
  );

describe('page-table changes reach the GPU before the work queued after them', () => {
  gpuTest(
    'a dispatch right before a remap reads the old tile, one right after it the new one, and one after unmapping zeros',
    async ({ device }) => {
      const s = await scene(device);
      try {
        const reserved = reservedBuffer(s.d3d, 1);
        const outs = [output(s.d3d), output(s.d3d), output(s.d3d)] as const;
        mapTile(s.queue, reserved, 0, s.heap, 0);
        dispatchRead(s, s.queue, reserved.getGPUVirtualAddress(), outs[0]);
        mapTile(s.queue, reserved, 0, s.heap, 1);
        dispatchRead(s, s.queue, reserved.getGPUVirtualAddress(), outs[1]);
        mapTile(s.queue, reserved, 0, null, 0);
        dispatchRead(s, s.queue, reserved.getGPUVirtualAddress(), outs[2]);
        await flush(s.d3d, s.queue);
        expect(await words(s, outs[0])).toEqual(heapWords(s, 0));
        expect(await words(s, outs[1])).toEqual(heapWords(s, 1));
        // Tier 2 (the default): a NULL tile reads 0.
        expect(await words(s, outs[2])).toEqual(new Array(WORDS).fill(0));
        expect((await s.d3d.validateTileMappings()).mismatchCount).toBe(0);
      } finally {
        s.d3d.destroy();
      }
    },
  );

  gpuTest(
    'held behind a wait: the mapping and the dispatch after it run when the fence is reached; another queue meanwhile reads the old tile',
    async ({ device }) => {
      const s = await scene(device);
      try {
        const reserved = reservedBuffer(s.d3d, 1);
        const [before, held, other] = [output(s.d3d), output(s.d3d), output(s.d3d)];
        mapTile(s.queue, reserved, 0, s.heap, 0);
        dispatchRead(s, s.queue, reserved.getGPUVirtualAddress(), before);
        const fence = s.d3d.createFence(0);
        const waiting = s.d3d.createCommandQueue({ type: 'DIRECT' });
        waiting.wait(fence, 1);
        mapTile(waiting, reserved, 0, s.heap, 1);
        dispatchRead(s, waiting, reserved.getGPUVirtualAddress(), held);
        // Not yet run: the held mapping is on neither side.
        dispatchRead(s, s.queue, reserved.getGPUVirtualAddress(), other);
        expect((await s.d3d.validateTileMappings()).mismatchCount).toBe(0);
        expect(getTileMappingForTesting(reserved, 0)?.heapTileOffset).toBe(0);
        fence.signal(1);
        await flush(s.d3d, waiting);
        expect(await words(s, before)).toEqual(heapWords(s, 0));
        expect(await words(s, other)).toEqual(heapWords(s, 0));
        expect(await words(s, held)).toEqual(heapWords(s, 1));
        expect((await s.d3d.validateTileMappings()).mismatchCount).toBe(0);
      } finally {
        s.d3d.destroy();
      }
    },
  );

  gpuTest(
    'growth of the table with changes pending: they reach the grown table, and a dispatch reads through both resources',
    async ({ device }) => {
      const s = await scene(device);
      try {
        const near = reservedBuffer(s.d3d, 1);
        mapTile(s.queue, near, 0, s.heap, 1);
        // 20 GiB of addresses, past the first table's 16 GiB: created while near's entries are pending.
        const farTiles = (20 * 2 ** 30) / TILE;
        const huge = reservedBuffer(s.d3d, farTiles);
        mapTile(s.queue, huge, farTiles - 1, s.heap, 0);
        const [fromNear, fromFar] = [output(s.d3d), output(s.d3d)];
        dispatchRead(s, s.queue, near.getGPUVirtualAddress(), fromNear);
        dispatchRead(s, s.queue, huge.getGPUVirtualAddress() + BigInt((farTiles - 1) * TILE), fromFar);
        await flush(s.d3d, s.queue);
        expect(await words(s, fromNear)).toEqual(heapWords(s, 1));
        expect(await words(s, fromFar)).toEqual(heapWords(s, 0));
        expect((await s.d3d.validateTileMappings([near, huge])).mismatchCount).toBe(0);
      } finally {
        s.d3d.destroy();
      }
    },
  );

  gpuTest(
    "page events rewrite the tiles that map into the heap now: not tiles remapped away, not another heap's",
    async ({ device }) => {
      // Evicted, the heap's entries must say ABSENT; made resident again (while another heap may hold
      // its old pages), RESIDENT at its new pages: a tile the page events missed reads wrong.
      const s = await scene(device, 2, 8 * TILE);
      try {
        const reserved = reservedBuffer(s.d3d, 4);
        s.queue.updateTileMappings(reserved, null, null, s.heap, ['NONE', 'REUSE_SINGLE_TILE'], [0, 1], [2, 2]);
        // Tile 1 moves to NULL after it was mapped into the heap: the heap's page events leave it.
        mapTile(s.queue, reserved, 1, null, 0);
        s.d3d.evict([s.heap]);
        expect((await s.d3d.validateTileMappings()).mismatchCount).toBe(0);
        const other = s.d3d.createHeap({ sizeInBytes: 2 * TILE, properties: { type: 'DEFAULT' } });
        const otherData = pattern(2 * TILE, 0x77);
        const otherBuffer = s.d3d.createPlacedResource(other, 0, { dimension: 'BUFFER', width: 2 * TILE }, 'COMMON');
        const fill = s.d3d.createCommandList('DIRECT');
        fill.copyBufferRegion(otherBuffer, 0, uploadBuffer(s.d3d, otherData), 0, 2 * TILE);
        fill.close();
        s.queue.executeCommandLists([fill]);
        // Tile 3 of the reserved buffer into the other heap.
        mapTile(s.queue, reserved, 3, other, 1);
        s.d3d.makeResident([s.heap]);
        const out = output(s.d3d, 4);
        for (let tile = 0; tile < 4; tile++)
          dispatchRead(s, s.queue, reserved.getGPUVirtualAddress() + BigInt(tile * TILE), out, tile * WORDS * 4);
        await flush(s.d3d, s.queue);
        expect(await words(s, out, 0)).toEqual(heapWords(s, 0));
        expect(await words(s, out, WORDS * 4)).toEqual(new Array(WORDS).fill(0));
        expect(await words(s, out, 2 * WORDS * 4)).toEqual(heapWords(s, 1));
        expect(await words(s, out, 3 * WORDS * 4)).toEqual([...new Uint32Array(otherData.buffer, TILE, WORDS)]);
        expect((await s.d3d.validateTileMappings()).mismatchCount).toBe(0);
      } finally {
        s.d3d.destroy();
      }
    },
  );
});
