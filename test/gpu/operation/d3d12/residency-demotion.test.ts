/**
 * Demotion (src/emulator/heap-placement.ts): over its LOCAL budget the emulated OS moves resident heaps
 * that prefer LOCAL to NON_LOCAL, lowest residency priority first and, within one priority, the least
 * recently made resident first; they stay resident at the same GPU virtual addresses with their
 * bytes, count in NON_LOCAL usage, and move back (highest first) when room returns. Every test fills
 * heaps with known bytes, drives the device over and under its budget, checks which heaps moved
 * (getResidencyStatus, getMemoryStats, queryVideoMemoryInfo, getPagingStats) and reads every heap
 * back through the GPU at its unchanged address, compared with a CPU model of what each holds; the
 * page table is compared with the CPU authority (validateTileMappings).
 */
import { describe, expect } from 'vitest';
import {
  RESIDENCY_PRIORITIES,
  type CommandQueue,
  type Device,
  type Heap,
  type Resource,
} from '../../../../src/index.js';
import { d3dTest } from '../../../harness/d3d-test.js';
import { flush, pattern, readBuffer, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';
import { expectBytes } from '../../../shared/expect-bytes.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';
import { deviceContext } from '../../../shared/device-context.js';

const MIB = 2 ** 20;
/** Heaps here are four tiles; the LOCAL budget holds four of them, its pool eight. */
const HEAP_TILES = 4;
const BUDGET = 4 * HEAP_TILES * TILE;
const test = d3dTest({ localMemoryBytes: 2 * MIB, nonLocalMemoryBytes: 8 * MIB, localMemoryBudget: BUDGET });

type Priority = keyof typeof RESIDENCY_PRIORITIES;

/** A DEFAULT heap with a buffer over all of it, and what the CPU model says it holds. */
interface Tracked {
  name: string;
  heap: Heap;
  buffer: Resource;
  address: bigint;
  bytes: Uint8Array;
}

function tracked(d3d: Device, name: string, priority: Priority, notResident = false, tiles = HEAP_TILES): Tracked {
  const heap = d3d.createHeap({
    sizeInBytes: tiles * TILE,
    properties: { type: 'DEFAULT' },
    flags: notResident ? ['CREATE_NOT_RESIDENT'] : [],
  });
  heap.setName(name);
  d3d.setResidencyPriority([heap], [priority]);
  const buffer = d3d.createPlacedResource(
    heap,
    0,
    { dimension: 'BUFFER', width: tiles * TILE, flags: ['ALLOW_UNORDERED_ACCESS'] },
    'COMMON',
  );
  return { name, heap, buffer, address: buffer.getGPUVirtualAddress(), bytes: new Uint8Array(tiles * TILE) };
}

/** Copies a fresh pattern into the heap (queued, no wait) and records it in the model. */
function fill(d3d: Device, queue: CommandQueue, t: Tracked, seed: number): void {
  t.bytes = pattern(t.bytes.length, seed);
  const upload = uploadBuffer(d3d, t.bytes);
  const list = d3d.createCommandList('DIRECT');
  list.copyBufferRegion(t.buffer, 0, upload, 0, t.bytes.length);
  list.close();
  queue.executeCommandLists([list]);
  upload.release();
}

/** Reads every heap back through the GPU (a copy through the page table at its address) and compares. */
async function expectContents(
  d3d: Device,
  queue: CommandQueue,
  heaps: readonly Tracked[],
  when: string,
): Promise<void> {
  for (const t of heaps) {
    expect(t.buffer.getGPUVirtualAddress(), `${t.name}'s address ${when}`).toBe(t.address);
    expectBytes(await readBuffer(d3d, queue, t.buffer, 0, t.bytes.length), t.bytes, `${t.name} ${when}`);
  }
  expect((await d3d.validateTileMappings()).mismatchCount, `page table ${when}`).toBe(0);
}

const demoted = (d3d: Device, heaps: readonly Tracked[]): string[] =>
  heaps.filter((t) => d3d.getResidencyStatus(t.heap).demoted).map((t) => t.name);
const usage = (d3d: Device, segment: 'LOCAL' | 'NON_LOCAL'): number => d3d.queryVideoMemoryInfo(segment).currentUsage;
/** NON_LOCAL usage of heaps native to it (uploads, readbacks): everything but the demoted heaps. */
const demotedUsage = (d3d: Device, heaps: readonly Tracked[]): number =>
  heaps.filter((t) => d3d.getResidencyStatus(t.heap).demoted).reduce((sum, t) => sum + t.bytes.length, 0);

describe('demotion over the LOCAL budget', () => {
  test('lowest priority first, within a priority the least recently made resident; bytes and addresses unchanged', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    // The budget holds four: A (LOW), B (HIGH), C (NORMAL), D (LOW), in that order.
    const heaps = [
      tracked(d3d, 'A', 'LOW'),
      tracked(d3d, 'B', 'HIGH'),
      tracked(d3d, 'C', 'NORMAL'),
      tracked(d3d, 'D', 'LOW'),
    ];
    heaps.forEach((t, i) => fill(d3d, queue, t, 10 + i));
    expect([usage(d3d, 'LOCAL'), demoted(d3d, heaps)]).toEqual([BUDGET, []]);

    // E (MINIMUM) made resident next to them: it is the lowest, so it lands demoted, nothing else moves.
    const e = tracked(d3d, 'E', 'MINIMUM', true);
    d3d.makeResident([e.heap]);
    heaps.push(e);
    expect(demoted(d3d, heaps)).toEqual(['E']);
    expect(d3d.getPagingStats()).toMatchObject({ restores: 1, demotions: 0 });
    fill(d3d, queue, e, 20);

    // F (NORMAL): now A and D (LOW) are the lowest in LOCAL, and A was made resident first.
    const f = tracked(d3d, 'F', 'NORMAL', true);
    d3d.enqueueMakeResident('NONE', [f.heap], d3d.createFence(0), 1);
    heaps.push(f);
    expect(demoted(d3d, heaps)).toEqual(['A', 'E']);
    expect(usage(d3d, 'LOCAL')).toBe(BUDGET);
    expect(demotedUsage(d3d, heaps)).toBe(2 * HEAP_TILES * TILE);
    expect(d3d.getPagingStats()).toMatchObject({
      restores: 2,
      demotions: 1,
      demotedBytes: HEAP_TILES * TILE,
      promotions: 0,
    });
    // Status and statistics say where each heap is; `segment` stays the one its type prefers.
    expect(d3d.getResidencyStatus(heaps[0]?.heap as Heap)).toMatchObject({
      segment: 'LOCAL',
      resident: true,
      demoted: true,
      priority: RESIDENCY_PRIORITIES.LOW,
    });
    const stats = d3d.getMemoryStats();
    expect(stats.heaps.filter((h) => h.demoted).map((h) => h.name)).toEqual(['A', 'E']);
    expect(stats.segments.LOCAL.currentUsage).toBe(BUDGET);
    expect(stats.segments.NON_LOCAL.currentUsage).toBe(usage(d3d, 'NON_LOCAL'));
    // F holds zeros (a new heap); all six read back what the model says, at their addresses.
    await expectContents(d3d, queue, heaps, 'after demotion');
    // A demoted heap is used by GPU work like any other: write it again and read it back.
    fill(d3d, queue, heaps[0] as Tracked, 30);
    await expectContents(d3d, queue, heaps, 'after writing the demoted heap');
  });

  test('promotion when room returns: highest priority first; evicting a demoted heap frees no LOCAL', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const heaps = [
      tracked(d3d, 'N1', 'NORMAL'),
      tracked(d3d, 'N2', 'NORMAL'),
      tracked(d3d, 'N3', 'NORMAL'),
      tracked(d3d, 'N4', 'NORMAL'),
    ];
    const low = tracked(d3d, 'low', 'LOW');
    const min = tracked(d3d, 'min', 'MINIMUM');
    heaps.push(low, min);
    expect(demoted(d3d, heaps)).toEqual(['low', 'min']);
    heaps.forEach((t, i) => fill(d3d, queue, t, 40 + i));
    await flush(d3d, queue);
    // (Created NORMAL, each briefly displaced N1 until its priority was set: count from here.)
    const base = d3d.getPagingStats();
    // Evicting the demoted MINIMUM heap changes nothing in LOCAL.
    d3d.evict([min.heap]);
    expect([demoted(d3d, heaps), usage(d3d, 'LOCAL')]).toEqual([['low'], BUDGET]);
    // Evicting N2 makes room for one: the highest demoted one (low) comes back.
    d3d.evict([heaps[1]?.heap as Heap]);
    expect([demoted(d3d, heaps), usage(d3d, 'LOCAL')]).toEqual([[], BUDGET]);
    const paging = d3d.getPagingStats();
    expect([
      paging.promotions - base.promotions,
      paging.promotedBytes - base.promotedBytes,
      paging.demotions - base.demotions,
    ]).toEqual([1, HEAP_TILES * TILE, 0]);
    // min comes back resident: over budget, and the lowest, so demoted again.
    d3d.makeResident([min.heap]);
    expect(demoted(d3d, heaps)).toEqual(['min']);
    const resident = heaps.filter((t) => t.name !== 'N2');
    await expectContents(d3d, queue, resident, 'after evict, promotion and make-resident');
    // Releasing a LOCAL heap is room too: min is promoted once N1's memory is freed.
    const n1 = heaps[0] as Tracked;
    n1.buffer.release();
    n1.heap.release();
    // No GPU work uses N1 any more (its reads were waited for): its memory is freed at once.
    expect(demoted(d3d, heaps.slice(1))).toEqual([]);
    await expectContents(d3d, queue, resident.slice(1), 'after N1 was released');
  });

  test('a budget lowered (debug budget, reservation) demotes at once; raised again, promotes', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const heaps = [tracked(d3d, 'H', 'HIGH'), tracked(d3d, 'N', 'NORMAL'), tracked(d3d, 'L', 'LOW')];
    heaps.forEach((t, i) => fill(d3d, queue, t, 50 + i));
    await flush(d3d, queue);
    const base = d3d.getPagingStats();
    // Two heaps' worth of LOCAL reserved for others: the LOW one goes; the reservation gone, it comes back.
    d3d.setVideoMemoryReservation('LOCAL', 2 * HEAP_TILES * TILE);
    expect([demoted(d3d, heaps), d3d.queryVideoMemoryInfo('LOCAL').budget]).toEqual([['L'], 2 * HEAP_TILES * TILE]);
    d3d.setVideoMemoryReservation('LOCAL', 0);
    expect(demoted(d3d, heaps)).toEqual([]);
    // The debug budget lowers both segments' budgets. Set so that LOCAL's is two heaps and
    // NON_LOCAL has room for two heaps beside what is there now (`native`: its own heaps).
    const native = usage(d3d, 'NON_LOCAL');
    const debugBudget = (heapsOfRoom: number): void =>
      d3d.setResidencyDebugBudget(heapsOfRoom * HEAP_TILES * TILE + native);
    d3d.setVideoMemoryReservation('LOCAL', native);
    debugBudget(2);
    expect(d3d.queryVideoMemoryInfo('LOCAL').budget).toBe(2 * HEAP_TILES * TILE);
    expect(demoted(d3d, heaps)).toEqual(['L']);
    // One heap's worth: LOCAL should shed N too, but NON_LOCAL's budget has room for L only now:
    // N stays, over the LOCAL budget.
    debugBudget(1);
    expect([demoted(d3d, heaps), usage(d3d, 'LOCAL')]).toEqual([['L'], 2 * HEAP_TILES * TILE]);
    await expectContents(d3d, queue, heaps, 'at the lowered budgets');
    d3d.setResidencyDebugBudget(null);
    d3d.setVideoMemoryReservation('LOCAL', 0);
    expect(demoted(d3d, heaps)).toEqual([]);
    const paging = d3d.getPagingStats();
    expect([paging.demotions - base.demotions, paging.promotions - base.promotions]).toEqual([2, 2]);
    await expectContents(d3d, queue, heaps, 'with the budgets back');
  });

  test('setResidencyPriority reorders: a raised heap swaps with the oldest lower one, a lowered one leaves', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const heaps = ['P1', 'P2', 'P3', 'P4', 'X'].map((name) => tracked(d3d, name, 'NORMAL'));
    heaps.forEach((t, i) => fill(d3d, queue, t, 60 + i));
    // Five NORMAL heaps over a four-heap budget: the oldest (P1) was demoted when X was created.
    expect(demoted(d3d, heaps)).toEqual(['P1']);
    d3d.setResidencyPriority([heaps[0]?.heap as Heap], ['HIGH']);
    // P1 displaces the oldest NORMAL heap, P2.
    expect(demoted(d3d, heaps)).toEqual(['P2']);
    await expectContents(d3d, queue, heaps, 'after raising P1');
    d3d.setResidencyPriority([heaps[4]?.heap as Heap], ['MINIMUM']);
    // X is now the lowest: P2 (NORMAL) displaces it.
    expect(demoted(d3d, heaps)).toEqual(['X']);
    // Equal priorities never swap: setting P2 to NORMAL again moves nothing.
    d3d.setResidencyPriority([heaps[1]?.heap as Heap], ['NORMAL']);
    expect(demoted(d3d, heaps)).toEqual(['X']);
    expect(d3d.getPagingStats()).toMatchObject({ demotions: 3, promotions: 2 });
    await expectContents(d3d, queue, heaps, 'after lowering X');
  });
});

