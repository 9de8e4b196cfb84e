/**
 * The residency manager (d3dx12residency.h) on a GPU-backed device, in scenarios after Dawn's
 * residency tests (dawn/src/dawn/tests/white_box/D3D12ResidencyTests.cpp): a small budget filled
 * half with tracked heaps, then over-committed with larger ones, checking after each submit which
 * heaps are resident (heap.resident), the device's usage and the manager's stats; evicted heaps
 * coming back with their bytes; a batch larger than the budget; reservations; mapped memory; batches
 * split in half; and age-based trimming with an injected clock.
 *
 * Every submit is waited for, so the last use of every heap has completed and the manager evicts in
 * pure LRU order; the clock only moves when a test moves it, so nothing is trimmed unless a test
 * asks for it.
 */
import { describe, expect, vi } from 'vitest';
import {
  createDevice,
  createResidencyManager,
  type CommandQueue,
  type Device,
  type GraphicsCommandList,
  type Heap,
  type Pageable,
  type ResidencyManager,
  type Resource,
} from '../../../../src/index.js';
import { ListStateTracker } from '../../../../src/commands/resource-states.js';
import { gpuTest as test } from '../../../harness/gpu-test.js';
import { flush, pattern, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';
import { expectBytes } from '../../../shared/expect-bytes.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';

const MIB = 2 ** 20;

interface Rig {
  d3d: Device;
  queue: CommandQueue;
  manager: ResidencyManager;
  /** The injected clock's time (ms). */
  clock: { now: number };
}

async function rig(
  gpuDevice: GPUDevice,
  localMemoryBudget: number,
  more: { nonLocalMemoryBudget?: number } = {},
): Promise<Rig> {
  const d3d = await createDevice({
    gpuDevice,
    localMemoryBytes: 8 * MIB,
    nonLocalMemoryBytes: 4 * MIB,
    localMemoryBudget,
    ...more,
  });
  const clock = { now: 0 };
  return {
    d3d,
    queue: d3d.createCommandQueue({ type: 'DIRECT' }),
    manager: createResidencyManager(d3d, { clock: () => clock.now }),
    clock,
  };
}

interface TrackedHeap {
  heap: Heap;
  buffer: Resource;
  name: string;
}

/** A DEFAULT heap of `tiles` tiles with a buffer over all of it, tracked by the manager. */
function trackedHeap(r: Rig, name: string, tiles: number, notResident = false): TrackedHeap {
  const heap = r.d3d.createHeap({
    sizeInBytes: tiles * TILE,
    properties: { type: 'DEFAULT' },
    flags: notResident ? ['CREATE_NOT_RESIDENT'] : [],
  });
  heap.setName(name);
  const buffer = r.d3d.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: tiles * TILE }, 'COMMON');
  r.manager.beginTrackingObject(heap);
  return { heap, buffer, name };
}

/** Executes one list through the manager with a set of `objects`, and waits for it. */
async function submit(
  r: Rig,
  objects: Pageable[],
  record: (list: GraphicsCommandList) => void = () => undefined,
): Promise<void> {
  const list = r.d3d.createCommandList('DIRECT');
  record(list);
  list.close();
  const set = r.manager.createResidencySet();
  set.open();
  for (const object of objects) set.insert(object);
  set.close();
  r.manager.executeCommandLists(r.queue, [list], [set]);
  await flush(r.d3d, r.queue);
}

/** Copies `buffers` (whose heaps are in `objects`) out through the manager and returns their bytes. */
async function readThroughManager(
  r: Rig,
  objects: Pageable[],
  buffers: Resource[],
  length: number,
): Promise<Uint8Array[]> {
  const readbacks = buffers.map(() =>
    r.d3d.createCommittedResource({ type: 'READBACK' }, [], { dimension: 'BUFFER', width: length }, 'COPY_DEST'),
  );
  await submit(r, objects, (list) =>
    buffers.forEach((buffer, i) => list.copyBufferRegion(readbacks[i] as Resource, 0, buffer, 0, length)),
  );
  return readbacks.map((readback) => {
    const bytes = readback.map().slice();
    readback.unmap();
    readback.release();
    return bytes;
  });
}

const residentNames = (heaps: TrackedHeap[]): string[] => heaps.filter((h) => h.heap.resident).map((h) => h.name);
const localUsage = (r: Rig): number => r.d3d.queryVideoMemoryInfo('LOCAL').currentUsage;
const nonLocalUsage = (r: Rig): number => r.d3d.queryVideoMemoryInfo('NON_LOCAL').currentUsage;

