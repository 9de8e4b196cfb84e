/**
 * queue.updateTileMappings and queue.copyTileMappings compared with hand-derived page tables, read
 * through resource.getTileMappingForTesting. A page table is written as one entry per resource
 * tile: null (NULL tile) or heap name + heap tile, e.g. 'A5' = tile 5 of heap A.
 *
 * Resources used (tilings derived in tiling.test.ts):
 *   buffer of n tiles          tiles 0..n-1
 *   tex  512×512 RGBA8, 10 mips: mip 0 4×4 tiles 0..15 (tile = x + 4y), mip 1 2×2 tiles 16..19
 *                                (16 + x + 2y), mip 2 tile 20, mips 3..9 packed in tile 21
 *   wide 1024×128 RGBA8, 2 mips: mip 0 8×1 tiles 0..7, mip 1 packed in tiles 8, 9
 *   vol  64×64×64 RGBA32F, 3 mips: mip 0 4×4×4 tiles 0..63 (x + 4y + 16z), mip 1 2×2×2 64..71, mip 2 72
 */
import { describe, expect, test } from 'vitest';
import { createDevice, D3D12Error } from '../../../../src/index.js';
import type {
  CommandQueue,
  Device,
  Heap,
  HeapFlag,
  Resource,
  ResourceDesc,
  TiledResourcesTier,
} from '../../../../src/index.js';
import { getTileMappingForTesting, isReleasedForTesting } from '../../../../src/testing/index.js';

type Table = (string | null)[];

interface Fixture {
  device: Device;
  queue: CommandQueue;
  heap(name: string, tiles: number, flags?: HeapFlag[]): Heap;
  reserved(desc: ResourceDesc): Resource;
  buffer(tiles: number): Resource;
  tex(): Resource;
  wide(arraySize?: number): Resource;
  vol(): Resource;
  table(resource: Resource): Table;
}

async function setup(tier: TiledResourcesTier = 4): Promise<Fixture> {
  const device = await createDevice({ tiledResourcesTier: tier });
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  const names = new Map<Heap, string>();
  const reserved = (desc: ResourceDesc): Resource =>
    device.createReservedResource(
      desc.dimension === 'BUFFER' ? desc : { layout: '64KB_UNDEFINED_SWIZZLE', ...desc },
      'COMMON',
    );
  return {
    device,
    queue,
    heap(name, tiles, flags) {
      const heap = device.createHeap({ sizeInBytes: tiles * 65536, properties: { type: 'DEFAULT' }, flags });
      names.set(heap, name);
      return heap;
    },
    reserved,
    buffer: (tiles) => reserved({ dimension: 'BUFFER', width: tiles * 65536 }),
    tex: () => reserved({ dimension: 'TEXTURE2D', format: 'R8G8B8A8_UNORM', width: 512, height: 512, mipLevels: 10 }),
    wide: (arraySize = 1) =>
      reserved({
        dimension: 'TEXTURE2D',
        format: 'R8G8B8A8_UNORM',
        width: 1024,
        height: 128,
        mipLevels: 2,
        depthOrArraySize: arraySize,
      }),
    vol: () =>
      reserved({
        dimension: 'TEXTURE3D',
        format: 'R32G32B32A32_FLOAT',
        width: 64,
        height: 64,
        depthOrArraySize: 64,
        mipLevels: 3,
      }),
    table(resource) {
      const n = device.getResourceTiling(resource).numTilesForEntireResource;
      return Array.from({ length: n }, (_, tile) => {
        const mapping = getTileMappingForTesting(resource, tile);
        if (!mapping) return null;
        const name = names.get(mapping.heap);
        if (name === undefined) throw new Error(`tile ${tile} maps to a heap this test did not create`);
        return `${name}${mapping.heapTileOffset}`;
      });
    },
  };
}

/** A page table of n tiles, NULL except the listed entries. */
function pt(n: number, entries: Record<number, string> = {}): Table {
  const table: Table = Array.from({ length: n }, () => null);
  for (const [tile, value] of Object.entries(entries)) table[Number(tile)] = value;
  return table;
}

/** Heap `name` tiles first..first+count-1 at resource tiles from..: { from: name+first, ... }. */
function run(from: number, name: string, first: number, count: number): Record<number, string> {
  const entries: Record<number, string> = {};
  for (let i = 0; i < count; i++) entries[from + i] = `${name}${first + i}`;
  return entries;
}

