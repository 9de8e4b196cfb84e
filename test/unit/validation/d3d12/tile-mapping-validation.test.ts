/**
 * updateTileMappings and copyTileMappings validation, CTS style: each case changes one field of a
 * valid call, expects E_INVALIDARG naming the call, the argument and the rule, checks that the
 * failed call changed no mapping of any resource, and then runs the valid control call.
 *
 * Resources (tilings derived in tiling.test.ts), on a tier-4 device:
 *   buf  buffer of 8 tiles
 *   tex  512×512 RGBA8, 10 mips: mip 0 4×4 tiles (0..15), mip 1 2×2 (16..19), mip 2 1×1 (20),
 *        mips 3..9 packed in tile 21; 10 subresources
 *   wide 1024×128 RGBA8, 2 mips: mip 0 8×1 tiles (0..7), mip 1 packed in tiles 8, 9
 *   arr  the same, 2 slices: slice 0 tiles 0..9 (tail 8, 9), slice 1 tiles 10..19 (tail 18, 19)
 *   vol  64×64×64 RGBA32F, 3 mips: mip 0 4×4×4 (0..63), mip 1 2×2×2 (64..71), mip 2 (72)
 *   heap 16 tiles, DEFAULT; every resource starts fully mapped into `pre` (so that "unchanged"
 *   means something).
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { createDevice } from '../../../../src/index.js';
import type {
  CommandQueue,
  Device,
  Heap,
  HeapFlag,
  HeapProperties,
  Resource,
  ResourceDesc,
  TiledResourceCoordinate,
  TileRegionSize,
} from '../../../../src/index.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';
import { getTileMappingForTesting } from '../../../../src/testing/index.js';

interface Ctx {
  device: Device;
  queue: CommandQueue;
  heap: Heap;
  pre: Heap;
  buf: Resource;
  tex: Resource;
  wide: Resource;
  arr: Resource;
  vol: Resource;
  all: Resource[];
}

let c: Ctx;

const reservedDesc = (desc: ResourceDesc): ResourceDesc =>
  desc.dimension === 'BUFFER' ? desc : { layout: '64KB_UNDEFINED_SWIZZLE', ...desc };

beforeEach(async () => {
  const device = await createDevice({ tiledResourcesTier: 4 });
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  const reserved = (desc: ResourceDesc) => device.createReservedResource(reservedDesc(desc), 'COMMON');
  const heap = device.createHeap({ sizeInBytes: 16 * 65536, properties: { type: 'DEFAULT' } });
  const pre = device.createHeap({ sizeInBytes: 128 * 65536, properties: { type: 'DEFAULT' } });
  const buf = reserved({ dimension: 'BUFFER', width: 8 * 65536 });
  const tex = reserved({ dimension: 'TEXTURE2D', format: 'R8G8B8A8_UNORM', width: 512, height: 512, mipLevels: 10 });
  const wide = reserved({ dimension: 'TEXTURE2D', format: 'R8G8B8A8_UNORM', width: 1024, height: 128, mipLevels: 2 });
  const arr = reserved({
    dimension: 'TEXTURE2D',
    format: 'R8G8B8A8_UNORM',
    width: 1024,
    height: 128,
    mipLevels: 2,
    depthOrArraySize: 2,
  });
  const vol = reserved({
    dimension: 'TEXTURE3D',
    format: 'R32G32B32A32_FLOAT',
    width: 64,
    height: 64,
    depthOrArraySize: 64,
    mipLevels: 3,
  });
  const all = [buf, tex, wide, arr, vol];
  // Pre-map every resource, each from a different offset in `pre`, so tables differ from NULL.
  all.forEach((resource, i) => queue.updateTileMappings(resource, null, null, pre, null, [i], null));
  c = { device, queue, heap, pre, buf, tex, wide, arr, vol, all };
});

type Snapshot = (string | null)[][];

function snapshot(resources: Resource[]): Snapshot {
  return resources.map((resource) => {
    const n = c.device.getResourceTiling(resource).numTilesForEntireResource;
    return Array.from({ length: n }, (_, tile) => {
      const m = getTileMappingForTesting(resource, tile);
      return m ? `${m.heap.id}:${m.heapTileOffset}` : null;
    });
  });
}

/** The arguments of one updateTileMappings call (loosely typed so a case can pass invalid values). */
interface Update {
  resource: Resource;
  coords: TiledResourceCoordinate[] | null;
  sizes: TileRegionSize[] | null;
  heap: Heap | null;
  flags: unknown;
  offsets: number[] | null;
  counts: number[] | null;
  mappingFlags?: unknown;
}

