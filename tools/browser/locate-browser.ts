/**
 * Finds the Chromium that browser tests and benchmarks drive, in this order:
 *   1. `CHROME_PATH` (must exist: a wrong path is an error, not a silent fallback),
 *   2. a system Chrome or Chromium (PATH, then the usual install folders),
 *   3. the headless shell bundled in `@sparticuz/chromium` (Linux x64), unpacked once.
 * `D3D12_WEBGPU_BROWSER=bundled` skips 1 and 2, as a machine with only Node.js would;
 * `D3D12_WEBGPU_BROWSER=system` refuses the bundled fallback.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { bundledChromium } from '../../src/node/bundled-chromium.js';

export type BrowserSource = 'CHROME_PATH' | 'system' | 'bundled';

export interface LocatedBrowser {
  executable: string;
  source: BrowserSource;
  /** puppeteer's `headless`: 'shell' for chrome-headless-shell builds, true for a full Chrome. */
  headless: true | 'shell';
  /** Environment the browser process needs on top of ours. */
  env: Record<string, string>;
}

const SYSTEM_NAMES = ['google-chrome-stable', 'google-chrome', 'chromium', 'chromium-browser', 'chrome'];
const SYSTEM_PATHS: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: ['/usr/bin/chromium', '/usr/bin/google-chrome', '/opt/google/chrome/chrome', '/snap/bin/chromium'],
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ],
  win32: [
    'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
    'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
  ],
};

/** What the lookup asks of the machine; replaced in unit tests. */
export interface BrowserProbe {
  platform: NodeJS.Platform;
  arch: NodeJS.Architecture;
  env: NodeJS.ProcessEnv;
  exists(path: string): boolean;
  bundled(): { executable: string; env: Record<string, string> };
}

function headlessFor(executable: string, source: BrowserSource): true | 'shell' {
  return source === 'bundled' || /headless[-_]shell/i.test(executable) ? 'shell' : true;
}

function findSystemBrowser(probe: BrowserProbe): string | undefined {
  const onPath = (probe.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .flatMap((dir) => SYSTEM_NAMES.map((name) => join(dir, name)));
  return [...onPath, ...(SYSTEM_PATHS[probe.platform] ?? [])].find((path) => probe.exists(path));
}

export function locateBrowser(probe: BrowserProbe = machineBrowserProbe()): LocatedBrowser {
  const mode = probe.env.D3D12_WEBGPU_BROWSER ?? 'auto';
  if (!['auto', 'bundled', 'system'].includes(mode)) {
    throw new Error(`D3D12_WEBGPU_BROWSER must be auto, system or bundled, not "${mode}"`);
  }
  if (mode !== 'bundled') {
    const fromEnv = probe.env.CHROME_PATH;
    if (fromEnv) {
      if (!probe.exists(fromEnv)) throw new Error(`CHROME_PATH names ${fromEnv}, which does not exist`);
      return { executable: fromEnv, source: 'CHROME_PATH', headless: headlessFor(fromEnv, 'CHROME_PATH'), env: {} };
    }
    const system = findSystemBrowser(probe);
    if (system) return { executable: system, source: 'system', headless: headlessFor(system, 'system'), env: {} };
    if (mode === 'system') throw new Error('D3D12_WEBGPU_BROWSER=system, but no system Chrome or Chromium was found');
  }
  if (probe.platform !== 'linux' || probe.arch !== 'x64') {
    throw new Error(
      'no Chrome found: set CHROME_PATH to a Chrome with WebGPU (the bundled Chromium fallback is Linux x64 only)',
    );
  }
  const bundled = probe.bundled();
  return { executable: bundled.executable, source: 'bundled', headless: 'shell', env: bundled.env };
}

export function machineBrowserProbe(): BrowserProbe {
  return {
    platform: process.platform,
    arch: process.arch,
    env: process.env,
    exists: existsSync,
    bundled: bundledChromium,
  };
}
