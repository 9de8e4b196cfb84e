/**
 * createDevice({ eviction }): 'immediate' (the default) copies an evicted heap out at once; 'lazy'
 * only marks it, as Windows' video memory manager does, and copies it out when an allocation needs
 * its pages. What both modes must share is run in both: contents survive evict → makeResident, a GPU
 * access to an evicted heap faults (and a store to it changes nothing), usage and budget count the
 * heap as evicted, mapped heaps stay resident. The lazy mode's own cases: a makeResident of a heap
 * nothing took copies nothing (getPagingCopiesForTesting), pressure takes the oldest evicted heaps
 * first and as few as needed, a taken heap still comes back right, a release frees kept pages, and
 * a heap made resident into the other segment (demotion) moves its kept bytes. Every case reads the
 * heaps back and compares every byte with a CPU model of what was written.
 */
import { describe, expect } from 'vitest';
import type { CommandQueue, Device, EvictionMode, Heap, PipelineState, Resource } from '../../../../src/index.js';
import {
  getEvictedBytesForTesting,
  getPagingCopiesForTesting,
  type PagingCopies,
} from '../../../../src/testing/index.js';
import { createResidencyManager } from '../../../../src/index.js';
import { d3dTest } from '../../../harness/d3d-test.js';
import { flush, pattern, readBuffer, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';
import { expectBytes } from '../../../shared/expect-bytes.js';

const MIB = 2 ** 20;
const MODES: readonly EvictionMode[] = ['immediate', 'lazy'];

/** A heap with a buffer over all of it, and the bytes the CPU model says it holds. */
interface Modelled {
  heap: Heap;
  buffer: Resource;
  bytes: Uint8Array;
}

/** Each thread stores 0xdeadbeef at root UAV 1 + 4 × its index. */
const WRITER = `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  d3d12_store(d3d12_address_add(d3d12_root_descriptor(1u), id.x * 4u), 0xdeadbeefu);
}
`;

const copies = (d3d: Device): PagingCopies => getPagingCopiesForTesting(d3d) as PagingCopies;

async function write(d3d: Device, queue: CommandQueue, target: Resource, bytes: Uint8Array): Promise<void> {
  const upload = uploadBuffer(d3d, bytes);
  const list = d3d.createCommandList('DIRECT');
  list.copyBufferRegion(target, 0, upload, 0, bytes.length);
  list.close();
  queue.executeCommandLists([list]);
  await flush(d3d, queue);
  upload.release();
}

function makeHeap(d3d: Device, bytes: number, name: string): { heap: Heap; buffer: Resource } {
  const heap = d3d.createHeap({ sizeInBytes: bytes, properties: { type: 'DEFAULT' } });
  heap.setName(name);
  const buffer = d3d.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: bytes }, 'COMMON');
  return { heap, buffer };
}

async function filled(d3d: Device, queue: CommandQueue, bytes: number, seed: number, name = `heap ${seed}`) {
  const made = makeHeap(d3d, bytes, name);
  const data = pattern(bytes, seed);
  await write(d3d, queue, made.buffer, data);
  return { ...made, bytes: data } satisfies Modelled;
}

async function expectHeld(d3d: Device, queue: CommandQueue, modelled: Modelled, what: string): Promise<void> {
  expectBytes(await readBuffer(d3d, queue, modelled.buffer, 0, modelled.bytes.length), modelled.bytes, what);
}

async function store(d3d: Device, queue: CommandQueue, pso: PipelineState, target: Resource, words: number) {
  const list = d3d.createCommandList('DIRECT');
  list.setName('store into an evicted heap');
  list.setPipelineState(pso);
  list.setComputeRootUnorderedAccessView(1, target.getGPUVirtualAddress());
  list.dispatch(Math.ceil(words / 64));
  list.close();
  queue.executeCommandLists([list]);
  await flush(d3d, queue);
}

