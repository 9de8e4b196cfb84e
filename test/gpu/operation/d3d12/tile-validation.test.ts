/**
 * Device.validateTileMappings: GPU-side validation of tile mappings. Validation of its arguments and
 * of its self-check hooks, one invalid field at a time beside a valid control; then operation: on a
 * device holding every kind of resource (committed, placed, reserved buffers and 2D/3D textures
 * with mips and packed tails, tiles into evicted and released heaps) the GPU's page table matches,
 * and each planted fault (an entry corrupted behind the CPU's back, a lost page-table write) is
 * found exactly, at the page and tile the test planted it, with the target the test mapped there.
 */
import { describe, expect } from 'vitest';
import {
  createDevice,
  MAX_DESCRIBED_MISMATCHES,
  type Device,
  type Heap,
  type Resource,
  type TileMappingValidation,
} from '../../../../src/index.js';
import { d3dTest } from '../../../harness/d3d-test.js';
import { TILE } from '../../../shared/d3d12-helpers.js';
import { expectD3D12Error, expectD3D12Rejection } from '../../../shared/expect-d3d12-error.js';
import { corruptPageTableEntryForTesting, dropNextPageTableWriteForTesting } from '../../../../src/testing/index.js';

const loose = (value: unknown): never => value as never;
const MIB = 1 << 20;

const test = d3dTest({ localMemoryBytes: 8 * MIB, nonLocalMemoryBytes: 4 * MIB });

const heapOf = (d3d: Device, tiles: number): Heap =>
  d3d.createHeap({ sizeInBytes: tiles * TILE, properties: { type: 'DEFAULT' } });
const reservedBuffer = (d3d: Device, tiles: number): Resource =>
  d3d.createReservedResource({ dimension: 'BUFFER', width: tiles * TILE }, 'COMMON');

/** Maps resource tiles [first, first + count) of a buffer to heap tiles [heapTile, ...). */
function mapTiles(d3d: Device, resource: Resource, first: number, count: number, heap: Heap, heapTile: number): void {
  d3d
    .createCommandQueue({ type: 'DIRECT' })
    .updateTileMappings(
      resource,
      [{ x: first, y: 0, z: 0, subresource: 0 }],
      [{ numTiles: count }],
      heap,
      ['NONE'],
      [heapTile],
      [count],
    );
}

function expectClean(result: TileMappingValidation, resources: number, pages: number): void {
  expect(result.mismatches).toEqual([]);
  expect(result).toEqual({ resources, pages, mismatchCount: 0, mismatches: [] });
}