describe('initial state', () => {
  test('mappings start NULL for buffers, 2D, packed and 3D tiles', async () => {
    const f = await setup();
    expect(f.table(f.buffer(4))).toEqual(pt(4));
    expect(f.table(f.tex())).toEqual(pt(22));
    expect(f.table(f.wide(2))).toEqual(pt(20));
    expect(f.table(f.vol())).toEqual(pt(73));
  });
});

describe('buffers', () => {
  test('a region from x = 2 maps consecutive heap tiles from the offset', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const buf = f.buffer(8);
    // Tiles 2, 3, 4 ← A5, A6, A7 (one NONE range of 3 from offset 5).
    f.queue.updateTileMappings(buf, [{ x: 2, y: 0, z: 0, subresource: 0 }], [{ numTiles: 3 }], a, ['NONE'], [5], [3]);
    expect(f.table(buf)).toEqual(pt(8, { 2: 'A5', 3: 'A6', 4: 'A7' }));
  });

  test('two regions and two ranges walk in lockstep across region boundaries', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const buf = f.buffer(8);
    // Region tiles in order: 6, 7 (region 0), 0, 1, 2 (region 1). Ranges: A10..A12 (3 tiles), A0..A1.
    // Zip: 6←A10, 7←A11, 0←A12, 1←A0, 2←A1.
    f.queue.updateTileMappings(
      buf,
      [
        { x: 6, y: 0, z: 0, subresource: 0 },
        { x: 0, y: 0, z: 0, subresource: 0 },
      ],
      [{ numTiles: 2 }, { numTiles: 3 }],
      a,
      ['NONE', 'NONE'],
      [10, 0],
      [3, 2],
    );
    expect(f.table(buf)).toEqual(pt(8, { 6: 'A10', 7: 'A11', 0: 'A12', 1: 'A0', 2: 'A1' }));
  });

  test('a range count of 0 is skipped over', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const buf = f.buffer(4);
    // Ranges: (NONE 3, count 0), (NONE 8, count 2): tiles 0, 1 ← A8, A9.
    f.queue.updateTileMappings(
      buf,
      [{ x: 0, y: 0, z: 0, subresource: 0 }],
      [{ numTiles: 2 }],
      a,
      ['NONE', 'NONE'],
      [3, 8],
      [0, 2],
    );
    expect(f.table(buf)).toEqual(pt(4, { 0: 'A8', 1: 'A9' }));
  });
});

describe('2D textures', () => {
  test('a box in mip 0', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const tex = f.tex();
    // Box at (1,1), 2×2 in the 4×4 grid: x runs first → (1,1)=5, (2,1)=6, (1,2)=9, (2,2)=10.
    f.queue.updateTileMappings(
      tex,
      [{ x: 1, y: 1, z: 0, subresource: 0 }],
      [{ numTiles: 4, useBox: true, width: 2, height: 2, depth: 1 }],
      a,
      ['NONE'],
      [0],
      [4],
    );
    expect(f.table(tex)).toEqual(pt(22, { 5: 'A0', 6: 'A1', 9: 'A2', 10: 'A3' }));
  });

  test('a box in mip 1', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const tex = f.tex();
    // Mip 1 is 2×2 tiles from 16: box (1,0) 1×2 → (1,0)=17, (1,1)=19.
    f.queue.updateTileMappings(
      tex,
      [{ x: 1, y: 0, z: 0, subresource: 1 }],
      [{ numTiles: 2, useBox: true, width: 1, height: 2, depth: 1 }],
      a,
      ['NONE'],
      [7],
      [2],
    );
    expect(f.table(tex)).toEqual(pt(22, { 17: 'A7', 19: 'A8' }));
  });

  test('without a box, tiles run x then y and spill into the next mip', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const tex = f.tex();
    // From (2,3) of mip 0: tile 2 + 3×4 = 14, then 15, then mip 1's 16, 17, 18.
    f.queue.updateTileMappings(tex, [{ x: 2, y: 3, z: 0, subresource: 0 }], [{ numTiles: 5 }], a, null, [0], null);
    expect(f.table(tex)).toEqual(pt(22, run(14, 'A', 0, 5)));
  });

  test('without a box, a region spills from mip 2 into the mip tail when it covers all of it', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const tex = f.tex();
    // Mip 2 is tile 20, the tail tile 21.
    f.queue.updateTileMappings(tex, [{ x: 0, y: 0, z: 0, subresource: 2 }], [{ numTiles: 2 }], a, null, [3], null);
    expect(f.table(tex)).toEqual(pt(22, { 20: 'A3', 21: 'A4' }));
  });

  test('a box with useBox but a 1×1×1 size maps one tile', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const tex = f.tex();
    // (3,3) of mip 0 = 15.
    f.queue.updateTileMappings(
      tex,
      [{ x: 3, y: 3, z: 0, subresource: 0 }],
      [{ numTiles: 1, useBox: true, width: 1, height: 1, depth: 1 }],
      a,
      null,
      [9],
      null,
    );
    expect(f.table(tex)).toEqual(pt(22, { 15: 'A9' }));
  });
});

