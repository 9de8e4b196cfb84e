/**
 * The D3D12Residency sample (demo/d3d12-residency/sample.ts) in Node.js with Dawn, no DOM: the
 * device made as the page's shell makes it (the sample's deviceOptions(): 64 MiB LOCAL, 64 MiB
 * NON_LOCAL), a DIRECT queue and a 2-buffer R8G8B8A8_UNORM swap chain over
 * createOffscreenCanvasContext, on the browser test's parameters: 96 textures of 32² texels (64 KiB
 * each, 6 MiB) loaded by 32 loaders on copy queues, a 384 × 256 back buffer (a 12 × 8 grid of
 * 32 × 32 viewports, each pixel centre on a texel centre), and the browser test's budgets, 4, 8 and
 * 3 MiB, set as the page's slider sets them (setResidencyDebugBudget).
 *
 * Each frame is the sample's OnRender (which presents), then FlushGpu and readPixels(), judged as
 * the browser test judges the canvas, with the models of test/shared/d3d12-residency-model.ts:
 * - the pixels equal the model's exactly (RGB): each texture drawn shows its texels in its cell,
 *   every other pixel the clear colour;
 * - the residency facts measured right after the manager's executeCommandLists: LOCAL usage within
 *   the budget, every texture drawn resident, none demoted to NON_LOCAL once settled, the window the
 *   sample's loop draws (95 % of the budget, moving on by one); while the window is smaller than the
 *   textures the manager evicts and makes resident as it moves, once all fit nothing pages, and
 *   when the budget falls the textures beyond the window are evicted.
 */
import { describe, expect } from 'vitest';
import { D3D12Residency, deviceOptions, type ResidencyFrame } from '../../../../demo/d3d12-residency/sample.js';
import { createOffscreenCanvasContext, type Device, type OffscreenCanvasContext } from '../../../../src/index.js';
import { d3dTest } from '../../../harness/d3d-test.js';
import { modelWindow, nextWindowStart, pixelMismatches } from '../../../shared/d3d12-residency-model.js';

const test = d3dTest(deviceOptions());

const MiB = 2 ** 20;
const TEXTURES = 96;
const SIZE = 32;
const TEXTURE_BYTES = 65536;
const WIDTH = 384;
const HEIGHT = 256;
const LOADERS = 32;
const FRAMES_PER_HOLD = 6;
/** Frames rendered before the test waits for the loaders (they load while these are drawn). */
const LOADING_FRAMES = 3;
/** The budget of each hold: the window smaller than the textures, all of them fitting, smaller again. */
const BUDGETS_MIB = [4, 8, 3];

async function startSample(
  d3d: Device,
  debugBudgetBytes?: number,
): Promise<{ sample: D3D12Residency; context: OffscreenCanvasContext }> {
  const context = createOffscreenCanvasContext(WIDTH, HEIGHT);
  const swapChain = d3d.createSwapChain(context, { format: 'R8G8B8A8_UNORM' });
  const queue = d3d.createCommandQueue({ type: 'DIRECT' });
  const sample = await D3D12Residency.create(
    { device: d3d, queue, swapChain },
    { textures: TEXTURES, textureSize: SIZE, loaders: LOADERS, ...(debugBudgetBytes ? { debugBudgetBytes } : {}) },
  );
  return { sample, context };
}

/** The frame's pixels against the model of what it drew: equal in R, G and B. */
function expectPixels(pixels: Uint8Array, frame: ResidencyFrame): void {
  const name = `frame ${frame.frame}`;
  expect(pixels.length, name).toBe(WIDTH * HEIGHT * 4);
  const { mismatches, mismatched } = pixelMismatches({ width: WIDTH, height: HEIGHT, pixels }, frame, TEXTURES, SIZE);
  expect(mismatches, `${name}: readPixels() against the CPU model (${mismatched} pixels differ)`).toEqual([]);
}