/** Adds 1 to every word of a buffer, in place, through the page table (root descriptor 1). */
const INCREMENT = `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let address = d3d12_address_add(d3d12_root_descriptor(1u), id.x * 4u);
  d3d12_store(address, d3d12_load(address) + 1u);
}`;

describe('evicted while demoted', () => {
  test('paged back in at once, it lands in LOCAL when there is room: its bytes, still on their way to the CPU, are staged first', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const heaps = ['P1', 'P2', 'P3', 'P4', 'P5'].map((name) => tracked(d3d, name, 'NORMAL'));
    heaps.forEach((t, i) => fill(d3d, queue, t, 120 + i));
    expect(demoted(d3d, heaps)).toEqual(['P1']);
    const staged = (): number => deviceContext(d3d).backend?.backing.stagedBytesForTesting ?? 0;
    const stagedBefore = staged();
    // No wait: P1's evicted bytes have not reached CPU memory, its old NON_LOCAL pages still hold them.
    d3d.evict([heaps[0]?.heap as Heap, heaps[1]?.heap as Heap]);
    d3d.makeResident([heaps[0]?.heap as Heap]);
    expect(demoted(d3d, heaps)).toEqual([]);
    expect(staged() - stagedBefore).toBe(HEAP_TILES * TILE);
    // P3 evicted, LOCAL filled again by P6, P3 made resident: the newest, it takes its old LOCAL
    // pages back and the least recently made resident (P4; P1 was made resident again above) is demoted.
    d3d.evict([heaps[2]?.heap as Heap]);
    const p6 = tracked(d3d, 'P6', 'NORMAL');
    heaps.push(p6);
    d3d.makeResident([heaps[2]?.heap as Heap]);
    expect(demoted(d3d, heaps)).toEqual(['P4']);
    await expectContents(
      d3d,
      queue,
      heaps.filter((t) => t.name !== 'P2'),
      'after evictions of demoted heaps',
    );
  });
});