describe('packed mips', () => {
  test('the one-tile tail, addressed through any packed subresource', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const tex = f.tex();
    // Subresources 3..9 are all packed: x = 0 of any of them is tail tile 21.
    f.queue.updateTileMappings(tex, [{ x: 0, y: 0, z: 0, subresource: 3 }], [{ numTiles: 1 }], a, null, [4], null);
    expect(f.table(tex)).toEqual(pt(22, { 21: 'A4' }));
    f.queue.updateTileMappings(tex, [{ x: 0, y: 0, z: 0, subresource: 9 }], [{ numTiles: 1 }], a, null, [6], null);
    expect(f.table(tex)).toEqual(pt(22, { 21: 'A6' }));
  });

  test('a two-tile tail in one region and one range', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const wide = f.wide();
    // Tail tiles 8, 9 ← A3, A4.
    f.queue.updateTileMappings(wide, [{ x: 0, y: 0, z: 0, subresource: 1 }], [{ numTiles: 2 }], a, ['NONE'], [3], [2]);
    expect(f.table(wide)).toEqual(pt(10, { 8: 'A3', 9: 'A4' }));
    // One REUSE_SINGLE_TILE range over the whole tail: 8, 9 ← A11.
    f.queue.updateTileMappings(
      wide,
      [{ x: 0, y: 0, z: 0, subresource: 1 }],
      [{ numTiles: 2 }],
      a,
      ['REUSE_SINGLE_TILE'],
      [11],
      [2],
    );
    expect(f.table(wide)).toEqual(pt(10, { 8: 'A11', 9: 'A11' }));
    // And NULL again.
    f.queue.updateTileMappings(
      wide,
      [{ x: 0, y: 0, z: 0, subresource: 1 }],
      [{ numTiles: 2 }],
      null,
      ['NULL'],
      null,
      [2],
    );
    expect(f.table(wide)).toEqual(pt(10));
  });

  test('tier 4 array: slice 1 tail is tiles 18, 19 (after slice 1 standard tiles 10..17)', async () => {
    const f = await setup(4);
    const a = f.heap('A', 16);
    const arr = f.wide(2);
    // Subresource 3 = mip 1 of slice 1 (packed): its tail is 18, 19.
    f.queue.updateTileMappings(arr, [{ x: 0, y: 0, z: 0, subresource: 3 }], [{ numTiles: 2 }], a, null, [0], null);
    expect(f.table(arr)).toEqual(pt(20, { 18: 'A0', 19: 'A1' }));
    // Subresource 2 = mip 0 of slice 1: tiles 10..17; x = 5 → tile 15.
    f.queue.updateTileMappings(arr, [{ x: 5, y: 0, z: 0, subresource: 2 }], [{ numTiles: 1 }], a, null, [9], null);
    expect(f.table(arr)).toEqual(pt(20, { 18: 'A0', 19: 'A1', 15: 'A9' }));
    // Without a box, from slice 0's x = 6: 6, 7, then slice 0's tail 8, 9, then slice 1's 10.
    f.queue.updateTileMappings(arr, [{ x: 6, y: 0, z: 0, subresource: 0 }], [{ numTiles: 5 }], a, null, [10], null);
    expect(f.table(arr)).toEqual(pt(20, { ...run(6, 'A', 10, 5), 18: 'A0', 19: 'A1', 15: 'A9' }));
  });
});

