/**
 * The CPU model of the reserved-resources sample's frames and tile mappings, shared by its browser
 * test (test/browser/operation/demo/reserved-resources.test.ts, the page's canvas) and its Node.js
 * test (test/gpu/operation/demo/reserved-resources-node.test.ts, an offscreen swap chain).
 *
 * Pixels: the texels texture-data.ts generates (the sample uploads the same function's bytes), the
 * quad where the sample puts it (x in ±0.25, y in ±0.25 × aspect in clip space, v = 0 at the top,
 * the viewport the whole frame) and the sampler the root signature declares (bilinear within the
 * mip the root constant names, BORDER addressing, transparent black border). At 512 × 320 the quad
 * covers pixels [192, 320) × [96, 224), its edges on pixel boundaries: mip 3 (128 texels) lands one
 * texel on each pixel, each pixel's sample position on its texel's centre, so filtering reads that
 * texel alone; at any other mip the sample positions sit at multiples of 1/256 of a texel, so the
 * model knows every tap's weight exactly. A channel is compared where its 8-bit value is
 * determined: where every tap of any weight holds the same value (0 or 255: whatever float error
 * the GPU's weights have, the value is that), or where the model's filtered value lies at least
 * ROUNDING_MARGIN of a unit from a rounding boundary (the GPU's float32 error in interpolation and
 * filtering is far smaller). Compared values must be equal, not close. Outside the quad: the clear
 * colour (0, 0.2, 0.4) as 0, 51, 102.
 *
 * Mappings: only the heap of the mip shown is mapped, each of its tiles to its own heap tile, in
 * order; every other tile of the texture is NULL.
 */
import { checkerTexel, mipSize } from '../../demo/reserved-resources/texture-data.js';

/** The clear colour as 8-bit RGB. */
export const CLEAR_RGB: readonly number[] = [0, 51, 102];
const BORDER = [0, 0, 0, 0];
/** A tap whose model weight is under this is left out (the GPU's is then under half a unit's share). */
const NEGLIGIBLE = 1e-4;
/** The model's value must be this far (in 8-bit units) from a rounding boundary to be compared. */
const ROUNDING_MARGIN = 0.01;

/** A frame's pixels: RGBA8, row-major, rows packed (a decoded PNG, or readPixels of an R8G8B8A8_UNORM swap chain). */
export interface Frame {
  width: number;
  height: number;
  pixels: Uint8Array;
}

type Channel = number | null;

/** The axis taps of a sample position in texels (centres at integers): [texel, weight] pairs. */
function taps(position: number): [number, number][] {
  const base = Math.floor(position);
  const f = position - base;
  return (
    [
      [base, 1 - f],
      [base + 1, f],
    ] as [number, number][]
  ).filter(([, w]) => w > NEGLIGIBLE);
}

/**
 * The RGB the model knows for pixel (px, py) of a `width` × `height` frame at mip `mip` (null: a
 * channel it leaves unjudged), or the clear colour.
 */
export function modelPixel(mip: number, px: number, py: number, width: number, height: number): Channel[] {
  // Clip-space quad as the sample makes it (float32, as its vertex buffer holds it), viewport = frame.
  const h = Math.fround(0.25 * Math.fround(width / height));
  const left = 0.375 * width;
  const right = 0.625 * width;
  const top = ((1 - h) / 2) * height;
  const bottom = ((1 + h) / 2) * height;
  const cx = px + 0.5;
  const cy = py + 0.5;
  if (cx <= left || cx >= right || cy <= top || cy >= bottom) return [...CLEAR_RGB];
  const size = mipSize(mip);
  const tx = ((cx - left) / (right - left)) * size.width - 0.5;
  const ty = ((cy - top) / (bottom - top)) * size.height - 0.5;
  const footprint: { weight: number; rgba: readonly number[] }[] = [];
  for (const [y, wy] of taps(ty))
    for (const [x, wx] of taps(tx)) {
      const inside = x >= 0 && y >= 0 && x < size.width && y < size.height;
      footprint.push({ weight: wx * wy, rgba: inside ? checkerTexel(mip, x, y) : BORDER });
    }
  return [0, 1, 2].map((c) => {
    const values = footprint.map((tap) => tap.rgba[c] as number);
    if (values.every((v) => v === values[0])) return values[0] as number;
    const value = footprint.reduce((sum, tap) => sum + tap.weight * (tap.rgba[c] as number), 0);
    const fraction = value - Math.floor(value);
    return Math.abs(fraction - 0.5) >= ROUNDING_MARGIN ? Math.round(value) : null;
  });
}