describe('demotion is queue work', () => {
  test('GPU work queued before the move writes the old pages and its result moves; work after it finds the new ones', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const pso = await d3d.createComputePipelineState({ code: INCREMENT, entryPoint: 'main' });
    const increment = (t: Tracked, times: number): void => {
      const list = d3d.createCommandList('DIRECT');
      list.setPipelineState(pso);
      list.setComputeRootUnorderedAccessView(1, t.address);
      for (let i = 0; i < times; i++) {
        list.dispatch(t.bytes.length / 4 / 64);
        list.resourceBarrier([{ type: 'UAV', uav: { resource: t.buffer } }]);
      }
      list.close();
      queue.executeCommandLists([list]);
      const words = new Uint32Array(t.bytes.buffer);
      for (let i = 0; i < words.length; i++) words[i] = ((words[i] as number) + times) >>> 0;
    };
    const heaps = [
      tracked(d3d, 'old', 'LOW'),
      tracked(d3d, 'b', 'NORMAL'),
      tracked(d3d, 'c', 'NORMAL'),
      tracked(d3d, 'd', 'NORMAL'),
    ];
    heaps.forEach((t, i) => fill(d3d, queue, t, 70 + i));
    // No wait anywhere until the reads: the dispatches on `old` are still queued (or running) when
    // making a HIGH heap resident demotes it.
    increment(heaps[0] as Tracked, 8);
    const high = tracked(d3d, 'high', 'HIGH', true);
    d3d.makeResident([high.heap]);
    heaps.push(high);
    expect(demoted(d3d, heaps)).toEqual(['old']);
    // Work after the move writes the demoted pages; then room returns and it moves back.
    increment(heaps[0] as Tracked, 3);
    d3d.evict([heaps[1]?.heap as Heap]);
    expect(demoted(d3d, heaps)).toEqual([]);
    increment(heaps[0] as Tracked, 2);
    await expectContents(
      d3d,
      queue,
      heaps.filter((t) => t.name !== 'b'),
      'after moves between queued dispatches',
    );
  });
});