const call = (u: Update) => () =>
  c.queue.updateTileMappings(
    u.resource,
    u.coords,
    u.sizes,
    u.heap,
    u.flags as never,
    u.offsets,
    u.counts,
    u.mappingFlags as never,
  );

const at = (x: number, subresource = 0, y = 0, z = 0): TiledResourceCoordinate => ({ x, y, z, subresource });
const n = (numTiles: number): TileRegionSize => ({ numTiles });
const box = (width: number, height: number, depth: number, numTiles = width * height * depth): TileRegionSize => ({
  numTiles,
  useBox: true,
  width,
  height,
  depth,
});

/**
 * The invalid call (the valid one with `change` applied) fails as expected and changes nothing;
 * then the valid control call succeeds.
 */
function rejects(
  valid: Update,
  change: Partial<Update>,
  argument: string,
  message: RegExp,
  resources: Resource[] = c.all,
): void {
  const before = snapshot(resources);
  expectD3D12Error(call({ ...valid, ...change }), {
    hresult: 'E_INVALIDARG',
    call: 'updateTileMappings',
    argument,
    message,
  });
  expect(snapshot(resources)).toEqual(before);
  expect(call(valid)).not.toThrow();
}

/** Objects that pass for `real` by shape or prototype and are not it: an object on its prototype, one with its fields copied, a Proxy of it. */
function lookAlikes<T extends object>(real: T): T[] {
  const onPrototype = (): T => Object.create(Object.getPrototypeOf(real) as object | null) as T;
  return [onPrototype(), Object.assign(onPrototype(), real), new Proxy(real, {})];
}

/** One NONE range from heap tile 0 over `tiles` tiles of one region. */
const one = (
  resource: Resource,
  coordinate: TiledResourceCoordinate,
  size: TileRegionSize,
  tiles = size.numTiles,
): Update => ({
  resource,
  coords: [coordinate],
  sizes: [size],
  heap: c.heap,
  flags: ['NONE'],
  offsets: [0],
  counts: [tiles],
});

describe('the resource', () => {
  test('a committed resource has no tile mappings', () => {
    const committed = c.device.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: 8 * 65536 },
      'COMMON',
    );
    rejects(one(c.buf, at(0), n(1)), { resource: committed }, 'resource', /not a reserved resource/);
  });

  test('a placed resource has no tile mappings', () => {
    const placed = c.device.createPlacedResource(c.pre, 0, { dimension: 'BUFFER', width: 65536 }, 'COMMON');
    rejects(one(c.buf, at(0), n(1)), { resource: placed }, 'resource', /not a reserved resource/);
  });

  test('a released resource', () => {
    const doomed = c.device.createReservedResource({ dimension: 'BUFFER', width: 8 * 65536 }, 'COMMON');
    expect(call(one(doomed, at(0), n(1)))).not.toThrow();
    doomed.release();
    rejects(one(c.buf, at(0), n(1)), { resource: doomed }, 'resource', /was released/);
  });

  test('a resource of another device', async () => {
    const otherDevice = await createDevice({ tiledResourcesTier: 4 });
    const foreign = otherDevice.createReservedResource({ dimension: 'BUFFER', width: 65536 }, 'COMMON');
    rejects(one(c.buf, at(0), n(1)), { resource: foreign }, 'resource', /created by this device/);
  });

  test('look-alikes of a resource: its prototype, a copy of its fields, a Proxy of it', () => {
    for (const fake of lookAlikes(c.buf))
      rejects(one(c.buf, at(0), n(1)), { resource: fake }, 'resource', /created by this device/);
  });
});

