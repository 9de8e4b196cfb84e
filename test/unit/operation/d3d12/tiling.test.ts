/**
 * device.getResourceTiling, checked against D3D12's rules (/work/shared/REFERENCE.md, "Tiles and
 * tiling") with every expected number derived by hand in a comment.
 *
 * Notation: a subresource tiling is written [widthInTiles, heightInTiles, depthInTiles, start];
 * a packed one is [0, 0, 0, PACKED] with PACKED = 0xFFFFFFFF (D3D12_PACKED_TILE). Packed tail sizes
 * follow the emulator's documented layout (src/memory/tiling.ts header): each packed mip row-major,
 * tightly pitched, starting at a multiple of 16 bytes; the tail takes ceil(bytes / 65536) tiles.
 */
import { describe, expect, test } from 'vitest';
import { createDevice, D3D12Error, PACKED_TILE, TILE_SIZE } from '../../../../src/index.js';
import type {
  Device,
  Resource,
  ResourceDesc,
  ResourceTiling,
  SubresourceTiling,
  TiledResourcesTier,
} from '../../../../src/index.js';

type Tiling4 = [number, number, number, number];

const PACKED: Tiling4 = [0, 0, 0, 0xffffffff];

const device = (tier: TiledResourcesTier): Promise<Device> => createDevice({ tiledResourcesTier: tier });

function reserved(dev: Device, desc: ResourceDesc): Resource {
  return dev.createReservedResource(
    desc.dimension === 'BUFFER' ? desc : { layout: '64KB_UNDEFINED_SWIZZLE', ...desc },
    'COMMON',
  );
}

function committed(dev: Device, desc: ResourceDesc): Resource {
  return dev.createCommittedResource({ type: 'DEFAULT' }, [], desc, 'COMMON');
}

const tex2D = (format: string, width: number, height: number, mipLevels = 1, arraySize = 1): ResourceDesc => ({
  dimension: 'TEXTURE2D',
  format,
  width,
  height,
  mipLevels,
  depthOrArraySize: arraySize,
});

const tex3D = (format: string, width: number, height: number, depth: number, mipLevels = 1): ResourceDesc => ({
  dimension: 'TEXTURE3D',
  format,
  width,
  height,
  depthOrArraySize: depth,
  mipLevels,
});

const flat = (tilings: SubresourceTiling[]): Tiling4[] =>
  tilings.map((t) => [t.widthInTiles, t.heightInTiles, t.depthInTiles, t.startTileIndexInOverallResource]);

interface Expected {
  numTiles: number;
  shape: [number, number, number];
  /** numStandardMips, numPackedMips, numTilesForPackedMips, startTileIndexInOverallResource. */
  packed: [number, number, number, number];
  subresources: Tiling4[];
}

function expectTiling(tiling: ResourceTiling, expected: Expected): void {
  expect({
    numTiles: tiling.numTilesForEntireResource,
    shape: [
      tiling.standardTileShapeForNonPackedMips.widthInTexels,
      tiling.standardTileShapeForNonPackedMips.heightInTexels,
      tiling.standardTileShapeForNonPackedMips.depthInTexels,
    ],
    packed: [
      tiling.packedMipDesc.numStandardMips,
      tiling.packedMipDesc.numPackedMips,
      tiling.packedMipDesc.numTilesForPackedMips,
      tiling.packedMipDesc.startTileIndexInOverallResource,
    ],
    subresources: flat(tiling.subresourceTilings),
  }).toEqual(expected);
}

describe('constants', () => {
  test('a tile is 64 KiB and a packed subresource starts at 0xFFFFFFFF', () => {
    expect(TILE_SIZE).toBe(65536);
    expect(PACKED_TILE).toBe(0xffffffff);
  });
});

