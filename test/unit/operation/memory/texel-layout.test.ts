/**
 * Where copies put a subresource's elements (src/memory/texel-layout.ts), against offsets worked out
 * by hand from the emulator's 64KB_UNDEFINED_SWIZZLE layout (DESIGN.md "Texture memory"): tiles of
 * the standard shape, texels row-major inside a tile, packed mips row-major in the tail, slices a
 * slice pitch apart. Then the copy jobs built from them: rows cut at tile edges, contiguous runs
 * merged, and the dispatch phases that keep two jobs off one destination word.
 */
import { describe, expect, test } from 'vitest';
import { formatInfo, type FormatInfo } from '../../../../src/memory/formats.js';
import { footprintElementRun, textureElementRun } from '../../../../src/memory/texel-layout.js';
import { computeLayout, TILE_SIZE, type LayoutInput } from '../../../../src/memory/tiling.js';
import { copyPhases, regionCopyJobs, type RegionSide } from '../../../../src/gpu/copy-jobs.js';

const T = TILE_SIZE;
const format = (name: string): FormatInfo => formatInfo(name) as FormatInfo;
const layoutOf = (input: Omit<LayoutInput, 'format'> & { format: string }, tier: 1 | 2 | 3 | 4 = 3) =>
  computeLayout({ ...input, format: format(input.format) }, tier);

describe('texel addresses in the tiled layout', () => {
  // 512² RGBA8, 10 mips: mip 0 is 4×4 tiles of 128×128 (tiles 0..15), mip 1 2×2 (16..19), mip 2 one
  // (20), mips 3..9 packed in tile 21 (mip 3 at tail offset 0, 256-byte rows; mip 4 at 16384).
  const rgba = layoutOf({
    dimension: 'TEXTURE2D',
    width: 512,
    height: 512,
    depth: 1,
    arraySize: 1,
    mipLevels: 10,
    format: 'R8G8B8A8_UNORM',
  });
  const f = format('R8G8B8A8_UNORM');
  test.each([
    ['mip 0 (130, 5): tile 1, row 5, texel 2', 0, 130, 5, 0, 1 * T + (5 * 128 + 2) * 4, 126],
    ['mip 0 (3, 129): tile 4, row 1, texel 3', 0, 3, 129, 0, 4 * T + (1 * 128 + 3) * 4, 125],
    ['mip 0 (511, 511): tile 15, the last texel', 0, 511, 511, 0, 15 * T + (127 * 128 + 127) * 4, 1],
    ['mip 1 (200, 130): tile 16 + 1 + 2', 1, 200, 130, 0, 19 * T + (2 * 128 + 72) * 4, 56],
    ['mip 3 (5, 7): packed, row 7 of 256 bytes', 3, 5, 7, 0, 21 * T + 7 * 256 + 5 * 4, Infinity],
    ['mip 4 (1, 1): packed at 16384, rows of 128 bytes', 4, 1, 1, 0, 21 * T + 16384 + 128 + 4, Infinity],
  ])('%s', (_, sub, x, y, z, offset, run) => {
    expect(textureElementRun(rgba, f, sub, x, y, z)).toEqual({ offset, run });
  });

  test('3D RGBA32F 64³: tiles of 16×16×16 texels in a 4×4×4 grid, texel (17, 2, 33) in tile 33, slice 1 of it', () => {
    const volume = layoutOf({
      dimension: 'TEXTURE3D',
      width: 64,
      height: 64,
      depth: 64,
      arraySize: 1,
      mipLevels: 1,
      format: 'R32G32B32A32_FLOAT',
    });
    expect(textureElementRun(volume, format('R32G32B32A32_FLOAT'), 0, 17, 2, 33)).toEqual({
      offset: 33 * T + ((1 * 16 + 2) * 16 + 1) * 16,
      run: 15,
    });
  });

  test('BC1 2D 1024×512: tiles of 512×256 texels = 128×64 blocks of 8 bytes; block (130, 65) in tile 3', () => {
    const bc = layoutOf({
      dimension: 'TEXTURE2D',
      width: 1024,
      height: 512,
      depth: 1,
      arraySize: 1,
      mipLevels: 1,
      format: 'BC1_UNORM',
    });
    expect(textureElementRun(bc, format('BC1_UNORM'), 0, 130, 65, 0)).toEqual({
      offset: 3 * T + (1 * 128 + 2) * 8,
      run: 126,
    });
  });

  test('an R8 array: slice 2 of 256² is 2 tiles in', () => {
    const array = layoutOf({
      dimension: 'TEXTURE2D',
      width: 256,
      height: 256,
      depth: 1,
      arraySize: 3,
      mipLevels: 1,
      format: 'R8_UNORM',
    });
    expect(textureElementRun(array, format('R8_UNORM'), 2, 10, 3, 0)).toEqual({
      offset: 2 * T + 3 * 256 + 10,
      run: 246,
    });
  });

  test('a small (4 KiB-placed) array: slices 4096 bytes apart, all packed', () => {
    const small = computeLayout(
      {
        dimension: 'TEXTURE2D',
        width: 16,
        height: 16,
        depth: 1,
        arraySize: 2,
        mipLevels: 1,
        format: f,
        smallAlignment: true,
      },
      3,
    );
    expect(small.slicePitch).toBe(4096);
    expect(textureElementRun(small, f, 1, 1, 2, 0)).toEqual({ offset: 4096 + 2 * 64 + 4, run: Infinity });
  });

  test('a footprint: rows rowPitch apart, depth slices rows × rowPitch apart', () => {
    expect(footprintElementRun(512, 256, 4, 4, 3, 2, 1)).toEqual({ offset: 512 + (4 + 2) * 256 + 12, run: Infinity });
  });
});

