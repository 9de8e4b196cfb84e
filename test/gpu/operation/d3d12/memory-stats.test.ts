/**
 * Device.getMemoryStats / buildStatsString (D3D12MA's BuildStatsString in spirit) and
 * getResidencyStatus: what they say of each segment, heap and resource is compared with what the
 * test did through the API (sizes, addresses, offsets, tiles mapped, maps, residency, budget and
 * usage), after each step of a sequence; the JSON text parses back to the same data; the answers are
 * copies. getResidencyStatus: each kind of wrong argument on its own, beside valid controls.
 */
import { describe, expect } from 'vitest';
import {
  createDevice,
  type Device,
  type HeapStats,
  type MemoryStats,
  type ResourceStats,
} from '../../../../src/index.js';
import { d3dTest } from '../../../harness/d3d-test.js';
import { flush, TILE } from '../../../shared/d3d12-helpers.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';

const MIB = 2 ** 20;
const loose = (value: unknown): never => value as never;
const hex = (value: bigint): string => `0x${value.toString(16)}`;

/** A GPU-backed device per test: 4 MiB pools, the LOCAL budget 2 MiB. */
const test = d3dTest({ localMemoryBytes: 4 * MIB, nonLocalMemoryBytes: 4 * MIB, localMemoryBudget: 2 * MIB });

const heapNamed = (stats: MemoryStats, name: string): HeapStats => {
  const found = stats.heaps.find((heap) => heap.name === name);
  if (!found)
    throw new Error(`no heap named '${name}' in the stats: ${stats.heaps.map((heap) => heap.label).join(', ')}`);
  return found;
};
const resourceNamed = (stats: MemoryStats, name: string): ResourceStats => {
  const found = stats.resources.find((resource) => resource.name === name);
  if (!found) throw new Error(`no resource named '${name}' in the stats`);
  return found;
};

describe('getMemoryStats: segments', () => {
  test('a new device: the pools asked for, the budget, nothing used, no heaps or resources', ({ d3d }) => {
    const stats = d3d.getMemoryStats();
    expect(stats.segments.LOCAL).toEqual({
      poolBytes: 4 * MIB,
      budget: 2 * MIB,
      currentUsage: 0,
      currentReservation: 0,
      freeBytes: 4 * MIB,
      heaps: 0,
      residentHeaps: 0,
    });
    expect(stats.segments.NON_LOCAL).toEqual({
      poolBytes: 4 * MIB,
      budget: 4 * MIB,
      currentUsage: 0,
      currentReservation: 0,
      freeBytes: 4 * MIB,
      heaps: 0,
      residentHeaps: 0,
    });
    expect([stats.heaps, stats.resources]).toEqual([[], []]);
    expect(stats.paging).toEqual({
      evictions: 0,
      evictedBytes: 0,
      restores: 0,
      restoredBytes: 0,
      demotions: 0,
      demotedBytes: 0,
      promotions: 0,
      promotedBytes: 0,
    });
  });

  test('usage, free bytes and the reservation follow heaps and QueryVideoMemoryInfo', ({ d3d }) => {
    d3d.createHeap({ sizeInBytes: 3 * TILE, properties: { type: 'DEFAULT' } });
    d3d.createHeap({ sizeInBytes: TILE + 1, properties: { type: 'UPLOAD' } }); // whole pages count: 2
    d3d.setVideoMemoryReservation('LOCAL', MIB);
    const stats = d3d.getMemoryStats();
    for (const segment of ['LOCAL', 'NON_LOCAL'] as const) {
      const info = d3d.queryVideoMemoryInfo(segment);
      expect(stats.segments[segment]).toMatchObject({
        budget: info.budget,
        currentUsage: info.currentUsage,
        currentReservation: info.currentReservation,
      });
    }
    expect(stats.segments.LOCAL).toMatchObject({
      currentUsage: 3 * TILE,
      freeBytes: 4 * MIB - 3 * TILE,
      currentReservation: MIB,
      heaps: 1,
      residentHeaps: 1,
    });
    expect(stats.segments.NON_LOCAL).toMatchObject({
      currentUsage: 2 * TILE,
      freeBytes: 4 * MIB - 2 * TILE,
      heaps: 1,
      residentHeaps: 1,
    });
  });
});

