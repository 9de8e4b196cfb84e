/**
 * Where a subresource's elements (texels, or 4×4 blocks of a block-compressed format) lie in a
 * texture's bytes, by the emulator's 64KB_UNDEFINED_SWIZZLE layout (tiling.ts): the arithmetic the
 * prelude's d3d12_tex2d_* functions do in WGSL (shaders/prelude/textures.wgsl), for copies.
 *
 * Invariants:
 *   - a standard mip's element (x, y, z) is in tile (x / tw, y / th, z / td) of the mip's grid
 *     (tile index = the mip's first tile + tx + ty × widthInTiles + tz × widthInTiles × heightInTiles),
 *     at ((z % td) × th + y % th) × tw + x % tw elements into it, tw × th × td being the standard
 *     tile shape in elements; elements are contiguous along x to the tile's right edge only;
 *   - a packed mip's element is at the slice's tail + the mip's tail offset + z × depthPitch +
 *     y × rowPitch + x × bytes: a whole row is contiguous;
 *   - slices are slicePitch bytes apart (4 KiB-pitched tails of small textures included).
 */
import type { FormatInfo } from './formats.js';
import { TILE_SIZE, type MipLayout, type ResourceLayout } from './tiling.js';

/** The byte offset of an element from the resource's start, and how many elements from it on lie contiguously along x. */
export interface ElementRun {
  offset: number;
  run: number;
}

/** Element (x, y, z) of subresource `subresource` (x, y in elements: blocks for BC formats). */
export function textureElementRun(
  layout: ResourceLayout,
  format: Pick<FormatInfo, 'bytesPerElement' | 'blockWidth' | 'blockHeight'>,
  subresource: number,
  x: number,
  y: number,
  z: number,
): ElementRun {
  const mip = subresource % layout.mipLevels;
  const slice = Math.floor(subresource / layout.mipLevels);
  const m = layout.mips[mip] as MipLayout;
  const sliceStart = slice * layout.slicePitch;
  if (m.packed) {
    return {
      offset:
        sliceStart +
        layout.standardTilesPerSlice * TILE_SIZE +
        m.tailByteOffset +
        z * m.depthPitch +
        y * m.rowPitch +
        x * format.bytesPerElement,
      run: Infinity,
    };
  }
  const tw = layout.tileShape.widthInTexels / format.blockWidth;
  const th = layout.tileShape.heightInTexels / format.blockHeight;
  const td = layout.tileShape.depthInTexels;
  const tile =
    m.firstTileInSlice +
    Math.floor(x / tw) +
    Math.floor(y / th) * m.widthInTiles +
    Math.floor(z / td) * m.widthInTiles * m.heightInTiles;
  const within = ((z % td) * th + (y % th)) * tw + (x % tw);
  return { offset: sliceStart + tile * TILE_SIZE + within * format.bytesPerElement, run: tw - (x % tw) };
}

/**
 * Byte offset, within the resource, of texel (x, y, z) of mip `mip` of array slice `slice` of a
 * texture of an uncompressed format (elements of `bytesPerElement` bytes; z a 3D texture's depth
 * slice, 0 otherwise): the CPU model of the prelude's texel address (d3d12_tex2d_texel_address_in,
 * shaders/prelude/textures.wgsl) and of the clear kernel's 3D one (d3d12_clear_volume_address,
 * shaders/uav_clear.wgsl) that the texel-store and clear tests compare with.
 */
export function texelByteOffset(
  layout: ResourceLayout,
  bytesPerElement: number,
  mip: number,
  slice: number,
  x: number,
  y: number,
  z = 0,
): number {
  if (!layout.mips[mip]) throw new RangeError(`mip ${mip} is not in the layout`);
  return textureElementRun(
    layout,
    { bytesPerElement, blockWidth: 1, blockHeight: 1 },
    slice * layout.mipLevels + mip,
    x,
    y,
    z,
  ).offset;
}

/** Element (x, y, z) of a footprint at `offset` in a buffer: rows rowPitch apart, depth slices rowPitch × numRows apart. */
export function footprintElementRun(
  offset: number,
  rowPitch: number,
  numRows: number,
  bytesPerElement: number,
  x: number,
  y: number,
  z: number,
): ElementRun {
  return { offset: offset + (z * numRows + y) * rowPitch + x * bytesPerElement, run: Infinity };
}