describe('3D textures', () => {
  test('a box across z', async () => {
    const f = await setup(3);
    const a = f.heap('A', 16);
    const vol = f.vol();
    // Box at (1,2,1), 2×1×3 in the 4×4×4 grid (tile = x + 4y + 16z), x fastest, then y, then z:
    // z=1: 1+8+16 = 25, 26; z=2: 41, 42; z=3: 57, 58.
    f.queue.updateTileMappings(
      vol,
      [{ x: 1, y: 2, z: 1, subresource: 0 }],
      [{ numTiles: 6, useBox: true, width: 2, height: 1, depth: 3 }],
      a,
      null,
      [0],
      null,
    );
    expect(f.table(vol)).toEqual(pt(73, { 25: 'A0', 26: 'A1', 41: 'A2', 42: 'A3', 57: 'A4', 58: 'A5' }));
  });

  test('a box in mip 1 (2×2×2 from tile 64)', async () => {
    const f = await setup(3);
    const a = f.heap('A', 16);
    const vol = f.vol();
    // Box (0,1,0) 2×1×2: z=0: 64 + 0 + 2 = 66, 67; z=1: 64 + 4 + 2 = 70, 71.
    f.queue.updateTileMappings(
      vol,
      [{ x: 0, y: 1, z: 0, subresource: 1 }],
      [{ numTiles: 4, useBox: true, width: 2, height: 1, depth: 2 }],
      a,
      null,
      [2],
      null,
    );
    expect(f.table(vol)).toEqual(pt(73, { 66: 'A2', 67: 'A3', 70: 'A4', 71: 'A5' }));
  });

  test('without a box, tiles run x, y, then z and spill into the next mip', async () => {
    const f = await setup(3);
    const a = f.heap('A', 16);
    const vol = f.vol();
    // From (3,3,0): 15, then (0,0,1) = 16, 17.
    f.queue.updateTileMappings(vol, [{ x: 3, y: 3, z: 0, subresource: 0 }], [{ numTiles: 3 }], a, null, [0], null);
    expect(f.table(vol)).toEqual(pt(73, { 15: 'A0', 16: 'A1', 17: 'A2' }));
    // From (2,3,3) = 2 + 12 + 48 = 62: 62, 63, then mip 1's 64, 65.
    f.queue.updateTileMappings(vol, [{ x: 2, y: 3, z: 3, subresource: 0 }], [{ numTiles: 4 }], a, null, [5], null);
    expect(f.table(vol)).toEqual(pt(73, { 15: 'A0', 16: 'A1', 17: 'A2', 62: 'A5', 63: 'A6', 64: 'A7', 65: 'A8' }));
  });
});

describe('range flags', () => {
  test('NONE, NULL, SKIP and REUSE_SINGLE_TILE in one call', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const b = f.heap('B', 16);
    const buf = f.buffer(10);
    // First everything ← B0..B9 (whole resource, one range).
    f.queue.updateTileMappings(buf, null, null, b, null, null, null);
    expect(f.table(buf)).toEqual(pt(10, run(0, 'B', 0, 10)));
    // Region tiles 0..7; ranges: NONE @4 ×2 → 0←A4, 1←A5; NULL ×2 → 2, 3 NULL; SKIP ×2 → 4, 5 keep
    // B4, B5; REUSE @7 ×2 → 6, 7 ← A7. Tiles 8, 9 are outside the region: B8, B9.
    f.queue.updateTileMappings(
      buf,
      [{ x: 0, y: 0, z: 0, subresource: 0 }],
      [{ numTiles: 8 }],
      a,
      ['NONE', 'NULL', 'SKIP', 'REUSE_SINGLE_TILE'],
      [4, 0, 0, 7],
      [2, 2, 2, 2],
    );
    expect(f.table(buf)).toEqual(pt(10, { 0: 'A4', 1: 'A5', 4: 'B4', 5: 'B5', 6: 'A7', 7: 'A7', 8: 'B8', 9: 'B9' }));
  });

  test('NULL and SKIP need no heap', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const buf = f.buffer(4);
    f.queue.updateTileMappings(buf, null, null, a, null, null, null);
    // Tiles 0..3; NULL ×1 → 0 NULL; SKIP ×2 → 1, 2 keep; NULL ×1 → 3 NULL.
    f.queue.updateTileMappings(buf, null, null, null, ['NULL', 'SKIP', 'NULL'], null, [1, 2, 1]);
    expect(f.table(buf)).toEqual(pt(4, { 1: 'A1', 2: 'A2' }));
  });
});

