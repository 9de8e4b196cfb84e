/**
 * Every demo page at its default URL, opened as a new user would at 1400 × 900, in the environments
 * that broke it: a browser started under LANG=C (Chromium's navigator.language is then
 * 'en-US@posix', which Intl refuses) and one started with --lang=de-DE. No page may report an
 * uncaught exception, a console error or a failed request; every scene's canvas is at least 900 CSS
 * pixels wide, renders at the display's pixel ratio, and follows a narrower window by the next frame. A screenshot per
 * page and environment lands in test-results/screenshots/env-<environment>-<page>.png.
 *
 * Each environment gets a browser of its own (the shared test browser runs under a fixed en-US).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SCENES } from '../../../../demo/scenes.js';
import { watchPage } from '../../../harness/browser/browser-test.js';
import { CHROMIUM_ARGS, chromiumArgs, launchBrowser } from '../../../../tools/browser/launch.js';
import { SCREENSHOT_DIR } from './open-scene.js';

const VIEWPORT = { width: 1400, height: 900 };
/** After the first check: a resized window. */
const NARROW_VIEWPORT = { width: 1000, height: 800 };
/** The bar: at a 1400 px window a scene's canvas is at least this wide. */
const MIN_CANVAS_CSS_WIDTH = 900;
/** Frames a scene must have drawn before it counts as started. */
const STARTED_FRAMES = 1;
const PAGE_TIMEOUT_MS = 120_000;

/** The browser's flags without the harness's fixed --lang, plus this environment's. */
function argsFor(lang: string | undefined): string[] {
  const args = chromiumArgs().filter((arg) => !arg.startsWith('--lang='));
  expect(CHROMIUM_ARGS.some((arg) => arg.startsWith('--lang='))).toBe(true);
  return lang ? [...args, `--lang=${lang}`] : args;
}

const ENVIRONMENTS = [
  { name: 'lang-c', locale: { LANG: 'C', LC_ALL: 'C' }, args: argsFor(undefined), expectLanguage: /@posix$/ },
  {
    name: 'de-de',
    locale: { LANG: 'de_DE.UTF-8', LC_ALL: 'de_DE.UTF-8' },
    args: argsFor('de-DE'),
    expectLanguage: /^de/,
  },
];

const PAGES = [
  { name: 'index', path: '/demo/index.html' },
  ...SCENES.map((scene) => ({ name: scene.name, path: `/demo/${scene.name}/index.html` })),
];

interface CanvasSize {
  css: number;
  cssHeight: number;
  pixels: number;
  dpr: number;
}

const canvasSize = (page: Page): Promise<CanvasSize | null> =>
  page.evaluate(() => {
    const canvas = document.getElementById('scene-canvas') as HTMLCanvasElement | null;
    if (!canvas) return null;
    const rect = canvas.getBoundingClientRect();
    return { css: rect.width, cssHeight: rect.height, pixels: canvas.width, dpr: devicePixelRatio };
  });

/** Waits until the page has settled: a scene has drawn frames, a suite page has found its adapter, the index has run its self-test. */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(
    (frames: number) => {
      if (document.getElementById('scene-canvas')) {
        const demo = window.d3d12Demo;
        if (demo === undefined) return false;
        // Held as soon as it counts as started: the frames it has queued are GPU work the screenshot
        // waits for (a virtual texture frame at this size takes 2 s and more on SwiftShader).
        if (demo.state === 'running' && demo.frames >= frames) demo.pause();
        return demo.state === 'failed' || demo.state === 'done' || demo.frames >= frames;
      }
      const status = document.querySelector('#gpu-status, #bench-adapter, #validation-adapter');
      if (!status) return false;
      if (status.id === 'gpu-status') return status.getAttribute('data-state') !== 'pending';
      return status.id === 'validation-adapter' || status.textContent !== 'asking navigator.gpu…';
    },
    // Checked at every animation frame, as the scene's loop runs: the pause is asked for at the first
    // frame the scene has drawn, and the loop takes it when the frame in progress ends.
    { timeout: PAGE_TIMEOUT_MS, polling: 'raf' },
    STARTED_FRAMES,
  );
}

/** Pauses a scene once its frame in progress is presented (a scene that is done or failed stays so). */
async function holdScene(page: Page): Promise<void> {
  await page.evaluate(() => window.d3d12Demo.pause());
  await page.waitForFunction(() => ['paused', 'done', 'failed'].includes(window.d3d12Demo.state), {
    timeout: PAGE_TIMEOUT_MS,
    polling: 100,
  });
}

describe.each(ENVIRONMENTS)('demo pages in a browser started with $name', (environment) => {
  let browser: Browser;
  beforeAll(async () => {
    ({ browser } = await launchBrowser(undefined, environment.args, environment.locale));
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
  }, PAGE_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
  });

  it.each(PAGES)(
    '$name: no page error, full-size canvas, a screenshot',
    async ({ name, path }) => {
      const page = await browser.newPage();
      const problems: string[] = [];
      watchPage(page, problems);
      await page.setViewport(VIEWPORT);
      await page.goto(`${inject('browserOrigin')}${path}`);
      await settle(page);
      // The environment took: the browser's own tag (the guard may shadow navigator.language on the page).
      const language = await page.evaluate(
        () => Object.getOwnPropertyDescriptor(Navigator.prototype, 'language')?.get?.call(navigator) as string,
      );
      expect(language).toMatch(environment.expectLanguage);
      const demo = await page.evaluate(() =>
        window.d3d12Demo ? { state: window.d3d12Demo.state, error: window.d3d12Demo.error } : null,
      );
      if (demo) expect(demo.error).toBeUndefined();
      // A scene holds its loop for the screenshot: on a software adapter a capture otherwise waits
      // out several of the scene's frames (10 s at this size on SwiftShader, against one frame).
      if (demo) await holdScene(page);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `env-${environment.name}-${name}.png`) });
      const size = await canvasSize(page);
      if (size) {
        expect(size.css).toBeGreaterThanOrEqual(MIN_CANVAS_CSS_WIDTH);
        expect(Math.abs(size.pixels - size.css * size.dpr)).toBeLessThanOrEqual(1);
        // A narrower window: the canvas follows, in CSS and in device pixels, by the next frame. The
        // window narrows while the scene is held, so that next frame is the first one after it
        // resumes (resumed first, the frame in progress would be one more at the full size: 2 to
        // 4 s for the virtual texture on SwiftShader).
        await page.setViewport(NARROW_VIEWPORT);
        if (demo) await page.evaluate(() => window.d3d12Demo.resume());
        await page.waitForFunction(
          (width: number) => {
            const canvas = document.getElementById('scene-canvas') as HTMLCanvasElement;
            const rect = canvas.getBoundingClientRect();
            return rect.width < width && Math.abs(canvas.width - rect.width * devicePixelRatio) <= 1;
          },
          { timeout: PAGE_TIMEOUT_MS, polling: 100 },
          size.css,
        );
      } else if (demo) await page.evaluate(() => window.d3d12Demo.resume());
      expect(problems).toEqual([]);
      await page.close();
    },
    PAGE_TIMEOUT_MS,
  );
});
