/**
 * Runs a demo scene for a fixed number of frames in the test browser, then saves a screenshot of
 * its canvas under test-results/screenshots/ and hands back the page and the scene's snapshot;
 * runSceneHolds captures several holds of one page load (several views, one start-up).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { expect, inject } from 'vitest';
import type { OpenPage } from '../../../harness/browser/browser-test.js';
import { PROJECT_ROOT } from '../../../harness/paths.js';
import { decodePng, type DecodedPng } from '../../../harness/png.js';

export const SCREENSHOT_DIR = join(PROJECT_ROOT, 'test-results', 'screenshots');

export interface SceneRun<Snapshot> {
  page: Page;
  snapshot: Snapshot;
  frames: number;
  /** The path of the canvas's screenshot. */
  screenshot: string;
  /** The canvas alone, as shown on screen (decoded from a screenshot of the element). */
  canvas: DecodedPng;
}

/** How long a scene's module may take to load and start (vite transforms it on first request). */
const SCRIPT_START_TIMEOUT_MS = 30_000;

/** How long a scene may take for its frames on SwiftShader. */
export const SCENE_TIMEOUT_MS = 240_000;

/** Opens scene `name` with `params` and waits until its module has started. */
async function openScene(openPage: OpenPage, name: string, params: Record<string, string | number>): Promise<Page> {
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
  return page;
}

/** Waits until the loop holds (paused or done), then captures the canvas and the snapshot. */
async function capture<Snapshot>(page: Page, name: string, screenshotName: string): Promise<SceneRun<Snapshot>> {
  await page.waitForFunction(() => ['paused', 'done', 'failed'].includes(window.d3d12Demo.state), {
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
  const canvasElement = await page.$('#scene-canvas');
  if (!canvasElement) throw new Error(`scene ${name} has no #scene-canvas`);
  const screenshot = join(SCREENSHOT_DIR, `${screenshotName}-canvas.png`);
  // Square corners for the pixel capture: the page rounds the canvas's corners with CSS.
  await page.evaluate(() => document.getElementById('scene-canvas')?.style.setProperty('border-radius', '0'));
  // The canvas alone, PNG at speed (lossless all the same): a whole-page capture would cost as much again.
  await canvasElement.screenshot({ path: screenshot, optimizeForSpeed: true });
  const canvas = decodePng(readFileSync(screenshot));
  const snapshot = (await page.evaluate(() => window.d3d12Demo.snapshot())) as Snapshot;
  return { page, snapshot, frames, screenshot, canvas };
}

export async function runScene<Snapshot>(
  openPage: OpenPage,
  name: string,
  params: Record<string, string | number>,
  screenshotName = name,
): Promise<SceneRun<Snapshot>> {
  const page = await openScene(openPage, name, params);
  return capture<Snapshot>(page, name, screenshotName);
}

/**
 * One page load for several holds of the same scene: `params.frames` frames, paused every
 * `framesPerHold` (the scene shell's pauseEvery), `check` called on each hold's capture in turn.
 */
export async function runSceneHolds<Snapshot>(
  openPage: OpenPage,
  name: string,
  params: Record<string, string | number> & { frames: number },
  framesPerHold: number,
  screenshotName: (hold: number) => string,
  check: (run: SceneRun<Snapshot>, hold: number) => Promise<void> | void,
): Promise<void> {
  const holds = Math.ceil(params.frames / framesPerHold);
  const page = await openScene(openPage, name, { ...params, pauseEvery: framesPerHold });
  for (let hold = 0; hold < holds; hold++) {
    const run = await capture<Snapshot>(page, name, screenshotName(hold));
    expect(run.frames, `hold ${hold}: frames drawn`).toBe(Math.min(params.frames, (hold + 1) * framesPerHold));
    await check(run, hold);
    await page.evaluate(() => window.d3d12Demo.resume());
  }
}