describe('standard tile shapes (REFERENCE: 2D / 3D per format class)', () => {
  // Each shape holds exactly 64 KiB: e.g. 8 bpp 256×256×1 B = 65536, 3D 64×32×32×1 B = 65536;
  // BC1 512×256 texels = 128×64 blocks × 8 B = 65536; BC7 256×256 = 64×64 blocks × 16 B = 65536.
  const classes: { formats: string[]; shape2D: [number, number]; shape3D: [number, number, number] }[] = [
    { formats: ['R8_UNORM', 'A8_UNORM'], shape2D: [256, 256], shape3D: [64, 32, 32] },
    { formats: ['R16_FLOAT', 'R8G8_UNORM', 'B5G6R5_UNORM'], shape2D: [256, 128], shape3D: [32, 32, 32] },
    {
      formats: ['R8G8B8A8_UNORM', 'R32_FLOAT', 'R10G10B10A2_UNORM', 'B8G8R8A8_UNORM'],
      shape2D: [128, 128],
      shape3D: [32, 32, 16],
    },
    { formats: ['R16G16B16A16_FLOAT', 'R32G32_FLOAT'], shape2D: [128, 64], shape3D: [32, 16, 16] },
    { formats: ['R32G32B32A32_FLOAT', 'R32G32B32A32_UINT'], shape2D: [64, 64], shape3D: [16, 16, 16] },
    { formats: ['BC1_UNORM', 'BC1_UNORM_SRGB', 'BC4_UNORM', 'BC4_SNORM'], shape2D: [512, 256], shape3D: [128, 64, 16] },
    {
      formats: ['BC2_UNORM', 'BC3_UNORM', 'BC5_UNORM', 'BC6H_UF16', 'BC6H_SF16', 'BC7_UNORM', 'BC7_UNORM_SRGB'],
      shape2D: [256, 256],
      shape3D: [64, 64, 16],
    },
  ];

  for (const c of classes) {
    for (const format of c.formats) {
      test(`${format}: 2D ${c.shape2D.join('×')}`, async () => {
        const dev = await device(3);
        const [w, h] = c.shape2D;
        // 2 tiles wide, 3 tiles high, one mip: a 2×3 grid of 6 tiles, nothing packed.
        const tiling = dev.getResourceTiling(reserved(dev, tex2D(format, 2 * w, 3 * h)));
        expectTiling(tiling, { numTiles: 6, shape: [w, h, 1], packed: [1, 0, 0, 0], subresources: [[2, 3, 1, 0]] });
      });
      test(`${format}: 3D ${c.shape3D.join('×')}`, async () => {
        const dev = await device(3);
        const [w, h, d] = c.shape3D;
        // 2 × 3 × 2 tiles, one mip: 12 tiles, nothing packed.
        const tiling = dev.getResourceTiling(reserved(dev, tex3D(format, 2 * w, 3 * h, 2 * d)));
        expectTiling(tiling, { numTiles: 12, shape: [w, h, d], packed: [1, 0, 0, 0], subresources: [[2, 3, 2, 0]] });
      });
      test(`${format}: 4 texels past a tile boundary take another tile (2D)`, async () => {
        const dev = await device(3);
        const [w, h] = c.shape2D;
        // Width w + 4 (4 keeps BC widths whole blocks): ceil((w + 4) / w) = 2 tiles across, 1 down.
        const tiling = dev.getResourceTiling(reserved(dev, tex2D(format, w + 4, h)));
        expect(flat(tiling.subresourceTilings)).toEqual([[2, 1, 1, 0]]);
        expect(tiling.numTilesForEntireResource).toBe(2);
      });
    }
  }

  test('96-bpp formats have no tile shape and cannot be reserved', async () => {
    const dev = await device(3);
    expect(() => reserved(dev, tex2D('R32G32B32_FLOAT', 64, 64))).toThrow(D3D12Error);
    // Control: the 128-bpp format of the same size is fine.
    expect(() => reserved(dev, tex2D('R32G32B32A32_FLOAT', 64, 64))).not.toThrow();
  });
});

describe('buffers', () => {
  test('a 16-tile buffer is 16 tiles of 65536×1×1', async () => {
    const dev = await device(3);
    // width 16 × 65536 = 1048576 bytes: 16 tiles in one row; a buffer has no mips, so the packed
    // description is all zeros (**Chosen** in tiling.ts, after D3D11's tiled-resources spec).
    const tiling = dev.getResourceTiling(reserved(dev, { dimension: 'BUFFER', width: 16 * 65536 }));
    expectTiling(tiling, { numTiles: 16, shape: [65536, 1, 1], packed: [0, 0, 0, 0], subresources: [[16, 1, 1, 0]] });
  });

  test('a partial last tile counts as a whole tile', async () => {
    const dev = await device(3);
    // 65537 bytes: ceil(65537 / 65536) = 2 tiles; 1 byte: 1 tile; 65536 bytes: exactly 1 tile.
    expect(dev.getResourceTiling(reserved(dev, { dimension: 'BUFFER', width: 65537 })).numTilesForEntireResource).toBe(
      2,
    );
    expect(dev.getResourceTiling(reserved(dev, { dimension: 'BUFFER', width: 1 })).numTilesForEntireResource).toBe(1);
    expect(dev.getResourceTiling(reserved(dev, { dimension: 'BUFFER', width: 65536 })).numTilesForEntireResource).toBe(
      1,
    );
  });

  test('committed buffers report the same tiling', async () => {
    const dev = await device(1);
    // 3 × 65536 - 1 bytes: 3 tiles.
    const tiling = dev.getResourceTiling(committed(dev, { dimension: 'BUFFER', width: 3 * 65536 - 1 }));
    expectTiling(tiling, { numTiles: 3, shape: [65536, 1, 1], packed: [0, 0, 0, 0], subresources: [[3, 1, 1, 0]] });
  });
});