describe('validateTileMappings: validation', () => {
  test("resources: left out, null or an array of this device's live resources, each once", async ({ d3d, device }) => {
    const call = 'validateTileMappings';
    const a = reservedBuffer(d3d, 2);
    const b = d3d.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width: TILE }, 'COMMON');
    for (const value of [1, 'all', {}, NaN, new Set([a]), true]) {
      await expectD3D12Rejection(d3d.validateTileMappings(loose(value)), {
        hresult: 'E_INVALIDARG',
        call,
        argument: 'resources',
        message: /must be an array of resources/,
      });
    }
    const other = await createDevice({ gpuDevice: device, localMemoryBytes: 4 * MIB, nonLocalMemoryBytes: 4 * MIB });
    const foreign = other.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: TILE },
      'COMMON',
    );
    for (const value of [foreign, {}, null, 7, heapOf(d3d, 1)]) {
      await expectD3D12Rejection(d3d.validateTileMappings(loose([a, value])), {
        hresult: 'E_INVALIDARG',
        call,
        argument: 'resources[1]',
        message: /must be a resource created by this device/,
      });
    }
    other.destroy();
    await expectD3D12Rejection(d3d.validateTileMappings([b, b]), {
      argument: 'resources[1]',
      message: /is listed twice/,
    });
    const gone = reservedBuffer(d3d, 1);
    gone.release();
    await expectD3D12Rejection(d3d.validateTileMappings([a, gone]), {
      argument: 'resources[1]',
      message: /was released/,
    });
    // Controls: every live resource (the released one is not among them), a list, an empty list.
    expectClean(await d3d.validateTileMappings(), 2, 3);
    expectClean(await d3d.validateTileMappings(null as never), 2, 3);
    expectClean(await d3d.validateTileMappings([a]), 1, 2);
    expectClean(await d3d.validateTileMappings([]), 0, 0);
  });

  test('a CPU-only device has no page table to check; a removed device refuses; the hooks alike', async ({
    d3d,
    device,
  }) => {
    const cpu = await createDevice({ gpuDevice: null });
    const cpuResource = cpu.createReservedResource({ dimension: 'BUFFER', width: TILE }, 'COMMON');
    expectD3D12Error(() => corruptPageTableEntryForTesting(cpu, cpuResource, 0), {
      call: 'corruptPageTableEntryForTesting',
      argument: 'this',
      message: /no GPU memory/,
    });
    expectD3D12Error(() => dropNextPageTableWriteForTesting(cpu), {
      call: 'dropNextPageTableWriteForTesting',
      argument: 'this',
      message: /no GPU memory/,
    });
    // Another device's resource is not this device's to corrupt.
    const other = await createDevice({ gpuDevice: device, localMemoryBytes: 4 * MIB, nonLocalMemoryBytes: 4 * MIB });
    expectD3D12Error(() => corruptPageTableEntryForTesting(d3d, reservedBuffer(other, 1), 0), {
      call: 'corruptPageTableEntryForTesting',
      argument: 'resource',
      message: /must be a resource created by this device/,
    });
    other.destroy();
    const mine = reservedBuffer(d3d, 1);
    await expectD3D12Rejection(cpu.validateTileMappings(), {
      hresult: 'E_INVALIDARG',
      call: 'validateTileMappings',
      argument: 'this',
      message: /no GPU memory/,
    });
    d3d.destroy();
    await expectD3D12Rejection(d3d.validateTileMappings(), {
      hresult: 'DXGI_ERROR_DEVICE_REMOVED',
      call: 'validateTileMappings',
      argument: 'this',
    });
    expectD3D12Error(() => corruptPageTableEntryForTesting(d3d, mine, 0), {
      hresult: 'DXGI_ERROR_DEVICE_REMOVED',
      call: 'corruptPageTableEntryForTesting',
      argument: 'this',
    });
    expectD3D12Error(() => dropNextPageTableWriteForTesting(d3d), {
      hresult: 'DXGI_ERROR_DEVICE_REMOVED',
      call: 'dropNextPageTableWriteForTesting',
      argument: 'this',
    });
  });

  test('corruptPageTableEntryForTesting: a live resource of this device, a page of its range, a 32-bit entry; nothing written when refused', async ({
    d3d,
  }) => {
    const call = 'corruptPageTableEntryForTesting';
    const resource = reservedBuffer(d3d, 4);
    for (const value of [{}, null, heapOf(d3d, 1), 3])
      expectD3D12Error(() => corruptPageTableEntryForTesting(d3d, loose(value), 0), {
        call,
        argument: 'resource',
        message: /must be a resource created by this device/,
      });
    for (const page of [-1, 4, 1.5, NaN, '0', undefined])
      expectD3D12Error(() => corruptPageTableEntryForTesting(d3d, resource, loose(page)), { call, argument: 'page' });
    for (const entry of [-1, 2 ** 32, 0.5, '1'])
      expectD3D12Error(() => corruptPageTableEntryForTesting(d3d, resource, 0, loose(entry)), {
        call,
        argument: 'entry',
      });
    const gone = reservedBuffer(d3d, 1);
    gone.release();
    expectD3D12Error(() => corruptPageTableEntryForTesting(d3d, gone, 0), {
      call,
      argument: 'resource',
      message: /was released/,
    });
    // Nothing was written by the refused calls.
    expectClean(await d3d.validateTileMappings(), 1, 4);
    // Controls: both ends of the page range, the largest entry.
    corruptPageTableEntryForTesting(d3d, resource, 0);
    corruptPageTableEntryForTesting(d3d, resource, 3, 0xffffffff);
    const result = await d3d.validateTileMappings();
    expect(result.mismatches.map((m) => m.page)).toEqual([0, 3]);
    // A NULL tile made resident (at a page some heap may hold, or none); the entry planted verbatim.
    expect(result.mismatches[0]?.found.kind).toMatch(/^(heap|unknown)$/);
    expect(result.mismatches[1]?.found).toEqual({ kind: 'evicted', heapId: 0xffffffff >>> 2 });
  });
});

