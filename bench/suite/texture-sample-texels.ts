/**
 * The texels of the texture-sample figure (bench/suite/texture-sample.ts), made on the CPU once and
 * handed to both sides: every mip of a square RGBA8 texture from one pattern function (so neither
 * side generates mips, and they cannot differ there), as tight rows for queue.writeTexture, and the
 * same texels laid out tile after tile for copyTiles into the library's reserved texture.
 */
import type { ResourceTiling } from '../../src/index.js';
// Where each packed mip starts inside the tail (demo/virtual-texture/tile-texels.ts documents the tail's layout).
import { PACKED_MIP_ALIGNMENT } from '../../src/memory/tiling.js';

const TEXEL_BYTES = 4;
/** Seeds the pattern (fixed, so every run samples the same texels). */
const SEED = 0x7e57a9;

/**
 * Texel (x, y) of `mip` as RGBA8 in one little-endian word (R in the low byte): lowbias32 of the
 * position and mip. Noise rather than a smooth image: neighbouring texels differ by about a third of
 * the range, so a sample from the wrong texel, mip or weight shows in the check, not just in the noise.
 */
export function patternTexel(mip: number, x: number, y: number): number {
  let h = (Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(mip + 1, 0xc2b2ae3d) ^ SEED) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The side in texels of mip `mip` of a square texture of `side`. */
export const mipSide = (side: number, mip: number): number => Math.max(1, side >> mip);

/** The number of mips of a full chain down to 1 × 1. */
export const fullChain = (side: number): number => Math.floor(Math.log2(side)) + 1;

/** Every mip of the texture, each row-major and tightly pitched (side × 4 bytes a row). */
export function mipChain(side: number, mips: number): Uint8Array[] {
  return Array.from({ length: mips }, (_, mip) => {
    const s = mipSide(side, mip);
    const words = new Uint32Array(s * s);
    for (let y = 0; y < s; y++) for (let x = 0; x < s; x++) words[y * s + x] = patternTexel(mip, x, y);
    return new Uint8Array(words.buffer);
  });
}

/**
 * The texture's tiles, one 64 KiB tile after another in the resource's tile order (the linear form
 * copyTiles reads with LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE): a standard tile holds one tile
 * shape of texels row-major; the packed tail holds each packed mip row-major and tightly pitched,
 * starting at a multiple of PACKED_MIP_ALIGNMENT. Positions come from getResourceTiling.
 */
export function tiledBytes(
  tiling: ResourceTiling,
  chain: readonly Uint8Array[],
  side: number,
  tileBytes: number,
): Uint8Array {
  const out = new Uint8Array(tiling.numTilesForEntireResource * tileBytes);
  const { widthInTexels: tw, heightInTexels: th } = tiling.standardTileShapeForNonPackedMips;
  const packed = tiling.packedMipDesc;
  for (const [mip, texels] of chain.entries()) {
    const s = mipSide(side, mip);
    const rowBytes = s * TEXEL_BYTES;
    if (mip < packed.numStandardMips) {
      const {
        widthInTiles,
        heightInTiles,
        startTileIndexInOverallResource: first,
      } = tiling.subresourceTilings[mip] ?? { widthInTiles: 0, heightInTiles: 0, startTileIndexInOverallResource: 0 };
      for (let ty = 0; ty < heightInTiles; ty++) {
        for (let tx = 0; tx < widthInTiles; tx++) {
          const tile = (first + ty * widthInTiles + tx) * tileBytes;
          // Standard mips of a power-of-two texture are whole tiles: every row is full.
          for (let r = 0; r < th; r++) {
            const from = (ty * th + r) * rowBytes + tx * tw * TEXEL_BYTES;
            out.set(texels.subarray(from, from + tw * TEXEL_BYTES), tile + r * tw * TEXEL_BYTES);
          }
        }
      }
    }
  }
  let at = packed.startTileIndexInOverallResource * tileBytes;
  for (let mip = packed.numStandardMips; mip < chain.length; mip++) {
    at = Math.ceil(at / PACKED_MIP_ALIGNMENT) * PACKED_MIP_ALIGNMENT;
    const texels = chain[mip] as Uint8Array;
    out.set(texels, at);
    at += texels.byteLength;
  }
  return out;
}
