/**
 * Launches the located Chromium headless with WebGPU, for tests and benchmarks alike.
 */
import type { Browser } from 'puppeteer-core';
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
  '--lang=en-US',
];

/**
 * The browser's locale environment: under LANG=C or C.UTF-8 (containers, CI) ICU's default locale is
 * 'en-US@posix', which Intl rejects with a RangeError (uPlot's import, in the demo scenes, throws).
 * A desktop browser runs under a real locale: give it one when the environment has none.
 */
export function localeEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const current = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return /^(|C|POSIX)([._@].*)?$/i.test(current) ? { LANG: 'en_US.UTF-8', LC_ALL: 'en_US.UTF-8' } : {};
}

/**
 * Canvas presentation without a GPU: headless Chromium's default GL/compositor path cannot share a
 * SwiftShader WebGPU texture with the compositor, and the first `getCurrentTexture()` destroys the
 * device ("A valid external Instance reference no longer exists"). With Vulkan and ANGLE both on
 * SwiftShader the canvas, the compositor and WebGPU share one Vulkan instance and canvases work.
 * Set D3D12_WEBGPU_BROWSER_GPU=hardware to leave Chromium on its own GPU choice (a real GPU).
 */
export const SOFTWARE_CANVAS_ARGS = ['--enable-features=Vulkan', '--use-vulkan=swiftshader', '--use-angle=swiftshader'];

export function chromiumArgs(env: NodeJS.ProcessEnv = process.env): string[] {
  return env.D3D12_WEBGPU_BROWSER_GPU === 'hardware' ? CHROMIUM_ARGS : [...CHROMIUM_ARGS, ...SOFTWARE_CANVAS_ARGS];
}

export interface LaunchedBrowser {
  browser: Browser;
  located: LocatedBrowser;
  version: string;
}

/**
 * Launches `located` headless with WebGPU; `args` default to chromiumArgs() of this process's
 * environment, `locale` to localeEnv()'s (tests of pages under LANG=C pass their own).
 */
export async function launchBrowser(
  located: LocatedBrowser = locateBrowser(),
  args: string[] = chromiumArgs(),
  locale: Record<string, string> = localeEnv(),
): Promise<LaunchedBrowser> {
  // Loaded on first use: the benchmark bundle imports this file and runs where no puppeteer is.
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({
    executablePath: located.executable,
    headless: located.headless,
    args,
    env: { ...process.env, ...located.env, ...locale },
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
