/**
 * Tile indices of the virtual texture in D3D12's order (GetResourceTiling): mip 0's 128 x 128
 * tiles row by row, then mip 1's, ... mip 7's single tile, then the packed tail (mips 8..14).
 */
import { VT_STANDARD_MIPS } from './procedural.js';

export const TAIL_TILE = tileStart(VT_STANDARD_MIPS);

export function tilesPerSide(mip: number): number {
  return 128 >> mip;
}

export function tileStart(mip: number): number {
  let start = 0;
  for (let k = 0; k < mip; k++) start += tilesPerSide(k) ** 2;
  return start;
}

export function tileIndex(mip: number, x: number, y: number): number {
  return tileStart(mip) + y * tilesPerSide(mip) + x;
}

export function tileCoord(index: number): { mip: number; x: number; y: number } {
  for (let mip = 0; mip < VT_STANDARD_MIPS; mip++) {
    const side = tilesPerSide(mip);
    const local = index - tileStart(mip);
    if (local < side * side) return { mip, x: local % side, y: Math.floor(local / side) };
  }
  return { mip: VT_STANDARD_MIPS, x: 0, y: 0 };
}

/** The tile of the next coarser mip that covers `index`, up to mip 7. */
export function parentTile(index: number): number | undefined {
  const { mip, x, y } = tileCoord(index);
  return mip + 1 < VT_STANDARD_MIPS ? tileIndex(mip + 1, x >> 1, y >> 1) : undefined;
}