describe('getMemoryStats: heaps and resources', () => {
  test('each heap and resource as created: kind, sizes, addresses, heap and offset, tiles', ({ d3d }) => {
    const heap = d3d.createHeap({
      sizeInBytes: 4 * TILE,
      properties: { type: 'DEFAULT' },
      flags: ['ALLOW_ONLY_BUFFERS'],
    });
    heap.setName('pool');
    const placed = d3d.createPlacedResource(heap, TILE, { dimension: 'BUFFER', width: 2 * TILE }, 'COMMON');
    placed.setName('placed');
    const committed = d3d.createCommittedResource(
      { type: 'UPLOAD' },
      [],
      { dimension: 'BUFFER', width: 1000 },
      'GENERIC_READ',
    );
    committed.setName('upload');
    const reserved = d3d.createReservedResource({ dimension: 'BUFFER', width: 3 * TILE }, 'COMMON');
    reserved.setName('reserved');
    const stats = d3d.getMemoryStats();

    expect(heapNamed(stats, 'pool')).toMatchObject({
      kind: 'heap',
      type: 'DEFAULT',
      segment: 'LOCAL',
      sizeInBytes: 4 * TILE,
      residentBytes: 4 * TILE,
      resident: true,
      demoted: false,
      residencyReferences: 1,
      residencyPriority: 0x78000000,
      mappedResources: 0,
      released: false,
    });
    const placedStats = resourceNamed(stats, 'placed');
    expect(heapNamed(stats, 'pool').resources).toEqual([placedStats.id]);
    expect(placedStats).toMatchObject({
      kind: 'placed',
      dimension: 'BUFFER',
      sizeInBytes: 2 * TILE,
      heap: heapNamed(stats, 'pool').id,
      heapOffset: TILE,
      mapCount: 0,
      released: false,
      addressRange: {
        start: hex(placed.getGPUVirtualAddress()),
        end: hex(placed.getGPUVirtualAddress() + BigInt(2 * TILE)),
      },
    });
    expect(placedStats.tiles).toBeUndefined();

    const uploadStats = resourceNamed(stats, 'upload');
    const implicit = stats.heaps.find((h) => h.kind === 'implicit');
    expect(implicit).toMatchObject({
      committedResource: uploadStats.id,
      type: 'UPLOAD',
      segment: 'NON_LOCAL',
      sizeInBytes: TILE,
      residentBytes: TILE,
      resources: [uploadStats.id],
    });
    // A buffer occupies whole 64 KiB pages (GetResourceAllocationInfo's SizeInBytes), whatever its width.
    expect(uploadStats).toMatchObject({
      kind: 'committed',
      heap: implicit?.id,
      heapOffset: 0,
      sizeInBytes: TILE,
      addressRange: { start: hex(committed.getGPUVirtualAddress()) },
    });

    expect(resourceNamed(stats, 'reserved')).toMatchObject({
      kind: 'reserved',
      tiles: { total: 3, mapped: 0 },
      addressRange: { start: hex(reserved.getGPUVirtualAddress()) },
    });
    expect(resourceNamed(stats, 'reserved').heap).toBeUndefined();
  });

  test('tiles mapped follow updateTileMappings (mapped, then one tile back to NULL)', async ({ d3d }) => {
    const heap = d3d.createHeap({ sizeInBytes: 2 * TILE, properties: { type: 'DEFAULT' } });
    const reserved = d3d.createReservedResource({ dimension: 'BUFFER', width: 4 * TILE }, 'COMMON');
    reserved.setName('tiled');
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    queue.updateTileMappings(
      reserved,
      [{ x: 1, y: 0, z: 0, subresource: 0 }],
      [{ numTiles: 2 }],
      heap,
      ['NONE'],
      [0],
      [2],
    );
    expect(resourceNamed(d3d.getMemoryStats(), 'tiled').tiles).toEqual({ total: 4, mapped: 2 });
    queue.updateTileMappings(
      reserved,
      [{ x: 2, y: 0, z: 0, subresource: 0 }],
      [{ numTiles: 1 }],
      null,
      ['NULL'],
      null,
      [1],
    );
    expect(resourceNamed(d3d.getMemoryStats(), 'tiled').tiles).toEqual({ total: 4, mapped: 1 });
    await flush(d3d, queue);
  });

  test('evict and makeResident: residency, references, usage and paging counters', async ({ d3d }) => {
    const heap = d3d.createHeap({ sizeInBytes: 2 * TILE, properties: { type: 'DEFAULT' } });
    heap.setName('paged');
    d3d.evict([heap]);
    await flush(d3d, d3d.createCommandQueue({ type: 'DIRECT' }));
    let stats = d3d.getMemoryStats();
    expect(heapNamed(stats, 'paged')).toMatchObject({ resident: false, residencyReferences: 0 });
    expect(stats.segments.LOCAL).toMatchObject({ currentUsage: 0, freeBytes: 4 * MIB, heaps: 1, residentHeaps: 0 });
    expect(stats.paging).toEqual({
      evictions: 1,
      evictedBytes: 2 * TILE,
      restores: 0,
      restoredBytes: 0,
      demotions: 0,
      demotedBytes: 0,
      promotions: 0,
      promotedBytes: 0,
    });
    d3d.makeResident([heap]);
    d3d.makeResident([heap]);
    stats = d3d.getMemoryStats();
    expect(heapNamed(stats, 'paged')).toMatchObject({ resident: true, residencyReferences: 2 });
    expect(stats.segments.LOCAL).toMatchObject({ currentUsage: 2 * TILE, residentHeaps: 1 });
    expect(stats.paging).toEqual({
      evictions: 1,
      evictedBytes: 2 * TILE,
      restores: 1,
      restoredBytes: 2 * TILE,
      demotions: 0,
      demotedBytes: 0,
      promotions: 0,
      promotedBytes: 0,
    });
    expect(d3d.getMemoryStats().paging).toEqual(d3d.getPagingStats());
  });

  test('priorities, maps and releases show as the API left them', ({ d3d }) => {
    const heap = d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'UPLOAD' } });
    heap.setName('upload heap');
    const buffer = d3d.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: TILE }, 'GENERIC_READ');
    buffer.setName('mapped');
    d3d.setResidencyPriority([heap], ['HIGH']);
    buffer.map();
    buffer.map();
    let stats = d3d.getMemoryStats();
    expect(heapNamed(stats, 'upload heap')).toMatchObject({ residencyPriority: 0xa0010000, mappedResources: 2 });
    expect(resourceNamed(stats, 'mapped').mapCount).toBe(2);
    buffer.unmap();
    buffer.unmap();
    // A released heap stays while its placed resource holds it; it goes with the resource.
    heap.release();
    stats = d3d.getMemoryStats();
    expect(heapNamed(stats, 'upload heap')).toMatchObject({ released: true, mappedResources: 0 });
    buffer.release();
    stats = d3d.getMemoryStats();
    expect(stats.heaps.map((h) => h.name)).not.toContain('upload heap');
    expect(stats.resources.map((r) => r.name)).not.toContain('mapped');
    expect(stats.segments.NON_LOCAL).toMatchObject({ currentUsage: 0, heaps: 0 });
  });
});

