/**
 * The validation page (demo/validation/) in the test browser, served by vite as `npm start` serves
 * it: a small differential run plus the scenarios finishes with no mismatch and real bytes compared,
 * its counters and adapter show, and each planted fault (plant=drop-write: one queued page-table write
 * dropped; plant=corrupt-entry: one GPU entry rewritten behind the CPU's back) is found on every seed, listed with a replay link for its seed. A screenshot of each run is saved
 * under test-results/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { describe, expect, inject } from 'vitest';
import type { ValidationState } from '../../../../validate/validation-logic.js';
import { browserTest } from '../../../harness/browser/browser-test.js';
import { SCREENSHOT_DIR } from './open-scene.js';

/** Small enough for SwiftShader on a shared machine; the CLI and the H200 run the long ones. */
const OPS = 40;
const RUN_TIMEOUT_MS = 240_000;

async function runValidationPage(page: Page, screenshot: string): Promise<ValidationState> {
  await page.setViewport({ width: 1440, height: 1000 });
  await page.waitForFunction(() => window.validationState !== undefined, { timeout: 30_000, polling: 100 });
  await page.waitForFunction(() => window.validationState.done, { timeout: RUN_TIMEOUT_MS, polling: 250 });
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${screenshot}.png`), fullPage: true });
  return page.evaluate(() => window.validationState);
}

const url = (query: string): string => `${inject('browserOrigin')}/demo/validation/index.html?${query}`;

describe('the validation page', () => {
  browserTest(
    `autostart=0 waits for the Start button; then seed 2, ${OPS} ops, tier 3 (the URL's, not the defaults): done, no mismatch, bytes compared, the adapter named`,
    async ({ openPage }) => {
      // One run for both: a run costs tens of seconds on SwiftShader, most of it the scenarios.
      const page = await openPage(url(`seed=2&ops=${OPS}&tier=3&autostart=0`));
      await page.waitForSelector('#validation-start');
      expect(
        await page.evaluate(() => ({
          done: window.validationState.done,
          results: window.validationState.results.length,
        })),
      ).toEqual({ done: false, results: 0 });
      expect(await page.$eval('#validation-status', (el) => el.getAttribute('data-state'))).toBe('waiting');
      await page.click('#validation-start');
      const state = await runValidationPage(page, 'validation');
      expect(state.error).toBeUndefined();
      expect(state.done).toBe(true);
      // One result for the seed, one for the scenarios: the URL's seed, though Start began the run.
      expect(state.results.map((r) => r.seed)).toEqual([2, 2]);
      expect(state.summary.mismatches).toBe(0);
      expect(state.summary.bytesCompared).toBeGreaterThan(0);
      expect(state.summary.ops).toBeGreaterThanOrEqual(OPS);
      expect(state.results[1]?.scenarios.length).toBeGreaterThan(0);
      expect(state.results[1]?.scenarios.every((s) => s.passed)).toBe(true);
      expect(state.adapter?.vendor).toBeTruthy();
      const shown = await page.evaluate(() => ({
        status: document.querySelector('#validation-status')?.getAttribute('data-state'),
        summary: document.querySelector('#validation-summary')?.textContent,
        bar: document.querySelector<HTMLProgressElement>('#validation-progress')?.value,
        adapter: document.querySelector('#validation-adapter')?.textContent,
        rows: document.querySelectorAll('#validation-mismatches tbody tr').length,
      }));
      expect(shown).toEqual({
        status: 'passed',
        summary: `validate: ${state.summary.ops} ops, ${state.summary.bytesCompared} bytes compared, 0 mismatches`,
        bar: 1,
        adapter: expect.stringContaining(`vendor=${state.adapter?.vendor}`) as string,
        rows: 0,
      });
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  for (const plant of ['drop-write', 'corrupt-entry'] as const) {
    browserTest(
      `plant=${plant}: the planted fault is found on every seed and in the scenarios, listed with a replay link`,
      async ({ openPage }) => {
        const page = await openPage(url(`seed=3&seeds=2&ops=${OPS}&tier=3&plant=${plant}`));
        const state = await runValidationPage(page, `validation-${plant}`);
        expect(state.error).toBeUndefined();
        expect(state.done).toBe(true);
        // Seeds 3 and 4, then the scenarios: each run planted its own fault and found it.
        expect(state.results.map((result) => result.mismatches.length > 0)).toEqual([true, true, true]);
        expect(state.summary.mismatches).toBeGreaterThanOrEqual(3);
        const first = await page.evaluate(() => {
          const row = document.querySelector<HTMLTableRowElement>('#validation-mismatches tbody tr');
          return { seed: row?.cells[0]?.textContent, replay: row?.querySelector('a')?.getAttribute('href') };
        });
        expect(first.seed).toBe('3');
        expect(first.replay).toBe(`?seed=3&ops=${OPS}&tier=3&plant=${plant}`);
        expect(await page.$eval('#validation-status', (el) => el.getAttribute('data-state'))).toBe('failed');
      },
      RUN_TIMEOUT_MS + 30_000,
    );
  }

  browserTest('a URL parameter out of range is refused, naming it', async ({ openPage }) => {
    // The page reports the refusal with console.error as every page failure; this test expects it.
    const page = await openPage(url('ops=0&tier=5'));
    await page.waitForFunction(() => window.validationState?.done, { timeout: 30_000, polling: 100 });
    const state = await page.evaluate(() => window.validationState);
    expect(state.error).toContain('URL parameter ops must be an integer from 1 to 1000000, got "0"');
    expect(state.error).toContain('URL parameter tier must be one of 1, 2, 3, 4');
    expect(state.results).toEqual([]);
  });
});