describe('over-committing a small budget (Dawn: OvercommitSmallResources / OvercommitLargeResources)', () => {
  test('evicts least recently used heaps, just enough, and brings evicted heaps back with their bytes', async ({
    device,
  }) => {
    // Budget: 32 tiles (2 MiB).
    const r = await rig(device, 2 * MIB);
    try {
      const small = [0, 1, 2, 3].map((i) => trackedHeap(r, `s${i}`, 4));
      const data = small.map((_, i) => pattern(4 * TILE, 100 + i));
      // Half the budget: four 4-tile heaps, written in one submit.
      await submit(
        r,
        small.map((s) => s.heap),
        (list) =>
          small.forEach((s, i) =>
            list.copyBufferRegion(s.buffer, 0, uploadBuffer(r.d3d, data[i] as Uint8Array), 0, 4 * TILE),
          ),
      );
      expect(localUsage(r)).toBe(16 * TILE);
      expect(r.manager.getStats()).toMatchObject({ tracked: 4, evictions: 0, madeResident: 0, executions: 1 });

      // Larger heaps, created evicted (as UE5 does): 12 tiles each.
      const large = [0, 1, 2, 3].map((i) => trackedHeap(r, `L${i}`, 12, true));
      const all = [...small, ...large];
      expect(residentNames(all)).toEqual(['s0', 's1', 's2', 's3']);
      expect(localUsage(r)).toBe(16 * TILE);

      const steps: [TrackedHeap[], string[], number][] = [
        // [the set, resident afterwards, LOCAL usage in tiles afterwards]
        [[large[0] as TrackedHeap], ['s0', 's1', 's2', 's3', 'L0'], 28], // fits: nothing evicted
        [[large[1] as TrackedHeap], ['s2', 's3', 'L0', 'L1'], 32], // s0, s1 (LRU) make exactly enough room
        [[large[2] as TrackedHeap], ['L1', 'L2'], 24], // s2, s3, L0
        [[large[3] as TrackedHeap], ['L2', 'L3'], 24], // L1
        [[small[0] as TrackedHeap], ['s0', 'L2', 'L3'], 28], // re-touched: back, nothing evicted
      ];
      for (const [set, resident, tiles] of steps) {
        await submit(
          r,
          set.map((s) => s.heap),
        );
        const label = `after the submit of ${set.map((s) => s.name).join()}`;
        expect(residentNames(all), label).toEqual(resident);
        expect(localUsage(r), label).toBe(tiles * TILE);
        expect(localUsage(r), label).toBeLessThanOrEqual(r.d3d.queryVideoMemoryInfo('LOCAL').budget);
        // QueryResidencyStats: the tracked bytes held resident, and the rest (64 tiles tracked).
        const residentBytes = all
          .filter((h) => h.heap.resident)
          .reduce((sum, h) => sum + h.heap.getDesc().sizeInBytes, 0);
        expect(r.manager.queryResidencyStats(), label).toEqual({
          residentMemoryInBytes: residentBytes,
          evictedMemoryInBytes: 64 * TILE - residentBytes,
        });
      }
      expect(r.manager.getStats()).toMatchObject({
        evictions: 6,
        evictedBytes: (4 + 4 + 4 + 4 + 12 + 12) * TILE,
        madeResident: 5,
        madeResidentBytes: 52 * TILE,
        trimmed: 0,
        overBudgetBatches: 0,
        splits: 0,
        executions: 6,
      });

      // Re-touching every small heap brings the evicted ones back (L2, least recently used, goes)
      // with the bytes written before they were evicted.
      const bytes = await readThroughManager(
        r,
        small.map((s) => s.heap),
        small.map((s) => s.buffer),
        4 * TILE,
      );
      expect(residentNames(all)).toEqual(['s0', 's1', 's2', 's3', 'L3']);
      expect(localUsage(r)).toBe(28 * TILE);
      bytes.forEach((b, i) => expectBytes(b, data[i] as Uint8Array, `s${i}`));
      expect(r.manager.getStats()).toMatchObject({ evictions: 7, madeResident: 8, overBudgetBatches: 0 });
      // The device paged exactly what the manager asked for.
      expect(r.d3d.getPagingStats()).toMatchObject({ evictions: 7, restores: 8 });
    } finally {
      r.d3d.destroy();
    }
  });

  test('a heap created evicted reads zero when first made resident; written bytes survive a later eviction', async ({
    device,
  }) => {
    const r = await rig(device, 1 * MIB);
    try {
      const a = trackedHeap(r, 'a', 12, true);
      const b = trackedHeap(r, 'b', 12, true);
      const [zero] = await readThroughManager(r, [a.heap], [a.buffer], 12 * TILE);
      expectBytes(zero as Uint8Array, new Uint8Array(12 * TILE), 'a, never written');
      const data = pattern(12 * TILE, 7);
      await submit(r, [a.heap], (list) => list.copyBufferRegion(a.buffer, 0, uploadBuffer(r.d3d, data), 0, 12 * TILE));
      await submit(r, [b.heap]); // 24 tiles do not fit 16: a goes
      expect([a.heap.resident, b.heap.resident]).toEqual([false, true]);
      const [back] = await readThroughManager(r, [a.heap], [a.buffer], 12 * TILE);
      expect([a.heap.resident, b.heap.resident]).toEqual([true, false]);
      expectBytes(back as Uint8Array, data, 'a, after evict and restore');
    } finally {
      r.d3d.destroy();
    }
  });
});