describe('reserved resources with tiles in a demoted heap', () => {
  test('tiles mapped into a heap follow it to NON_LOCAL and back; reads through the reserved resource see its bytes', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const heaps = [
      tracked(d3d, 'tiles', 'LOW'),
      tracked(d3d, 'k1', 'NORMAL'),
      tracked(d3d, 'k2', 'NORMAL'),
      tracked(d3d, 'k3', 'NORMAL'),
    ];
    heaps.forEach((t, i) => fill(d3d, queue, t, 80 + i));
    const tiles = heaps[0] as Tracked;
    const k1 = heaps[1] as Tracked;
    // A reserved buffer of 4 tiles: tile 0 → tiles[2], tile 1 → k1[0], tile 2 → tiles[0], tile 3 NULL.
    const reserved = d3d.createReservedResource({ dimension: 'BUFFER', width: 4 * TILE }, 'COMMON');
    queue.updateTileMappings(
      reserved,
      [{ x: 0, y: 0, z: 0, subresource: 0 }],
      [{ numTiles: 1 }],
      tiles.heap,
      ['NONE'],
      [2],
      [1],
    );
    queue.updateTileMappings(
      reserved,
      [{ x: 1, y: 0, z: 0, subresource: 0 }],
      [{ numTiles: 1 }],
      k1.heap,
      ['NONE'],
      [0],
      [1],
    );
    queue.updateTileMappings(
      reserved,
      [{ x: 2, y: 0, z: 0, subresource: 0 }],
      [{ numTiles: 1 }],
      tiles.heap,
      ['NONE'],
      [0],
      [1],
    );
    const expected = (): Uint8Array => {
      const bytes = new Uint8Array(4 * TILE);
      bytes.set(tiles.bytes.subarray(2 * TILE, 3 * TILE), 0);
      bytes.set(k1.bytes.subarray(0, TILE), TILE);
      bytes.set(tiles.bytes.subarray(0, TILE), 2 * TILE);
      return bytes;
    };
    expectBytes(
      await readBuffer(d3d, queue, reserved, 0, 4 * TILE),
      expected(),
      'through the reserved resource, before',
    );
    // A fifth heap over the budget demotes the LOW one, whose tiles the reserved resource maps.
    const fifth = tracked(d3d, 'fifth', 'NORMAL');
    heaps.push(fifth);
    expect(demoted(d3d, heaps)).toEqual(['tiles']);
    expectBytes(
      await readBuffer(d3d, queue, reserved, 0, 4 * TILE),
      expected(),
      'through the reserved resource, demoted',
    );
    // Written through the reserved resource while demoted: the heap's tile 0 changes.
    const write = pattern(TILE, 90);
    const upload = uploadBuffer(d3d, write);
    const list = d3d.createCommandList('DIRECT');
    list.copyBufferRegion(reserved, 2 * TILE, upload, 0, TILE);
    list.close();
    queue.executeCommandLists([list]);
    tiles.bytes.set(write, 0);
    // Room returns: it moves back with the tile written through the reserved resource.
    d3d.evict([fifth.heap]);
    expect(demoted(d3d, heaps)).toEqual([]);
    expectBytes(
      await readBuffer(d3d, queue, reserved, 0, 4 * TILE),
      expected(),
      'through the reserved resource, promoted',
    );
    await expectContents(
      d3d,
      queue,
      heaps.filter((t) => t !== fifth),
      'with a reserved resource mapping into them',
    );
  });
});