describe('region coordinates', () => {
  test('x: last tile of mip 0 passes, one past fails', () => {
    rejects(
      one(c.tex, at(3), n(1)),
      { coords: [at(4)] },
      'regionStartCoordinates[0].x',
      /subresource 0 is 4×4×1 tiles, got x=4/,
    );
  });

  test('y: last row passes, one past fails', () => {
    rejects(
      one(c.tex, at(0, 0, 3), n(1)),
      { coords: [at(0, 0, 4)] },
      'regionStartCoordinates[0].y',
      /4×4×1 tiles, got y=4/,
    );
  });

  test('z: 0 passes on a 2D texture, 1 fails', () => {
    rejects(one(c.tex, at(0, 0, 0, 0), n(1)), { coords: [at(0, 0, 0, 1)] }, 'regionStartCoordinates[0].z', /got z=1/);
  });

  test('z: last slice of a volume passes, one past fails', () => {
    rejects(
      one(c.vol, at(0, 0, 0, 3), n(1)),
      { coords: [at(0, 0, 0, 4)] },
      'regionStartCoordinates[0].z',
      /4×4×4 tiles, got z=4/,
    );
  });

  test('x in mip 1 (2×2 tiles): 1 passes, 2 fails', () => {
    rejects(
      one(c.tex, at(1, 1), n(1)),
      { coords: [at(2, 1)] },
      'regionStartCoordinates[0].x',
      /subresource 1 is 2×2×1 tiles, got x=2/,
    );
  });

  test('x in a buffer: 7 passes, 8 fails', () => {
    rejects(one(c.buf, at(7), n(1)), { coords: [at(8)] }, 'regionStartCoordinates[0].x', /got x=8/);
  });

  test('a negative or fractional coordinate', () => {
    rejects(one(c.buf, at(0), n(1)), { coords: [at(-1)] }, 'regionStartCoordinates[0].x', /at least 0/);
    rejects(one(c.buf, at(1), n(1)), { coords: [at(1.5)] }, 'regionStartCoordinates[0].x', /integer/);
  });

  test('the error names the offending region', () => {
    rejects(
      { ...one(c.buf, at(0), n(1)), coords: [at(0), at(7)], sizes: [n(1), n(1)], counts: [2] },
      { coords: [at(0), at(8)] },
      'regionStartCoordinates[1].x',
      /got x=8/,
    );
  });

  test('subresource: the last passes, one past fails', () => {
    // tex has 10 subresources; 9 is packed (x = 0 covers its one-tile tail).
    rejects(
      one(c.tex, at(0, 9), n(1)),
      { coords: [at(0, 10)] },
      'regionStartCoordinates[0].subresource',
      /less than the resource's 10 subresources, got 10/,
    );
    // A buffer has one subresource; a 2-slice, 2-mip array has 4.
    rejects(
      one(c.buf, at(0, 0), n(1)),
      { coords: [at(0, 1)] },
      'regionStartCoordinates[0].subresource',
      /1 subresources, got 1/,
    );
    rejects(
      one(c.arr, at(0, 3), n(2)),
      { coords: [at(0, 4)] },
      'regionStartCoordinates[0].subresource',
      /4 subresources, got 4/,
    );
  });
});

