/**
 * `npm run bench`: the suite in headless Chromium (the browser the tests use: CHROME_PATH, a system
 * Chrome/Chromium or the bundled one), driven through bench/browser/index.html on a vite server of
 * the project. Prints progress as it comes, then the table; writes the JSON and the report.
 * Flags: --quick, --only=id,id, --out=DIR (default bench/results), --no-report.
 */
import { launchBrowser } from '../../test/harness/browser/launch.js';
import { serveProject } from '../../test/harness/browser/serve.js';
import type { SuiteResult } from '../suite/suite.js';
import { BENCH_COMMIT } from './commit.js';
import { finishRun, parseRunnerArgs } from './results.js';

/** The whole suite must finish well inside the 10 minutes the issue allows. */
const SUITE_TIMEOUT_MS = 9 * 60_000;
const POLL_MS = 500;

const args = parseRunnerArgs(process.argv.slice(2));

const served = await serveProject();
const { browser, version, located } = await launchBrowser();
console.log(`${version} (${located.source}: ${located.executable})`);
let result: SuiteResult | undefined;
try {
  const page = await browser.newPage();
  page.on('pageerror', (error) => console.log(`page error: ${error instanceof Error ? error.message : String(error)}`));
  page.on('console', (message) => {
    if (message.type() === 'error') console.log(`console error: ${message.text()}`);
  });
  const query = new URLSearchParams({ commit: BENCH_COMMIT, ...(args.quick ? { quick: '1' } : {}), ...(args.only ? { only: args.only.join(',') } : {}) });
  await page.goto(`${served.origin}/bench/browser/index.html?${query.toString()}`);
  const deadline = Date.now() + SUITE_TIMEOUT_MS;
  let shown = 0;
  for (;;) {
    const state = await page.evaluate(() => ({ progress: window.benchState.progress, done: Boolean(window.benchState.result), error: window.benchState.error }));
    for (const line of state.progress.slice(shown)) console.log(line);
    shown = state.progress.length;
    if (state.error) throw new Error(`the benchmark page failed: ${state.error}`);
    if (state.done) break;
    if (Date.now() > deadline) throw new Error(`the suite did not finish within ${SUITE_TIMEOUT_MS / 60_000} minutes`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  result = (await page.evaluate(() => window.benchState.result));
} finally {
  await browser.close();
  await served.server.close();
}
if (!result) throw new Error('the benchmark page reported done without a result');
await finishRun(result, args);
