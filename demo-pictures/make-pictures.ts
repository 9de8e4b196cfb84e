/**
 * `npm run demo:pictures`: the picture of each scene that the demo index shows
 * (demo/pictures/<name>.webp, demo/scene-pictures.ts). Serves the project as the browser tests do
 * (tools/browser/serve.ts: vite, so the scenes' TypeScript and WGSL load as in `npm start`),
 * opens each scene in the tests' headless Chromium (SwiftShader unless
 * D3D12_WEBGPU_BROWSER_GPU=hardware) with the fixed parameters of shots.ts, waits until the page
 * reports that it finished, and writes a WebP screenshot of its canvas or of a part of the page.
 *
 * Flags: --only=name,name   photograph only these scenes (the others' pictures stay as they are)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Page } from 'puppeteer-core';
import { PICTURE_HEIGHT, PICTURE_WIDTH, picturePath } from '../demo/scene-pictures.js';
import { launchBrowser } from '../tools/browser/launch.js';
import { serveProject } from '../tools/browser/serve.js';
import { SHOTS, type SceneShot, type ShotDone } from './shots.js';

// Run as demo-pictures/dist/make-pictures.mjs: the project root is two folders up.
const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A picture's budget: the index loads all five, and every version stays in git. */
const MAX_BYTES = 120 * 1024;
/** WebP qualities tried in turn until the picture fits MAX_BYTES. */
const QUALITIES = [85, 75, 65, 55, 45];
/** How long one page may take on SwiftShader (a cold vite transform included). */
const PAGE_TIMEOUT_MS = 300_000;

/** How often the script asks the page whether it finished. */
const POLL_MS = 500;

/** The page's end as plain data: null while it runs, else its error (null when it succeeded). */
function pageEnd(kind: ShotDone): { error: string | null } | null {
  if (kind === 'scene') {
    const demo = window.d3d12Demo;
    return demo && (demo.state === 'done' || demo.state === 'failed')
      ? { error: demo.error ?? (demo.state === 'failed' ? 'failed' : null) }
      : null;
  }
  const state = kind === 'validation' ? window.validationState : window.benchState;
  return state?.done ? { error: state.error ?? null } : null;
}

/**
 * Resolves once the page reports its end; throws its error if it failed. Polled from here rather
 * than with one waitForFunction: a scene on a busy SwiftShader can outlast a single protocol call.
 */
async function waitDone(page: Page, done: ShotDone): Promise<void> {
  const deadline = Date.now() + PAGE_TIMEOUT_MS;
  for (;;) {
    const end = await page.evaluate(pageEnd, done);
    if (end?.error) throw new Error(end.error);
    if (end) return;
    if (Date.now() > deadline) throw new Error(`the page did not finish within ${PAGE_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The shot as WebP bytes, at the highest quality of QUALITIES that fits MAX_BYTES. */
async function capture(page: Page, shot: SceneShot): Promise<{ bytes: Uint8Array; quality: number }> {
  if (shot.target === 'canvas') {
    // Square corners: the card rounds the picture itself.
    await page.evaluate(() => document.getElementById('scene-canvas')?.style.setProperty('border-radius', '0'));
  }
  const selector = shot.target === 'canvas' ? '#scene-canvas' : (shot.selector ?? 'main');
  const origin = await page.$eval(selector, (element) => {
    const rect = element.getBoundingClientRect();
    return { x: rect.left + scrollX, y: rect.top + scrollY };
  });
  const clip = {
    ...origin,
    width: PICTURE_WIDTH * shot.zoom,
    height: PICTURE_HEIGHT * shot.zoom,
    scale: 1 / shot.zoom,
  };
  const take = (quality: number): Promise<Uint8Array> =>
    page.screenshot({ type: 'webp', quality, clip, captureBeyondViewport: true });
  for (const quality of QUALITIES) {
    const bytes = await take(quality);
    if (bytes.length <= MAX_BYTES) return { bytes, quality };
  }
  throw new Error(
    `over ${MAX_BYTES} bytes even at WebP quality ${QUALITIES.at(-1)}: a calmer view (fewer particles, say) compresses better`,
  );
}

async function photograph(page: Page, origin: string, shot: SceneShot): Promise<void> {
  const query = new URLSearchParams(Object.entries(shot.query).map(([key, value]) => [key, String(value)]));
  const width = PICTURE_WIDTH * shot.zoom;
  const height = PICTURE_HEIGHT * shot.zoom;
  if (shot.target === 'canvas') {
    query.set('width', String(width));
    query.set('height', String(height));
  }
  // Wide enough for the canvas beside the side panel, as on a desktop.
  await page.setViewport({ width: Math.max(1440, width + 96), height: Math.max(1000, height + 400) });
  await page.goto(`${origin}/demo/${shot.name}/index.html?${query.toString()}`);
  if (shot.target === 'page') {
    // The main area exactly as wide as the clip: the page's own padding either side of it.
    const left = await page
      .waitForSelector('main')
      .then((main) => main?.evaluate((element) => element.getBoundingClientRect().left) ?? 0);
    await page.setViewport({ width: Math.ceil(width + 2 * left), height: Math.max(1000, height + 400) });
  }
  await waitDone(page, shot.done);
  // Let the last frame and any chart drawn after the end reach the screen.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const { bytes, quality } = await capture(page, shot);
  const file = join(PROJECT_ROOT, picturePath(shot.name));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, bytes);
  console.log(`${picturePath(shot.name)}: ${(bytes.length / 1024).toFixed(1)} KiB (WebP quality ${quality})`);
}

const onlyFlag = parseArgs({ options: { only: { type: 'string' } }, strict: false, allowPositionals: true }).values
  .only;
const only = typeof onlyFlag === 'string' ? onlyFlag.split(',') : undefined;
const unknown = only?.filter((name) => !SHOTS.some((shot) => shot.name === name)) ?? [];
if (unknown.length > 0)
  throw new Error(`--only: no scene ${unknown.join(', ')} (known: ${SHOTS.map((s) => s.name).join(', ')})`);
const shots = SHOTS.filter((shot) => !only || only.includes(shot.name));

const served = await serveProject(PROJECT_ROOT);
let failed = false;
try {
  const { browser, version } = await launchBrowser();
  console.log(`[demo:pictures] ${version}, serving ${served.origin}`);
  try {
    for (const shot of shots) {
      const page = await browser.newPage();
      // A page's own errors (a failed import, a WebGPU validation error) say why a shot failed.
      page.on('console', (message) => {
        if (message.type() === 'error') console.error(`${shot.name}: console error: ${message.text()}`);
      });
      page.on('pageerror', (error) =>
        console.error(`${shot.name}: uncaught: ${error instanceof Error ? error.message : String(error)}`),
      );
      try {
        await photograph(page, served.origin, shot);
      } catch (error) {
        failed = true;
        console.error(`${shot.name}: no picture: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        await page.close();
      }
    }
  } finally {
    await browser.close();
  }
} finally {
  await served.server.close();
}
if (failed) process.exitCode = 1;
