/**
 * globalSetup of the browser project: serves the project on 127.0.0.1, launches Chromium once for
 * the whole run, logs the browser and its WebGPU adapter once, and hands the endpoints to the test
 * files (browser-test.ts) through vitest's provide/inject.
 */
import type { TestProject } from 'vitest/node';
import { launchBrowser } from '../../../tools/browser/launch.js';
import { serveProject } from '../../../tools/browser/serve.js';
import { PROJECT_ROOT, RUNNER_PATH } from '../paths.js';

declare module 'vitest' {
  export interface ProvidedContext {
    browserWSEndpoint: string;
    browserOrigin: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const served = await serveProject(PROJECT_ROOT);
  let launched;
  try {
    launched = await launchBrowser();
  } catch (error) {
    await served.server.close();
    throw error;
  }
  const { browser, located, version } = launched;
  try {
    const page = await browser.newPage();
    await page.goto(`${served.origin}${RUNNER_PATH}`);
    await page.waitForFunction(() => 'd3d12Runner' in window);
    const adapter = await page.evaluate(() => window.d3d12Runner.adapter());
    await page.close();
    console.log(`[browser] ${version} (${located.source}: ${located.executable}); adapter: ${adapter.line}`);
  } catch (error) {
    await browser.close();
    await served.server.close();
    throw error;
  }
  project.provide('browserWSEndpoint', browser.wsEndpoint());
  project.provide('browserOrigin', served.origin);
  return async () => {
    await browser.close();
    await served.server.close();
  };
}