describe('region sizes', () => {
  test('box width: to the edge passes, one past fails', () => {
    rejects(
      one(c.tex, at(2), box(2, 1, 1)),
      { sizes: [box(3, 1, 1)], counts: [3] },
      'regionSizes[0].width',
      /runs past subresource 0 \(4 tiles along x\): x=2 \+ width=3/,
    );
  });

  test('box height: to the edge passes, one past fails', () => {
    rejects(
      one(c.tex, at(0, 0, 2), box(1, 2, 1)),
      { sizes: [box(1, 3, 1)], counts: [3] },
      'regionSizes[0].height',
      /along y\): y=2 \+ height=3/,
    );
  });

  test('box depth: to the edge of a volume passes, one past fails', () => {
    rejects(
      one(c.vol, at(0, 0, 0, 2), box(1, 1, 2)),
      { sizes: [box(1, 1, 3)], counts: [3] },
      'regionSizes[0].depth',
      /along z\): z=2 \+ depth=3/,
    );
  });

  test('box depth on a 2D texture: 1 passes, 2 fails', () => {
    rejects(
      one(c.tex, at(0), box(1, 1, 1)),
      { sizes: [box(1, 1, 2)], counts: [2] },
      'regionSizes[0].depth',
      /runs past subresource 0/,
    );
  });

  test('box in mip 1 of a volume (2×2×2): the whole mip passes, one more along x fails', () => {
    rejects(
      one(c.vol, at(0, 1), box(2, 2, 2)),
      { sizes: [box(3, 2, 2)], counts: [12] },
      'regionSizes[0].width',
      /runs past subresource 1/,
    );
  });

  test('numTiles must equal the box volume', () => {
    rejects(
      one(c.tex, at(0), box(2, 2, 1), 4),
      { sizes: [box(2, 2, 1, 3)], counts: [3] },
      'regionSizes[0].numTiles',
      /width × height × depth \(4\), got 3/,
    );
    rejects(
      one(c.tex, at(0), box(2, 2, 1), 4),
      { sizes: [box(2, 2, 1, 5)], counts: [5] },
      'regionSizes[0].numTiles',
      /\(4\), got 5/,
    );
  });

  test('a box with a zero side', () => {
    rejects(
      one(c.tex, at(0), box(1, 1, 1)),
      { sizes: [box(0, 1, 1, 0)], counts: [0] },
      'regionSizes[0].width',
      /at least 1/,
    );
  });

  test('without a box, a region may not run past the resource end', () => {
    // buf: 5 + 3 = 8 tiles passes, 5 + 4 fails.
    rejects(
      one(c.buf, at(5), n(3)),
      { sizes: [n(4)], counts: [4] },
      'regionSizes[0].numTiles',
      /4 tiles from tile 5 run past the resource's last tile \(7\)/,
    );
    // tex: from mip 2 (tile 20), 2 tiles reach the last tile 21; 3 run past.
    rejects(
      one(c.tex, at(0, 2), n(2)),
      { sizes: [n(3)], counts: [3] },
      'regionSizes[0].numTiles',
      /3 tiles from tile 20 run past the resource's last tile \(21\)/,
    );
    // vol: from (3,3,3) = tile 63, 10 tiles reach 72; 11 run past.
    rejects(
      one(c.vol, at(3, 0, 3, 3), n(10)),
      { sizes: [n(11)], counts: [11] },
      'regionSizes[0].numTiles',
      /last tile \(72\)/,
    );
  });
});

