/**
 * The port of Microsoft's D3D12Residency sample, on fixed parameters (96 textures of 32² texels, 64 KiB
 * each: 6 MiB against a 4 MiB debug budget; a 384 × 256 canvas, so each texture's viewport is 32 × 32
 * pixels and every pixel centre falls on a texel centre). At each hold the canvas equals, pixel for
 * pixel, a CPU model: the textures the frame drew show their texels (texture-data.ts, point sampled,
 * the sample's quad putting v = 0 at the bottom of each viewport), every other pixel the clear colour.
 * The frames drew what the sample's loop draws (a window of textures worth 95 % of the budget, moving
 * on by one each frame), every texture drawn was resident after the manager's executeCommandLists and
 * usage stayed within the budget; the window pages textures in and out while it is smaller than the
 * textures, a budget raised past all of them (the panel's slider) draws them all and pages nothing, and
 * a budget lowered again makes the manager evict. A second run opens the page as a newcomer would.
 * The models (the window, the pixels) are test/shared/d3d12-residency-model.ts, which the Node.js test
 * (test/gpu/operation/demo/d3d12-residency-node.test.ts) shares.
 */
import { describe, expect } from 'vitest';
import type { ResidencyFrame, ResidencySnapshot } from '../../../../demo/d3d12-residency/sample.js';
import { TILE_SIZE } from '../../../../src/index.js';
import { browserTest } from '../../../harness/browser/browser-test.js';
import { modelWindow, nextWindowStart, pixelMismatches } from '../../../shared/d3d12-residency-model.js';
import { runScene, runSceneHolds, SCENE_TIMEOUT_MS } from './open-scene.js';

const MiB = 2 ** 20;
const TEXTURES = 96;
const SIZE = 32;
const WIDTH = 384;
const HEIGHT = 256;
const FRAMES_PER_HOLD = 10;
/** The budget of each hold: the window smaller than the textures, all of them fitting, smaller again. */
const BUDGETS_MIB = [4, 8, 3];