describe('when demotion cannot make the room', () => {
  test('no NON_LOCAL room: LOCAL goes over budget while its pool has pages; past the pool E_OUTOFMEMORY changes nothing', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    // NON_LOCAL's whole budget reserved for others: nothing may be demoted there.
    d3d.setVideoMemoryReservation('NON_LOCAL', d3d.queryVideoMemoryInfo('NON_LOCAL').availableForReservation);
    const heaps = [0, 1, 2, 3, 4, 5, 6].map((i) => tracked(d3d, `h${i}`, i === 0 ? 'MINIMUM' : 'NORMAL'));
    heaps.forEach((t, i) => fill(d3d, queue, t, 100 + i));
    expect([usage(d3d, 'LOCAL'), demoted(d3d, heaps)]).toEqual([7 * HEAP_TILES * TILE, []]);
    const last = tracked(d3d, 'last', 'HIGH', true, 2 * HEAP_TILES);
    const before = { stats: d3d.getMemoryStats(), paging: d3d.getPagingStats() };
    // The LOCAL pool (32 tiles) has 4 free; the new heap needs 8.
    expectD3D12Error(() => d3d.makeResident([last.heap]), {
      hresult: 'E_OUTOFMEMORY',
      call: 'makeResident',
      argument: 'objects',
      message: /needs 524288 bytes of LOCAL memory and 262144 are free .*demotion cannot make the room either/,
    });
    expect(d3d.getMemoryStats()).toEqual(before.stats);
    expect(d3d.getPagingStats()).toEqual(before.paging);
    expect(d3d.getResidencyStatus(last.heap)).toMatchObject({
      resident: false,
      residencyReferences: 0,
      demoted: false,
    });
    // Control: with the reservation gone, the lowest heap (h0, MINIMUM) and the oldest NORMAL ones
    // are demoted until LOCAL fits its budget, and the new heap is made resident in LOCAL.
    d3d.setVideoMemoryReservation('NON_LOCAL', 0);
    expect(demoted(d3d, heaps)).toEqual(['h0', 'h1', 'h2']);
    d3d.makeResident([last.heap]);
    heaps.push(last);
    expect(demoted(d3d, heaps)).toEqual(['h0', 'h1', 'h2', 'h3', 'h4']);
    expect(usage(d3d, 'LOCAL')).toBe(BUDGET);
    await expectContents(d3d, queue, heaps, 'after the failed and the successful makeResident');
  });

  test('DENY_OVERBUDGET still fails over budget (demotion is not asked for) and changes nothing', ({ d3d }) => {
    const heaps = [0, 1, 2, 3].map((i) => tracked(d3d, `h${i}`, 'NORMAL'));
    const extra = tracked(d3d, 'extra', 'HIGH', true);
    const fence = d3d.createFence(0);
    expectD3D12Error(() => d3d.enqueueMakeResident('DENY_OVERBUDGET', [extra.heap], fence, 1), {
      hresult: 'E_OUTOFMEMORY',
      argument: 'flags',
      message: /DENY_OVERBUDGET/,
    });
    expect([demoted(d3d, heaps), extra.heap.resident, usage(d3d, 'LOCAL'), fence.getCompletedValue()]).toEqual([
      [],
      false,
      BUDGET,
      0,
    ]);
    // Control: NONE makes it resident, demoting the oldest NORMAL heap.
    d3d.enqueueMakeResident('NONE', [extra.heap], fence, 1);
    expect(demoted(d3d, [...heaps, extra])).toEqual(['h0']);
  });

  test('heaps native to NON_LOCAL never move; when they need its pages, demoted heaps go back to LOCAL', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const heaps = [0, 1, 2, 3, 4, 5, 6].map((i) => tracked(d3d, `h${i}`, 'NORMAL'));
    heaps.forEach((t, i) => fill(d3d, queue, t, 110 + i));
    await flush(d3d, queue);
    expect(demoted(d3d, heaps)).toEqual(['h0', 'h1', 'h2']);
    // An UPLOAD heap taking all of NON_LOCAL's free pages but one heap's worth: two demoted heaps
    // must leave it, back to LOCAL (over budget, its pool has the pages), highest (newest) first.
    const free = d3d.getMemoryStats().segments.NON_LOCAL.freeBytes;
    const upload = d3d.createHeap({ sizeInBytes: free + 2 * HEAP_TILES * TILE, properties: { type: 'UPLOAD' } });
    expect(d3d.getResidencyStatus(upload)).toMatchObject({ segment: 'NON_LOCAL', demoted: false });
    expect(demoted(d3d, heaps)).toEqual(['h0']);
    expect(usage(d3d, 'LOCAL')).toBe(6 * HEAP_TILES * TILE);
    await expectContents(d3d, queue, heaps, 'after the UPLOAD heap took NON_LOCAL');
    // Its release makes room again: LOCAL goes back to its budget.
    upload.release();
    await flush(d3d, queue);
    d3d.setResidencyPriority([], []);
    expect(demoted(d3d, heaps)).toEqual(['h0', 'h1', 'h2']);
    await expectContents(d3d, queue, heaps, 'after the UPLOAD heap was released');
  });
});
