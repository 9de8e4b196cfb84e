/**
 * `browserTest`: vitest's `test` with a `runPage` fixture for the browser project.
 *
 * `runPage(modulePath, args)` opens a fresh page (in a browser context of its own) on the runner,
 * which runs the module's default export with a WebGPU device inside the shared error scopes and
 * returns its result. A console error, an uncaught exception, a failed module request, an
 * `uncapturederror` or a lost device fails the test that ran the page, naming it.
 */
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { inject, test } from 'vitest';
import { RUNNER_PATH } from './global-setup.js';

export type RunPage = <Result>(modulePath: string, args?: unknown) => Promise<Result>;

class BrowserTestFailure extends Error {
  override name = 'BrowserTestFailure';
}

function watch(page: Page, problems: string[]): void {
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught exception: ${error instanceof Error ? error.message : String(error)}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`));
  page.on('error', (error) => problems.push(`page crashed: ${error.message}`));
}

export const browserTest = test.extend<{ $test: { runPage: RunPage }; $file: { browser: Browser } }>({
  browser: [
    async ({}, use) => {
      const browser = await puppeteer.connect({ browserWSEndpoint: inject('browserWSEndpoint'), protocolTimeout: 180_000 });
      await use(browser);
      await browser.disconnect();
    },
    { scope: 'file' },
  ],
  // Tuple form: runPage's value is itself a function, which the plain form would take as the value.
  runPage: [async ({ browser, task }, use) => {
    const context = await browser.createBrowserContext();
    const problems: string[] = [];
    const fail = (): void => {
      if (problems.length > 0) {
        throw new BrowserTestFailure(`browser test "${task.name}" failed:\n${problems.splice(0).join('\n')}`);
      }
    };
    try {
      await use(async <Result>(modulePath: string, args?: unknown): Promise<Result> => {
        const page = await context.newPage();
        watch(page, problems);
        await page.goto(`${inject('browserOrigin')}${RUNNER_PATH}`);
        await page.waitForFunction(() => 'd3d12Runner' in window);
        fail();
        let result: Result;
        try {
          result = (await page.evaluate(
            (path, pageArgs, name) => window.d3d12Runner.run(path, pageArgs, name),
            `/${modulePath.replace(/^\//, '')}`,
            args ?? null,
            task.name,
          )) as Result;
        } catch (error) {
          // The page's own message already names the test and the WebGPU error; keep console
          // problems with it.
          const message = error instanceof Error ? error.message : String(error);
          problems.unshift(message);
          fail();
          throw error;
        }
        fail();
        return result;
      });
    } finally {
      await context.close();
    }
    fail();
  }, { scope: 'test' }],
});