describe('a batch larger than the budget', () => {
  test('still runs, over budget, with the right data, and the stats say by how much', async ({ device }) => {
    // Budget: 16 tiles; the batch needs 24.
    const r = await rig(device, 1 * MIB);
    try {
      const other = trackedHeap(r, 'other', 4);
      await submit(r, [other.heap]);
      const big = [0, 1, 2].map((i) => trackedHeap(r, `big${i}`, 8, true));
      const data = big.map((_, i) => pattern(8 * TILE, 200 + i));
      const readbacks = big.map(() =>
        r.d3d.createCommittedResource({ type: 'READBACK' }, [], { dimension: 'BUFFER', width: 8 * TILE }, 'COPY_DEST'),
      );
      const uploads = data.map((d) => uploadBuffer(r.d3d, d));
      await submit(
        r,
        big.map((b) => b.heap),
        (list) => {
          big.forEach((b, i) => list.copyBufferRegion(b.buffer, 0, uploads[i] as Resource, 0, 8 * TILE));
          list.resourceBarrier(
            big.map((b) => ({
              type: 'TRANSITION' as const,
              transition: { resource: b.buffer, stateBefore: 'COPY_DEST' as const, stateAfter: 'COPY_SOURCE' as const },
            })),
          );
          big.forEach((b, i) => list.copyBufferRegion(readbacks[i] as Resource, 0, b.buffer, 0, 8 * TILE));
        },
      );
      const stats = r.manager.getStats();
      expect(stats.overBudgetBatches).toBe(1);
      expect(stats.lastOverBudget).toEqual({ segment: 'LOCAL', usage: 24 * TILE, budget: 16 * TILE });
      // Everything outside the batch went first.
      expect(other.heap.resident).toBe(false);
      expect(big.map((b) => b.heap.resident)).toEqual([true, true, true]);
      // Over its LOCAL budget the process has heaps demoted by the OS (D3D12 residency priorities;
      // all NORMAL here, so the least recently made resident: big0) to NON_LOCAL, still resident.
      expect(big.map((b) => r.d3d.getResidencyStatus(b.heap).demoted)).toEqual([true, false, false]);
      // NON_LOCAL: three uploads and three readbacks of 8 tiles, and big0.
      expect([localUsage(r), nonLocalUsage(r)]).toEqual([16 * TILE, (6 * 8 + 8) * TILE]);
      expect(r.d3d.queryVideoMemoryInfo('LOCAL').budget).toBe(16 * TILE);
      readbacks.forEach((readback, i) => {
        expectBytes(readback.map().slice(), data[i] as Uint8Array, `big${i}`);
        readback.unmap();
      });

      // The next batch brings usage back under the budget: big0 and big1 (least recently used) go
      // (big0, demoted, frees no LOCAL bytes: big1 must go too).
      await submit(r, [other.heap]);
      expect([other.heap.resident, ...big.map((b) => b.heap.resident)]).toEqual([true, false, false, true]);
      expect(localUsage(r)).toBe(12 * TILE);
      expect(r.manager.getStats().overBudgetBatches).toBe(1);
    } finally {
      r.d3d.destroy();
    }
  });
  test('a batch over budget in both segments counts as one over-budget batch', async ({ device }) => {
    // LOCAL budget 16 tiles, NON_LOCAL budget 4 tiles.
    const r = await rig(device, 1 * MIB, { nonLocalMemoryBudget: 4 * TILE });
    try {
      const local = trackedHeap(r, 'local', 20, true);
      const nonLocal = r.d3d.createCommittedResource(
        { type: 'UPLOAD' },
        ['CREATE_NOT_RESIDENT'],
        { dimension: 'BUFFER', width: 6 * TILE },
        'GENERIC_READ',
      );
      r.manager.beginTrackingObject(nonLocal);
      await submit(r, [local.heap, nonLocal]);
      expect([local.heap.resident, nonLocal.heap?.resident]).toEqual([true, true]);
      expect([localUsage(r), nonLocalUsage(r)]).toEqual([20 * TILE, 6 * TILE]);
      const stats = r.manager.getStats();
      expect(stats.executions).toBe(1);
      expect(stats.lastOverBudget).not.toBeNull();
      expect(stats.overBudgetBatches).toBe(1);
    } finally {
      r.d3d.destroy();
    }
  });
});