describe.each(MODES)("eviction: '%s'", (eviction) => {
  const test = d3dTest({ eviction, localMemoryBytes: 16 * TILE, nonLocalMemoryBytes: 4 * MIB, onPageFault: 'report' });

  test('contents survive evict → makeResident, one heap and several per call; usage counts them as evicted', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const a = await filled(d3d, queue, 4 * TILE, 1);
    const b = await filled(d3d, queue, 3 * TILE, 2);
    const c = await filled(d3d, queue, TILE, 3);
    const usage = (): number => d3d.queryVideoMemoryInfo('LOCAL').currentUsage;
    const before = usage();
    const freeBefore = d3d.getMemoryStats().segments.LOCAL.freeBytes;
    const start = copies(d3d);
    d3d.evict([a.heap]);
    expect(usage()).toBe(before - 4 * TILE);
    // Immediate: the bytes are copied out now; lazy: nothing moves, the pages are kept.
    expect(copies(d3d).copiedOutBytes - start.copiedOutBytes).toBe(eviction === 'lazy' ? 0 : 4 * TILE);
    expect(copies(d3d).keptPages.LOCAL).toBe(eviction === 'lazy' ? 4 : 0);
    expect(d3d.getResidencyStatus(a.heap)).toMatchObject({ resident: false, residencyReferences: 0 });
    // Free bytes (what allocations can have) count an evicted heap's pages in both modes.
    expect(d3d.getMemoryStats().segments.LOCAL.freeBytes).toBe(freeBefore + 4 * TILE);
    d3d.makeResident([a.heap]);
    expect(usage()).toBe(before);
    await expectHeld(d3d, queue, a, 'a after one round trip');
    d3d.evict([a.heap, b.heap, c.heap]);
    expect(usage()).toBe(before - 8 * TILE);
    expect(d3d.getPagingStats()).toMatchObject({ evictions: 4, restores: 1 });
    d3d.makeResident([c.heap, a.heap, b.heap]);
    expect(usage()).toBe(before);
    for (const [what, modelled] of [
      ['a', a],
      ['b', b],
      ['c', c],
    ] as const)
      await expectHeld(d3d, queue, modelled, `${what} after a round trip of three heaps`);
  });

  test('a GPU access to an evicted heap faults, the report naming the heap, and changes nothing in it', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const a = await filled(d3d, queue, 2 * TILE, 10, 'evicted heap');
    d3d.evict([a.heap]);
    const pso = await d3d.createComputePipelineState({ code: WRITER, entryPoint: 'main' });
    await store(d3d, queue, pso, a.buffer, 64);
    const faults = await d3d.readFaults();
    expect(faults.length).toBeGreaterThan(0);
    expect(faults[0]).toMatchObject({
      kind: 'write-absent',
      heap: { id: a.heap.id, name: 'evicted heap', state: 'evicted' },
      command: { index: 2, name: 'dispatch' },
    });
    d3d.makeResident([a.heap]);
    await expectHeld(d3d, queue, a, 'the store into the evicted heap was dropped');
  });

  test('a mapped heap stays resident through evict, and its CPU writes survive the next round trip', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const upload = d3d.createCommittedResource(
      { type: 'UPLOAD' },
      [],
      { dimension: 'BUFFER', width: TILE },
      'GENERIC_READ',
    );
    const bytes = pattern(TILE, 20);
    upload.map().set(bytes);
    d3d.evict([upload]);
    expect(d3d.getResidencyStatus(upload)).toMatchObject({ resident: true, mapped: true, residencyReferences: 0 });
    upload.unmap();
    // Unmapped with its count at 0: the next eviction pages it out (immediate) or keeps it (lazy).
    d3d.makeResident([upload]);
    d3d.evict([upload]);
    expect(d3d.getResidencyStatus(upload).resident).toBe(false);
    d3d.makeResident([upload]);
    expectBytes(await readBuffer(d3d, queue, upload, 0, TILE, 'COPY_SOURCE'), bytes, 'the upload buffer');
  });

  test('a residency manager over a tight budget pages a working set that does not fit, every byte kept', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    // Four 6-page heaps in a 16-page pool, each evicted once filled: lazily, the third and fourth take
    // the oldest kept heaps' pages.
    const heaps: Modelled[] = [];
    for (let i = 0; i < 4; i++) {
      heaps.push(await filled(d3d, queue, 6 * TILE, 30 + i));
      d3d.evict([(heaps[i] as Modelled).heap]);
    }
    if (eviction === 'lazy') expect(copies(d3d).lazyHeapsTaken).toBe(2);
    const manager = createResidencyManager(d3d);
    for (const { heap } of heaps) manager.beginTrackingObject(heap);
    d3d.setResidencyDebugBudget(12 * TILE);
    const readback = d3d.createCommittedResource(
      { type: 'READBACK' },
      [],
      { dimension: 'BUFFER', width: 6 * TILE },
      'COPY_DEST',
    );
    for (let round = 0; round < 3; round++) {
      for (const [i, modelled] of heaps.entries()) {
        const list = d3d.createCommandList('DIRECT');
        list.copyBufferRegion(readback, 0, modelled.buffer, 0, 6 * TILE);
        list.close();
        const set = manager.createResidencySet();
        set.open();
        set.insert(modelled.heap);
        set.close();
        manager.executeCommandLists(queue, [list], [set]);
        await flush(d3d, queue);
        expectBytes(readback.map().slice(0, 6 * TILE), modelled.bytes, `round ${round}, heap ${i}`);
        readback.unmap();
      }
    }
    expect(d3d.getDeviceRemovedReason()).toBe('S_OK');
    expect(d3d.queryVideoMemoryInfo('LOCAL').currentUsage).toBeLessThanOrEqual(12 * TILE);
    expect(d3d.getPagingStats().evictions).toBeGreaterThan(4);
  });
});