describe('demo: D3D12Residency, ported', () => {
  browserTest(
    'the canvas is the CPU model texel for texel; the window of drawn textures pages within the budget',
    async ({ openPage }) => {
      let previous: ResidencyFrame | undefined;
      await runSceneHolds<ResidencySnapshot>(
        openPage,
        'd3d12-residency',
        {
          frames: FRAMES_PER_HOLD * BUDGETS_MIB.length,
          textures: TEXTURES,
          textureSize: SIZE,
          budgetMiB: BUDGETS_MIB[0] as number,
          loaders: 32,
          width: WIDTH,
          height: HEIGHT,
          dpr: 1,
        },
        FRAMES_PER_HOLD,
        (hold) => `d3d12-residency-${hold}`,
        async (run, hold) => {
          const snapshot = run.snapshot;
          const budget = (BUDGETS_MIB[hold] as number) * MiB;
          expect(snapshot.textureBytes, 'a 32² RGBA8 texture takes one 64 KiB tile').toBe(TILE_SIZE);
          expect(snapshot.totalAllocations, 'every texture allocated: 6 MiB').toBe(TEXTURES * TILE_SIZE);
          const frames = snapshot.history.slice(hold * FRAMES_PER_HOLD);
          expect(frames.map((f) => f.frame)).toEqual(
            Array.from({ length: FRAMES_PER_HOLD }, (_, i) => hold * FRAMES_PER_HOLD + i),
          );
          const last = frames.at(-1) as ResidencyFrame;
          expect(last.loaded, 'every texture loaded').toBe(TEXTURES);
          expect(last.grid).toEqual({ columns: 12, rows: 8, cellWidth: SIZE, cellHeight: SIZE });
          expect([last.width, last.height, run.canvas.width, run.canvas.height]).toEqual([
            WIDTH,
            HEIGHT,
            WIDTH,
            HEIGHT,
          ]);

          const overBudget: number[] = [];
          for (const f of frames) {
            const name = `frame ${f.frame}`;
            // Settled: every texture was in and the budget unchanged when the frame before was recorded.
            const settled = previous?.loaded === TEXTURES && previous.budget === f.budget ? previous : undefined;
            if (settled && f.overBudget) overBudget.push(f.frame);
            expect(f.budget, `${name}: budget`).toBe(budget);
            expect(f.drawnNotResident, `${name}: every texture drawn was resident after executeCommandLists`).toEqual(
              [],
            );
            expect(f.usage, `${name}: LOCAL usage within budget`).toBeLessThanOrEqual(f.budget);
            if (settled) {
              // The sample's loop, modelled: what it drew, and the window moving on by one while it does not hold all.
              expect(f.drawn, `${name}: textures drawn`).toEqual(
                modelWindow(f.windowStart, TEXTURES, snapshot.textureBytes, f.budget),
              );
              expect(f.windowStart, `${name}: window start`).toBe(
                nextWindowStart(settled.windowStart, settled.drawn.length, TEXTURES),
              );
            }
            previous = f;
          }
          expect(overBudget, 'settled frames the manager reported over budget').toEqual([]);
          // What the window draws fits the budget beside the vertex buffer and the descriptor heap, so the
          // manager keeps it in LOCAL memory: nothing is left demoted to NON_LOCAL by the end of a hold.
          expect(last.drawnDemoted, 'drawn textures demoted to NON_LOCAL').toEqual([]);
          expect(last.demoted, 'textures demoted to NON_LOCAL').toBe(0);

          const steady = frames.slice(2);
          const evictions = steady.reduce((sum, f) => sum + f.evictions, 0);
          const madeResident = steady.reduce((sum, f) => sum + f.madeResident, 0);
          if (hold === 1) {
            // 96 textures fit in 95 % of 8 MiB: all drawn every frame, nothing paged once resident.
            expect(last.drawn).toHaveLength(TEXTURES);
            expect([evictions, madeResident], 'evictions and restores once all fit').toEqual([0, 0]);
            expect(last.resident).toBe(TEXTURES);
          } else {
            // The window is smaller than the textures: textures come in and others go out as it moves.
            expect(last.drawn.length).toBeLessThan(TEXTURES);
            expect(evictions, 'evictions while the window moves').toBeGreaterThanOrEqual(steady.length / 2);
            expect(madeResident, 'textures made resident while the window moves').toBeGreaterThanOrEqual(
              steady.length / 2,
            );
            expect(last.resident).toBeLessThan(TEXTURES);
          }
          if (hold === 2) {
            // 8 MiB to 3 MiB: the 96 resident textures go down to what the window draws.
            expect(
              frames.reduce((sum, f) => sum + f.evictions, 0),
              'evictions after the budget fell',
            ).toBeGreaterThanOrEqual(TEXTURES - last.drawn.length);
            expect(last.resident).toBeLessThanOrEqual(last.drawn.length + 1);
          }

          const { mismatches, mismatched } = pixelMismatches(run.canvas, last, TEXTURES, SIZE);
          expect(mismatches, `hold ${hold}: canvas against the CPU model (${mismatched} pixels differ)`).toEqual([]);

          // The panel's budget control: the next hold's budget.
          const next = BUDGETS_MIB[hold + 1];
          if (next !== undefined)
            await run.page.$eval(
              'aside.panel input[type=range]',
              (input, value) => {
                input.value = String(value);
                input.dispatchEvent(new Event('input'));
              },
              next,
            );
        },
      );
    },
    SCENE_TIMEOUT_MS,
  );

  browserTest(
    'opened as a newcomer would: the defaults run without an error and draw textures',
    async ({ openPage }) => {
      const run = await runScene<ResidencySnapshot>(
        openPage,
        'd3d12-residency',
        { frames: 4 },
        'd3d12-residency-defaults',
      );
      const last = run.snapshot.history.at(-1) as ResidencyFrame;
      expect(last.drawnNotResident).toEqual([]);
      expect(last.grid.cellWidth).toBeGreaterThan(0);
      expect(run.snapshot.loaded).toBeGreaterThan(0);
      const title = await run.page.$eval('.window-title', (el) => el.textContent);
      expect(title).toMatch(/^Total Allocated: \d+ MB \| Budget: \d+ MB \| Using: \d+ MB \| Evicted: \d+ MB$/);
    },
    SCENE_TIMEOUT_MS,
  );
});