/**
 * The frame's pixels whose compared channels differ from the model at mip `mip` (the first 20, as
 * readable lines), how many channels were compared and how many left unjudged.
 */
export function pixelMismatches(
  frame: Frame,
  mip: number,
): { mismatches: string[]; mismatched: number; compared: number; skipped: number } {
  const mismatches: string[] = [];
  let mismatched = 0;
  let compared = 0;
  let skipped = 0;
  for (let py = 0; py < frame.height; py++)
    for (let px = 0; px < frame.width; px++) {
      const want = modelPixel(mip, px, py, frame.width, frame.height);
      const at = (py * frame.width + px) * 4;
      const got = [frame.pixels[at], frame.pixels[at + 1], frame.pixels[at + 2]];
      want.forEach((value, c) => {
        if (value === null) {
          skipped++;
          return;
        }
        compared++;
        if (got[c] === value) return;
        mismatched++;
        if (mismatches.length < 20)
          mismatches.push(`pixel (${px}, ${py}) channel ${c}: ${got[c]}, model ${value} (got ${got.join(',')})`);
      });
    }
  return { mismatches, mismatched, compared, skipped };
}

/** The sample's forTesting.tiling(): each standard mip's tiles, and the packed tail's. */
export interface Tiling {
  subresourceTilings: { widthInTiles: number; heightInTiles: number; startTileIndexInOverallResource: number }[];
  packedMipDesc: {
    numStandardMips: number;
    numPackedMips: number;
    numTilesForPackedMips: number;
    startTileIndexInOverallResource: number;
  };
}

/** What getResourceTiling reports for the 1024 × 1024 R8G8B8A8_UNORM texture: 4 standard mips, a packed tail of 7 in one tile. */
export const PACKED_MIP_DESC: Tiling['packedMipDesc'] = {
  numStandardMips: 4,
  numPackedMips: 7,
  numTilesForPackedMips: 1,
  startTileIndexInOverallResource: 85,
};

/** The sample's heaps: [tiles, mips backed] each, one per standard mip and one for the packed tail. */
export const HEAPS: readonly [number, number[]][] = [
  [64, [0]],
  [16, [1]],
  [4, [2]],
  [1, [3]],
  [1, [4, 5, 6, 7, 8, 9, 10]],
];

/** The heap that backs mip `mip`. */
export const heapOfMip = (mip: number): number => Math.min(mip, PACKED_MIP_DESC.numStandardMips);

/**
 * The texture's mappings (forTesting.tileMappings(): [heap index, heap tile] or null per tile) when
 * `mip` is shown: its heap's tiles, in order, and nothing else. Heap n backs standard mip n; the
 * last heap, the packed tail.
 */
export function expectedMappings(tiling: Tiling, mip: number, total: number): ([number, number] | null)[] {
  const want: ([number, number] | null)[] = Array.from({ length: total }, () => null);
  const packed = tiling.packedMipDesc;
  const [heap, start, count] =
    mip < packed.numStandardMips
      ? [
          mip,
          tiling.subresourceTilings[mip]?.startTileIndexInOverallResource ?? -1,
          (tiling.subresourceTilings[mip]?.widthInTiles ?? 0) * (tiling.subresourceTilings[mip]?.heightInTiles ?? 0),
        ]
      : [packed.numStandardMips, packed.startTileIndexInOverallResource, packed.numTilesForPackedMips];
  for (let i = 0; i < count; i++) want[start + i] = [heap, i];
  return want;
}