describe('2D textures with mips', () => {
  // 512×512 R8G8B8A8 (tile 128×128), 10 mips: 512, 256, 128, 64, 32, 16, 8, 4, 2, 1.
  //   mip 0: 512/128 = 4 → 4×4 = 16 tiles, start 0
  //   mip 1: 256/128 = 2 → 2×2 = 4 tiles, start 16
  //   mip 2: 128/128 = 1 → 1×1 = 1 tile, start 20
  //   mip 3: 64 < 128 → packed (at tier 1 too: 64 is not a multiple of 128), and so are mips 4..9.
  //   tail: 64²×4 = 16384 @0, 32²×4 = 4096 @16384, 16²×4 = 1024 @20480, 8²×4 = 256 @21504,
  //         4²×4 = 64 @21760, 2²×4 = 16 @21824, 1×4 = 4 @21840 → 21844 bytes → 1 tile.
  //   total 16 + 4 + 1 + 1 = 22; packed start = 21 (the standard tiles before the tail).
  const rgba512: Expected = {
    numTiles: 22,
    shape: [128, 128, 1],
    packed: [3, 7, 1, 21],
    subresources: [[4, 4, 1, 0], [2, 2, 1, 16], [1, 1, 1, 20], PACKED, PACKED, PACKED, PACKED, PACKED, PACKED, PACKED],
  };

  for (const tier of [1, 2, 3, 4] as const) {
    test(`512×512 RGBA8 with 10 mips: 3 standard mips, 21 + 1 tiles (tier ${tier})`, async () => {
      const dev = await device(tier);
      expectTiling(dev.getResourceTiling(reserved(dev, tex2D('R8G8B8A8_UNORM', 512, 512, 10))), rgba512);
    });
  }

  test('mipLevels 0 means the full chain (10 mips for 512×512)', async () => {
    const dev = await device(3);
    expectTiling(dev.getResourceTiling(reserved(dev, tex2D('R8G8B8A8_UNORM', 512, 512, 0))), rgba512);
  });

  test('a wide texture whose second mip is packed into two tiles', async () => {
    const dev = await device(3);
    // 1024×128 RGBA8, 2 mips: mip 0 is 8×1 tiles (start 0); mip 1 is 512×64, 64 < 128 → packed:
    // 512×64×4 = 131072 bytes = exactly 2 tiles. Total 10, packed start 8.
    expectTiling(dev.getResourceTiling(reserved(dev, tex2D('R8G8B8A8_UNORM', 1024, 128, 2))), {
      numTiles: 10,
      shape: [128, 128, 1],
      packed: [1, 1, 2, 8],
      subresources: [[8, 1, 1, 0], PACKED],
    });
  });

  test('a texture smaller than one tile is entirely packed', async () => {
    const dev = await device(3);
    // 64×64 RGBA8 (tile 128×128), 7 mips: mip 0 already < 128 → all 7 packed, none standard.
    // tail: 16384 + 4096 + 1024 + 256 + 64 + 16 + 4 (each at a 16-byte multiple) = 21844 → 1 tile.
    // Packed start: the sum of standard tiles, 0.
    expectTiling(dev.getResourceTiling(reserved(dev, tex2D('R8G8B8A8_UNORM', 64, 64, 7))), {
      numTiles: 1,
      shape: [128, 128, 1],
      packed: [0, 7, 1, 0],
      subresources: [PACKED, PACKED, PACKED, PACKED, PACKED, PACKED, PACKED],
    });
  });

  test('BC1 512×256 with a full chain', async () => {
    const dev = await device(3);
    // BC1 (tile 512×256 texels), 10 mips (log2 512 + 1). mip 0: 1×1 tile. mip 1 256×128 < tile → packed.
    // tail, row pitch = ceil(w/4) × 8, rows = ceil(h/4):
    //   256×128: 64×8 × 32 = 16384 @0; 128×64: 256×16 = 4096 @16384; 64×32: 128×8 = 1024 @20480;
    //   32×16: 64×4 = 256 @21504; 16×8: 32×2 = 64 @21760; 8×4: 16 @21824; 4×2: 8 @21840;
    //   2×1: 8 @21856; 1×1: 8 @21872 → 21880 bytes → 1 tile. Total 2, packed start 1.
    expectTiling(dev.getResourceTiling(reserved(dev, tex2D('BC1_UNORM', 512, 256, 0))), {
      numTiles: 2,
      shape: [512, 256, 1],
      packed: [1, 9, 1, 1],
      subresources: [[1, 1, 1, 0], PACKED, PACKED, PACKED, PACKED, PACKED, PACKED, PACKED, PACKED, PACKED],
    });
  });

  test('BC7 1024×512 with 3 mips', async () => {
    const dev = await device(3);
    // BC7 (tile 256×256): mip 0 1024×512 → 4×2 = 8 tiles @0; mip 1 512×256 → 2×1 = 2 @8;
    // mip 2 256×128: 128 < 256 → packed: 64 blocks × 16 B × 32 rows = 32768 → 1 tile. Total 11, start 10.
    expectTiling(dev.getResourceTiling(reserved(dev, tex2D('BC7_UNORM', 1024, 512, 3))), {
      numTiles: 11,
      shape: [256, 256, 1],
      packed: [2, 1, 1, 10],
      subresources: [[4, 2, 1, 0], [2, 1, 1, 8], PACKED],
    });
  });
});