describe('null-argument defaults', () => {
  test('no coordinates and no sizes: the whole resource', async () => {
    const f = await setup();
    const a = f.heap('A', 32);
    const buf = f.buffer(6);
    f.queue.updateTileMappings(buf, null, null, a, null, null, null);
    expect(f.table(buf)).toEqual(pt(6, run(0, 'A', 0, 6)));
    // A texture, tail included: 22 tiles ← A10..A31.
    const tex = f.tex();
    f.queue.updateTileMappings(tex, null, null, a, ['NONE'], [10], null);
    expect(f.table(tex)).toEqual(pt(22, run(0, 'A', 10, 22)));
  });

  test('no coordinates with one size: one region from tile 0 of subresource 0', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const buf = f.buffer(6);
    f.queue.updateTileMappings(buf, null, [{ numTiles: 2 }], a, null, [4], null);
    expect(f.table(buf)).toEqual(pt(6, { 0: 'A4', 1: 'A5' }));
  });

  test('coordinates without sizes: one tile per region; one range without counts: all of them', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const buf = f.buffer(6);
    // Regions: tile 1, tile 3 (one each). One range from offset 10 covering both: 1←A10, 3←A11.
    f.queue.updateTileMappings(
      buf,
      [
        { x: 1, y: 0, z: 0, subresource: 0 },
        { x: 3, y: 0, z: 0, subresource: 0 },
      ],
      null,
      a,
      null,
      [10],
      null,
    );
    expect(f.table(buf)).toEqual(pt(6, { 1: 'A10', 3: 'A11' }));
  });

  test('one range without counts covers every region tile', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const buf = f.buffer(8);
    f.queue.updateTileMappings(buf, [{ x: 2, y: 0, z: 0, subresource: 0 }], [{ numTiles: 4 }], a, ['NONE'], [1], null);
    expect(f.table(buf)).toEqual(pt(8, run(2, 'A', 1, 4)));
  });

  test('several ranges without counts are one tile each (Chosen)', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const buf = f.buffer(4);
    // Three ranges, one tile each: 0←A0 (NONE), 1←A5 (REUSE), 2←A9 (NONE).
    f.queue.updateTileMappings(
      buf,
      [{ x: 0, y: 0, z: 0, subresource: 0 }],
      [{ numTiles: 3 }],
      a,
      ['NONE', 'REUSE_SINGLE_TILE', 'NONE'],
      [0, 5, 9],
      null,
    );
    expect(f.table(buf)).toEqual(pt(4, { 0: 'A0', 1: 'A5', 2: 'A9' }));
    // With coordinates and no sizes too: regions tiles 3, 0; ranges A7, A8 (one each).
    f.queue.updateTileMappings(
      buf,
      [
        { x: 3, y: 0, z: 0, subresource: 0 },
        { x: 0, y: 0, z: 0, subresource: 0 },
      ],
      null,
      a,
      null,
      [7, 8],
      null,
    );
    expect(f.table(buf)).toEqual(pt(4, { 0: 'A8', 1: 'A5', 2: 'A9', 3: 'A7' }));
    // Several ranges without counts against a 4-tile region: 3 ≠ 4 → refused (vkd3d-proton would map it).
    expect(() => f.queue.updateTileMappings(buf, null, null, a, ['NONE', 'NONE', 'NONE'], [0, 1, 2], null)).toThrow(
      D3D12Error,
    );
  });

  test('no offsets: every range starts at heap tile 0', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const buf = f.buffer(4);
    // Ranges NONE ×2 from 0 and NONE ×1 from 0: 0←A0, 1←A1, 2←A0.
    f.queue.updateTileMappings(
      buf,
      [{ x: 0, y: 0, z: 0, subresource: 0 }],
      [{ numTiles: 3 }],
      a,
      ['NONE', 'NONE'],
      null,
      [2, 1],
    );
    expect(f.table(buf)).toEqual(pt(4, { 0: 'A0', 1: 'A1', 2: 'A0' }));
  });

  test('no flags: every range is NONE', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const buf = f.buffer(4);
    // Ranges from 3 ×1 and from 8 ×2: 0←A3, 1←A8, 2←A9.
    f.queue.updateTileMappings(buf, [{ x: 0, y: 0, z: 0, subresource: 0 }], [{ numTiles: 3 }], a, null, [3, 8], [1, 2]);
    expect(f.table(buf)).toEqual(pt(4, { 0: 'A3', 1: 'A8', 2: 'A9' }));
  });

  test('the mapping flags may be omitted, NONE or NO_HAZARD', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const buf = f.buffer(4);
    f.queue.updateTileMappings(buf, null, [{ numTiles: 1 }], a, null, [1], null, 'NO_HAZARD');
    f.queue.updateTileMappings(buf, [{ x: 1, y: 0, z: 0, subresource: 0 }], null, a, null, [2], null, ['NONE']);
    f.queue.updateTileMappings(buf, [{ x: 2, y: 0, z: 0, subresource: 0 }], null, a, null, [3], null, ['NO_HAZARD']);
    expect(f.table(buf)).toEqual(pt(4, { 0: 'A1', 1: 'A2', 2: 'A3' }));
  });
});

