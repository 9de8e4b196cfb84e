/**
 * `browserTest`: vitest's `test` with fixtures for the browser project.
 *
 *   runPage(modulePath, args)  opens a fresh page on the runner, which runs the module's default
 *                              export with a WebGPU device inside the shared error scopes and
 *                              returns its result
 *   openPage(url)              opens a fresh page on any URL (the demo server, say)
 *
 * Each test gets a browser context of its own. A console error, an uncaught exception, a failed
 * request, an `uncapturederror` or a lost device fails the test whose page it came from, naming it.
 */
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { inject, test } from 'vitest';
import { RUNNER_PATH } from '../paths.js';

export type RunPage = <Result>(modulePath: string, args?: unknown) => Promise<Result>;
export type OpenPage = (url: string) => Promise<Page>;

class BrowserTestFailure extends Error {
  override name = 'BrowserTestFailure';
}

/** A test's browser context and what its pages reported. */
interface PageSession {
  context: BrowserContext;
  open(url: string): Promise<Page>;
  /** Throws, naming the test, if any page reported a problem since the last check. */
  check(): void;
  /** Records a failure that the page's code reported itself (it already names the test). */
  report(message: string): void;
}

/** Longer than any test's own wait for a page (see the connect call). */
const PROTOCOL_TIMEOUT_MS = 600_000;

/** How long a page's navigation may take (see watchPage). */
const NAVIGATION_TIMEOUT_MS = 120_000;

/** Collects what `page` reports that fails a test: console errors, uncaught exceptions, failed requests, crashes. */
export function watchPage(page: Page, problems: string[]): void {
  // Puppeteer's 30 s default for goto: a first load through the vite server, with two test files
  // running at once on a 2-core machine, takes longer; the test's own timeout still bounds it.
  page.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT_MS);
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) =>
    problems.push(`uncaught exception: ${error instanceof Error ? error.message : String(error)}`),
  );
  page.on('requestfailed', (request) =>
    problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`),
  );
  page.on('error', (error) => problems.push(`page crashed: ${error.message}`));
}

export const browserTest = test.extend<{
  $test: { session: PageSession; runPage: RunPage; openPage: OpenPage };
  $file: { browser: Browser };
}>({
  browser: [
    async ({}, use) => {
      const browser = await puppeteer.connect({
        browserWSEndpoint: inject('browserWSEndpoint'),
        // page.waitForFunction is one protocol call that lasts the whole wait: this bound must exceed
        // the longest wait a test asks for (a quick run of every benchmark figure, up to 400 s), or
        // the call fails at this bound whatever the wait's own timeout (seen on a slow CI machine).
        protocolTimeout: PROTOCOL_TIMEOUT_MS,
      });
      await use(browser);
      await browser.disconnect();
    },
    { scope: 'file' },
  ],
  session: async ({ browser, task, onTestFinished }, use) => {
    const context = await browser.createBrowserContext();
    const problems: string[] = [];
    const session: PageSession = {
      context,
      async open(url) {
        const page = await context.newPage();
        watchPage(page, problems);
        await page.goto(url);
        return page;
      },
      check() {
        if (problems.length > 0) {
          throw new BrowserTestFailure(`browser test "${task.fullTestName}" failed:\n${problems.splice(0).join('\n')}`);
        }
      },
      report(message) {
        problems.unshift(message);
      },
    };
    // Problems that arrive after the test's last check still fail it. Judged in onTestFinished
    // rather than in the teardown: vitest reports an error thrown by a teardown twice.
    onTestFinished(() => session.check());
    await use(session);
    await context.close();
  },
  // Tuple form: these fixtures' values are functions, which the plain form would take as the value.
  runPage: [
    async ({ session, task }, use) => {
      await use(async <Result>(modulePath: string, args?: unknown): Promise<Result> => {
        const page = await session.open(`${inject('browserOrigin')}${RUNNER_PATH}`);
        await page.waitForFunction(() => 'd3d12Runner' in window);
        session.check();
        let result: Result;
        try {
          result = (await page.evaluate(
            (path, pageArgs, name) => window.d3d12Runner.run(path, pageArgs, name),
            `/${modulePath.replace(/^\//, '')}`,
            args ?? null,
            task.fullTestName,
          )) as Result;
        } catch (error) {
          // The page's message names the test and the WebGPU error; report it with any console problems.
          session.report(error instanceof Error ? error.message : String(error));
        }
        session.check();
        return result!;
      });
    },
    { scope: 'test' },
  ],
  openPage: [
    async ({ session }, use) => {
      await use((url) => session.open(url));
    },
    { scope: 'test' },
  ],
});