describe('tiers: which mips are packed', () => {
  test('300×300 RGBA8, full chain: tier 1 packs everything, tier 2+ only from 75×75', async () => {
    // 9 mips (floor(log2 300) + 1): 300, 150, 75, 37, 18, 9, 4, 2, 1.
    // Tier 1: 300 is not a multiple of 128 → mip 0 is packed, hence all 9.
    //   tail: 300²×4 = 360000 @0 → 360000; 150²×4 = 90000 → 450000; 75²×4 = 22500 → 472500;
    //   37²×4 = 5476 @472512 → 477988; 18²×4 = 1296 @478000 → 479296; 9²×4 = 324 → 479620;
    //   64 @479632 → 479696; 16 → 479712; 4 → 479716 bytes. ceil(479716 / 65536) = 8 tiles
    //   (7 tiles hold only 458752). Packed start 0 (no standard tiles).
    const tier1 = await device(1);
    expectTiling(tier1.getResourceTiling(reserved(tier1, tex2D('R8G8B8A8_UNORM', 300, 300, 0))), {
      numTiles: 8,
      shape: [128, 128, 1],
      packed: [0, 9, 8, 0],
      subresources: Array.from({ length: 9 }, () => PACKED),
    });
    // Tier 2+: 300 ≥ 128 → ceil(300/128) = 3 → 3×3 = 9 tiles @0; 150 ≥ 128 → 2×2 = 4 tiles @9;
    //   75 < 128 → packed from mip 2: 22500 @0 → 22500; 5476 @22512 → 27988; 1296 @28000 → 29296;
    //   324 → 29620; 64 @29632 → 29696; 16 → 29712; 4 → 29716 bytes → 1 tile.
    //   Total 9 + 4 + 1 = 14, packed start 13.
    for (const tier of [2, 3, 4] as const) {
      const dev = await device(tier);
      expectTiling(dev.getResourceTiling(reserved(dev, tex2D('R8G8B8A8_UNORM', 300, 300, 0))), {
        numTiles: 14,
        shape: [128, 128, 1],
        packed: [2, 7, 1, 13],
        subresources: [[3, 3, 1, 0], [2, 2, 1, 9], PACKED, PACKED, PACKED, PACKED, PACKED, PACKED, PACKED],
      });
    }
  });

  test('384×256 RGBA8, 3 mips: tier 1 packs 192×128, tier 2 keeps it standard', async () => {
    // Tier 1: mip 0 384×256 are multiples of 128 → 3×2 = 6 tiles; mip 1 192×128: 192 % 128 ≠ 0 →
    //   packed: 192×128×4 = 98304 @0, mip 2 96×64×4 = 24576 @98304 → 122880 bytes → 2 tiles.
    //   Total 8, packed start 6.
    const tier1 = await device(1);
    expectTiling(tier1.getResourceTiling(reserved(tier1, tex2D('R8G8B8A8_UNORM', 384, 256, 3))), {
      numTiles: 8,
      shape: [128, 128, 1],
      packed: [1, 2, 2, 6],
      subresources: [[3, 2, 1, 0], PACKED, PACKED],
    });
    // Tier 2: mip 1 192 ≥ 128 and 128 ≥ 128 → standard, ceil(192/128) = 2 → 2×1 tiles @6;
    //   mip 2 96×64 → packed: 24576 bytes → 1 tile. Total 9, packed start 8.
    const tier2 = await device(2);
    expectTiling(tier2.getResourceTiling(reserved(tier2, tex2D('R8G8B8A8_UNORM', 384, 256, 3))), {
      numTiles: 9,
      shape: [128, 128, 1],
      packed: [2, 1, 1, 8],
      subresources: [[3, 2, 1, 0], [2, 1, 1, 6], PACKED],
    });
  });

  test('once a mip is packed, every coarser mip is packed, even a whole-tile one (tier 1)', async () => {
    // 257×256 RGBA8, 2 mips. Tier 1: 257 % 128 ≠ 0 → mip 0 packed; mip 1 is 128×128, a whole tile
    // on its own, but follows a packed mip → packed too.
    //   tail: 257×256×4 = 263168 @0; 128×128×4 = 65536 @263168 → 328704 bytes → 6 tiles
    //   (5 tiles hold 327680). Total 6, packed start 0.
    const tier1 = await device(1);
    expectTiling(tier1.getResourceTiling(reserved(tier1, tex2D('R8G8B8A8_UNORM', 257, 256, 2))), {
      numTiles: 6,
      shape: [128, 128, 1],
      packed: [0, 2, 6, 0],
      subresources: [PACKED, PACKED],
    });
    // Tier 2: 257 ≥ 128 → ceil(257/128) = 3 → 3×2 = 6 tiles @0; mip 1 128×128 → 1 tile @6. Total 7.
    const tier2 = await device(2);
    expectTiling(tier2.getResourceTiling(reserved(tier2, tex2D('R8G8B8A8_UNORM', 257, 256, 2))), {
      numTiles: 7,
      shape: [128, 128, 1],
      packed: [2, 0, 0, 0],
      subresources: [
        [3, 2, 1, 0],
        [1, 1, 1, 6],
      ],
    });
  });

  test('3D 48×32×16 RGBA8: tier 1 (committed) packs it, tier 3 (reserved) tiles it', async () => {
    // Tile 32×32×16. Tier 1: 48 % 32 ≠ 0 → packed: 48×32×16×4 = 98304 bytes → 2 tiles, start 0.
    const tier1 = await device(1);
    expectTiling(tier1.getResourceTiling(committed(tier1, tex3D('R8G8B8A8_UNORM', 48, 32, 16))), {
      numTiles: 2,
      shape: [32, 32, 16],
      packed: [0, 1, 2, 0],
      subresources: [PACKED],
    });
    // Tier 3: 48 ≥ 32, 32 ≥ 32, 16 ≥ 16 → standard, ceil(48/32) = 2 → 2×1×1 = 2 tiles.
    const tier3 = await device(3);
    expectTiling(tier3.getResourceTiling(reserved(tier3, tex3D('R8G8B8A8_UNORM', 48, 32, 16))), {
      numTiles: 2,
      shape: [32, 32, 16],
      packed: [1, 0, 0, 0],
      subresources: [[2, 1, 1, 0]],
    });
  });

  test('reserved 3D textures need tier 3; committed ones exist at every tier', async () => {
    for (const tier of [1, 2] as const) {
      const dev = await device(tier);
      expect(() => reserved(dev, tex3D('R8G8B8A8_UNORM', 64, 64, 32))).toThrow(D3D12Error);
      // 64×64×32: 2×2×2 tiles at either tier (every dimension a whole number of tiles).
      expect(dev.getResourceTiling(committed(dev, tex3D('R8G8B8A8_UNORM', 64, 64, 32))).numTilesForEntireResource).toBe(
        8,
      );
    }
  });
});