describe('overlaps, heaps and release', () => {
  test('later regions win where they overlap', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const buf = f.buffer(6);
    // Region 0: 0..3 ← A0..A3; region 1: 2..4 ← A4..A6 (overwrites 2, 3).
    f.queue.updateTileMappings(
      buf,
      [
        { x: 0, y: 0, z: 0, subresource: 0 },
        { x: 2, y: 0, z: 0, subresource: 0 },
      ],
      [{ numTiles: 4 }, { numTiles: 3 }],
      a,
      null,
      [0],
      null,
    );
    expect(f.table(buf)).toEqual(pt(6, { 0: 'A0', 1: 'A1', 2: 'A4', 3: 'A5', 4: 'A6' }));
    // A later NULL region over an earlier NONE one: region 0 tiles 0..1 ← A9, A10; region 1 = tile 1 → NULL.
    f.queue.updateTileMappings(
      buf,
      [
        { x: 0, y: 0, z: 0, subresource: 0 },
        { x: 1, y: 0, z: 0, subresource: 0 },
      ],
      [{ numTiles: 2 }, { numTiles: 1 }],
      a,
      ['NONE', 'NULL'],
      [9, 0],
      [2, 1],
    );
    expect(f.table(buf)).toEqual(pt(6, { 0: 'A9', 2: 'A4', 3: 'A5', 4: 'A6' }));
  });

  test('later regions win in 2D too (box then overlapping box)', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const tex = f.tex();
    // Box (0,0) 2×2 → 0, 1, 4, 5 ← A0..A3; box (1,1) 2×1 → 5, 6 ← A4, A5.
    f.queue.updateTileMappings(
      tex,
      [
        { x: 0, y: 0, z: 0, subresource: 0 },
        { x: 1, y: 1, z: 0, subresource: 0 },
      ],
      [
        { numTiles: 4, useBox: true, width: 2, height: 2, depth: 1 },
        { numTiles: 2, useBox: true, width: 2, height: 1, depth: 1 },
      ],
      a,
      null,
      [0],
      null,
    );
    expect(f.table(tex)).toEqual(pt(22, { 0: 'A0', 1: 'A1', 4: 'A2', 5: 'A4', 6: 'A5' }));
  });

  test('one resource maps into several heaps', async () => {
    const f = await setup();
    const a = f.heap('A', 4);
    const b = f.heap('B', 4);
    const c = f.heap('C', 4);
    const buf = f.buffer(8);
    f.queue.updateTileMappings(buf, null, [{ numTiles: 4 }], a, null, null, null);
    f.queue.updateTileMappings(buf, [{ x: 4, y: 0, z: 0, subresource: 0 }], [{ numTiles: 4 }], b, null, null, null);
    expect(f.table(buf)).toEqual(pt(8, { ...run(0, 'A', 0, 4), ...run(4, 'B', 0, 4) }));
    // Tiles 3, 4 ← C2, C3, across the A/B boundary.
    f.queue.updateTileMappings(buf, [{ x: 3, y: 0, z: 0, subresource: 0 }], [{ numTiles: 2 }], c, null, [2], null);
    expect(f.table(buf)).toEqual(pt(8, { 0: 'A0', 1: 'A1', 2: 'A2', 3: 'C2', 4: 'C3', 5: 'B1', 6: 'B2', 7: 'B3' }));
    // Heap tiles may be shared by several resource tiles and resources (aliasing).
    const other = f.buffer(2);
    f.queue.updateTileMappings(other, null, null, a, null, [1], null);
    expect(f.table(other)).toEqual(pt(2, { 0: 'A1', 1: 'A2' }));
    expect(f.table(buf)[1]).toBe('A1');
  });

  test('releasing a heap leaves its tiles mapped to the released heap, other tiles untouched', async () => {
    const f = await setup();
    const a = f.heap('A', 4);
    const b = f.heap('B', 4);
    const buf = f.buffer(4);
    f.queue.updateTileMappings(buf, null, null, a, ['NONE', 'NONE'], [2, 0], [2, 2]);
    // 0←A2, 1←A3, 2←A0, 3←A1; then 2, 3 ← B1, B2.
    f.queue.updateTileMappings(buf, [{ x: 2, y: 0, z: 0, subresource: 0 }], [{ numTiles: 2 }], b, null, [1], null);
    const before = f.table(buf);
    expect(before).toEqual(pt(4, { 0: 'A2', 1: 'A3', 2: 'B1', 3: 'B2' }));
    a.release();
    expect(f.table(buf)).toEqual(before);
    const t0 = getTileMappingForTesting(buf, 0);
    expect(t0?.heap).toBe(a);
    expect(isReleasedForTesting(t0?.heap as Heap)).toBe(true);
    expect(t0?.heapTileOffset).toBe(2);
    const t2 = getTileMappingForTesting(buf, 2);
    expect(t2?.heap).toBe(b);
    expect(isReleasedForTesting(t2?.heap as Heap)).toBe(false);
    // The tiles can still be remapped or unmapped.
    f.queue.updateTileMappings(buf, null, [{ numTiles: 1 }], null, ['NULL'], null, null);
    expect(f.table(buf)).toEqual(pt(4, { 1: 'A3', 2: 'B1', 3: 'B2' }));
  });

  test('getTileMappingForTesting refuses tiles outside the resource', async () => {
    const f = await setup();
    const buf = f.buffer(4);
    expect(getTileMappingForTesting(buf, 3)).toBeNull();
    expect(() => getTileMappingForTesting(buf, 4)).toThrow(D3D12Error);
    expect(() => getTileMappingForTesting(buf, -1)).toThrow(D3D12Error);
  });
});

