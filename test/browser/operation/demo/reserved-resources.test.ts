/**
 * The D3D12ReservedResources scene, started at mip 5 (URL parameter mip) and stepped through its mips
 * in one page load (the arrow keys and the panel's buttons), judged after each step by:
 *
 * - its pixels, against a CPU model: the texels texture-data.ts generates (the scene uploads the
 *   same function's bytes), the quad where the sample puts it (x in ±0.25, y in ±0.25 × aspect in
 *   clip space, v = 0 at the top) and the sampler the root signature declares (bilinear within the
 *   mip the root constant names, BORDER addressing, transparent black border). The canvas is
 *   512 × 320 at one device pixel per CSS pixel, so the quad covers pixels [192, 320) × [96, 224),
 *   its edges on pixel boundaries: mip 3 (128 texels) lands one texel on each pixel, each pixel's
 *   sample position on its texel's centre, so filtering reads that texel alone. At any other mip the
 *   sample positions sit at multiples of 1/256 of a texel, so the model knows every tap's weight
 *   exactly. A channel is compared where its 8-bit value is determined: where every tap of any
 *   weight holds the same value (0 or 255: whatever float error the GPU's weights have, the value
 *   is that), or where the model's filtered value lies at least 0.01 of a unit from a rounding
 *   boundary (the GPU's float32 error in interpolation and filtering is far smaller: with a margin
 *   of 1e-4 every channel of every step matched too). Compared values must be equal, not close; under
 *   1 % of the quad's channels go unjudged, none at mip 3. Outside the quad: the clear colour
 *   (0, 0.2, 0.4) as 0, 51, 102. Every mip shows the same 8 × 8 checkerboard at this size down to
 *   mip 7; which mip is read shows in the blends at cell edges (mips 4, 6 and 10 here) and in the
 *   mappings: any mip but the one shown is NULL and would read transparent black.
 * - its tile mappings (the CPU page table, getTileMappingForTesting): only the heap of the mip
 *   shown is mapped, each tile to its own heap tile; the heap shown before is unmapped; and, as in
 *   the sample, stepping between packed mips maps and uploads nothing, stepping back to them
 *   uploads the whole tail again.
 *
 * A second page opens as a new user would (no parameters but a frame count): the least detailed
 * mip first, and a window resize that changes the canvas's shape keeps the quad square.
 */
import { describe, expect } from 'vitest';
import type { ReservedResourcesSnapshot } from '../../../../demo/reserved-resources/main.js';
import { checkerTexel, mipSize } from '../../../../demo/reserved-resources/texture-data.js';
import { browserTest } from '../../../harness/browser/browser-test.js';
import type { DecodedPng } from '../../../harness/png.js';
import { runSceneHolds, SCENE_TIMEOUT_MS } from './open-scene.js';

const WIDTH = 512;
const HEIGHT = 320;
const CLEAR = [0, 51, 102];
const BORDER = [0, 0, 0, 0];
/** A tap whose model weight is under this is left out (the GPU's is then under half a unit's share). */
const NEGLIGIBLE = 1e-4;
/** The model's value must be this far (in 8-bit units) from a rounding boundary to be compared. */
const ROUNDING_MARGIN = 0.01;

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