describe("eviction: 'lazy' takes memory only under pressure", () => {
  const test = d3dTest({ eviction: 'lazy', localMemoryBytes: 12 * TILE, nonLocalMemoryBytes: 4 * MIB });

  test('a makeResident of a heap nothing took copies nothing and counts as a restore', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const a = await filled(d3d, queue, 4 * TILE, 40);
    const start = copies(d3d);
    d3d.evict([a.heap]);
    expect(copies(d3d)).toEqual({ ...start, keptPages: { LOCAL: 4, NON_LOCAL: 0 } });
    expect(getEvictedBytesForTesting(a.heap), 'the bytes never reached CPU memory').toBeUndefined();
    d3d.makeResident([a.heap]);
    expect(copies(d3d)).toEqual(start);
    expect(d3d.getPagingStats()).toMatchObject({ evictions: 1, restores: 1 });
    await expectHeld(d3d, queue, a, 'restored from its kept pages');
  });

  test('pressure takes the oldest evicted heap, and only as many as needed; each still comes back right', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const a = await filled(d3d, queue, 4 * TILE, 50);
    const b = await filled(d3d, queue, 4 * TILE, 51);
    d3d.evict([a.heap]);
    d3d.evict([b.heap]);
    expect(copies(d3d).keptPages.LOCAL).toBe(8);
    // 4 pages free, 8 kept: a new 8-page heap takes exactly one evicted heap, the older (a).
    const made = makeHeap(d3d, 8 * TILE, 'c');
    expect(copies(d3d)).toMatchObject({ lazyHeapsTaken: 1, copiedOutBytes: 4 * TILE, keptPages: { LOCAL: 4 } });
    expectBytes(await readBuffer(d3d, queue, made.buffer, 0, 8 * TILE), new Uint8Array(8 * TILE), 'c is zeroed');
    const c: Modelled = { ...made, bytes: pattern(8 * TILE, 52) };
    await write(d3d, queue, c.buffer, c.bytes);
    // b was not taken: its makeResident copies nothing.
    const before = copies(d3d);
    d3d.makeResident([b.heap]);
    expect(copies(d3d).copiedInBytes).toBe(before.copiedInBytes);
    await expectHeld(d3d, queue, b, 'b, never taken');
    // a was: it needs pages, and the pool has none free and none kept (its own went to c).
    d3d.evict([c.heap]);
    d3d.makeResident([a.heap]);
    expect(copies(d3d)).toMatchObject({ lazyHeapsTaken: 2, keptPages: { LOCAL: 0 } });
    await expectHeld(d3d, queue, a, 'a, taken under pressure and restored');
    d3d.evict([a.heap, b.heap]);
    d3d.makeResident([c.heap]);
    await expectHeld(d3d, queue, c, 'c, taken under pressure and restored');
    d3d.evict([c.heap]);
    d3d.makeResident([a.heap, b.heap]);
    await expectHeld(d3d, queue, a, 'a, once more');
    await expectHeld(d3d, queue, b, 'b, once more');
    expect(d3d.getDeviceRemovedReason()).toBe('S_OK');
  });

  test('taking and restoring in one synchronous burst: restores read the GPU copies made before the pages were reused', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const a = await filled(d3d, queue, 4 * TILE, 55);
    const b = await filled(d3d, queue, 4 * TILE, 56);
    const c = { ...makeHeap(d3d, 4 * TILE, 'c'), bytes: new Uint8Array(4 * TILE) };
    // No await from here on: no page-out's bytes reach CPU memory before the next call needs them.
    d3d.evict([a.heap, b.heap, c.heap]);
    const big = makeHeap(d3d, 8 * TILE, 'big'); // takes a and b (the oldest), not c
    expect(copies(d3d)).toMatchObject({ lazyHeapsTaken: 2, stagedBytes: 8 * TILE, keptPages: { LOCAL: 4 } });
    d3d.makeResident([c.heap]); // kept: no copy
    d3d.evict([big.heap]);
    d3d.makeResident([a.heap]); // takes big (8 pages, 4 left free); a from its staged copy
    d3d.evict([c.heap]);
    d3d.makeResident([b.heap]); // the 4 free pages: c is not taken
    expect(copies(d3d)).toMatchObject({ lazyHeapsTaken: 3, keptPages: { LOCAL: 4 } });
    await expectHeld(d3d, queue, a, 'a');
    await expectHeld(d3d, queue, b, 'b');
    d3d.evict([a.heap, b.heap]);
    d3d.makeResident([c.heap]);
    await expectHeld(d3d, queue, c, 'c (zeroed when created)');
    expect(d3d.getDeviceRemovedReason()).toBe('S_OK');
  });

  test('a taken heap made resident after its bytes reached CPU memory restores from there', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const a = await filled(d3d, queue, 8 * TILE, 60);
    d3d.evict([a.heap]);
    const made = makeHeap(d3d, 12 * TILE, 'whole pool');
    expect(copies(d3d).lazyHeapsTaken).toBe(1);
    // Taken: paged out as an immediate eviction pages, so its bytes reach CPU memory.
    expectBytes((await getEvictedBytesForTesting(a.heap)) as Uint8Array, a.bytes, 'a in CPU memory');
    await flush(d3d, queue);
    made.buffer.release();
    made.heap.release();
    await flush(d3d, queue);
    d3d.makeResident([a.heap]);
    await expectHeld(d3d, queue, a, 'a, from CPU memory');
  });

  test('releasing a lazily evicted heap frees its pages: the next heap needs no taking', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const a = await filled(d3d, queue, 12 * TILE, 70);
    d3d.evict([a.heap]);
    a.buffer.release();
    a.heap.release();
    await flush(d3d, queue);
    expect(copies(d3d).keptPages.LOCAL).toBe(0);
    const b = await filled(d3d, queue, 12 * TILE, 71);
    expect(copies(d3d)).toMatchObject({ lazyHeapsTaken: 0, copiedOutBytes: 0 });
    await expectHeld(d3d, queue, b, 'the heap made in its place');
  });
});