/** A side whose element (x, y, z) is at `offset(x, y, z)`, contiguous for `run(x)` elements. */
const side = (
  address: bigint,
  offset: (x: number, y: number, z: number) => number,
  run: (x: number) => number = () => Infinity,
): RegionSide => ({ address, at: (x, y, z) => ({ offset: offset(x, y, z), run: run(x) }) });

describe('region copy jobs', () => {
  test('rows cut where a tile ends, one job per run', () => {
    const dst = side(
      0x10000n,
      (x, y) => (x < 4 ? y * 16 + x * 4 : T + y * 16 + (x - 4) * 4),
      (x) => (x < 4 ? 4 - x : 8 - x),
    );
    const src = side(0x90000n, (x, y) => 512 + y * 256 + x * 4);
    expect(regionCopyJobs(dst, src, { width: 6, height: 2, depth: 1 }, 4)).toEqual([
      { dst: 0x10000n, src: 0x90200n, bytes: 16 },
      { dst: 0x10000n + BigInt(T), src: 0x90210n, bytes: 8 },
      { dst: 0x10010n, src: 0x90300n, bytes: 16 },
      { dst: 0x10010n + BigInt(T), src: 0x90310n, bytes: 8 },
    ]);
  });

  test('runs contiguous on both sides merge, rows included, and long ones are cut at 64 KiB', () => {
    const linear = (address: bigint): RegionSide => side(address, (x, y) => y * 1024 + x * 16);
    expect(regionCopyJobs(linear(0n), linear(0x100000n), { width: 64, height: 3, depth: 1 }, 16)).toEqual([
      { dst: 0n, src: 0x100000n, bytes: 3072 },
    ]);
    const jobs = regionCopyJobs(linear(0n), linear(0x100000n), { width: 64, height: 100, depth: 1 }, 16);
    expect(jobs.map((job) => job.bytes)).toEqual([65536, 102400 - 65536]);
  });

  test('phases: 1 when no destination word is shared, else enough that none is shared within a phase', () => {
    expect(
      copyPhases([
        { dst: 0n, src: 0n, bytes: 8 },
        { dst: 8n, src: 64n, bytes: 4 },
      ]),
    ).toBe(1);
    // Two jobs meet inside word 4..7.
    expect(
      copyPhases([
        { dst: 0n, src: 100n, bytes: 6 },
        { dst: 6n, src: 200n, bytes: 10 },
        { dst: 16n, src: 300n, bytes: 4 },
      ]),
    ).toBe(2);
    // Four one-byte rows of a packed R8 mip one texel wide: one word, four jobs.
    expect(copyPhases([0n, 1n, 2n, 3n].map((dst) => ({ dst, src: dst * 256n + 4096n, bytes: 1 })))).toBe(4);
    // Three jobs on a word, the first and third apart by two: stride 2 would put them together.
    expect(
      copyPhases([
        { dst: 0n, src: 0n, bytes: 1 },
        { dst: 1n, src: 8n, bytes: 1 },
        { dst: 2n, src: 16n, bytes: 2 },
      ]),
    ).toBe(3);
  });
});