describe('reservations (SetVideoMemoryReservation) lower the budget the manager keeps to', () => {
  /** Six 4-tile heaps, each used once in turn; returns the evictions. */
  async function workload(r: Rig): Promise<{ evictions: number; resident: string[]; usage: number }> {
    const heaps = [0, 1, 2, 3, 4, 5].map((i) => trackedHeap(r, `h${i}`, 4, true));
    for (const h of heaps) {
      await submit(r, [h.heap]);
      expect(localUsage(r)).toBeLessThanOrEqual(r.d3d.queryVideoMemoryInfo('LOCAL').budget);
    }
    return { evictions: r.manager.getStats().evictions, resident: residentNames(heaps), usage: localUsage(r) };
  }

  test('without a reservation six heaps fit; with 1 MiB reserved, two are evicted', async ({ device }) => {
    const plain = await rig(device, 2 * MIB);
    try {
      expect(await workload(plain)).toEqual({
        evictions: 0,
        resident: ['h0', 'h1', 'h2', 'h3', 'h4', 'h5'],
        usage: 24 * TILE,
      });
    } finally {
      plain.d3d.destroy();
    }
    const reserved = await rig(device, 2 * MIB);
    try {
      reserved.d3d.setVideoMemoryReservation('LOCAL', 1 * MIB);
      expect(reserved.d3d.queryVideoMemoryInfo('LOCAL')).toMatchObject({
        budget: 1 * MIB,
        currentReservation: 1 * MIB,
        availableForReservation: 2 * MIB,
      });
      expect(await workload(reserved)).toEqual({ evictions: 2, resident: ['h2', 'h3', 'h4', 'h5'], usage: 16 * TILE });
    } finally {
      reserved.d3d.destroy();
    }
  });

  test('a reservation made later takes effect at the next submit', async ({ device }) => {
    // No NON_LOCAL budget for demotion, so the OS cannot make the room and the manager must evict
    // (with room, the OS demotes at once: residency-demotion.test.ts).
    const r = await rig(device, 2 * MIB, { nonLocalMemoryBudget: 0 });
    try {
      const heaps = [0, 1, 2, 3, 4, 5].map((i) => trackedHeap(r, `h${i}`, 4));
      await submit(
        r,
        heaps.map((h) => h.heap),
      );
      expect(localUsage(r)).toBe(24 * TILE);
      r.d3d.setVideoMemoryReservation('LOCAL', 1 * MIB);
      await submit(r, [heaps[5]?.heap as Heap]);
      expect(residentNames(heaps)).toEqual(['h2', 'h3', 'h4', 'h5']);
      expect(localUsage(r)).toBe(16 * TILE);
      // Released again: the budget returns and nothing more is evicted.
      r.d3d.setVideoMemoryReservation('LOCAL', 0);
      await submit(
        r,
        heaps.map((h) => h.heap),
      );
      expect(residentNames(heaps)).toEqual(['h0', 'h1', 'h2', 'h3', 'h4', 'h5']);
      expect(r.manager.getStats()).toMatchObject({ evictions: 2, madeResident: 2 });
    } finally {
      r.d3d.destroy();
    }
  });
});

