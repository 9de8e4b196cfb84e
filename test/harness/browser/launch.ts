/**
 * Launches the located Chromium headless with WebGPU, for tests and benchmarks alike.
 */
import puppeteer, { type Browser } from 'puppeteer-core';
import { locateBrowser, type LocatedBrowser } from './locate-browser.js';

/**
 * `--enable-unsafe-webgpu`: WebGPU on Linux (and on SwiftShader) is behind this flag.
 * The rest keep a headless Chromium, possibly running as root, from reaching for the network or a
 * sandbox this machine does not have: without them it retries refused connections at every start.
 */
export const CHROMIUM_ARGS = [
  '--enable-unsafe-webgpu',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  // Containers often give /dev/shm only 64 MiB, too little for Chromium's shared memory.
  '--disable-dev-shm-usage',
];

export interface LaunchedBrowser {
  browser: Browser;
  located: LocatedBrowser;
  version: string;
}

export async function launchBrowser(located: LocatedBrowser = locateBrowser()): Promise<LaunchedBrowser> {
  const browser = await puppeteer.launch({
    executablePath: located.executable,
    headless: located.headless,
    args: CHROMIUM_ARGS,
    env: { ...process.env, ...located.env },
    // A cold SwiftShader start on a busy CI machine can take a while.
    protocolTimeout: 180_000,
  });
  try {
    return { browser, located, version: await browser.version() };
  } catch (error) {
    await browser.close();
    throw error;
  }
}