describe('packed mips', () => {
  test('a region must cover the whole tail: ending inside it fails', () => {
    // wide: tiles 0..9 (all) pass; 0..8 end inside the tail 8, 9.
    rejects(
      one(c.wide, at(0), n(10)),
      { sizes: [n(9)], counts: [9] },
      'regionSizes[0]',
      /covers part of the packed mips of slice 0 \(tiles 8\.\.9\)/,
    );
  });

  test('a region must cover the whole tail: starting inside it fails', () => {
    // x = 0 of subresource 1, 2 tiles: the whole tail; x = 1, 1 tile: its second half.
    rejects(
      one(c.wide, at(0, 1), n(2)),
      { coords: [at(1, 1)], sizes: [n(1)], counts: [1] },
      'regionSizes[0]',
      /covers part of the packed mips of slice 0/,
    );
    // x = 0, 1 tile: its first half.
    rejects(
      one(c.wide, at(0, 1), n(2)),
      { sizes: [n(1)], counts: [1] },
      'regionSizes[0]',
      /covers part of the packed mips/,
    );
  });

  test('x past the tail', () => {
    rejects(
      one(c.wide, at(0, 1), n(2)),
      { coords: [at(2, 1)], sizes: [n(1)], counts: [1] },
      'regionStartCoordinates[0].x',
      /mip tail has 2 tile\(s\), got x=2/,
    );
  });

  test('a region over two slices must cover the second slice tail whole too (tier 4)', () => {
    // arr: 0..19 covers both tails; 0..18 covers slice 1's tail (18, 19) in part.
    rejects(
      { ...one(c.arr, at(0), n(20)), heap: c.pre },
      { sizes: [n(19)], counts: [19] },
      'regionSizes[0]',
      /packed mips of slice 1 \(tiles 18\.\.19\)/,
    );
  });

  test('a mip tail is mapped by one range', () => {
    // wide's tail through subresource 1: one range of 2 passes; ranges of 1 + 1 split it.
    rejects(
      { ...one(c.wide, at(0, 1), n(2)), flags: ['NONE', 'NONE'], offsets: [0, 5], counts: [2, 0] },
      { counts: [1, 1] },
      'rangeTileCounts',
      /slice 0's mip tail \(2 tiles\) is split across ranges 0 and 1/,
    );
  });

  test('a mip tail is mapped by one range, also when the region starts in standard tiles', () => {
    // Whole of wide: ranges 8 + 2 keep the tail (8, 9) together; 9 + 1 split it.
    rejects(
      { ...one(c.wide, at(0), n(10)), flags: ['NONE', 'NONE'], offsets: [0, 0], counts: [8, 2] },
      { counts: [9, 1] },
      'rangeTileCounts',
      /split across ranges 0 and 1/,
    );
    // Also with other flags: a NULL range and a SKIP range splitting it.
    rejects(
      { ...one(c.wide, at(0), n(10)), heap: null, flags: ['NULL', 'SKIP'], offsets: null, counts: [8, 2] },
      { counts: [9, 1] },
      'rangeTileCounts',
      /split across ranges/,
    );
  });

  test('y or z on a packed mip', () => {
    rejects(
      one(c.tex, at(0, 3), n(1)),
      { coords: [at(0, 3, 1)] },
      'regionStartCoordinates[0]',
      /packed mip: x indexes the mip tail's tiles and y and z must be 0, got y=1 z=0/,
    );
    rejects(one(c.tex, at(0, 5), n(1)), { coords: [at(0, 5, 0, 1)] }, 'regionStartCoordinates[0]', /got y=0 z=1/);
  });

  test('a box on a packed mip', () => {
    rejects(
      one(c.tex, at(0, 3), n(1)),
      { sizes: [box(1, 1, 1)] },
      'regionSizes[0].useBox',
      /packed mip; a box cannot address a mip tail/,
    );
  });
});

describe('array lengths and defaults', () => {
  test('coordinates and sizes of different lengths', () => {
    rejects(
      { ...one(c.buf, at(0), n(1)), coords: [at(0), at(2)], sizes: [n(1), n(1)], counts: [2] },
      { sizes: [n(2)] },
      'regionSizes',
      /one entry per region start coordinate \(2\), got 1/,
    );
  });

  test('range arrays of different lengths', () => {
    const valid: Update = { ...one(c.buf, at(0), n(2)), flags: ['NONE', 'NONE'], offsets: [0, 1], counts: [1, 1] };
    rejects(
      valid,
      { offsets: [0, 1, 2] },
      'heapRangeStartOffsets',
      /one entry per range \(2, from rangeFlags\), got 3/,
    );
    rejects(valid, { counts: [2] }, 'rangeTileCounts', /one entry per range \(2, from rangeFlags\), got 1/);
    rejects(
      { ...valid, flags: null },
      { counts: [1, 1, 0] },
      'rangeTileCounts',
      /\(2, from heapRangeStartOffsets\), got 3/,
    );
  });

  test('null coordinates with several regions', () => {
    rejects(
      { ...one(c.buf, at(0), n(2)), coords: null },
      { sizes: [n(1), n(1)] },
      'regionStartCoordinates',
      /null only for a single region, and there are 2/,
    );
  });

  test('range and region totals must agree', () => {
    const valid: Update = { ...one(c.buf, at(0), n(4)), flags: ['NONE', 'NONE'], offsets: [0, 4], counts: [2, 2] };
    rejects(valid, { counts: [2, 1] }, 'rangeTileCounts', /the ranges cover 3 tile\(s\) and the regions 4/);
    rejects(valid, { counts: [2, 3] }, 'rangeTileCounts', /cover 5 tile\(s\) and the regions 4/);
    // Several ranges without counts are one tile each: 3 ≠ 4 (4 ranges pass).
    rejects(
      { ...valid, flags: ['NONE', 'NONE', 'NONE', 'NONE'], offsets: [0, 1, 2, 3], counts: null },
      { flags: ['NONE', 'NONE', 'NONE'], offsets: [0, 1, 2] },
      'rangeTileCounts',
      /cover 3 tile\(s\) and the regions 4/,
    );
    // Defaults: the whole buffer (8 tiles) against one range of 7.
    rejects(
      { ...valid, coords: null, sizes: null, flags: null, offsets: null, counts: [8] },
      { counts: [7] },
      'rangeTileCounts',
      /cover 7 tile\(s\) and the regions 8/,
    );
  });

  test('an array argument that is not an array', () => {
    rejects(one(c.buf, at(0), n(1)), { coords: at(0) as never }, 'regionStartCoordinates', /must be an array or null/);
    rejects(one(c.buf, at(0), n(1)), { counts: 1 as never }, 'rangeTileCounts', /must be an array or null/);
  });
});