describe('mapped memory is never evicted (Dawn: mapped buffers are locked resident)', () => {
  test('mapped UPLOAD and READBACK buffers tracked by the manager stay resident under NON_LOCAL pressure', async ({
    device,
  }) => {
    // NON_LOCAL budget: 16 tiles.
    const r = await rig(device, 2 * MIB, { nonLocalMemoryBudget: 1 * MIB });
    try {
      const data = pattern(2 * TILE, 300);
      const upload = r.d3d.createCommittedResource(
        { type: 'UPLOAD' },
        [],
        { dimension: 'BUFFER', width: 2 * TILE },
        'GENERIC_READ',
      );
      const readback = r.d3d.createCommittedResource(
        { type: 'READBACK' },
        [],
        { dimension: 'BUFFER', width: 2 * TILE },
        'COPY_DEST',
      );
      upload.map().set(data);
      upload.unmap();
      const uploadView = upload.map();
      const readbackView = readback.map();
      r.manager.beginTrackingObject(upload);
      r.manager.beginTrackingObject(readback);
      await submit(r, [upload, readback], (list) => list.copyBufferRegion(readback, 0, upload, 0, 2 * TILE));
      expectBytes(readbackView.slice(), data, 'readback, mapped throughout');

      const others = [0, 1, 2, 3].map(() => {
        const resource = r.d3d.createCommittedResource(
          { type: 'UPLOAD' },
          ['CREATE_NOT_RESIDENT'],
          { dimension: 'BUFFER', width: 4 * TILE },
          'GENERIC_READ',
        );
        r.manager.beginTrackingObject(resource);
        return resource;
      });
      for (const other of others.slice(0, 3)) await submit(r, [other]);
      expect(nonLocalUsage(r)).toBe(16 * TILE);
      const pagedBefore = r.d3d.getPagingStats().evictions;
      // 4 more tiles: the mapped buffers are the least recently used, but only others[0] can go.
      await submit(r, [others[3] as Resource]);
      expect([upload.heap?.resident, readback.heap?.resident]).toEqual([true, true]);
      expect(others.map((o) => o.heap?.resident)).toEqual([false, true, true, true]);
      expect(nonLocalUsage(r)).toBe(16 * TILE);
      expect(r.d3d.getPagingStats().evictions - pagedBefore).toBe(1);
      expectBytes(uploadView.slice(), data, 'upload view, still mapped');
      expectBytes(readbackView.slice(), data, 'readback view, still mapped');

      // Still resident while mapped, the bytes reach the GPU: copy the upload buffer again.
      const second = r.d3d.createCommittedResource(
        { type: 'READBACK' },
        [],
        { dimension: 'BUFFER', width: 2 * TILE },
        'COPY_DEST',
      );
      await submit(r, [upload], (list) => list.copyBufferRegion(second, 0, upload, 0, 2 * TILE));
      expect(upload.heap?.resident).toBe(true);
      expectBytes(second.map().slice(), data, 'copied from the mapped upload buffer');
      second.unmap();
      second.release();
      upload.unmap();
      readback.unmap();
    } finally {
      r.d3d.destroy();
    }
  });
});

