/**
 * The scene-frame-time figure, quick, on the benchmark page as `npm start` serves it: every scene
 * page runs its benchmark in an iframe (bench=N), and the figure reports each scene's frame times
 * and the virtual texture's GPU time beside the native-texture baseline's, all measured (SwiftShader
 * has timestamp queries), at the quick size.
 */
import { describe, expect, inject } from 'vitest';
import { SCENE_CASES } from '../../../bench/suite/scene-cases.js';
import { QUICK } from '../../../bench/suite/scene-frame-time.js';
import { FIGURES, type SuiteResult } from '../../../bench/suite/suite.js';
import { browserTest } from '../../harness/browser/browser-test.js';

const RUN_TIMEOUT_MS = 400_000;

describe('scene-frame-time', () => {
  browserTest('is registered last, after texture-sample, and only for browser runs', () => {
    const ids = FIGURES.map((f) => f.id);
    expect(ids.at(-1)).toBe('scene-frame-time');
    expect(ids.indexOf('scene-frame-time')).toBe(ids.indexOf('texture-sample') + 1);
    expect(FIGURES.filter((f) => f.browserOnly).map((f) => f.id)).toEqual(['scene-frame-time']);
  });

  browserTest(
    'a quick run measures every scene at the quick size, with GPU time per frame',
    async ({ openPage }) => {
      const page = await openPage(`${inject('browserOrigin')}/demo/bench/index.html?figures=scene-frame-time&quick=1&run=1&ref=none`);
      await page.waitForFunction(() => window.benchState?.done, { timeout: RUN_TIMEOUT_MS, polling: 250 });
      const state = await page.evaluate(() => window.benchState);
      expect(state.error).toBeUndefined();
      const result = state.result as SuiteResult;
      expect(result.failures).toEqual([]);
      const figure = result.figures[0];
      expect(figure?.id).toBe('scene-frame-time');
      expect(figure?.rows.map((r) => r.case)).toEqual(['virtual-texture: mean GPU time per frame', ...SCENE_CASES.map((c) => `${c.name}: frame time`)]);
      for (const row of figure?.rows ?? []) {
        expect(row.samples.length).toBeGreaterThanOrEqual(QUICK.frames);
        expect(row.samples.every((ms) => ms > 0 && Number.isFinite(ms))).toBe(true);
        if (row.case.endsWith('frame time')) {
          expect(row.extra).toMatchObject({ width: QUICK.width, height: QUICK.height });
          // GPU time is part of the frame time.
          expect(row.extra?.gpuMeanMs).toBeGreaterThan(0);
          expect(row.extra?.gpuMedianMs).toBeLessThanOrEqual(row.value);
        }
      }
      const gpu = figure?.rows[0];
      expect(gpu?.baselineSamples.length).toBeGreaterThanOrEqual(QUICK.frames);
      expect(gpu?.ratio).toBeCloseTo((gpu?.value ?? 0) / (gpu?.baseline ?? 1), 9);
      // The iframes are gone once the figure is done.
      expect(await page.evaluate(() => document.querySelectorAll('iframe[title="scene benchmark"]').length)).toBe(0);
    },
    RUN_TIMEOUT_MS + 60_000,
  );
});
