/**
 * `npm run bench`: the benchmark page (demo/bench/, built into bench/dist/page/) in headless
 * Chromium, the same page people open, driven with run=1&collect=1: the page POSTs its progress and
 * its result to the small server here (page-server.ts), which prints the one and writes the other
 * (bench/results/browser-<vendor>-<architecture>.json, and the report). No puppeteer and no vite at
 * run time, so the same bundle runs on the GPU machine (bench/h200/browser-h200.sh).
 *
 * Flags: --quick, --only=id,id, --paging-mib=1,16,64, --stream-seconds=N, --out=DIR, --no-report,
 * and for the browser:
 *   --page=DIR         the built page (default bench/dist/page)
 *   --browser=PATH     the Chromium to run (default: the one the tests use, see tools/browser/locate-browser.ts)
 *   --gpu=hardware     leave out the SwiftShader flags (chromiumArgs): Chromium picks its GPU
 *   --browser-arg=ARG  one more Chromium flag (repeatable), e.g. --browser-arg=--use-angle=vulkan
 *   --timeout=SECONDS  how long the suite may take (default 2400)
 *   --developer-features  start Chromium with --enable-webgpu-developer-features: timestamps to the
 *                      nanosecond instead of 100 µs (off by default, as in the committed runs)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CHROMIUM_ARGS, chromiumArgs, localeEnv } from '../../tools/browser/launch.js';
import { locateBrowser } from '../../tools/browser/locate-browser.js';
import { checkSuiteResult, type SuiteResult } from '../suite/suite.js';
import { BENCH_COMMIT } from './commit.js';
import { servePage } from './page-server.js';
import { finishRun, givenValue, parseRunnerArgs, readRunnerFlags } from './results.js';

/**
 * The whole suite, scene-frame-time's four scene pages included, on a software rasterizer: 13 to 25
 * minutes on SwiftShader with two cores (texture-sample alone took 13 minutes at 315f2a7, and 1,200
 * s cut that run off); on the H200 and H100 under two, inside the 10 minutes one GPU-machine command
 * may run.
 */
const DEFAULT_TIMEOUT_S = 2400;
/** --developer-features: unquantized timestamps (Chromium rounds them to 100 µs, a timing-attack guard). */
const DEVELOPER_ARGS = ['--enable-webgpu-developer-features'];
/** Chromium output kept for the error message when it exits before the page reported. */
const KEPT_OUTPUT_CHARS = 4000;

const argv = process.argv.slice(2);
const args = parseRunnerArgs(argv);
const flags = readRunnerFlags(argv);
const pageDir = resolve(givenValue(flags.page) ?? join(process.cwd(), 'bench', 'dist', 'page'));
const timeoutS = Number(givenValue(flags.timeout) ?? DEFAULT_TIMEOUT_S);
const explicit = givenValue(flags.browser);
const located = explicit ? { executable: explicit, headless: true as const, env: {}, source: 'flag' } : locateBrowser();
const extraArgs = (flags['browser-arg'] ?? []).filter((arg) => typeof arg === 'string');
const baseArgs = flags.gpu === 'hardware' ? CHROMIUM_ARGS : chromiumArgs();

const served = await servePage(pageDir, (line) => console.log(line));
const query = new URLSearchParams({ run: '1', collect: '1', commit: BENCH_COMMIT, ref: 'none' });
if (args.quick) query.set('quick', '1');
if (args.only) query.set('figures', args.only.join(','));
if (args.paging.sizesMiB) query.set('pagingMiB', args.paging.sizesMiB.join(','));
if (args.paging.streamSeconds !== undefined) query.set('streamSeconds', String(args.paging.streamSeconds));
const url = `${served.origin}/bench/index.html?${query.toString()}`;
const profile = mkdtempSync(join(tmpdir(), 'd3d12-webgpu-bench-'));
const benchArgs = flags['developer-features'] === true ? DEVELOPER_ARGS : [];
const browserArgs = [
  ...baseArgs,
  ...benchArgs,
  located.headless === 'shell' ? '--headless' : '--headless=new',
  `--user-data-dir=${profile}`,
  ...extraArgs,
  url,
];
console.log(`${located.executable} (${located.source}) ${browserArgs.slice(0, -1).join(' ')}`);
// Its own process group, so the GPU and renderer processes stop with it.
const browser = spawn(located.executable, browserArgs, {
  env: { ...process.env, ...located.env, ...localeEnv() },
  detached: true,
  stdio: ['ignore', 'pipe', 'pipe'],
});
// Its group is its own, so a runner stopped from outside (a timeout's SIGTERM, Ctrl-C) stops it too.
const stopBrowser = (): void => {
  try {
    if (browser.pid) process.kill(-browser.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    stopBrowser();
    process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
  });
}
let output = '';
const keep = (chunk: Buffer): void => {
  output = (output + chunk.toString()).slice(-KEPT_OUTPUT_CHARS);
};
browser.stdout.on('data', keep);
browser.stderr.on('data', keep);
const exited = new Promise<never>((_, reject) => {
  browser.on('error', (error) => reject(new Error(`could not start ${located.executable}: ${error.message}`)));
  browser.on('exit', (code, signal) =>
    reject(
      new Error(
        `Chromium exited (${signal ?? `code ${code}`}) before the page reported a result; its last output:\n${output}`,
      ),
    ),
  );
});
let timer: NodeJS.Timeout | undefined;
const timedOut = new Promise<never>((_, reject) => {
  timer = setTimeout(() => reject(new Error(`the page reported no result within ${timeoutS} s`)), timeoutS * 1000);
});

let text: string;
try {
  text = await Promise.race([served.result, exited, timedOut]);
} finally {
  clearTimeout(timer);
  browser.removeAllListeners('exit');
  stopBrowser();
  await served.close();
  rmSync(profile, { recursive: true, force: true });
}
const posted = JSON.parse(text) as SuiteResult | { error: string };
if ('error' in posted) throw new Error(`the benchmark page failed: ${posted.error}`);
const problem = checkSuiteResult(posted);
if (problem) throw new Error(`the benchmark page posted something that is not a suite result: ${problem}`);
await finishRun(posted, args);