describe('batches split in half when their sets cannot fit together', () => {
  /**
   * Six 14-tile heaps, created evicted, and three lists, each writing its own bytes into two of them
   * (from one 15-tile upload buffer, at a different offset per heap, so NON_LOCAL usage stays under
   * its 16-tile budget).
   */
  function splitRig(r: Rig): {
    heaps: TrackedHeap[];
    data: Uint8Array[];
    lists: GraphicsCommandList[];
    sets: ReturnType<ResidencyManager['createResidencySet']>[];
  } {
    const heaps = [0, 1, 2, 3, 4, 5].map((i) => trackedHeap(r, `h${i}`, 14, true));
    const source = pattern(15 * TILE, 400);
    const upload = uploadBuffer(r.d3d, source);
    const offset = (i: number): number => i * 4096;
    const data = heaps.map((_, i) => source.slice(offset(i), offset(i) + 14 * TILE));
    const lists: GraphicsCommandList[] = [];
    const sets: ReturnType<ResidencyManager['createResidencySet']>[] = [];
    for (let pair = 0; pair < 3; pair++) {
      const list = r.d3d.createCommandList('DIRECT');
      const set = r.manager.createResidencySet();
      set.open();
      for (const i of [2 * pair, 2 * pair + 1]) {
        list.copyBufferRegion(heaps[i]?.buffer as Resource, 0, upload, offset(i), 14 * TILE);
        set.insert(heaps[i]?.heap);
      }
      set.close();
      list.close();
      lists.push(list);
      sets.push(set);
    }
    return { heaps, data, lists, sets };
  }

  test('two lists of 28 tiles each (56 > 32 LOCAL + 16 NON_LOCAL): one split, each half within budget, every byte right', async ({
    device,
  }) => {
    const r = await rig(device, 2 * MIB, { nonLocalMemoryBudget: 1 * MIB });
    try {
      const { heaps, data, lists, sets } = splitRig(r);
      r.manager.executeCommandLists(r.queue, lists.slice(0, 2), sets.slice(0, 2));
      await flush(r.d3d, r.queue);
      expect(r.manager.getStats()).toMatchObject({
        splits: 1,
        executions: 2,
        overBudgetBatches: 0,
        evictions: 2,
        madeResident: 4,
      });
      // The second half evicted the first (its use was queued before the eviction).
      expect(residentNames(heaps)).toEqual(['h2', 'h3']);
      expect(localUsage(r)).toBe(28 * TILE);
      for (const pair of [
        [0, 1],
        [2, 3],
      ]) {
        const bytes = await readThroughManager(
          r,
          pair.map((i) => heaps[i]?.heap as Heap),
          pair.map((i) => heaps[i]?.buffer as Resource),
          14 * TILE,
        );
        pair.forEach((i, k) => expectBytes(bytes[k] as Uint8Array, data[i] as Uint8Array, `h${i}`));
      }
    } finally {
      r.d3d.destroy();
    }
  });

  test('three lists: split, and the first half split again; executed in order', async ({ device }) => {
    const r = await rig(device, 2 * MIB, { nonLocalMemoryBudget: 1 * MIB });
    try {
      const { heaps, data, lists, sets } = splitRig(r);
      r.manager.executeCommandLists(r.queue, lists, sets);
      await flush(r.d3d, r.queue);
      expect(r.manager.getStats()).toMatchObject({ splits: 2, executions: 3, overBudgetBatches: 0 });
      expect(residentNames(heaps)).toEqual(['h4', 'h5']);
      for (const pair of [
        [0, 1],
        [2, 3],
        [4, 5],
      ]) {
        const bytes = await readThroughManager(
          r,
          pair.map((i) => heaps[i]?.heap as Heap),
          pair.map((i) => heaps[i]?.buffer as Resource),
          14 * TILE,
        );
        pair.forEach((i, k) => expectBytes(bytes[k] as Uint8Array, data[i] as Uint8Array, `h${i}`));
      }
    } finally {
      r.d3d.destroy();
    }
  });

  test('control: lists that fit the two budgets together are not split (and one list is never split)', async ({
    device,
  }) => {
    const r = await rig(device, 2 * MIB, { nonLocalMemoryBudget: 1 * MIB });
    try {
      const heaps = [0, 1, 2].map((i) => trackedHeap(r, `h${i}`, 14, true));
      const lists = [0, 1].map(() => {
        const list = r.d3d.createCommandList('DIRECT');
        list.close();
        return list;
      });
      const sets = [[heaps[0]], [heaps[1]]].map((members) => {
        const set = r.manager.createResidencySet();
        set.open();
        for (const m of members) set.insert(m?.heap);
        set.close();
        return set;
      });
      r.manager.executeCommandLists(r.queue, lists, sets);
      await flush(r.d3d, r.queue);
      expect(r.manager.getStats()).toMatchObject({ splits: 0, executions: 1 });
      expect(residentNames(heaps)).toEqual(['h0', 'h1']);
      // One list needing 42 tiles: not split, over budget.
      await submit(
        r,
        heaps.map((h) => h.heap),
      );
      expect(r.manager.getStats()).toMatchObject({ splits: 0, executions: 2, overBudgetBatches: 1 });
      expect(r.manager.getStats().lastOverBudget).toEqual({ segment: 'LOCAL', usage: 42 * TILE, budget: 32 * TILE });
    } finally {
      r.d3d.destroy();
    }
  });
});

