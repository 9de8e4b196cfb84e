/**
 * What a quick scene-frame-time figure must hold (bench-page.test.ts runs it with every other
 * figure): a row per scene case with at least the quick frame count of positive, finite samples at
 * the quick size, GPU time measured and within the frame time, the virtual texture's GPU row beside
 * the native texture's, and no scene iframe left on the page.
 */
import type { Page } from 'puppeteer-core';
import { expect } from 'vitest';
import type { Figure } from '../../bench/suite/figure.js';
import { SCENE_CASES } from '../../bench/suite/scene-cases.js';
import { QUICK } from '../../bench/suite/scene-frame-time.js';

export async function expectQuickSceneFrameTime(figure: Figure | undefined, page: Page): Promise<void> {
  expect(figure?.id).toBe('scene-frame-time');
  expect(figure?.rows.map((r) => r.case)).toEqual([
    'virtual-texture: mean GPU time per frame',
    ...SCENE_CASES.map((c) => `${c.name}: frame time`),
  ]);
  for (const row of figure?.rows ?? []) {
    expect(row.samples.length).toBeGreaterThanOrEqual(QUICK.frames);
    expect(row.samples.every((ms) => ms > 0 && Number.isFinite(ms))).toBe(true);
    if (row.case.endsWith('frame time')) {
      expect(row.extra).toMatchObject({ width: QUICK.width, height: QUICK.height });
      // GPU time (SwiftShader has timestamp queries) is part of the frame time.
      expect(row.extra?.gpuMeanMs).toBeGreaterThan(0);
      expect(row.extra?.gpuMedianMs).toBeLessThanOrEqual(row.value);
    }
  }
  const gpu = figure?.rows[0];
  expect(gpu?.baselineSamples.length).toBeGreaterThanOrEqual(QUICK.frames);
  expect(gpu?.ratio).toBeCloseTo((gpu?.value ?? 0) / (gpu?.baseline ?? 1), 9);
  // The figure's iframes are gone once it is done.
  expect(await page.evaluate(() => document.querySelectorAll('iframe[title="scene benchmark"]').length)).toBe(0);
}