describe('demo: D3D12Residency in Node.js', () => {
  test('each frame is the CPU model texel for texel; the window pages within each budget', async ({ d3d }) => {
    const { sample, context } = await startSample(d3d, (BUDGETS_MIB[0] as number) * MiB);
    expect(sample.frameCount).toBe(2);
    expect(sample.textureBytes, 'a 32² RGBA8 texture takes one 64 KiB tile').toBe(TEXTURE_BYTES);

    /** The sample's OnRender, then FlushGpu: the frame is done, and read back. */
    const frame = async (): Promise<{ entry: ResidencyFrame; pixels: Uint8Array }> => {
      const entry = await sample.onRender();
      await sample.flushGpu();
      return { entry, pixels: await context.readPixels() };
    };

    // Frames while the textures load: each draws loaded ones only, each of them resident, within the budget.
    const loading: ResidencyFrame[] = [];
    for (let i = 0; i < LOADING_FRAMES; i++) {
      const { entry: f, pixels } = await frame();
      const name = `loading, frame ${f.frame}`;
      expect(f.frame, name).toBe(i);
      expect(
        f.drawn.every((k) => k < f.loaded),
        name,
      ).toBe(true);
      expect(f.drawnNotResident, `${name}: every texture drawn was resident after executeCommandLists`).toEqual([]);
      expect(f.usage, `${name}: LOCAL usage within budget`).toBeLessThanOrEqual(f.budget);
      expectPixels(pixels, f);
      loading.push(f);
    }
    expect(await sample.forTesting.whenLoaded(), 'every texture loaded').toBe(TEXTURES);
    expect(sample.totalAllocations, 'every texture allocated: 6 MiB').toBe(TEXTURES * TEXTURE_BYTES);
    expect(sample.windowText).toMatch(/^Total Allocated: \d+ MB \| Budget: 4 MB \| Using: \d+ MB \| Evicted: \d+ MB$/);

    let previous = loading.at(-1) as ResidencyFrame;
    for (const [hold, budgetMiB] of BUDGETS_MIB.entries()) {
      const budget = budgetMiB * MiB;
      // The page's slider.
      d3d.setResidencyDebugBudget(budget);
      const frames: ResidencyFrame[] = [];
      for (let i = 0; i < FRAMES_PER_HOLD; i++) {
        const { entry: f, pixels } = await frame();
        const name = `hold ${hold} (${budgetMiB} MiB), frame ${f.frame}`;
        expect(f.frame, name).toBe(previous.frame + 1);
        expect([f.width, f.height, f.loaded], name).toEqual([WIDTH, HEIGHT, TEXTURES]);
        expect(f.grid, name).toEqual({ columns: 12, rows: 8, cellWidth: SIZE, cellHeight: SIZE });
        expect(f.budget, `${name}: budget`).toBe(budget);
        expect(f.drawnNotResident, `${name}: every texture drawn was resident after executeCommandLists`).toEqual([]);
        expect(f.usage, `${name}: LOCAL usage within budget`).toBeLessThanOrEqual(f.budget);
        expect(f.drawn, `${name}: textures drawn`).toEqual(modelWindow(f.windowStart, TEXTURES, TEXTURE_BYTES, budget));
        // Settled (every texture in, the budget unchanged when the frame before was recorded): the window moved on by one, and fit.
        if (previous.loaded === TEXTURES && previous.budget === f.budget) {
          expect(f.windowStart, `${name}: window start`).toBe(
            nextWindowStart(previous.windowStart, previous.drawn.length, TEXTURES),
          );
          expect(f.overBudget, `${name}: over budget`).toBe(false);
        }
        expectPixels(pixels, f);
        frames.push(f);
        previous = f;
      }

      const last = frames.at(-1) as ResidencyFrame;
      const name = `hold ${hold} (${budgetMiB} MiB)`;
      expect(last.drawnDemoted, `${name}: drawn textures demoted to NON_LOCAL`).toEqual([]);
      expect(last.demoted, `${name}: textures demoted to NON_LOCAL`).toBe(0);
      const residency = sample.forTesting.residency();
      expect(residency.filter((r) => r?.resident).length, `${name}: resident textures`).toBe(last.resident);
      expect(last.drawn.every((k) => residency[k]?.resident)).toBe(true);

      const steady = frames.slice(2);
      const evictions = steady.reduce((sum, f) => sum + f.evictions, 0);
      const madeResident = steady.reduce((sum, f) => sum + f.madeResident, 0);
      if (hold === 1) {
        // 96 textures fit in 95 % of 8 MiB: all drawn every frame, nothing paged once resident.
        expect(last.drawn, name).toHaveLength(TEXTURES);
        expect([evictions, madeResident], `${name}: evictions and restores once all fit`).toEqual([0, 0]);
        expect(last.resident, name).toBe(TEXTURES);
      } else {
        // The window is smaller than the textures: textures come in and others go out as it moves.
        expect(last.drawn.length, name).toBeLessThan(TEXTURES);
        expect(evictions, `${name}: evictions while the window moves`).toBeGreaterThanOrEqual(steady.length - 1);
        // Right after the budget falls (hold 2) the textures entering the window may still be resident from
        // hold 1, depending on which completed fences the manager had seen when it evicted (load-dependent),
        // so there, as in the browser test, half the steady frames must page one in.
        expect(madeResident, `${name}: textures made resident while the window moves`).toBeGreaterThanOrEqual(
          hold === 2 ? steady.length / 2 : steady.length - 1,
        );
        expect(last.resident, name).toBeLessThan(TEXTURES);
      }
      if (hold === 2) {
        // 8 MiB to 3 MiB: the 96 resident textures go down to what the window draws.
        expect(
          frames.reduce((sum, f) => sum + f.evictions, 0),
          `${name}: evictions after the budget fell`,
        ).toBeGreaterThanOrEqual(TEXTURES - last.drawn.length);
        expect(last.resident, name).toBeLessThanOrEqual(last.drawn.length + 1);
      }
    }
    expect(sample.snapshot().history).toHaveLength(LOADING_FRAMES + FRAMES_PER_HOLD * BUDGETS_MIB.length);
    await sample.onDestroy();
  });

  test('OnDestroy stops the loaders after the textures in hand; frames run back to back under Present', async ({
    d3d,
  }) => {
    const { sample, context } = await startSample(d3d);
    // No debug budget: the 64 MiB pool holds all 6 MiB, so the whole set is drawn once loaded.
    for (let i = 0; i < 3; i++) await sample.onRender();
    await sample.onDestroy();
    const loaded = sample.loadedTextureCount;
    expect(await sample.forTesting.whenLoaded()).toBe(loaded);
    // Nothing loads once OnDestroy returned.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sample.loadedTextureCount).toBe(loaded);
    const residency = sample.forTesting.residency();
    expect(residency.filter((r) => r !== null)).toHaveLength(loaded);

    // The last frame, presented after two others with no wait but Present's, is the model's: the
    // loaded textures (slots below the count loaded then), each resident.
    const last = sample.history.at(-1) as ResidencyFrame;
    expect(last.frame).toBe(2);
    expect(last.drawn.every((k) => k < last.loaded)).toBe(true);
    expect(last.drawnNotResident).toEqual([]);
    expectPixels(await context.readPixels(), last);
  });
});