describe('trimming idle heaps (grace period on the pressure curve, injected clock)', () => {
  // Budget: 20 tiles; 70 % is 14 tiles. Heaps of one tile each.
  const BUDGET = 20 * TILE;

  test('at 90 % (grace 20 666.67 ms): idle heaps older than the grace period go, down to 70 % and no further', async ({
    device,
  }) => {
    const r = await rig(device, BUDGET);
    try {
      const heaps = Array.from({ length: 18 }, (_, i) => trackedHeap(r, `h${i}`, 1));
      const last = heaps[17] as TrackedHeap;
      r.clock.now = 0;
      await submit(
        r,
        heaps.map((h) => h.heap),
      );
      expect(localUsage(r)).toBe(18 * TILE);
      r.clock.now = 20_666;
      await submit(r, [last.heap]);
      expect(r.manager.getStats().trimmed).toBe(0);
      expect(residentNames(heaps)).toHaveLength(18);
      r.clock.now = 20_667;
      await submit(r, [last.heap]);
      // h0..h3 (least recently used) go: 18 → 14 tiles, exactly 70 %.
      expect(r.manager.getStats()).toMatchObject({ trimmed: 4, evictions: 4, evictedBytes: 4 * TILE });
      expect(residentNames(heaps)).toEqual(heaps.slice(4).map((h) => h.name));
      expect(localUsage(r)).toBe(14 * TILE);
      // At 70 % nothing is trimmed however long the heaps stay idle.
      r.clock.now = 1e9;
      await submit(r, [last.heap]);
      expect(r.manager.getStats().trimmed).toBe(4);
      expect(localUsage(r)).toBe(14 * TILE);
    } finally {
      r.d3d.destroy();
    }
  });

  test('at 100 % (grace 1 s): after 1 s idle, six heaps go (20 → 14 tiles)', async ({ device }) => {
    const r = await rig(device, BUDGET);
    try {
      const heaps = Array.from({ length: 20 }, (_, i) => trackedHeap(r, `h${i}`, 1));
      const last = heaps[19] as TrackedHeap;
      await submit(
        r,
        heaps.map((h) => h.heap),
      );
      r.clock.now = 1_000;
      await submit(r, [last.heap]);
      expect(r.manager.getStats().trimmed).toBe(0);
      r.clock.now = 1_001;
      await submit(r, [last.heap]);
      expect(r.manager.getStats().trimmed).toBe(6);
      expect(residentNames(heaps)).toEqual(heaps.slice(6).map((h) => h.name));
      expect(localUsage(r)).toBe(14 * TILE);
    } finally {
      r.d3d.destroy();
    }
  });

  test("only heaps idle longer than the grace period go, even if usage stays above 70 %; the batch's own heaps never do", async ({
    device,
  }) => {
    const r = await rig(device, BUDGET);
    try {
      const heaps = Array.from({ length: 18 }, (_, i) => trackedHeap(r, `h${i}`, 1));
      await submit(
        r,
        heaps.map((h) => h.heap),
      );
      r.clock.now = 15_000;
      await submit(
        r,
        heaps.slice(3).map((h) => h.heap),
      );
      // 20 700 ms later h0..h2 are past the grace period; h0 is in the batch, so only h1, h2 go.
      r.clock.now = 20_700;
      await submit(r, [heaps[0]?.heap as Heap]);
      expect(r.manager.getStats().trimmed).toBe(2);
      expect(residentNames(heaps)).toEqual(['h0', ...heaps.slice(3).map((h) => h.name)]);
      expect(localUsage(r)).toBe(16 * TILE); // 80 %: the rest were used too recently
    } finally {
      r.d3d.destroy();
    }
  });

  test('at or below 70 % nothing is trimmed, however old', async ({ device }) => {
    const r = await rig(device, BUDGET);
    try {
      const heaps = Array.from({ length: 14 }, (_, i) => trackedHeap(r, `h${i}`, 1));
      await submit(
        r,
        heaps.map((h) => h.heap),
      );
      r.clock.now = 1e12;
      await submit(r, [heaps[13]?.heap as Heap]);
      expect(r.manager.getStats()).toMatchObject({ trimmed: 0, evictions: 0 });
      expect(residentNames(heaps)).toHaveLength(14);
    } finally {
      r.d3d.destroy();
    }
  });
});