describe('copyTileMappings', () => {
  const at = (x: number, subresource = 0, y = 0, z = 0) => ({ x, y, z, subresource });

  test('across two buffers, NULL tiles included', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const src = f.buffer(8);
    const dst = f.buffer(8);
    // src: 0..5 ← A0..A5, 6, 7 NULL. dst: all ← A8..A15.
    f.queue.updateTileMappings(src, null, [{ numTiles: 6 }], a, null, null, null);
    f.queue.updateTileMappings(dst, null, null, a, null, [8], null);
    // dst 2, 3, 4, 5 ← src 4, 5, 6, 7 = A4, A5, NULL, NULL.
    f.queue.copyTileMappings(dst, at(2), src, at(4), { numTiles: 4 });
    expect(f.table(dst)).toEqual(pt(8, { 0: 'A8', 1: 'A9', 2: 'A4', 3: 'A5', 6: 'A14', 7: 'A15' }));
    expect(f.table(src)).toEqual(pt(8, run(0, 'A', 0, 6)));
  });

  test('a box between two textures', async () => {
    const f = await setup();
    const a = f.heap('A', 32);
    const src = f.tex();
    const dst = f.tex();
    f.queue.updateTileMappings(src, null, null, a, null, null, null); // tile t ← A t
    // src box (1,1) 2×2 of mip 0 = 5, 6, 9, 10 → dst box (0,0) of mip 1 = 16, 17, 18, 19.
    f.queue.copyTileMappings(dst, at(0, 1), src, at(1, 0, 1), {
      numTiles: 4,
      useBox: true,
      width: 2,
      height: 2,
      depth: 1,
    });
    expect(f.table(dst)).toEqual(pt(22, { 16: 'A5', 17: 'A6', 18: 'A9', 19: 'A10' }));
  });

  test('from a buffer into a texture (no box: consecutive tiles)', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const buf = f.buffer(4);
    const tex = f.tex();
    f.queue.updateTileMappings(buf, null, null, a, null, [7], null); // 0..3 ← A7..A10
    // tex from (3,3) of mip 0 = 15, then 16, 17 ← buf 1, 2, 3 = A8, A9, A10.
    f.queue.copyTileMappings(tex, at(3, 0, 3), buf, at(1), { numTiles: 3 });
    expect(f.table(tex)).toEqual(pt(22, { 15: 'A8', 16: 'A9', 17: 'A10' }));
  });

  test('overlap within one buffer, destination after source: as if through a temporary', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const buf = f.buffer(10);
    f.queue.updateTileMappings(buf, null, null, a, null, null, null); // t ← A t
    // dst 2..6 ← old 0..4. A tile-by-tile forward copy would give 4 ← A0 (already overwritten 2).
    f.queue.copyTileMappings(buf, at(2), buf, at(0), { numTiles: 5 });
    expect(f.table(buf)).toEqual(['A0', 'A1', 'A0', 'A1', 'A2', 'A3', 'A4', 'A7', 'A8', 'A9']);
  });

  test('overlap within one buffer, destination before source', async () => {
    const f = await setup();
    const a = f.heap('A', 16);
    const buf = f.buffer(10);
    f.queue.updateTileMappings(buf, null, null, a, null, null, null);
    // dst 0..4 ← old 2..6. A tile-by-tile backward copy would give 0 ← A4.
    f.queue.copyTileMappings(buf, at(0), buf, at(2), { numTiles: 5 });
    expect(f.table(buf)).toEqual(['A2', 'A3', 'A4', 'A5', 'A6', 'A5', 'A6', 'A7', 'A8', 'A9']);
  });

  test('overlapping boxes within one texture, both directions', async () => {
    const f = await setup();
    const a = f.heap('A', 32);
    const tex = f.tex();
    f.queue.updateTileMappings(tex, null, null, a, null, null, null); // t ← A t
    const box3 = { numTiles: 9, useBox: true, width: 3, height: 3, depth: 1 };
    // dst box (1,1) ← src box (0,0), 3×3 in the 4×4 mip 0 (tile x + 4y):
    //   5, 6, 7 ← 0, 1, 2; 9, 10, 11 ← 4, 5, 6; 13, 14, 15 ← 8, 9, 10 (old values).
    f.queue.copyTileMappings(tex, at(1, 0, 1), tex, at(0, 0, 0), box3);
    const down = pt(22, run(0, 'A', 0, 22));
    Object.assign(down, { 5: 'A0', 6: 'A1', 7: 'A2', 9: 'A4', 10: 'A5', 11: 'A6', 13: 'A8', 14: 'A9', 15: 'A10' });
    expect(f.table(tex)).toEqual(down);
    // Back: dst box (0,0) ← src box (1,1) of the current table:
    //   0, 1, 2 ← 5, 6, 7 = A0, A1, A2; 4, 5, 6 ← 9, 10, 11 = A4, A5, A6; 8, 9, 10 ← 13, 14, 15 = A8, A9, A10.
    f.queue.copyTileMappings(tex, at(0, 0, 0), tex, at(1, 0, 1), box3);
    expect(f.table(tex)).toEqual([
      'A0',
      'A1',
      'A2',
      'A3',
      'A4',
      'A5',
      'A6',
      'A2',
      'A8',
      'A9',
      'A10',
      'A6',
      'A12',
      'A8',
      'A9',
      'A10',
      'A16',
      'A17',
      'A18',
      'A19',
      'A20',
      'A21',
    ]);
  });

  test('copying one slice tail onto another (tier 4 array)', async () => {
    const f = await setup(4);
    const a = f.heap('A', 32);
    const arr = f.wide(2);
    f.queue.updateTileMappings(arr, null, null, a, null, null, null); // t ← A t
    // Subresource 3 (slice 1 mip 1) tail 18, 19 ← subresource 1 (slice 0 mip 1) tail 8, 9.
    f.queue.copyTileMappings(arr, at(0, 3), arr, at(0, 1), { numTiles: 2 });
    expect(f.table(arr)).toEqual(pt(20, { ...run(0, 'A', 0, 18), 18: 'A8', 19: 'A9' }));
  });

  test('3D: a box copied within one volume', async () => {
    const f = await setup(3);
    const a = f.heap('A', 80);
    const vol = f.vol();
    f.queue.updateTileMappings(vol, null, null, a, null, null, null); // t ← A t
    // dst box (0,0,1) 1×1×2 = 16, 32 ← src box (0,0,0) = 0, 16 (old): 16 ← A0, 32 ← A16.
    f.queue.copyTileMappings(vol, at(0, 0, 0, 1), vol, at(0, 0, 0, 0), {
      numTiles: 2,
      useBox: true,
      width: 1,
      height: 1,
      depth: 2,
    });
    const expected = pt(73, run(0, 'A', 0, 73));
    expected[16] = 'A0';
    expected[32] = 'A16';
    expect(f.table(vol)).toEqual(expected);
  });
});
