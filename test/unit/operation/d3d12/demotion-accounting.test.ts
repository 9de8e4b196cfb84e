/**
 * Demotion on a CPU-only device (gpuDevice: null): no pages move, but the accounting is the GPU
 * device's: which heaps are demoted (lowest priority first, within a priority the least recently
 * made resident), QueryVideoMemoryInfo's usage per segment, getResidencyStatus().demoted,
 * getMemoryStats() and the paging counters, promotion when room returns, and E_OUTOFMEMORY (changing
 * nothing) only when neither segment can take a heap.
 */
import { describe, expect, test } from 'vitest';
import { createDevice, type Device, type Heap } from '../../../../src/index.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';
import { TILE } from '../../../shared/d3d12-helpers.js';

/** LOCAL: a 16-tile pool with an 8-tile budget; NON_LOCAL: an 8-tile pool. */
const device = (): Promise<Device> =>
  createDevice({
    gpuDevice: null,
    localMemoryBytes: 16 * TILE,
    nonLocalMemoryBytes: 8 * TILE,
    localMemoryBudget: 8 * TILE,
  });
const heap = (d3d: Device, name: string, tiles: number, notResident = false): Heap => {
  const h = d3d.createHeap({
    sizeInBytes: tiles * TILE,
    properties: { type: 'DEFAULT' },
    flags: notResident ? ['CREATE_NOT_RESIDENT'] : [],
  });
  h.setName(name);
  return h;
};
const demoted = (d3d: Device): string[] =>
  d3d
    .getMemoryStats()
    .heaps.filter((h) => h.demoted)
    .map((h) => h.name);
const usage = (d3d: Device): [number, number] => [
  d3d.queryVideoMemoryInfo('LOCAL').currentUsage / TILE,
  d3d.queryVideoMemoryInfo('NON_LOCAL').currentUsage / TILE,
];

describe('demotion accounting without a GPU', () => {
  test('over budget: lowest priority, then least recently made resident, move to NON_LOCAL usage; room brings them back', async () => {
    const d3d = await device();
    const [a, b] = [heap(d3d, 'a', 3, true), heap(d3d, 'b', 3, true)];
    d3d.setResidencyPriority([a, b], ['NORMAL', 'HIGH']);
    d3d.makeResident([a, b]);
    expect([demoted(d3d), usage(d3d)]).toEqual([[], [6, 0]]);
    const c = heap(d3d, 'c', 3);
    // c (NORMAL, newest) stays; a (NORMAL, made resident before it) goes.
    expect([demoted(d3d), usage(d3d)]).toEqual([['a'], [6, 3]]);
    expect(d3d.getResidencyStatus(a)).toMatchObject({ segment: 'LOCAL', resident: true, demoted: true });
    expect(d3d.getPagingStats()).toMatchObject({ demotions: 1, demotedBytes: 3 * TILE, promotions: 0, restores: 2 });
    // A MINIMUM heap made resident lands demoted.
    const m = heap(d3d, 'm', 3, true);
    d3d.setResidencyPriority([m], ['MINIMUM']);
    d3d.makeResident([m]);
    expect([demoted(d3d), usage(d3d)]).toEqual([
      ['a', 'm'],
      [6, 6],
    ]);
    // Evicting c makes room for one: a (NORMAL) is promoted, not m (MINIMUM).
    d3d.evict([c]);
    expect([demoted(d3d), usage(d3d)]).toEqual([['m'], [6, 3]]);
    // Evicting b: m fits now.
    d3d.evict([b]);
    expect([demoted(d3d), usage(d3d)]).toEqual([[], [6, 0]]);
    expect(d3d.getPagingStats()).toMatchObject({ demotions: 1, promotions: 2, promotedBytes: 6 * TILE });
    const stats = d3d.getMemoryStats();
    expect([stats.segments.LOCAL.currentUsage, stats.segments.NON_LOCAL.currentUsage]).toEqual([6 * TILE, 0]);
    d3d.destroy();
  });

  test('E_OUTOFMEMORY only when neither segment has room, changing nothing; a released heap is room', async () => {
    const d3d = await device();
    // 12 tiles over an 8-tile budget, too big for NON_LOCAL's 8-tile pool: it stays, over budget.
    const big = heap(d3d, 'big', 12);
    expect([demoted(d3d), usage(d3d)]).toEqual([[], [12, 0]]);
    // 6 tiles: LOCAL's pool has 4 free, NON_LOCAL room for it: it lands demoted.
    const small = heap(d3d, 'small', 6, true);
    d3d.makeResident([small]);
    expect([demoted(d3d), usage(d3d)]).toEqual([['small'], [12, 6]]);
    // 4 tiles fill LOCAL's pool; nothing fits the 2 tiles left in NON_LOCAL: over budget.
    heap(d3d, 'third', 4);
    expect([demoted(d3d), usage(d3d)]).toEqual([['small'], [16, 6]]);
    const fourth = heap(d3d, 'fourth', 4, true);
    const before = { stats: d3d.getMemoryStats(), paging: d3d.getPagingStats() };
    expectD3D12Error(() => d3d.makeResident([fourth]), {
      hresult: 'E_OUTOFMEMORY',
      message:
        /needs 262144 bytes of LOCAL memory and 0 are free .*\(131072 bytes of NON_LOCAL memory are free within its budget\)/,
    });
    expect([d3d.getMemoryStats(), d3d.getPagingStats()]).toEqual([before.stats, before.paging]);
    expect(d3d.getResidencyStatus(fourth)).toMatchObject({ resident: false, residencyReferences: 0, demoted: false });
    // big released: LOCAL holds third (4) of its 8-tile budget; small (6) does not fit, fourth (4) does.
    big.release();
    expect([demoted(d3d), usage(d3d)]).toEqual([['small'], [4, 6]]);
    d3d.makeResident([fourth]);
    expect([demoted(d3d), usage(d3d)]).toEqual([['small'], [8, 6]]);
    d3d.destroy();
  });
});
