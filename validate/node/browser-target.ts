/**
 * The browser target: the validation page, built statically (validate/dist/page/, see
 * validate/vite.config.ts), served on 127.0.0.1 and opened in headless Chromium (the browser the
 * tests use: CHROME_PATH, a system Chrome or the bundled one) with WebGPU. Polls
 * window.validationState and reports each finished run as it appears.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatAdapter } from '../../src/gpu/request-device.js';
import { chromiumArgs, launchBrowser } from '../../tools/browser/launch.js';
import { locateBrowser } from '../../tools/browser/locate-browser.js';
import { pageQuery, type RunParameters } from '../validation-logic.js';
import type { TargetReport } from './report.js';
import { serveStatic } from '../../tools/browser/static-server.js';

/** The built page, beside the bundle (validate/dist/validate.mjs → validate/dist/page/). */
export const DEFAULT_PAGE_DIR = fileURLToPath(new URL('./page/', import.meta.url));
const POLL_MS = 250;
/** How long the page's script may take to set window.validationState. */
const START_TIMEOUT_MS = 60_000;
/** A run whose progress does not move for this long has hung. */
const STALL_TIMEOUT_MS = 10 * 60_000;

export interface BrowserTargetOptions {
  pageDir?: string;
}

/**
 * Chromium's flags: the tests' (--enable-unsafe-webgpu, no sandbox, …) on the machine's own GPU.
 * The page draws no canvas, so it needs no software canvas path; D3D12_WEBGPU_BROWSER_GPU=software
 * asks for SwiftShader all the same.
 */
export function validationChromiumArgs(env: NodeJS.ProcessEnv = process.env): string[] {
  return chromiumArgs({
    ...env,
    D3D12_WEBGPU_BROWSER_GPU: env.D3D12_WEBGPU_BROWSER_GPU === 'software' ? 'software' : 'hardware',
  });
}

export async function runBrowserTarget(
  run: RunParameters,
  report: TargetReport,
  options: BrowserTargetOptions = {},
): Promise<void> {
  const pageDir = options.pageDir ?? DEFAULT_PAGE_DIR;
  if (!existsSync(join(pageDir, 'validation', 'index.html'))) {
    throw new Error(
      `the built validation page is missing (${join(pageDir, 'validation', 'index.html')}): npm run validate builds it (vite build -c validate/vite.config.ts --mode page)`,
    );
  }
  const server = await serveStatic(pageDir);
  // launchBrowser loads puppeteer-core on first use: the Node target runs where it may be absent.
  const { browser, located, version } = await launchBrowser(locateBrowser(), validationChromiumArgs());
  try {
    report.line(`${version} (${located.source}: ${located.executable})`);
    const page = await browser.newPage();
    page.on('pageerror', (error) =>
      report.line(`page error: ${error instanceof Error ? error.message : String(error)}`),
    );
    page.on('console', (message) => {
      if (message.type() === 'error') report.line(`console error: ${message.text()}`);
    });
    await page.goto(`${server.origin}/validation/${pageQuery({ ...run, autostart: true })}`);
    await page
      .waitForFunction(() => window.validationState !== undefined, { timeout: START_TIMEOUT_MS, polling: 100 })
      .catch(() => {
        throw new Error(
          `the validation page's script did not start within ${START_TIMEOUT_MS / 1000} s (see the console errors above)`,
        );
      });
    report.startClock();
    let shown = 0;
    let adapterShown = false;
    let lastChange = Date.now();
    let lastMark = '';
    for (;;) {
      const seen = await page.evaluate((from) => {
        const s = window.validationState;
        return {
          done: s.done,
          error: s.error,
          adapter: s.adapter,
          fresh: s.results.slice(from),
          mark: JSON.stringify(s.progress ?? null),
        };
      }, shown);
      if (seen.adapter && !adapterShown) {
        adapterShown = true;
        report.line(`adapter ${formatAdapter(seen.adapter)}`);
      }
      for (const result of seen.fresh) report.add(result);
      shown += seen.fresh.length;
      if (seen.error) throw new Error(`the validation page failed: ${seen.error}`);
      if (seen.done) break;
      const mark = `${shown} ${seen.mark}`;
      if (mark !== lastMark) [lastMark, lastChange] = [mark, Date.now()];
      else if (Date.now() - lastChange > STALL_TIMEOUT_MS)
        throw new Error(`the validation page made no progress for ${STALL_TIMEOUT_MS / 60_000} minutes`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    await browser.close();
    await server.close();
  }
}
