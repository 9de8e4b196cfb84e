import { describe, expect, it } from 'vitest';
import { computeResidencyMap, REGIONS_PER_SIDE } from '../../../../demo/virtual-texture/residency-map.js';
import { tileIndex } from '../../../../demo/virtual-texture/vt-layout.js';

const map = (resident: Set<number>) =>
  computeResidencyMap((t) => resident.has(t), new Uint32Array(REGIONS_PER_SIDE ** 2));
const at = (m: Uint32Array, x: number, y: number) => m[y * REGIONS_PER_SIDE + x];
/** Tiles of mips from..7 covering mip-0 region (x, y). */
const chain = (x: number, y: number, from: number) =>
  Array.from({ length: 8 - from }, (_, k) => tileIndex(from + k, x >> (from + k), y >> (from + k)));

describe('residency map (MinMip map)', () => {
  it('is 8 (tail only) everywhere when no standard tile is resident', () => {
    expect(new Set(map(new Set()))).toEqual(new Set([8]));
  });

  it('gives the pinned mip 5 everywhere when mips 5..7 are resident', () => {
    const resident = new Set<number>();
    for (let mip = 5; mip < 8; mip++)
      for (let y = 0; y < 128 >> mip; y++) for (let x = 0; x < 128 >> mip; x++) resident.add(tileIndex(mip, x, y));
    expect(new Set(map(resident))).toEqual(new Set([5]));
  });

  it('gives a region the finest mip of an unbroken chain, and only that region', () => {
    const m = map(new Set(chain(39, 54, 0)));
    expect(at(m, 39, 54)).toBe(0);
    // Neighbours share the coarser tiles: mip 1's tile (19, 27) covers regions 38..39 x 54..55.
    expect(at(m, 38, 54)).toBe(1);
    expect(at(m, 39, 55)).toBe(1);
    expect(at(m, 40, 54)).toBe(4); // x 40 vs 39: tiles differ up to mip 3 (5 vs 4), mip 4 shares tile 2
    expect(at(m, 0, 0)).toBe(6); // shares mip 6 tile (0, 0)
    expect(at(m, 127, 127)).toBe(7); // only the single mip 7 tile
  });

  it('ignores a fine tile whose parent is missing (the trilinear partner and fallback must be there)', () => {
    const resident = new Set(chain(39, 54, 0));
    resident.delete(tileIndex(2, 39 >> 2, 54 >> 2));
    const m = map(resident);
    expect(at(m, 39, 54)).toBe(3);
  });

  it('rejects an output of the wrong size', () => {
    expect(() => computeResidencyMap(() => true, new Uint32Array(10))).toThrow(RangeError);
  });
});
