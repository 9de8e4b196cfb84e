/**
 * Paging through src/gpu/paging.ts: many heaps per evict and makeResident call (one submission,
 * bytes packed into 16 MiB staging chunks, restores through mapped chunks with the queue as the
 * fallback when every kept chunk is in flight), the old pages of an evicted heap held until its
 * bytes reach CPU memory (a restore before then takes them back with no copy; another heap taking
 * them first makes a GPU copy), and CPU stores reused across evictions. Every case reads the heaps
 * back and compares every byte with what was written.
 */
import { describe, expect } from 'vitest';
import type { CommandQueue, Device, Heap, Resource } from '../../../../src/index.js';
import type { MemoryBacking } from '../../../../src/emulator/memory-backing.js';
import { d3dTest } from '../../../harness/d3d-test.js';
import { flush, pattern, readBuffer, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';
import { expectBytes } from '../../../shared/expect-bytes.js';
import { deviceContext } from '../../../shared/device-context.js';
import { getEvictedBytesForTesting } from '../../../../src/testing/index.js';

const MIB = 2 ** 20;

const backing = (d3d: Device): MemoryBacking => deviceContext(d3d).backend?.backing as MemoryBacking;

interface Paged {
  heap: Heap;
  buffer: Resource;
  bytes: Uint8Array;
}

function makeHeap(d3d: Device, bytes: number): { heap: Heap; buffer: Resource } {
  const heap = d3d.createHeap({ sizeInBytes: bytes, properties: { type: 'DEFAULT' } });
  return { heap, buffer: d3d.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: bytes }, 'COMMON') };
}

async function write(d3d: Device, queue: CommandQueue, target: Resource, bytes: Uint8Array): Promise<void> {
  const upload = uploadBuffer(d3d, bytes);
  const list = d3d.createCommandList('DIRECT');
  list.copyBufferRegion(target, 0, upload, 0, bytes.length);
  list.close();
  queue.executeCommandLists([list]);
  await flush(d3d, queue);
  upload.release();
}

async function filled(d3d: Device, queue: CommandQueue, bytes: number, seed: number): Promise<Paged> {
  const made = makeHeap(d3d, bytes);
  const data = pattern(bytes, seed);
  await write(d3d, queue, made.buffer, data);
  return { ...made, bytes: data };
}

async function expectHeld(d3d: Device, queue: CommandQueue, paged: Paged, what: string): Promise<void> {
  expectBytes(await readBuffer(d3d, queue, paged.buffer, 0, paged.bytes.length), paged.bytes, what);
}

describe('many heaps per call', () => {
  // Five heaps of 5 MiB: 25 MiB evicted in one call (two staging chunks, the fourth heap split
  // across them); restored in one call through mapped chunks, then one call per heap back to back,
  // each above the 4 MiB queue-write limit, so the fifth finds every kept chunk still re-mapping and
  // goes through queue writes.
  const big = d3dTest({ localMemoryBytes: 32 * MIB, nonLocalMemoryBytes: 12 * MIB });
  big(
    'one evict and one makeResident call move five 5 MiB heaps across a chunk boundary; then restores one by one outrun the chunks; every byte comes back',
    async ({ d3d }) => {
      const queue = d3d.createCommandQueue({ type: 'DIRECT' });
      const heaps: Paged[] = [];
      for (let i = 0; i < 5; i++) heaps.push(await filled(d3d, queue, 5 * MIB, 100 + i));
      const all = heaps.map((paged) => paged.heap);
      const usageBefore = d3d.queryVideoMemoryInfo('LOCAL').currentUsage;
      d3d.evict(all);
      expect(d3d.getPagingStats().evictions).toBe(5);
      expect(d3d.queryVideoMemoryInfo('LOCAL').currentUsage).toBe(usageBefore - 25 * MIB);
      const arrived = await Promise.all(
        heaps.map((paged) => getEvictedBytesForTesting(paged.heap) as Promise<Uint8Array>),
      );
      arrived.forEach((bytes, i) => expectBytes(bytes, (heaps[i] as Paged).bytes, `heap ${i} in CPU memory`));
      expect(backing(d3d).heldPagesForTesting('LOCAL'), 'arrived: the old pages are free').toBe(0);
      d3d.makeResident(all);
      expect(d3d.getPagingStats().restores).toBe(5);
      for (const [i, paged] of heaps.entries()) await expectHeld(d3d, queue, paged, `heap ${i} after one restore call`);
      d3d.evict(all);
      await Promise.all(heaps.map((paged) => getEvictedBytesForTesting(paged.heap) as Promise<Uint8Array>));
      for (const heap of all) d3d.makeResident([heap]);
      for (const [i, paged] of heaps.entries())
        await expectHeld(d3d, queue, paged, `heap ${i} after a restore call of its own`);
      expect(backing(d3d).stagedBytesForTesting, 'no page was reused early: no GPU copy').toBe(0);
    },
  );

  const small = d3dTest({ localMemoryBytes: 4 * MIB, nonLocalMemoryBytes: 4 * MIB });
  small('heaps of several sizes and a committed resource in one call, a heap named twice', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const a = await filled(d3d, queue, 3 * TILE, 1);
    const b = await filled(d3d, queue, TILE, 2);
    const committed = d3d.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: 2 * TILE },
      'COMMON',
    );
    const c: Paged = { heap: committed as never, buffer: committed, bytes: pattern(2 * TILE, 3) };
    await write(d3d, queue, committed, c.bytes);
    d3d.makeResident([a.heap]);
    d3d.evict([a.heap, b.heap, committed, a.heap]);
    expect(d3d.getResidencyStatus(a.heap).resident).toBe(false);
    d3d.makeResident([committed, b.heap, a.heap]);
    for (const [what, paged] of [
      ['a', a],
      ['b', b],
      ['committed', c],
    ] as const)
      await expectHeld(d3d, queue, paged, what);
  });
});