describe('getMemoryStats: data', () => {
  test('buildStatsString is the stats as JSON, and parses back to the same data', ({ d3d }) => {
    const heap = d3d.createHeap({ sizeInBytes: 2 * TILE, properties: { type: 'DEFAULT' } });
    heap.setName('with "quotes" and \\ backslash');
    d3d.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: TILE }, 'COMMON');
    d3d.createReservedResource(
      { dimension: 'TEXTURE2D', width: 512, height: 512, format: 'R8G8B8A8_UNORM', layout: '64KB_UNDEFINED_SWIZZLE' },
      'COMMON',
    );
    const text = d3d.buildStatsString();
    expect(JSON.parse(text)).toEqual(d3d.getMemoryStats());
    expect(JSON.parse(JSON.stringify(d3d.getMemoryStats()))).toEqual(d3d.getMemoryStats());
  });

  test('the answer is a copy: changing it changes nothing the device reports next', ({ d3d }) => {
    d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
    const first = d3d.getMemoryStats();
    const before = JSON.stringify(first);
    first.segments.LOCAL.currentUsage = -1;
    (first.heaps[0] as HeapStats).resident = false;
    first.paging.evictions = 99;
    expect(JSON.stringify(d3d.getMemoryStats())).toBe(before);
  });

  test('a CPU-only device answers too: its nominal pools, usage bookkeeping, objects', async () => {
    const d3d = await createDevice({ gpuDevice: null, localMemoryBytes: 8 * MIB });
    d3d.createHeap({ sizeInBytes: 3 * TILE, properties: { type: 'DEFAULT' } });
    const stats = d3d.getMemoryStats();
    expect(stats.segments.LOCAL).toMatchObject({
      poolBytes: 8 * MIB,
      currentUsage: 3 * TILE,
      freeBytes: 8 * MIB - 3 * TILE,
      heaps: 1,
    });
    expect(JSON.parse(d3d.buildStatsString())).toEqual(stats);
  });
});

