/**
 * `npm run bench` end to end, as CI-style runs use it: the runner bundle (bench/dist/browser.mjs)
 * serves the built benchmark page (bench/dist/page/), starts headless Chromium on it with run=1 and
 * collect=1, prints the page's progress as it arrives and writes the result the page POSTed, a
 * bench/results file, from a cross-origin isolated page (fine timers); a page URL the page refuses ends the runner with the page's reason.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSuiteResult, type SuiteResult } from '../../../../bench/suite/suite.js';
import { PROJECT_ROOT } from '../../../harness/paths.js';

const RUN_TIMEOUT_MS = 240_000;
let out = '';

beforeAll(() => {
  for (const mode of ['browser', 'page'])
    execFileSync('npx', ['vite', 'build', '-c', 'bench/vite.config.ts', '--mode', mode], {
      cwd: PROJECT_ROOT,
      stdio: 'pipe',
    });
  out = mkdtempSync(join(tmpdir(), 'bench-runner-'));
}, 120_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

const runner = (args: string[]) =>
  spawnSync('node', ['bench/dist/browser.mjs', ...args], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    timeout: RUN_TIMEOUT_MS,
  });

describe('npm run bench (the runner over the benchmark page)', () => {
  it(
    'a quick run of one figure writes browser-<vendor>-<architecture>-quick.json from what the page posted',
    () => {
      const run = runner(['--quick', '--only=residency-overhead', `--out=${out}`, '--no-report']);
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      // The page's progress lines came through the server as they happened.
      expect(run.stdout).toContain('[1/1] residency-overhead…');
      expect(run.stdout).toContain('done');
      const file = /wrote (\S+\.json)/.exec(run.stdout)?.[1] ?? '';
      expect(file).toMatch(/browser-[a-z0-9-]+-quick\.json$/);
      const result = JSON.parse(readFileSync(file, 'utf8')) as SuiteResult;
      expect(checkSuiteResult(result)).toBeNull();
      expect(result.runtime).toBe('browser');
      expect(result.quick).toBe(true);
      expect(result.figures.map((f) => f.id)).toEqual(['residency-overhead']);
      expect(result.host).toContain('Chrome');
      // The page server sends COOP and COEP: the page is cross-origin isolated, with 5 µs timers.
      expect(result.crossOriginIsolated).toBe(true);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "an unknown figure: the page refuses it and the runner fails with the page's reason",
    () => {
      const run = runner(['--quick', '--only=no-such-figure', `--out=${out}`, '--no-report']);
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain('figures: unknown no-such-figure');
    },
    RUN_TIMEOUT_MS,
  );
});