describe('the old pages of an evicted heap', () => {
  const test = d3dTest({ localMemoryBytes: 4 * TILE, nonLocalMemoryBytes: 4 * MIB });

  test('a restore before the bytes reached CPU memory takes its old pages back: no copy, every byte right', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const a = await filled(d3d, queue, 4 * TILE, 10);
    d3d.evict([a.heap]);
    expect(backing(d3d).heldPagesForTesting('LOCAL')).toBe(4);
    d3d.makeResident([a.heap]);
    expect(backing(d3d).heldPagesForTesting('LOCAL')).toBe(0);
    await expectHeld(d3d, queue, a, 'restored from its own pages');
    expect(backing(d3d).stagedBytesForTesting).toBe(0);
    // Evicted again after that: the second eviction's bytes are what the heap holds.
    d3d.evict([a.heap]);
    expectBytes((await getEvictedBytesForTesting(a.heap)) as Uint8Array, a.bytes, 'evicted again');
    d3d.makeResident([a.heap]);
    await expectHeld(d3d, queue, a, 'restored from CPU memory');
  });

  test('another heap taking them before the bytes arrived: they are copied first, and both heaps keep their bytes', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const a = await filled(d3d, queue, 4 * TILE, 20);
    d3d.evict([a.heap]);
    // The pool is full of held pages: a new heap gets them after their GPU copy.
    const made = makeHeap(d3d, 4 * TILE);
    expect(backing(d3d).stagedBytesForTesting).toBe(4 * TILE);
    expect(backing(d3d).heldPagesForTesting('LOCAL')).toBe(0);
    expectBytes(
      await readBuffer(d3d, queue, made.buffer, 0, 4 * TILE),
      new Uint8Array(4 * TILE),
      'the new heap is zeroed',
    );
    const b: Paged = { ...made, bytes: pattern(4 * TILE, 21) };
    await write(d3d, queue, b.buffer, b.bytes);
    d3d.evict([b.heap]);
    d3d.makeResident([a.heap]);
    await expectHeld(d3d, queue, a, 'a, restored after its pages were reused');
    d3d.evict([a.heap]);
    d3d.makeResident([b.heap]);
    await expectHeld(d3d, queue, b, 'b, restored after its pages were reused');
    d3d.evict([b.heap]);
    d3d.makeResident([a.heap]);
    await expectHeld(d3d, queue, a, 'a, once more');
  });

  test('a heap released while its bytes are on their way frees its pages at once: no copy', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const a = await filled(d3d, queue, 4 * TILE, 30);
    d3d.evict([a.heap]);
    a.buffer.release();
    a.heap.release();
    await flush(d3d, queue);
    const b = await filled(d3d, queue, 4 * TILE, 31);
    await expectHeld(d3d, queue, b, 'the heap made in its place');
    expect(backing(d3d).stagedBytesForTesting).toBe(0);
  });

  test("a CPU store reused by the next eviction holds that eviction's bytes", async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const a = await filled(d3d, queue, 2 * TILE, 40);
    const b = await filled(d3d, queue, 2 * TILE, 41);
    d3d.evict([a.heap]);
    await getEvictedBytesForTesting(a.heap);
    d3d.makeResident([a.heap]);
    // a's store is free again: b's eviction (the same size) takes it.
    d3d.evict([b.heap]);
    expectBytes((await getEvictedBytesForTesting(b.heap)) as Uint8Array, b.bytes, 'b in the reused store');
    d3d.makeResident([b.heap]);
    await expectHeld(d3d, queue, a, 'a');
    await expectHeld(d3d, queue, b, 'b');
  });
});