describe('getResidencyStatus', () => {
  test('valid controls: a heap and a committed resource, as their residency API calls left them', ({ d3d }) => {
    const heap = d3d.createHeap({ sizeInBytes: TILE + 1, properties: { type: 'DEFAULT' } });
    const committed = d3d.createCommittedResource(
      { type: 'UPLOAD' },
      [],
      { dimension: 'BUFFER', width: TILE },
      'GENERIC_READ',
    );
    expect(d3d.getResidencyStatus(heap)).toEqual({
      sizeInBytes: 2 * TILE,
      segment: 'LOCAL',
      resident: true,
      demoted: false,
      residencyReferences: 1,
      mapped: false,
      priority: 0x78000000,
    });
    d3d.makeResident([heap]);
    committed.map();
    d3d.evict([committed]); // mapped memory stays resident
    expect(d3d.getResidencyStatus(heap)).toMatchObject({ residencyReferences: 2, resident: true });
    expect(d3d.getResidencyStatus(committed)).toEqual({
      sizeInBytes: TILE,
      segment: 'NON_LOCAL',
      resident: true,
      demoted: false,
      residencyReferences: 0,
      mapped: true,
      priority: 0x78000000,
    });
    committed.unmap();
    expect(d3d.getResidencyStatus(committed)).toMatchObject({ resident: false, mapped: false });
  });

  test('priority: what setResidencyPriority set, for a heap and for a committed resource', ({ d3d }) => {
    const heap = d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
    const committed = d3d.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: TILE },
      'COMMON',
    );
    d3d.setResidencyPriority([heap, committed], ['HIGH', 0x1234]);
    expect([d3d.getResidencyStatus(heap).priority, d3d.getResidencyStatus(committed).priority]).toEqual([
      0xa0010000, 0x1234,
    ]);
  });

  test('status: an object given is filled and returned (no allocation); anything else is refused, filling nothing', ({
    d3d,
  }) => {
    const heap = d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
    const out = {} as ReturnType<Device['getResidencyStatus']>;
    expect(d3d.getResidencyStatus(heap, out)).toBe(out);
    expect(out).toEqual(d3d.getResidencyStatus(heap));
    for (const bad of [null, 5, 'status', []]) {
      expectD3D12Error(() => d3d.getResidencyStatus(heap, loose(bad)), {
        hresult: 'E_INVALIDARG',
        call: 'getResidencyStatus',
        argument: 'status',
        message: /must be an object to fill, or omitted/,
      });
    }
    // A bad pageable is reported first, and the object given is left as it was.
    const untouched = { sizeInBytes: -1 } as ReturnType<Device['getResidencyStatus']>;
    expectD3D12Error(() => d3d.getResidencyStatus(loose(null), untouched), { argument: 'pageable' });
    expect(untouched).toEqual({ sizeInBytes: -1 });
  });

  const call = 'getResidencyStatus';
  const argument = 'pageable';

  test('a placed or reserved resource is not pageable (its heaps are)', ({ d3d }) => {
    const heap = d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
    const placed = d3d.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: TILE }, 'COMMON');
    const reserved = d3d.createReservedResource({ dimension: 'BUFFER', width: TILE }, 'COMMON');
    expectD3D12Error(() => d3d.getResidencyStatus(placed), {
      hresult: 'E_INVALIDARG',
      call,
      argument,
      message: /placed resource #\d+ is not pageable: a placed resource pages with its heap/,
    });
    expectD3D12Error(() => d3d.getResidencyStatus(reserved), {
      hresult: 'E_INVALIDARG',
      call,
      argument,
      message: /reserved resource #\d+ is not pageable/,
    });
  });

  test("a committed resource's implicit heap is not an API object", ({ d3d }) => {
    const committed = d3d.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: TILE },
      'COMMON',
    );
    const implicit = (committed as unknown as { heap: unknown }).heap;
    expectD3D12Error(() => d3d.getResidencyStatus(loose(implicit)), {
      hresult: 'E_INVALIDARG',
      call,
      argument,
      message: /must be a heap, committed resource or shader-visible descriptor heap of this device/,
    });
  });

  test("another device's heap", async ({ d3d, device }) => {
    const other = await createDevice({ gpuDevice: device, localMemoryBytes: 4 * MIB, nonLocalMemoryBytes: 4 * MIB });
    const foreign = other.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
    expectD3D12Error(() => d3d.getResidencyStatus(foreign), {
      hresult: 'E_INVALIDARG',
      call,
      argument,
      message: /of this device/,
    });
    other.destroy();
  });

  test('a released heap and a released committed resource', ({ d3d }) => {
    const heap = d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
    heap.setName('gone');
    heap.release();
    expectD3D12Error(() => d3d.getResidencyStatus(heap), {
      hresult: 'E_INVALIDARG',
      call,
      argument,
      message: /heap #\d+ 'gone' was released/,
    });
    const committed = d3d.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: TILE },
      'COMMON',
    );
    committed.release();
    expectD3D12Error(() => d3d.getResidencyStatus(committed), {
      hresult: 'E_INVALIDARG',
      call,
      argument,
      message: /committed resource #\d+ was released/,
    });
  });

  test.for<[string, unknown]>([
    ['null', null],
    ['undefined', undefined],
    ['a number', 7],
    ['a string', 'heap'],
    ['a look-alike object', { resident: true, residencyReferences: 1 }],
  ])('%s', ([, value], { d3d }) => {
    expectD3D12Error(() => d3d.getResidencyStatus(loose(value)), {
      hresult: 'E_INVALIDARG',
      call,
      argument,
      message: /must be a heap, committed resource or shader-visible descriptor heap of this device/,
    });
  });
});