describe('validateTileMappings: operation', () => {
  test('every kind of resource and mapping matches; pages counted per resource', async ({ d3d }) => {
    const heap = heapOf(d3d, 16);
    const committed = d3d.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: 3 * TILE },
      'COMMON',
    );
    const placed = d3d.createPlacedResource(heap, 4 * TILE, { dimension: 'BUFFER', width: 2 * TILE }, 'COMMON');
    const buffer = reservedBuffer(d3d, 8);
    mapTiles(d3d, buffer, 1, 3, heap, 10);
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    // Every range flag: REUSE_SINGLE_TILE, SKIP, NULL after a mapping.
    queue.updateTileMappings(
      buffer,
      [{ x: 4, y: 0, z: 0, subresource: 0 }],
      [{ numTiles: 4 }],
      heap,
      ['REUSE_SINGLE_TILE', 'SKIP', 'NULL'],
      [7, 0, 0],
      [2, 1, 1],
    );
    const texture = d3d.createReservedResource(
      {
        dimension: 'TEXTURE2D',
        width: 512,
        height: 512,
        mipLevels: 0,
        format: 'R8G8B8A8_UNORM',
        layout: '64KB_UNDEFINED_SWIZZLE',
      },
      'COMMON',
    );
    queue.updateTileMappings(
      texture,
      [{ x: 0, y: 0, z: 0, subresource: 0 }],
      [{ numTiles: 4, useBox: true, width: 2, height: 2, depth: 1 }],
      heap,
      ['NONE'],
      [12],
      [4],
    );
    const volume = d3d.createReservedResource(
      {
        dimension: 'TEXTURE3D',
        width: 64,
        height: 64,
        depthOrArraySize: 64,
        mipLevels: 0,
        format: 'R8G8B8A8_UNORM',
        layout: '64KB_UNDEFINED_SWIZZLE',
      },
      'COMMON',
    );
    const volumeTiles = d3d.getResourceTiling(volume).numTilesForEntireResource;
    queue.updateTileMappings(volume, null, null, heap, ['REUSE_SINGLE_TILE'], [15], [volumeTiles]);
    const pages = [committed, placed, buffer, texture, volume].reduce(
      (sum, r) => sum + Math.ceil(d3d.getResourceTiling(r).numTilesForEntireResource),
      0,
    );
    expectClean(await d3d.validateTileMappings(), 5, pages);
    // Evicted: the tiles and the placed resource point at a heap without memory; still matching.
    d3d.evict([heap]);
    expectClean(await d3d.validateTileMappings(), 5, pages);
    d3d.makeResident([heap]);
    expectClean(await d3d.validateTileMappings(), 5, pages);
  });

  test('a corrupted entry is found at its page and tile, with the target mapped there and the one planted', async ({
    d3d,
  }) => {
    const heap = heapOf(d3d, 8);
    const buffer = reservedBuffer(d3d, 8);
    mapTiles(d3d, buffer, 2, 3, heap, 4); // tiles 2, 3, 4 → heap tiles 4, 5, 6
    const texture = d3d.createReservedResource(
      {
        dimension: 'TEXTURE2D',
        width: 256,
        height: 256,
        mipLevels: 1,
        format: 'R8G8B8A8_UNORM',
        layout: '64KB_UNDEFINED_SWIZZLE',
      },
      'COMMON',
    );
    // 256×256 RGBA8 is 2×2 tiles of 128×128: tile (1, 1) of subresource 0 is tile 3.
    d3d
      .createCommandQueue({ type: 'DIRECT' })
      .updateTileMappings(texture, [{ x: 1, y: 1, z: 0, subresource: 0 }], [{ numTiles: 1 }], heap, ['NONE'], [7], [1]);
    expectClean(await d3d.validateTileMappings(), 2, 12);

    // A mapped tile made to point at the next physical page: found names heap tile 5's neighbour.
    corruptPageTableEntryForTesting(d3d, buffer, 3);
    let result = await d3d.validateTileMappings();
    expect(result.mismatchCount).toBe(1);
    expect(result.mismatches[0]).toMatchObject({
      resourceId: buffer.id,
      resource: buffer.label,
      page: 3,
      tile: { subresource: 0, x: 3, y: 0, z: 0 },
      expected: { kind: 'heap', heapId: heap.id, heapTile: 5 },
    });
    expect(result.mismatches[0]?.found).not.toEqual(result.mismatches[0]?.expected);
    // Repaired by rewriting the mapping (the CPU authority's write reaches the GPU again).
    mapTiles(d3d, buffer, 3, 1, heap, 5);
    expectClean(await d3d.validateTileMappings([buffer]), 1, 8);

    // A NULL tile made resident; a mapped texture tile made NULL.
    corruptPageTableEntryForTesting(d3d, buffer, 6);
    corruptPageTableEntryForTesting(d3d, texture, 3, 1 /* D3D12_PTE_NULL */);
    result = await d3d.validateTileMappings();
    expect(
      result.mismatches.map(({ resourceId, page, tile, expected, found }) => ({
        resourceId,
        page,
        tile,
        expected: expected.kind,
        found: found.kind,
      })),
    ).toEqual([
      {
        resourceId: buffer.id,
        page: 6,
        tile: { subresource: 0, x: 6, y: 0, z: 0 },
        expected: 'null',
        found: result.mismatches[0]?.found.kind,
      },
      { resourceId: texture.id, page: 3, tile: { subresource: 0, x: 1, y: 1, z: 0 }, expected: 'heap', found: 'null' },
    ]);
    expect(result.mismatches[0]?.found.kind).toMatch(/^(heap|unknown)$/);
    expect(result.mismatches[1]?.expected).toEqual({ kind: 'heap', heapId: heap.id, heapTile: 7 });
    // Plain data: survives JSON.
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  test("an evicted heap's tile corrupted: expected names the evicted heap and tile", async ({ d3d }) => {
    const heap = heapOf(d3d, 4);
    const buffer = reservedBuffer(d3d, 4);
    mapTiles(d3d, buffer, 0, 4, heap, 0);
    d3d.evict([heap]);
    corruptPageTableEntryForTesting(d3d, buffer, 2);
    const result = await d3d.validateTileMappings();
    expect(result.mismatches).toEqual([
      {
        resourceId: buffer.id,
        resource: buffer.label,
        page: 2,
        tile: { subresource: 0, x: 2, y: 0, z: 0 },
        expected: { kind: 'evicted', heapId: heap.id, heapTile: 2 },
        found: { kind: 'null' },
      },
    ]);
  });

  test('a lost page-table write is found: the GPU keeps the old entries of exactly the tiles that call changed', async ({
    d3d,
  }) => {
    const heap = heapOf(d3d, 8);
    const buffer = reservedBuffer(d3d, 16);
    mapTiles(d3d, buffer, 0, 2, heap, 0);
    dropNextPageTableWriteForTesting(d3d);
    mapTiles(d3d, buffer, 5, 4, heap, 2); // lost: tiles 5..8 stay NULL on the GPU
    const result = await d3d.validateTileMappings();
    expect(result.mismatchCount).toBe(4);
    expect(result.mismatches).toEqual(
      [5, 6, 7, 8].map((page) => ({
        resourceId: buffer.id,
        resource: buffer.label,
        page,
        tile: { subresource: 0, x: page, y: 0, z: 0 },
        expected: { kind: 'heap', heapId: heap.id, heapTile: page - 3 },
        found: { kind: 'null' },
      })),
    );
    // Only one write is lost: the next mapping call reaches the GPU.
    mapTiles(d3d, buffer, 5, 4, heap, 2);
    expectClean(await d3d.validateTileMappings(), 1, 16);
  });

  test('in queue order: a mapping held behind a queue wait is on neither side until the wait is satisfied', async ({
    d3d,
  }) => {
    const heap = heapOf(d3d, 4);
    const buffer = reservedBuffer(d3d, 4);
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const fence = d3d.createFence(0);
    queue.wait(fence, 1);
    queue.updateTileMappings(buffer, null, null, heap, ['NONE'], [0], [4]);
    expectClean(await d3d.validateTileMappings(), 1, 4);
    // Planted now, the corruption is overwritten by the held mapping once it runs: queue order.
    corruptPageTableEntryForTesting(d3d, buffer, 1);
    expect((await d3d.validateTileMappings()).mismatchCount).toBe(1);
    fence.signal(1);
    expectClean(await d3d.validateTileMappings(), 1, 4);
  });

  test('a reserved buffer of 32,768 tiles checks in one call; a corrupted last page is found with its coordinate', async ({
    d3d,
  }) => {
    const tiles = 32768;
    const heap = heapOf(d3d, 1);
    const buffer = reservedBuffer(d3d, tiles);
    d3d
      .createCommandQueue({ type: 'DIRECT' })
      .updateTileMappings(buffer, null, null, heap, ['REUSE_SINGLE_TILE'], [0], [tiles]);
    expectClean(await d3d.validateTileMappings([buffer]), 1, tiles);
    corruptPageTableEntryForTesting(d3d, buffer, tiles - 1, 1 /* D3D12_PTE_NULL */);
    const result = await d3d.validateTileMappings([buffer]);
    expect(result.mismatches).toEqual([
      {
        resourceId: buffer.id,
        resource: buffer.label,
        page: tiles - 1,
        tile: { subresource: 0, x: tiles - 1, y: 0, z: 0 },
        expected: { kind: 'heap', heapId: heap.id, heapTile: 0 },
        found: { kind: 'null' },
      },
    ]);
  });

  test(`more mismatches than ${MAX_DESCRIBED_MISMATCHES}: all counted, ${MAX_DESCRIBED_MISMATCHES} distinct pages described`, async ({
    d3d,
  }) => {
    const tiles = MAX_DESCRIBED_MISMATCHES + 6;
    const heap = heapOf(d3d, 1);
    const buffer = reservedBuffer(d3d, tiles);
    dropNextPageTableWriteForTesting(d3d);
    d3d
      .createCommandQueue({ type: 'DIRECT' })
      .updateTileMappings(buffer, null, null, heap, ['REUSE_SINGLE_TILE'], [0], [tiles]);
    const result = await d3d.validateTileMappings();
    expect(result.mismatchCount).toBe(tiles);
    expect(result.mismatches).toHaveLength(MAX_DESCRIBED_MISMATCHES);
    expect(new Set(result.mismatches.map((m) => m.page)).size).toBe(MAX_DESCRIBED_MISMATCHES);
    expect(result.mismatches.every((m) => m.found.kind === 'null' && m.expected.kind === 'heap')).toBe(true);
  });
});
