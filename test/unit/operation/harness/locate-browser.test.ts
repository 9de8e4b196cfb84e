import { describe, expect, test } from 'vitest';
import { locateBrowser, type BrowserProbe } from '../../../../tools/browser/locate-browser.js';

interface Machine {
  platform?: NodeJS.Platform;
  arch?: NodeJS.Architecture;
  env?: NodeJS.ProcessEnv;
  files?: string[];
}

function probe({ platform = 'linux', arch = 'x64', env = {}, files = [] }: Machine): BrowserProbe {
  return {
    platform,
    arch,
    env,
    exists: (path) => files.includes(path),
    bundled: () => ({ executable: '/cache/chromium', env: { FONTCONFIG_PATH: '/cache' } }),
  };
}

const BUNDLED = {
  executable: '/cache/chromium',
  source: 'bundled',
  headless: 'shell',
  env: { FONTCONFIG_PATH: '/cache' },
};

describe('locateBrowser: the lookup order', () => {
  test('1. CHROME_PATH first', () => {
    const found = locateBrowser(
      probe({ env: { CHROME_PATH: '/opt/chrome', PATH: '/usr/bin' }, files: ['/opt/chrome', '/usr/bin/chromium'] }),
    );
    expect(found).toEqual({ executable: '/opt/chrome', source: 'CHROME_PATH', headless: true, env: {} });
  });
  test('1. CHROME_PATH naming a missing file is an error, not a fallback', () => {
    expect(() => locateBrowser(probe({ env: { CHROME_PATH: '/nope' }, files: ['/usr/bin/chromium'] }))).toThrow(
      /CHROME_PATH names \/nope/,
    );
  });
  test('1. CHROME_PATH pointing at a headless shell runs it in shell mode', () => {
    expect(
      locateBrowser(probe({ env: { CHROME_PATH: '/x/chrome-headless-shell' }, files: ['/x/chrome-headless-shell'] }))
        .headless,
    ).toBe('shell');
  });

  test('2. a system browser on PATH: the first PATH folder holding one wins, as in a shell', () => {
    const found = locateBrowser(probe({ env: { PATH: '/a:/b' }, files: ['/b/google-chrome', '/a/chromium'] }));
    expect(found).toMatchObject({ executable: '/a/chromium', source: 'system', headless: true });
  });
  test('2. within one PATH folder, Chrome is preferred to Chromium', () => {
    const found = locateBrowser(probe({ env: { PATH: '/a' }, files: ['/a/chromium', '/a/google-chrome-stable'] }));
    expect(found.executable).toBe('/a/google-chrome-stable');
  });
  test('2. a system browser in a usual install folder when PATH has none', () => {
    expect(locateBrowser(probe({ env: { PATH: '/a' }, files: ['/opt/google/chrome/chrome'] })).executable).toBe(
      '/opt/google/chrome/chrome',
    );
  });

  test('3. no CHROME_PATH and no system browser: the bundled headless shell', () => {
    expect(locateBrowser(probe({ env: { PATH: '/usr/bin' } }))).toEqual(BUNDLED);
  });

  test('D3D12_WEBGPU_BROWSER=bundled skips CHROME_PATH and the system browser', () => {
    const found = locateBrowser(
      probe({
        env: { D3D12_WEBGPU_BROWSER: 'bundled', CHROME_PATH: '/opt/chrome', PATH: '/usr/bin' },
        files: ['/opt/chrome', '/usr/bin/chromium'],
      }),
    );
    expect(found).toEqual(BUNDLED);
  });
  test('D3D12_WEBGPU_BROWSER=system refuses the bundled fallback', () => {
    expect(() => locateBrowser(probe({ env: { D3D12_WEBGPU_BROWSER: 'system' } }))).toThrow(/no system Chrome/);
  });
  test('D3D12_WEBGPU_BROWSER=system control: a system browser is found', () => {
    expect(locateBrowser(probe({ env: { D3D12_WEBGPU_BROWSER: 'system' }, files: ['/usr/bin/chromium'] })).source).toBe(
      'system',
    );
  });
  test('an unknown D3D12_WEBGPU_BROWSER value is an error', () => {
    expect(() => locateBrowser(probe({ env: { D3D12_WEBGPU_BROWSER: 'firefox' } }))).toThrow(/auto, system or bundled/);
  });

  for (const [platform, arch] of [
    ['darwin', 'arm64'],
    ['linux', 'arm64'],
    ['win32', 'x64'],
  ] as const) {
    test(`no browser on ${platform}-${arch}: the bundled build is Linux x64 only, so CHROME_PATH is asked for`, () => {
      expect(() => locateBrowser(probe({ platform, arch }))).toThrow(/set CHROME_PATH/);
    });
  }
});
