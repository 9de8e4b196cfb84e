/**
 * The bytes of one tile of the virtual texture, produced on the CPU from proceduralTexel, in the
 * linear layout copyTiles reads with LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE. Pure: the tile worker,
 * the bench and the unit tests call it alike.
 *
 * The emulator's 64KB_UNDEFINED_SWIZZLE layout (src/memory/tiling.ts) stores a tile's texels as it
 * stores them in memory, and copyTiles moves each tile's 64 KiB unchanged, so the linear form is:
 *   - a standard tile (mips 0..7): 128 x 128 RGBA8 texels row-major, 512 bytes a row, R first;
 *   - the packed tail (mips 8..14, one tile): each mip row-major and tightly pitched (width x 4
 *     bytes a row), starting at a multiple of 16 bytes (tiling.ts's PACKED_MIP_ALIGNMENT); the
 *     bytes after the last mip are zero.
 */
// TILE_SIZE from its own module, not the package entry: the tile worker then loads no more than this.
import { PACKED_MIP_ALIGNMENT, TILE_SIZE } from '../../src/memory/tiling.js';
import { proceduralTexel, TILE_TEXELS, VT_MIPS, VT_SIZE, VT_STANDARD_MIPS } from './procedural.js';
import type { TileRegion } from '../../src/streaming/index.js';
import { TAIL_TILE, tileCoord } from './vt-layout.js';

const TEXEL_BYTES = 4;

/** Byte offset of each packed mip (VT_STANDARD_MIPS..VT_MIPS-1) inside the tail tile. */
export const TAIL_MIP_OFFSETS: readonly number[] = (() => {
  const offsets: number[] = [];
  let at = 0;
  for (let mip = VT_STANDARD_MIPS; mip < VT_MIPS; mip++) {
    at = Math.ceil(at / PACKED_MIP_ALIGNMENT) * PACKED_MIP_ALIGNMENT;
    offsets.push(at);
    at += (VT_SIZE >> mip) ** 2 * TEXEL_BYTES;
  }
  return offsets;
})();

/**
 * The packed mips in the tail's bytes, as boxes for the copyTextureRegion path of the tile streamer
 * (src/streaming/tile-streamer.ts): each mip whole, its tight rows at its TAIL_MIP_OFFSETS offset.
 */
export const TAIL_REGIONS: readonly TileRegion[] = TAIL_MIP_OFFSETS.map((dataOffset, k) => {
  const size = VT_SIZE >> (VT_STANDARD_MIPS + k);
  return {
    subresource: VT_STANDARD_MIPS + k,
    left: 0,
    top: 0,
    width: size,
    height: size,
    dataOffset,
    dataRowPitch: size * TEXEL_BYTES,
  };
});

function put(out: Uint8Array, at: number, mip: number, x: number, y: number): void {
  const [r, g, b, a] = proceduralTexel(mip, x, y);
  out[at] = r;
  out[at + 1] = g;
  out[at + 2] = b;
  out[at + 3] = a;
}

/**
 * Fills `out` (64 KiB, a fresh one by default) with tile `tile` (vt-layout.ts's tile index: a
 * standard tile or TAIL_TILE) and returns it.
 */
export function tileTexels(tile: number, out: Uint8Array = new Uint8Array(TILE_SIZE)): Uint8Array {
  if (out.byteLength !== TILE_SIZE)
    throw new RangeError(`tileTexels: out holds ${out.byteLength} bytes, not a tile's ${TILE_SIZE}`);
  if (!Number.isInteger(tile) || tile < 0 || tile > TAIL_TILE)
    throw new RangeError(`tileTexels: no tile ${tile} (tiles 0..${TAIL_TILE})`);
  if (tile === TAIL_TILE) {
    out.fill(0);
    TAIL_MIP_OFFSETS.forEach((offset, k) => {
      const mip = VT_STANDARD_MIPS + k;
      const size = VT_SIZE >> mip;
      for (let y = 0; y < size; y++)
        for (let x = 0; x < size; x++) put(out, offset + (y * size + x) * TEXEL_BYTES, mip, x, y);
    });
    return out;
  }
  const { mip, x: tx, y: ty } = tileCoord(tile);
  for (let y = 0; y < TILE_TEXELS; y++) {
    for (let x = 0; x < TILE_TEXELS; x++)
      put(out, (y * TILE_TEXELS + x) * TEXEL_BYTES, mip, tx * TILE_TEXELS + x, ty * TILE_TEXELS + y);
  }
  return out;
}