describe("eviction: 'lazy' with demotion", () => {
  // LOCAL's budget is one heap: making the second resident demotes one of them to NON_LOCAL.
  const test = d3dTest({
    eviction: 'lazy',
    localMemoryBytes: 8 * TILE,
    localMemoryBudget: 4 * TILE,
    nonLocalMemoryBytes: 4 * MIB,
  });

  test('a kept heap made resident while another demotes, or landing demoted itself, keeps its bytes', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const a = await filled(d3d, queue, 4 * TILE, 80);
    d3d.evict([a.heap]);
    const b = await filled(d3d, queue, 4 * TILE, 81);
    d3d.setResidencyPriority([a.heap], ['MINIMUM']);
    // a is the lower priority: it lands demoted, its bytes moved out of its kept LOCAL pages.
    d3d.makeResident([a.heap]);
    expect(d3d.getResidencyStatus(a.heap)).toMatchObject({ resident: true, demoted: true });
    expect(copies(d3d).keptPages.LOCAL).toBe(0);
    await expectHeld(d3d, queue, a, 'a, demoted');
    await expectHeld(d3d, queue, b, 'b');
    // Evicted again (kept, in NON_LOCAL) and raised above b: it comes back to LOCAL, b demoted.
    d3d.evict([a.heap]);
    d3d.setResidencyPriority([a.heap], ['HIGH']);
    d3d.makeResident([a.heap]);
    expect(d3d.getResidencyStatus(a.heap).demoted).toBe(false);
    expect(d3d.getResidencyStatus(b.heap).demoted).toBe(true);
    await expectHeld(d3d, queue, a, 'a, back in LOCAL');
    await expectHeld(d3d, queue, b, 'b, demoted');
  });
});
