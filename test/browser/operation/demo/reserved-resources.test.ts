/**
 * The D3D12ReservedResources scene, started at mip 5 (URL parameter mip) and stepped through its mips
 * in one page load (the arrow keys and the panel's buttons), judged after each step by:
 *
 * - its pixels, against the CPU model of test/shared/reserved-resources-model.ts (the generated
 *   texels, the quad where the sample puts it, the sampler the root signature declares; a channel is
 *   compared where its 8-bit value is determined, and must be equal, not close). The canvas is
 *   512 × 320 at one device pixel per CSS pixel, so the quad covers pixels [192, 320) × [96, 224),
 *   its edges on pixel boundaries: at mip 3 every channel is judged; elsewhere under 1 % of the
 *   quad's channels go unjudged (with a rounding margin of 1e-4 every channel of every step matched
 *   too). Every mip shows the same 8 × 8 checkerboard at this size down to mip 7; which mip is read
 *   shows in the blends at cell edges (mips 4, 6 and 10 here) and in the mappings: any mip but the
 *   one shown is NULL and would read transparent black.
 * - its tile mappings (the CPU page table, getTileMappingForTesting): only the heap of the mip
 *   shown is mapped, each tile to its own heap tile; the heap shown before is unmapped; and, as in
 *   the sample, stepping between packed mips maps and uploads nothing, stepping back to them
 *   uploads the whole tail again.
 *
 * A second page opens as a new user would (no parameters but a frame count): the least detailed
 * mip first, and a window resize that changes the canvas's shape keeps the quad square.
 *
 * The same sample runs in Node.js over an offscreen swap chain against the same model:
 * test/gpu/operation/demo/reserved-resources-node.test.ts.
 */
import { describe, expect } from 'vitest';
import type { ReservedResourcesSnapshot } from '../../../../demo/reserved-resources/sample.js';
import { browserTest } from '../../../harness/browser/browser-test.js';
import {
  CLEAR_RGB,
  expectedMappings,
  HEAPS,
  heapOfMip,
  PACKED_MIP_DESC,
  pixelMismatches,
  type Tiling,
} from '../../../shared/reserved-resources-model.js';
import { runSceneHolds, SCENE_TIMEOUT_MS } from './open-scene.js';

const WIDTH = 512;
const HEIGHT = 320;

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
          expect(tiling.packedMipDesc, name).toEqual(PACKED_MIP_DESC);
          expect(
            snapshot.heaps.map((h) => [h.tiles, h.mips]),
            name,
          ).toEqual(HEAPS);
          const shownHeap = heapOfMip(mip);
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
              if ([0, 1, 2].every((c) => canvas.pixels[at + c] === CLEAR_RGB[c])) continue;
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
