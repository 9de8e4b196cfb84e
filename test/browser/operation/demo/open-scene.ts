/**
 * Runs a demo scene for a fixed number of frames in the test browser, then saves a screenshot of
 * its canvas under test-results/screenshots/ and hands back the page and the scene's snapshot.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { inject } from 'vitest';
import type { OpenPage } from '../../../harness/browser/browser-test.js';
import { PROJECT_ROOT } from '../../../harness/paths.js';
import { decodePng, type DecodedPng } from '../../../harness/png.js';

export const SCREENSHOT_DIR = join(PROJECT_ROOT, 'test-results', 'screenshots');

export interface SceneRun<Snapshot> {
  page: Page;
  snapshot: Snapshot;
  frames: number;
  screenshot: string;
  /** The canvas alone, as shown on screen (decoded from a screenshot of the element). */
  canvas: DecodedPng;
}

/** How long a scene's module may take to load and start (vite transforms it on first request). */
const SCRIPT_START_TIMEOUT_MS = 30_000;

/** How long a scene may take for its frames on SwiftShader. */
export const SCENE_TIMEOUT_MS = 240_000;

export async function runScene<Snapshot>(
  openPage: OpenPage,
  name: string,
  params: Record<string, string | number>,
  screenshotName = name,
): Promise<SceneRun<Snapshot>> {
  const query = new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)]));
  const page = await openPage(`${inject('browserOrigin')}/demo/${name}/index.html?${query.toString()}`);
  // Wide enough for the canvas and the side panel next to each other, as on a desktop.
  await page.setViewport({ width: 1440, height: 1000 });
  // The scene's module sets window.d3d12Demo first thing: if it never does, the module failed to
  // load (the page's console says why), and waiting for frames would only run into the timeout.
  await page
    .waitForFunction(() => window.d3d12Demo !== undefined, { timeout: SCRIPT_START_TIMEOUT_MS, polling: 100 })
    .catch(() => {
      throw new Error(
        `scene ${name}: its script did not start within ${SCRIPT_START_TIMEOUT_MS / 1000} s (an import failed? see the page's console errors)`,
      );
    });
  await page.waitForFunction(() => window.d3d12Demo.state === 'done' || window.d3d12Demo.state === 'failed', {
    timeout: SCENE_TIMEOUT_MS,
    polling: 100,
  });
  const { state, error, frames } = await page.evaluate(() => ({
    state: window.d3d12Demo.state,
    error: window.d3d12Demo.error,
    frames: window.d3d12Demo.frames,
  }));
  if (state === 'failed') throw new Error(`scene ${name} failed: ${error}`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const screenshot = join(SCREENSHOT_DIR, `${screenshotName}.png`);
  await page.screenshot({ path: screenshot, fullPage: true });
  const canvasElement = await page.$('#scene-canvas');
  if (!canvasElement) throw new Error(`scene ${name} has no #scene-canvas`);
  const canvasPath = join(SCREENSHOT_DIR, `${screenshotName}-canvas.png`);
  // Square corners for the pixel capture: the page rounds the canvas's corners with CSS.
  await page.evaluate(() => document.getElementById('scene-canvas')?.style.setProperty('border-radius', '0'));
  await canvasElement.screenshot({ path: canvasPath });
  const canvas = decodePng(readFileSync(canvasPath));
  const snapshot = (await page.evaluate(() => window.d3d12Demo.snapshot())) as Snapshot;
  return { page, snapshot, frames, screenshot, canvas };
}