describe('3D textures with mips', () => {
  test('64×64×64 R32G32B32A32_FLOAT with 3 mips has 73 tiles', async () => {
    const dev = await device(3);
    // Tile 16×16×16. mip 0: 4×4×4 = 64 @0; mip 1 32³: 2×2×2 = 8 @64; mip 2 16³: 1 @72. 73, none packed.
    expectTiling(dev.getResourceTiling(reserved(dev, tex3D('R32G32B32A32_FLOAT', 64, 64, 64, 3))), {
      numTiles: 73,
      shape: [16, 16, 16],
      packed: [3, 0, 0, 0],
      subresources: [
        [4, 4, 4, 0],
        [2, 2, 2, 64],
        [1, 1, 1, 72],
      ],
    });
  });

  test('64×64×64 R32G32B32A32_FLOAT, full chain: the 8³ mip starts the tail', async () => {
    const dev = await device(3);
    // 7 mips. As above plus mip 3 8³ < 16 → packed, with 4³, 2³, 1³:
    // 8³×16 = 8192 @0; 4³×16 = 1024 @8192; 2³×16 = 128 @9216; 16 @9344 → 9360 bytes → 1 tile.
    // Total 74, packed start 73.
    expectTiling(dev.getResourceTiling(reserved(dev, tex3D('R32G32B32A32_FLOAT', 64, 64, 64, 0))), {
      numTiles: 74,
      shape: [16, 16, 16],
      packed: [3, 4, 1, 73],
      subresources: [[4, 4, 4, 0], [2, 2, 2, 64], [1, 1, 1, 72], PACKED, PACKED, PACKED, PACKED],
    });
  });

  test('a thin volume packs as soon as its depth is below the tile depth', async () => {
    const dev = await device(3);
    // 64×64×32 RGBA8 (tile 32×32×16), 3 mips: mip 0 2×2×2 = 8 @0; mip 1 32×32×16 → 1 @8;
    // mip 2 16×16×8 → packed: 16×16×8×4 = 8192 bytes → 1 tile. Total 10, packed start 9.
    expectTiling(dev.getResourceTiling(reserved(dev, tex3D('R8G8B8A8_UNORM', 64, 64, 32, 3))), {
      numTiles: 10,
      shape: [32, 32, 16],
      packed: [2, 1, 1, 9],
      subresources: [[2, 2, 2, 0], [1, 1, 1, 8], PACKED],
    });
  });

  test('BC4 3D 256×128×32 and BC5 3D 128×128×32', async () => {
    const dev = await device(3);
    // BC4 tile 128×64×16: 2×2×2 = 8 tiles. BC5 tile 64×64×16: 2×2×2 = 8 tiles.
    expectTiling(dev.getResourceTiling(reserved(dev, tex3D('BC4_UNORM', 256, 128, 32))), {
      numTiles: 8,
      shape: [128, 64, 16],
      packed: [1, 0, 0, 0],
      subresources: [[2, 2, 2, 0]],
    });
    expectTiling(dev.getResourceTiling(reserved(dev, tex3D('BC5_UNORM', 128, 128, 32))), {
      numTiles: 8,
      shape: [64, 64, 16],
      packed: [1, 0, 0, 0],
      subresources: [[2, 2, 2, 0]],
    });
  });
});