describe('the heap', () => {
  test('needed for NONE ranges', () => {
    rejects(one(c.buf, at(0), n(2)), { heap: null }, 'heap', /range 0 is NONE, which maps tiles, so a heap is needed/);
  });

  test('needed when the flags default to NONE', () => {
    rejects({ ...one(c.buf, at(0), n(2)), flags: null }, { heap: null }, 'heap', /range 0 is NONE/);
  });

  test('needed for REUSE_SINGLE_TILE ranges, also after NULL and SKIP ones', () => {
    const valid: Update = {
      ...one(c.buf, at(0), n(3)),
      flags: ['NULL', 'SKIP', 'REUSE_SINGLE_TILE'],
      offsets: [0, 0, 3],
      counts: [1, 1, 1],
    };
    rejects(valid, { heap: null }, 'heap', /range 2 is REUSE_SINGLE_TILE/);
  });

  test('not needed for NULL and SKIP ranges', () => {
    const before = snapshot([c.buf]);
    c.queue.updateTileMappings(c.buf, [at(0)], [n(4)], null, ['NULL', 'SKIP'], null, [2, 2]);
    const after = snapshot([c.buf])[0] ?? [];
    expect(after.slice(0, 2)).toEqual([null, null]);
    expect(after.slice(2)).toEqual(before[0]?.slice(2));
    expect(() => c.queue.updateTileMappings(c.buf, null, null, null, ['SKIP'], null, null)).not.toThrow();
    expect(() => c.queue.updateTileMappings(c.buf, null, null, null, ['NULL'], null, null)).not.toThrow();
  });

  test('a released heap', () => {
    const doomed = c.device.createHeap({ sizeInBytes: 16 * 65536, properties: { type: 'DEFAULT' } });
    doomed.release();
    rejects(one(c.buf, at(0), n(1)), { heap: doomed }, 'heap', /was released/);
  });

  test('a heap of another device', async () => {
    const otherDevice = await createDevice();
    const foreign = otherDevice.createHeap({ sizeInBytes: 16 * 65536, properties: { type: 'DEFAULT' } });
    rejects(one(c.buf, at(0), n(1)), { heap: foreign }, 'heap', /created by this device/);
  });

  test('look-alikes of a heap: its prototype, a copy of its fields, a Proxy of it', () => {
    for (const fake of lookAlikes(c.heap))
      rejects(one(c.buf, at(0), n(1)), { heap: fake }, 'heap', /created by this device/);
  });

  test('UPLOAD, READBACK and CUSTOM L0 heaps are in system memory; CUSTOM L1 passes', () => {
    const custom = (properties: HeapProperties): Heap => c.device.createHeap({ sizeInBytes: 16 * 65536, properties });
    const l1 = custom({ type: 'CUSTOM', cpuPageProperty: 'NOT_AVAILABLE', memoryPoolPreference: 'L1' });
    const valid = { ...one(c.buf, at(0), n(1)), heap: l1 };
    rejects(valid, { heap: custom({ type: 'UPLOAD' }) }, 'heap', /is a UPLOAD heap in system memory/);
    rejects(valid, { heap: custom({ type: 'READBACK' }) }, 'heap', /is a READBACK heap in system memory/);
    rejects(
      valid,
      { heap: custom({ type: 'CUSTOM', cpuPageProperty: 'WRITE_BACK', memoryPoolPreference: 'L0' }) },
      'heap',
      /is a CUSTOM heap in system memory/,
    );
  });

  test("heap flags that deny the resource's category", () => {
    const withFlags = (flags: HeapFlag[]): Heap =>
      c.device.createHeap({ sizeInBytes: 16 * 65536, properties: { type: 'DEFAULT' }, flags });
    const buffers = withFlags(['ALLOW_ONLY_BUFFERS']);
    const textures = withFlags(['ALLOW_ONLY_NON_RT_DS_TEXTURES']);
    rejects({ ...one(c.buf, at(0), n(1)), heap: buffers }, { heap: textures }, 'heap', /which deny buffers/);
    rejects(
      { ...one(c.buf, at(0), n(1)), heap: buffers },
      { heap: withFlags(['DENY_BUFFERS']) },
      'heap',
      /which deny buffers/,
    );
    rejects(
      { ...one(c.tex, at(0), n(1)), heap: textures },
      { heap: buffers },
      'heap',
      /which deny textures that are neither render targets nor depth-stencil/,
    );
    rejects(
      { ...one(c.tex, at(0), n(1)), heap: withFlags(['DENY_BUFFERS']) },
      { heap: withFlags(['DENY_NON_RT_DS_TEXTURES']) },
      'heap',
      /deny textures that are neither/,
    );
  });

  test('a NONE range may end exactly at the heap end, not past it', () => {
    // heap has 16 tiles: 12..15 pass, 13..16 fail.
    rejects(
      { ...one(c.buf, at(0), n(4)), offsets: [12] },
      { offsets: [13] },
      'heapRangeStartOffsets[0]',
      /range 0 needs heap tiles 13\.\.16, and heap #\d+ has 16 tile\(s\)/,
    );
  });

  test('the error names the offending range', () => {
    const valid: Update = { ...one(c.buf, at(0), n(4)), flags: ['NONE', 'NONE'], offsets: [0, 14], counts: [2, 2] };
    rejects(valid, { offsets: [0, 15] }, 'heapRangeStartOffsets[1]', /range 1 needs heap tiles 15\.\.16/);
  });

  test('a REUSE_SINGLE_TILE offset must be a tile of the heap, whatever the count', () => {
    // Offset 15 (the last tile) with 8 tiles passes; 16 fails.
    rejects(
      { ...one(c.buf, at(0), n(8)), flags: ['REUSE_SINGLE_TILE'], offsets: [15] },
      { offsets: [16] },
      'heapRangeStartOffsets[0]',
      /needs heap tiles 16\.\.16/,
    );
  });

  test('offsets default to 0, so a NONE range longer than the heap fails', () => {
    // A 4-tile heap: 4 tiles from 0 pass; the 8-tile buffer from 0 fails.
    const small = c.device.createHeap({ sizeInBytes: 4 * 65536, properties: { type: 'DEFAULT' } });
    rejects(
      { ...one(c.buf, at(0), n(4)), heap: small, offsets: null, counts: null },
      { sizes: null, coords: null },
      'heapRangeStartOffsets[0]',
      /needs heap tiles 0\.\.7, and heap #\d+ has 4 tile\(s\)/,
    );
  });
});