describe('executeCommandLists: a refused call changes nothing', () => {
  test('an open command list is refused before any paging', async ({ device }) => {
    const r = await rig(device, 1 * MIB);
    try {
      const a = trackedHeap(r, 'a', 12);
      await submit(r, [a.heap]);
      const b = trackedHeap(r, 'b', 12, true);
      const list = r.d3d.createCommandList('DIRECT');
      const set = r.manager.createResidencySet();
      set.open();
      set.insert(b.heap);
      set.close();
      const stats = r.manager.getStats();
      expectD3D12Error(() => r.manager.executeCommandLists(r.queue, [list], [set]), {
        argument: 'commandLists[0]',
        message: /still open/,
      });
      // Validation first: nothing was paged for a call that failed.
      expect([a.heap.resident, b.heap.resident]).toEqual([true, false]);
      expect(localUsage(r)).toBe(12 * TILE);
      expect(r.manager.getStats()).toEqual(stats);
    } finally {
      r.d3d.destroy();
    }
  });

  test('a residency set of another manager is refused', async ({ device }) => {
    const r = await rig(device, 2 * MIB);
    try {
      const a = trackedHeap(r, 'a', 2);
      const second = createResidencyManager(r.d3d);
      second.beginTrackingObject(a.heap);
      const foreign = second.createResidencySet();
      foreign.open();
      foreign.insert(a.heap);
      foreign.close();
      const list = r.d3d.createCommandList('DIRECT');
      list.close();
      expectD3D12Error(() => r.manager.executeCommandLists(r.queue, [list], [foreign]), {
        call: 'ResidencyManager.executeCommandLists',
        argument: 'residencySets[0]',
        message: /residency set of this manager/,
      });
      expect(r.manager.getStats().executions).toBe(0);
    } finally {
      r.d3d.destroy();
    }
  });
});

describe('executeCommandLists checks a batch once', () => {
  test("each list's states are checked against the queue's once: the execution reuses the check made before paging", async ({
    device,
  }) => {
    const r = await rig(device, 2 * MIB);
    const checks = vi.spyOn(ListStateTracker.prototype, 'check');
    try {
      const a = trackedHeap(r, 'a', 4, true);
      const b = trackedHeap(r, 'b', 4, true);
      const source = pattern(4 * TILE, 7);
      const upload = uploadBuffer(r.d3d, source);
      const lists = [a, b].map((target) => {
        const list = r.d3d.createCommandList('DIRECT');
        list.copyBufferRegion(target.buffer, 0, upload, 0, 4 * TILE);
        list.close();
        return list;
      });
      const set = r.manager.createResidencySet();
      set.open();
      set.insert(a.heap);
      set.insert(b.heap);
      set.close();
      checks.mockClear();
      r.manager.executeCommandLists(r.queue, lists, [set, null]);
      expect(checks).toHaveBeenCalledTimes(lists.length);
      await flush(r.d3d, r.queue);
      // Paged in, and executed on that one check.
      expect(residentNames([a, b])).toEqual(['a', 'b']);
      const [bytesA, bytesB] = await readThroughManager(r, [a.heap, b.heap], [a.buffer, b.buffer], 4 * TILE);
      expectBytes(bytesA as Uint8Array, source, 'a');
      expectBytes(bytesB as Uint8Array, source, 'b');
    } finally {
      checks.mockRestore();
      r.d3d.destroy();
    }
  });
});

describe("residency priorities order the manager's victims (setResidencyPriority)", () => {
  test('lower priority goes first, whatever the recency; equal priorities go least recently used first', async ({
    device,
  }) => {
    // Budget 32 tiles: four 8-tile heaps fill it; a fifth needs one of them to go.
    const r = await rig(device, 2 * MIB);
    try {
      const heaps = ['a', 'b', 'c', 'd'].map((name) => trackedHeap(r, name, 8, true));
      const next = ['e', 'f', 'g'].map((name) => trackedHeap(r, name, 8, true));
      const all = [...heaps, ...next];
      for (const h of heaps) await submit(r, [h.heap]);
      expect(residentNames(all)).toEqual(['a', 'b', 'c', 'd']);
      // Control, every priority NORMAL: e evicts a, the least recently used.
      await submit(r, [(next[0] as TrackedHeap).heap]);
      expect(residentNames(all)).toEqual(['b', 'c', 'd', 'e']);
      // b (now least recently used) HIGH, d (most recent but e) LOW: f evicts d, not b.
      r.d3d.setResidencyPriority([(heaps[1] as TrackedHeap).heap, (heaps[3] as TrackedHeap).heap], ['HIGH', 'LOW']);
      await submit(r, [(next[1] as TrackedHeap).heap]);
      expect(residentNames(all)).toEqual(['b', 'c', 'e', 'f']);
      // g: of the NORMAL heaps c is least recently used; b stays while any NORMAL heap is left.
      await submit(r, [(next[2] as TrackedHeap).heap]);
      expect(residentNames(all)).toEqual(['b', 'e', 'f', 'g']);
      expect(r.manager.getStats()).toMatchObject({ evictions: 3, overBudgetBatches: 0 });
    } finally {
      r.d3d.destroy();
    }
  });
});
