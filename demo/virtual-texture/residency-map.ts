/**
 * The residency map the draw clamps its samples with (a "MinMip map", as D3D12's streaming samples
 * keep): one entry per 128 x 128 texel region of mip 0, holding the finest mip m such that the tiles
 * covering the region at m and at every coarser standard mip are resident. Sampling at lod >= m then
 * reads resident tiles only, trilinear partner included (except where a bilinear footprint crosses
 * into a neighbouring region; the draw's mapped-status check handles those). No GPU here.
 */
import { VT_STANDARD_MIPS } from './procedural.js';
import { tileIndex, tilesPerSide } from './vt-layout.js';

export const REGIONS_PER_SIDE = tilesPerSide(0);

/**
 * Fills `out` (REGIONS_PER_SIDE² words, row-major) from `isResident(tile)`. Coarsest mips first,
 * so each mip's grid inherits from its parent: O(tiles of mips 0..7).
 */
export function computeResidencyMap(isResident: (tile: number) => boolean, out: Uint32Array): Uint32Array {
  if (out.length !== REGIONS_PER_SIDE * REGIONS_PER_SIDE)
    throw new RangeError(`computeResidencyMap: out holds ${out.length} words, not ${REGIONS_PER_SIDE ** 2}`);
  // Per mip, over its tile grid: the finest resident mip for that tile's area, or VT_STANDARD_MIPS
  // where the chain breaks at mip 7 (only the packed tail is then known resident). Mip 7's parent is
  // the tail: one cell.
  let parent = new Uint32Array(1).fill(VT_STANDARD_MIPS);
  let parentSide = 1;
  for (let mip = VT_STANDARD_MIPS - 1; mip >= 0; mip--) {
    const side = tilesPerSide(mip);
    const grid = new Uint32Array(side * side);
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++) {
        const above = parent[(y >> 1) * parentSide + (x >> 1)] ?? VT_STANDARD_MIPS;
        // Resident here counts only if every coarser mip is too (the chain holds from mip + 1 up).
        grid[y * side + x] = above === mip + 1 && isResident(tileIndex(mip, x, y)) ? mip : above;
      }
    }
    parent = grid;
    parentSide = side;
  }
  out.set(parent);
  return out;
}