describe('arrays', () => {
  test('a 2D array without packed mips: subresource = mip + slice × mipLevels, starts run on', async () => {
    const dev = await device(3);
    // 256×256 RGBA8, 2 mips, 3 slices: per slice mip 0 2×2 = 4, mip 1 1×1 = 1 → 5 tiles.
    // Slice s: mip 0 at 5s, mip 1 at 5s + 4. Total 15.
    expectTiling(dev.getResourceTiling(reserved(dev, tex2D('R8G8B8A8_UNORM', 256, 256, 2, 3))), {
      numTiles: 15,
      shape: [128, 128, 1],
      packed: [2, 0, 0, 0],
      subresources: [
        [2, 2, 1, 0],
        [1, 1, 1, 4],
        [2, 2, 1, 5],
        [1, 1, 1, 9],
        [2, 2, 1, 10],
        [1, 1, 1, 14],
      ],
    });
  });

  test('reserved arrays with packed mips need tier 4', async () => {
    for (const tier of [1, 2, 3] as const) {
      const dev = await device(tier);
      expect(() => reserved(dev, tex2D('R8G8B8A8_UNORM', 512, 512, 10, 3))).toThrow(D3D12Error);
      // Control: one slice, or no packed mip (3 mips of 512: 512, 256, 128), is fine.
      expect(() => reserved(dev, tex2D('R8G8B8A8_UNORM', 512, 512, 10, 1))).not.toThrow();
      expect(() => reserved(dev, tex2D('R8G8B8A8_UNORM', 512, 512, 3, 3))).not.toThrow();
    }
  });

  test('tier 4: each slice has its standard tiles, then its own packed tiles', async () => {
    const dev = await device(4);
    // 512×512 RGBA8, 10 mips, 3 slices: per slice 21 standard + 1 packed = 22 tiles (see above).
    // Slice s: mip 0 @22s, mip 1 @22s + 16, mip 2 @22s + 20, tail tile 22s + 21. Total 66.
    // The packed description is per slice, with slice 0's start (21).
    const res = reserved(dev, tex2D('R8G8B8A8_UNORM', 512, 512, 10, 3));
    const tiling = dev.getResourceTiling(res);
    const packed7 = Array.from({ length: 7 }, () => PACKED);
    expectTiling(tiling, {
      numTiles: 66,
      shape: [128, 128, 1],
      packed: [3, 7, 1, 21],
      subresources: [
        [4, 4, 1, 0],
        [2, 2, 1, 16],
        [1, 1, 1, 20],
        ...packed7,
        [4, 4, 1, 22],
        [2, 2, 1, 38],
        [1, 1, 1, 42],
        ...packed7,
        [4, 4, 1, 44],
        [2, 2, 1, 60],
        [1, 1, 1, 64],
        ...packed7,
      ],
    });
    // Slice 1 alone: subresources 10.. (mip 0 of slice 1 is subresource 1 × 10 + 0).
    expect(flat(dev.getResourceTiling(res, 10, 3).subresourceTilings)).toEqual([
      [4, 4, 1, 22],
      [2, 2, 1, 38],
      [1, 1, 1, 42],
    ]);
  });

  test('tier 4, a wide array with a two-tile tail per slice', async () => {
    const dev = await device(4);
    // 1024×128 RGBA8, 2 mips, 2 slices: per slice 8 standard (mip 0, 8×1) + 2 packed (512×64×4 =
    // 131072 bytes) = 10. Slice 1's mip 0 starts at 10; its tail is tiles 18, 19. Total 20.
    expectTiling(dev.getResourceTiling(reserved(dev, tex2D('R8G8B8A8_UNORM', 1024, 128, 2, 2))), {
      numTiles: 20,
      shape: [128, 128, 1],
      packed: [1, 1, 2, 8],
      subresources: [[8, 1, 1, 0], PACKED, [8, 1, 1, 10], PACKED],
    });
  });

  test('a committed array with packed mips (tier 3) has the same per-slice layout', async () => {
    const dev = await device(3);
    // 128×128 RGBA8, 2 mips, 2 slices: mip 0 1 tile, mip 1 64×64×4 = 16384 bytes → 1 packed tile:
    // slice s: mip 0 @2s, tail 2s + 1. Total 4, packed start 1.
    expectTiling(dev.getResourceTiling(committed(dev, tex2D('R8G8B8A8_UNORM', 128, 128, 2, 2))), {
      numTiles: 4,
      shape: [128, 128, 1],
      packed: [1, 1, 1, 1],
      subresources: [[1, 1, 1, 0], PACKED, [1, 1, 1, 2], PACKED],
    });
  });
});

