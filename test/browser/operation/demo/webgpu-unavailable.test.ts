/**
 * The demo pages when WebGPU is not there for them, each way a user meets it: the browser has no
 * navigator.gpu, it gives no adapter (requestAdapter resolves null: blocklisted GPU, flag off), or
 * the device is lost while the page runs. The page must say so in words where its content would be
 * (the scene's stage, the bench page's status and adapter line, the validation page's status, the
 * index's GPU card), never throw an uncaught exception or go blank. The failure is simulated in the
 * page before its scripts run (evaluateOnNewDocument); a console error naming it is expected.
 */
import type { Browser, Page } from 'puppeteer-core';
import { describe, expect, inject } from 'vitest';
import { browserTest, watchPage } from '../../../harness/browser/browser-test.js';

const TIMEOUT_MS = 120_000;

const FAILURES = {
  'no navigator.gpu': {
    install: () => Object.defineProperty(Navigator.prototype, 'gpu', { configurable: true, get: () => undefined }),
    words: /no WebGPU/i,
  },
  'no adapter': {
    install: () => {
      GPU.prototype.requestAdapter = () => Promise.resolve(null);
    },
    words: /gave no adapter/i,
  },
  'a lost device': {
    // The real device, whose `lost` resolves 1.5 s after it was handed out, as after a driver reset.
    install: () => {
      const requestDevice = Object.getOwnPropertyDescriptor(GPUAdapter.prototype, 'requestDevice')?.value as (
        this: GPUAdapter,
        descriptor?: GPUDeviceDescriptor,
      ) => Promise<GPUDevice>;
      GPUAdapter.prototype.requestDevice = async function (this: GPUAdapter, descriptor?: GPUDeviceDescriptor) {
        const device = await requestDevice.call(this, descriptor);
        const lost = new Promise<GPUDeviceLostInfo>((resolve) =>
          setTimeout(
            () => resolve({ reason: 'unknown', message: 'simulated for the test' } as GPUDeviceLostInfo),
            1500,
          ),
        );
        Object.defineProperty(device, 'lost', { value: lost });
        return device;
      };
    },
    words: /device was lost: simulated for the test/i,
  },
} as const;

type FailureName = keyof typeof FAILURES;

async function open(browser: Browser, path: string, failure: FailureName): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const problems: string[] = [];
  watchPage(page, problems);
  await page.setViewport({ width: 1400, height: 900 });
  await page.evaluateOnNewDocument(FAILURES[failure].install);
  await page.goto(`${inject('browserOrigin')}${path}`);
  return { page, problems };
}

/** Problems a page must never report, whatever happened to its GPU. */
const fatal = (problems: string[]): string[] => problems.filter((p) => !p.startsWith('console error:'));

describe('demo pages without WebGPU', () => {
  for (const failure of Object.keys(FAILURES) as FailureName[]) {
    browserTest(
      `a scene page says why when there is ${failure}`,
      async ({ browser }) => {
        const { page, problems } = await open(
          browser,
          '/demo/growable-buffer/index.html?width=320&height=200',
          failure,
        );
        await page.waitForFunction(() => window.d3d12Demo?.state === 'failed', { timeout: TIMEOUT_MS, polling: 100 });
        const shown = await page.evaluate(() => {
          const status = document.getElementById('scene-status');
          const canvas = document.getElementById('scene-canvas');
          const box = status?.getBoundingClientRect();
          const stage = canvas?.parentElement?.getBoundingClientRect();
          return {
            text: status?.textContent ?? '',
            state: status?.dataset.state,
            visible: (box?.width ?? 0) > 0 && (box?.height ?? 0) > 0,
            overStage: box && stage ? box.top >= stage.top && box.bottom <= stage.bottom : false,
          };
        });
        expect(shown.text).toMatch(FAILURES[failure].words);
        expect(shown.state).toBe('failed');
        expect(shown.visible).toBe(true);
        expect(shown.overStage).toBe(true);
        expect(fatal(problems)).toEqual([]);
        await page.close();
      },
      TIMEOUT_MS,
    );
  }

  for (const failure of ['no navigator.gpu', 'no adapter'] as const) {
    browserTest(
      `the index, the bench page and the validation page say why when there is ${failure}`,
      async ({ browser }) => {
        const index = await open(browser, '/demo/index.html', failure);
        await index.page.waitForFunction(
          () => document.querySelector('#gpu-status')?.getAttribute('data-state') === 'failed',
          { timeout: TIMEOUT_MS, polling: 100 },
        );
        expect(await index.page.$eval('#gpu-status', (e) => e.textContent)).toMatch(
          failure === 'no adapter' ? /adapter/i : /no WebGPU/i,
        );
        expect(fatal(index.problems)).toEqual([]);

        const bench = await open(browser, '/demo/bench/index.html?figures=policy-quality&quick=1&run=1', failure);
        await bench.page.waitForFunction(() => window.benchState?.done, { timeout: TIMEOUT_MS, polling: 100 });
        expect(await bench.page.$eval('#bench-status', (e) => e.textContent)).toMatch(FAILURES[failure].words);
        expect(await bench.page.$eval('#bench-adapter', (e) => e.textContent)).toMatch(FAILURES[failure].words);
        expect(fatal(bench.problems)).toEqual([]);

        const validation = await open(browser, '/demo/validation/index.html', failure);
        await validation.page.waitForFunction(() => window.validationState?.done, {
          timeout: TIMEOUT_MS,
          polling: 100,
        });
        expect(await validation.page.$eval('#validation-status', (e) => e.textContent)).toMatch(
          FAILURES[failure].words,
        );
        expect(fatal(validation.problems)).toEqual([]);
      },
      TIMEOUT_MS,
    );
  }
});