/** The RGB the model knows for pixel (px, py) at mip `mip` (null: a channel it leaves unjudged), or the clear colour. */
function modelPixel(mip: number, px: number, py: number): Channel[] {
  // Clip-space quad as the scene makes it (float32, as its vertex buffer holds it), viewport = canvas.
  const h = Math.fround(0.25 * Math.fround(WIDTH / HEIGHT));
  const left = 0.375 * WIDTH;
  const right = 0.625 * WIDTH;
  const top = ((1 - h) / 2) * HEIGHT;
  const bottom = ((1 + h) / 2) * HEIGHT;
  const cx = px + 0.5;
  const cy = py + 0.5;
  if (cx <= left || cx >= right || cy <= top || cy >= bottom) return CLEAR;
  const { width, height } = mipSize(mip);
  const tx = ((cx - left) / (right - left)) * width - 0.5;
  const ty = ((cy - top) / (bottom - top)) * height - 0.5;
  const footprint: { weight: number; rgba: readonly number[] }[] = [];
  for (const [y, wy] of taps(ty))
    for (const [x, wx] of taps(tx)) {
      const inside = x >= 0 && y >= 0 && x < width && y < height;
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

/** Pixels of the quad's box whose compared channels differ from the model; how many channels were compared. */
function pixelMismatches(canvas: DecodedPng, mip: number): { mismatches: string[]; compared: number; skipped: number } {
  const mismatches: string[] = [];
  let compared = 0;
  let skipped = 0;
  for (let py = 0; py < canvas.height; py++)
    for (let px = 0; px < canvas.width; px++) {
      const want = modelPixel(mip, px, py);
      const at = (py * canvas.width + px) * 4;
      const got = [canvas.pixels[at], canvas.pixels[at + 1], canvas.pixels[at + 2]];
      want.forEach((value, c) => {
        if (value === null) {
          skipped++;
          return;
        }
        compared++;
        if (got[c] !== value && mismatches.length < 20)
          mismatches.push(`pixel (${px}, ${py}) channel ${c}: ${got[c]}, model ${value} (got ${got.join(',')})`);
      });
    }
  return { mismatches, compared, skipped };
}

interface Tiling {
  subresourceTilings: { widthInTiles: number; heightInTiles: number; startTileIndexInOverallResource: number }[];
  packedMipDesc: {
    numStandardMips: number;
    numPackedMips: number;
    numTilesForPackedMips: number;
    startTileIndexInOverallResource: number;
  };
}

/** The texture's mappings when `mip` is shown: its heap's tiles, in order, and nothing else. */
function expectedMappings(tiling: Tiling, mip: number, total: number): ([number, number] | null)[] {
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

/** Each hold: the mip shown, and how the test gets to the next (the panel's buttons or the arrow keys). */
const HOLDS: {
  mip: number;
  then?: { buttons?: { id: string; times: number }; keys?: { key: 'ArrowRight' | 'ArrowDown'; times: number } };
}[] = [
  { mip: 5, then: { keys: { key: 'ArrowRight', times: 5 } } },
  { mip: 10, then: { buttons: { id: 'mip-finer', times: 4 } } },
  { mip: 6, then: { buttons: { id: 'mip-finer', times: 2 } } },
  { mip: 4, then: { buttons: { id: 'mip-finer', times: 1 } } },
  { mip: 3, then: { buttons: { id: 'mip-finer', times: 1 } } },
  { mip: 2, then: { buttons: { id: 'mip-finer', times: 2 } } },
  { mip: 0, then: { keys: { key: 'ArrowDown', times: 4 } } },
  { mip: 4 },
];
/** [first subresource, count] of each texture upload so far, once each hold is drawn: packed mips move nothing. */
const TAIL: [number, number] = [4, 7];
const UPLOADS: [number, number][][] = [
  [TAIL],
  [TAIL],
  [TAIL],
  [TAIL],
  [TAIL, [3, 1]],
  [TAIL, [3, 1], [2, 1]],
  [TAIL, [3, 1], [2, 1], [0, 1]],
  [TAIL, [3, 1], [2, 1], [0, 1], TAIL],
];

describe('demo: reserved resources (D3D12ReservedResources)', () => {
  browserTest(
    'each mip stepped to is the only one mapped, and its pixels are the texels the model samples, exactly',
    async ({ openPage }) => {
      await runSceneHolds<ReservedResourcesSnapshot>(
        openPage,
        'reserved-resources',
        { frames: HOLDS.length, mip: HOLDS[0]?.mip ?? 0, width: WIDTH, height: HEIGHT, dpr: 1 },
        1,
        (hold) => `reserved-resources-${hold}-mip${HOLDS[hold]?.mip}`,
        async (run, hold) => {
          const { mip, then } = HOLDS[hold] as (typeof HOLDS)[number];
          const { snapshot, page, canvas } = run;
          const name = `hold ${hold} (mip ${mip})`;
          expect(snapshot.activeMip, name).toBe(mip);
          expect(snapshot.backBuffer, name).toEqual({ width: WIDTH, height: HEIGHT });
          expect([canvas.width, canvas.height], name).toEqual([WIDTH, HEIGHT]);

          // The tiling the scene asked for, and what it made of it: 4 standard mips, a packed tail.
          const tiling = (await page.evaluate(() => window.d3d12Demo.forTesting.tiling?.())) as Tiling;
          expect(tiling.packedMipDesc, name).toEqual({
            numStandardMips: 4,
            numPackedMips: 7,
            numTilesForPackedMips: 1,
            startTileIndexInOverallResource: 85,
          });
          expect(
            snapshot.heaps.map((h) => [h.tiles, h.mips]),
            name,
          ).toEqual([
            [64, [0]],
            [16, [1]],
            [4, [2]],
            [1, [3]],
            [1, [4, 5, 6, 7, 8, 9, 10]],
          ]);
          const shownHeap = Math.min(mip, 4);
          expect(
            snapshot.heaps.map((h) => h.mapped),
            name,
          ).toEqual(snapshot.heaps.map((_, n) => n === shownHeap));

          // The page table: the shown mip's heap, tile for tile; every other tile NULL.
          const mappings = (await page.evaluate(() => window.d3d12Demo.forTesting.tileMappings?.())) as (
            [number, number] | null
          )[];
          expect(mappings, `${name}: tile mappings`).toEqual(
            expectedMappings(tiling, mip, snapshot.numTilesForEntireResource),
          );
          expect(
            snapshot.uploads.map((u) => [u.firstSubresource, u.count]),
            `${name}: uploads`,
          ).toEqual(UPLOADS[hold]);

          // The pixels.
          const { mismatches, compared, skipped } = pixelMismatches(canvas, mip);
          expect(mismatches, `${name}: pixels against the model`).toEqual([]);
          const quadChannels = (WIDTH / 4) * (WIDTH / 4) * 3;
          const all = WIDTH * HEIGHT * 3;
          expect(compared + skipped).toBe(all);
          // Mip 3 is one texel a pixel: every channel is judged; elsewhere all but a few blends.
          if (mip === 3) expect(skipped, name).toBe(0);
          else expect(skipped, `${name}: channels left unjudged`).toBeLessThan(quadChannels * 0.01);

          if (then?.buttons) for (let i = 0; i < then.buttons.times; i++) await page.click(`#${then.buttons.id}`);
          if (then?.keys) for (let i = 0; i < then.keys.times; i++) await page.keyboard.press(then.keys.key);
        },
      );
    },
    SCENE_TIMEOUT_MS + 60_000,
  );

  browserTest(
    "a new user's page: the least detailed mip first; a resize that changes the canvas's shape keeps the quad square",
    async ({ openPage }) => {
      let firstWidth = 0;
      // A fixed height alone: the canvas's width follows the window, so its shape changes with it.
      await runSceneHolds<ReservedResourcesSnapshot>(
        openPage,
        'reserved-resources',
        { frames: 2, height: 300 },
        1,
        (hold) => `reserved-resources-resize-${hold}`,
        async ({ snapshot, page, canvas }, hold) => {
          const name = `hold ${hold}`;
          expect(snapshot.activeMip, name).toBe(10);
          expect(snapshot.backBuffer, name).toEqual({ width: canvas.width, height: canvas.height });
          expect(snapshot.aspectRatio, name).toBe(Math.fround(canvas.width / canvas.height));
          // The quad: every pixel that is not the clear colour (mip 10 fades to the border, G = B = 0).
          let [x0, y0, x1, y1] = [Infinity, Infinity, -1, -1];
          for (let y = 0; y < canvas.height; y++)
            for (let x = 0; x < canvas.width; x++) {
              const at = (y * canvas.width + x) * 4;
              if ([0, 1, 2].every((c) => canvas.pixels[at + c] === CLEAR[c])) continue;
              [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
            }
          const side = canvas.width / 4;
          expect(
            Math.abs(x1 - x0 + 1 - side),
            `${name}: quad width ${x1 - x0 + 1}, canvas ${canvas.width}`,
          ).toBeLessThanOrEqual(1);
          expect(Math.abs(y1 - y0 + 1 - side), `${name}: quad height ${y1 - y0 + 1}`).toBeLessThanOrEqual(1);
          expect(Math.abs((x0 + x1 + 1) / 2 - canvas.width / 2), `${name}: centred`).toBeLessThanOrEqual(0.5);
          expect(Math.abs((y0 + y1 + 1) / 2 - canvas.height / 2), `${name}: centred`).toBeLessThanOrEqual(0.5);
          const panel = await page.$eval('[data-stat="mip shown"]', (cell) => cell.textContent);
          expect(panel).toMatch(/^10 of 0–10/);
          if (hold === 0) {
            firstWidth = canvas.width;
            await page.setViewport({ width: 900, height: 1000 });
            await page.waitForFunction(
              (before) => document.getElementById('scene-canvas')?.clientWidth !== before,
              { polling: 50 },
              firstWidth,
            );
            // Two animation frames: the resize observer has reported the new size by then.
            await page.evaluate(
              () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
            );
          } else {
            expect(canvas.width, 'the canvas followed the window').not.toBe(firstWidth);
          }
        },
      );
    },
    SCENE_TIMEOUT_MS + 60_000,
  );
});
