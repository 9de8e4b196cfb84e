/**
 * The virtual texture's CPU tile generator (demo/virtual-texture/tile-texels.ts): every byte of a
 * standard tile and of the packed tail against proceduralTexel, placed where the emulator's tiling
 * rule (src/memory/tiling.ts, computeLayout of the scene's texture) says copyTiles' linear buffer
 * holds it; and the boxes the copyTextureRegion path reads out of the tail.
 */
import { describe, expect, it } from 'vitest';
import { proceduralTexel, VT_MIPS, VT_SIZE, VT_STANDARD_MIPS } from '../../../../demo/virtual-texture/procedural.js';
import { TAIL_MIP_OFFSETS, TAIL_REGIONS, tileTexels } from '../../../../demo/virtual-texture/tile-texels.js';
import { TAIL_TILE, tileIndex } from '../../../../demo/virtual-texture/vt-layout.js';
import { formatInfo } from '../../../../src/memory/formats.js';
import { computeLayout, TILE_SIZE } from '../../../../src/memory/tiling.js';

/** The scene's texture as the emulator lays it out, at the tiers the library offers. */
const layouts = ([1, 2, 3, 4] as const).map((tier) =>
  computeLayout(
    {
      dimension: 'TEXTURE2D',
      width: VT_SIZE,
      height: VT_SIZE,
      depth: 1,
      arraySize: 1,
      mipLevels: VT_MIPS,
      format: formatInfo('R8G8B8A8_UNORM'),
    },
    tier,
  ),
);

/** Texels of `bytes` that differ from mip `mip`'s texels, `width` a row from `offset`, origin (x0, y0). */
function differences(
  bytes: Uint8Array,
  offset: number,
  mip: number,
  width: number,
  height: number,
  x0: number,
  y0: number,
  pitch: number,
): string[] {
  const out: string[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = offset + y * pitch + x * 4;
      const want = proceduralTexel(mip, x0 + x, y0 + y);
      if (want.some((v, c) => bytes[at + c] !== v))
        out.push(
          `mip ${mip} texel (${x0 + x}, ${y0 + y}) at byte ${at}: ${Array.from(bytes.subarray(at, at + 4)).join(',')} vs ${want.join(',')}`,
        );
    }
  }
  return out;
}

describe('tileTexels', () => {
  it('lays the texture out as the emulator does: mips 0..7 in 128 x 128 tiles, 8..14 packed in one tail tile at the offsets it uses', () => {
    for (const layout of layouts) {
      expect(layout.tileShape).toEqual({ widthInTexels: 128, heightInTexels: 128, depthInTexels: 1 });
      expect(layout.numStandardMips).toBe(VT_STANDARD_MIPS);
      expect(layout.standardTilesPerSlice).toBe(TAIL_TILE);
      expect(layout.packedTilesPerSlice).toBe(1);
      expect(TILE_SIZE).toBe(TILE_SIZE);
      for (let mip = VT_STANDARD_MIPS; mip < VT_MIPS; mip++) {
        const m = layout.mips[mip];
        expect(m?.tailByteOffset, `mip ${mip}`).toBe(TAIL_MIP_OFFSETS[mip - VT_STANDARD_MIPS]);
        expect(m?.rowPitch, `mip ${mip}`).toBe((VT_SIZE >> mip) * 4);
      }
    }
  });

  it('a standard tile holds its 128 x 128 texels row-major, 512 bytes a row, RGBA', () => {
    for (const [mip, tx, ty] of [
      [0, 0, 0],
      [0, 39, 54],
      [0, 127, 127],
      [3, 5, 9],
      [7, 0, 0],
    ] as const) {
      const bytes = tileTexels(tileIndex(mip, tx, ty));
      expect(bytes.byteLength).toBe(TILE_SIZE);
      const wrong = differences(bytes, 0, mip, 128, 128, tx * 128, ty * 128, 512);
      expect(wrong.slice(0, 4), `mip ${mip} tile (${tx}, ${ty}): ${wrong.length} texels differ`).toEqual([]);
    }
  });

  it('the tail tile holds mips 8..14 row-major at their offsets, zeros after the last', () => {
    // Dirty on purpose: the generator must overwrite every byte, padding included.
    const bytes = tileTexels(TAIL_TILE, new Uint8Array(TILE_SIZE).fill(0xee));
    let end = 0;
    for (let mip = VT_STANDARD_MIPS; mip < VT_MIPS; mip++) {
      const size = VT_SIZE >> mip;
      const offset = TAIL_MIP_OFFSETS[mip - VT_STANDARD_MIPS] ?? -1;
      expect(offset % 16, `mip ${mip} starts at a multiple of 16`).toBe(0);
      expect(offset, `mip ${mip} starts after mip ${mip - 1}`).toBeGreaterThanOrEqual(end);
      // Padding between mips is zero.
      expect(
        bytes.subarray(end, offset).every((b) => b === 0),
        `padding before mip ${mip}`,
      ).toBe(true);
      const wrong = differences(bytes, offset, mip, size, size, 0, 0, size * 4);
      expect(wrong.slice(0, 4), `mip ${mip}: ${wrong.length} texels differ`).toEqual([]);
      end = offset + size * size * 4;
    }
    expect(end).toBe(layouts[0]?.packedBytesPerSlice);
    expect(bytes.subarray(end).every((b) => b === 0)).toBe(true);
  });

  it("TAIL_REGIONS (the copyTextureRegion path's boxes) name each packed mip whole, where the tail holds its rows", () => {
    const bytes = tileTexels(TAIL_TILE);
    expect(TAIL_REGIONS.map((r) => r.subresource)).toEqual(
      Array.from({ length: VT_MIPS - VT_STANDARD_MIPS }, (_, k) => VT_STANDARD_MIPS + k),
    );
    for (const r of TAIL_REGIONS) {
      expect([r.left, r.top, r.width, r.height], `mip ${r.subresource}`).toEqual([
        0,
        0,
        VT_SIZE >> r.subresource,
        VT_SIZE >> r.subresource,
      ]);
      const wrong = differences(bytes, r.dataOffset, r.subresource, r.width, r.height, 0, 0, r.dataRowPitch);
      expect(wrong.slice(0, 4), `mip ${r.subresource}: ${wrong.length} texels differ`).toEqual([]);
    }
  });

  it('fills a given buffer in place and refuses a wrong size or tile', () => {
    const out = new Uint8Array(TILE_SIZE);
    expect(tileTexels(5, out)).toBe(out);
    expect(() => tileTexels(5, new Uint8Array(1024))).toThrow(RangeError);
    expect(() => tileTexels(TAIL_TILE + 1)).toThrow(RangeError);
    expect(() => tileTexels(-1)).toThrow(RangeError);
  });
});