describe('1D textures (committed: D3D12 cannot tile them; the emulator stores rows of 64 KiB)', () => {
  test('a 1D array with mips', async () => {
    const dev = await device(3);
    // R32G32B32A32_FLOAT: 65536 / 16 = 4096 texels per tile. 8192 wide, 3 mips, 2 slices:
    //   mip 0 8192 → 2 tiles @0; mip 1 4096 → 1 tile @2; mip 2 2048 < 4096 → packed:
    //   2048×16 = 32768 bytes → 1 tile. Per slice 4: slice 1 mip 0 @4, mip 1 @6. Total 8, start 3.
    expectTiling(
      dev.getResourceTiling(
        committed(dev, {
          dimension: 'TEXTURE1D',
          format: 'R32G32B32A32_FLOAT',
          width: 8192,
          mipLevels: 3,
          depthOrArraySize: 2,
        }),
      ),
      {
        numTiles: 8,
        shape: [4096, 1, 1],
        packed: [2, 1, 1, 3],
        subresources: [[2, 1, 1, 0], [1, 1, 1, 2], PACKED, [2, 1, 1, 4], [1, 1, 1, 6], PACKED],
      },
    );
  });

  test('a full 1D chain whose last mip spills into a second tail tile (16-byte packing)', async () => {
    const dev = await device(3);
    // R8G8B8A8, 16384 wide (one 16384-texel tile), 15 mips: mip 0 standard (1 tile); mips 1..14
    // packed: 32768 + 16384 + 8192 + ... + 8 bytes (mips 1..13) end at 65528; mip 14 (4 bytes)
    // starts at the next multiple of 16, 65536 → 65540 bytes → 2 tiles. Total 3, packed start 1.
    expectTiling(
      dev.getResourceTiling(
        committed(dev, { dimension: 'TEXTURE1D', format: 'R8G8B8A8_UNORM', width: 16384, mipLevels: 0 }),
      ),
      {
        numTiles: 3,
        shape: [16384, 1, 1],
        packed: [1, 14, 2, 1],
        subresources: [[1, 1, 1, 0], ...Array.from({ length: 14 }, () => PACKED)],
      },
    );
  });

  test('1D textures cannot be reserved', async () => {
    const dev = await device(4);
    expect(() =>
      dev.createReservedResource(
        { dimension: 'TEXTURE1D', format: 'R8G8B8A8_UNORM', width: 16384, layout: '64KB_UNDEFINED_SWIZZLE' },
        'COMMON',
      ),
    ).toThrow(D3D12Error);
  });
});