describe('flag names', () => {
  test('range flags', () => {
    rejects(
      one(c.buf, at(0), n(1)),
      { flags: ['BOGUS'] },
      'rangeFlags[0]',
      /must be one of NONE, NULL, SKIP, REUSE_SINGLE_TILE; got 'BOGUS'/,
    );
    rejects(
      { ...one(c.buf, at(0), n(2)), flags: ['NONE', 'NULL'], offsets: [0, 0], counts: [1, 1] },
      { flags: ['NONE', 'null'] },
      'rangeFlags[1]',
      /got 'null'/,
    );
  });

  test('mapping flags', () => {
    const valid: Update = { ...one(c.buf, at(0), n(1)), mappingFlags: 'NO_HAZARD' };
    rejects(valid, { mappingFlags: 'BOGUS' }, 'flags', /must be one of NONE, NO_HAZARD; got 'BOGUS'/);
    rejects(
      { ...valid, mappingFlags: ['NONE', 'NO_HAZARD'] },
      { mappingFlags: ['NO_HAZARD', 'DISCARD'] },
      'flags[1]',
      /got 'DISCARD'/,
    );
  });
});

describe('copyTileMappings', () => {
  interface Copy {
    dst: Resource;
    dstStart: TiledResourceCoordinate;
    src: Resource;
    srcStart: TiledResourceCoordinate;
    size: TileRegionSize;
    flags?: unknown;
  }
  const copy = (u: Copy) => () =>
    c.queue.copyTileMappings(u.dst, u.dstStart, u.src, u.srcStart, u.size, u.flags as never);
  function copyRejects(valid: Copy, change: Partial<Copy>, argument: string, message: RegExp): void {
    const before = snapshot(c.all);
    expectD3D12Error(copy({ ...valid, ...change }), {
      hresult: 'E_INVALIDARG',
      call: 'copyTileMappings',
      argument,
      message,
    });
    expect(snapshot(c.all)).toEqual(before);
    expect(copy(valid)).not.toThrow();
  }
  const valid = (): Copy => ({ dst: c.buf, dstStart: at(4), src: c.tex, srcStart: at(0, 0, 3), size: n(4) });

  test('a destination that is not reserved', () => {
    const committed = c.device.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: 65536 },
      'COMMON',
    );
    copyRejects(valid(), { dst: committed }, 'dstResource', /not a reserved resource/);
  });

  test('a released source', () => {
    const doomed = c.device.createReservedResource({ dimension: 'BUFFER', width: 8 * 65536 }, 'COMMON');
    doomed.release();
    copyRejects(valid(), { src: doomed }, 'srcResource', /was released/);
  });

  test('coordinates out of range, on each side', () => {
    copyRejects(valid(), { dstStart: at(8) }, 'dstRegionStartCoordinate.x', /got x=8/);
    copyRejects(valid(), { srcStart: at(0, 0, 4) }, 'srcRegionStartCoordinate.y', /got y=4/);
    copyRejects(valid(), { srcStart: at(0, 10) }, 'srcRegionStartCoordinate.subresource', /10 subresources, got 10/);
  });

  test('a region past either end', () => {
    // dst from 4: 4 tiles reach the last tile 7; 5 run past.
    copyRejects(
      valid(),
      { size: n(5) },
      'regionSize.numTiles',
      /5 tiles from tile 4 run past the resource's last tile \(7\)/,
    );
  });

  test('a box that does not fit the destination, or whose volume is wrong', () => {
    const boxed: Copy = { dst: c.tex, dstStart: at(2, 0, 2), src: c.tex, srcStart: at(0), size: box(2, 2, 1) };
    copyRejects(boxed, { dstStart: at(3, 0, 2) }, 'regionSize.width', /runs past subresource 0/);
    copyRejects(boxed, { size: box(2, 2, 1, 3) }, 'regionSize.numTiles', /\(4\), got 3/);
  });

  test('part of a mip tail', () => {
    copyRejects(
      { dst: c.wide, dstStart: at(0, 1), src: c.arr, srcStart: at(0, 3), size: n(2) },
      { size: n(1) },
      'regionSize',
      /covers part of the packed mips/,
    );
  });

  test('source tiles in a heap whose flags deny the destination', () => {
    // buf's tiles 0..3 → a buffers-only heap; copying them into tex would let tex use that heap.
    const buffersOnly = c.device.createHeap({
      sizeInBytes: 16 * 65536,
      properties: { type: 'DEFAULT' },
      flags: ['ALLOW_ONLY_BUFFERS'],
    });
    c.queue.updateTileMappings(c.buf, null, [n(4)], buffersOnly, null, null, null);
    const intoTex: Copy = { dst: c.tex, dstStart: at(0), src: c.buf, srcStart: at(4), size: n(4) };
    // Control: buf 4..7 still map into `pre`, which allows everything.
    copyRejects(intoTex, { srcStart: at(0) }, 'srcResource', /whose flags deny textures that are neither/);
  });

  test('mapping flags', () => {
    copyRejects({ ...valid(), flags: 'NO_HAZARD' }, { flags: 'SOMETIMES' }, 'flags', /got 'SOMETIMES'/);
  });
});