describe('firstSubresource / numSubresources', () => {
  // The 512×512 RGBA8, 10-mip texture: subresources 0..9 as in rgba512 above.
  const make = async (): Promise<{ dev: Device; res: Resource }> => {
    const dev = await device(3);
    return { dev, res: reserved(dev, tex2D('R8G8B8A8_UNORM', 512, 512, 10)) };
  };

  test('a window inside the resource', async () => {
    const { dev, res } = await make();
    expect(flat(dev.getResourceTiling(res, 1, 2).subresourceTilings)).toEqual([
      [2, 2, 1, 16],
      [1, 1, 1, 20],
    ]);
    expect(flat(dev.getResourceTiling(res, 2, 1).subresourceTilings)).toEqual([[1, 1, 1, 20]]);
    expect(flat(dev.getResourceTiling(res, 3, 1).subresourceTilings)).toEqual([PACKED]);
  });

  test('first alone: every subresource from first on', async () => {
    const { dev, res } = await make();
    // 10 - 7 = 3 left: subresources 7, 8, 9, all packed.
    expect(flat(dev.getResourceTiling(res, 7).subresourceTilings)).toEqual([PACKED, PACKED, PACKED]);
  });

  test('a count past the end is clamped', async () => {
    const { dev, res } = await make();
    // first 8, count 5: only 8 and 9 exist.
    expect(flat(dev.getResourceTiling(res, 8, 5).subresourceTilings)).toEqual([PACKED, PACKED]);
    // first 0, count 0xFFFFFFFF: all 10.
    expect(dev.getResourceTiling(res, 0, 0xffffffff).subresourceTilings).toHaveLength(10);
    // first 9, count 1 (exactly to the end): 1.
    expect(dev.getResourceTiling(res, 9, 1).subresourceTilings).toHaveLength(1);
  });

  test('first at or past the end gives no subresource tilings, the rest still reported', async () => {
    const { dev, res } = await make();
    for (const [first, count] of [
      [10, 1],
      [10, undefined],
      [11, 3],
      [0xffffffff, 0xffffffff],
    ] as const) {
      const tiling = dev.getResourceTiling(res, first, count);
      expect(tiling.subresourceTilings).toEqual([]);
      expect(tiling.numTilesForEntireResource).toBe(22);
      expect(tiling.packedMipDesc.startTileIndexInOverallResource).toBe(21);
    }
  });

  test('a count of 0 gives none', async () => {
    const { dev, res } = await make();
    expect(dev.getResourceTiling(res, 0, 0).subresourceTilings).toEqual([]);
    expect(dev.getResourceTiling(res, 4, 0).subresourceTilings).toEqual([]);
  });

  test('a window across array slices (tier 4)', async () => {
    const dev = await device(4);
    // 512×512 RGBA8, 10 mips, 2 slices: subresources 8, 9 (slice 0's last packed mips), 10, 11
    // (slice 1's mip 0 @22 and mip 1 @38).
    const res = reserved(dev, tex2D('R8G8B8A8_UNORM', 512, 512, 10, 2));
    expect(flat(dev.getResourceTiling(res, 8, 4).subresourceTilings)).toEqual([
      PACKED,
      PACKED,
      [4, 4, 1, 22],
      [2, 2, 1, 38],
    ]);
    // first 19 (the last), count 5 → 1.
    expect(flat(dev.getResourceTiling(res, 19, 5).subresourceTilings)).toEqual([PACKED]);
    expect(dev.getResourceTiling(res, 20, 1).subresourceTilings).toEqual([]);
  });

  test('invalid arguments and a released resource are refused', async () => {
    const { dev, res } = await make();
    expect(() => dev.getResourceTiling(res, -1)).toThrow(D3D12Error);
    expect(() => dev.getResourceTiling(res, 0, 1.5)).toThrow(D3D12Error);
    expect(() => dev.getResourceTiling(res, 0, 1)).not.toThrow();
    res.release();
    expect(() => dev.getResourceTiling(res)).toThrow(/released/);
  });
});
