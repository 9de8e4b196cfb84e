/**
 * Where results go: bench/results/<runtime>-<vendor>-<architecture>.json (one per runtime and
 * adapter, overwritten by the next run; git keeps the history), and the report drawn from all of
 * them: bench/results/report.html and, where a Chromium can be found, report.png.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchBrowser } from '../../tools/browser/launch.js';
import { locateBrowser } from '../../tools/browser/locate-browser.js';
import { renderReportHtml } from '../report/render-report.js';
import { checkSuiteResult, resultFileName, serializeResult, type SuiteResult } from '../suite/suite.js';
import type { PagingParameters } from '../suite/figure.js';
import { formatSuite } from '../suite/table.js';

export const RESULTS_DIR = join(process.cwd(), 'bench', 'results');

export function writeResult(result: SuiteResult, dir = RESULTS_DIR): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, resultFileName(result));
  writeFileSync(file, serializeResult(result));
  return file;
}

/** Every full (not quick) suite result in `dir`, browser first, then by adapter. */
export function readResults(dir = RESULTS_DIR): SuiteResult[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !f.endsWith('-quick.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as unknown)
    .filter((r): r is SuiteResult => checkSuiteResult(r) === null)
    .sort((a, b) => a.runtime.localeCompare(b.runtime) || a.adapterText.localeCompare(b.adapterText));
}

/** Writes report.html (always) and report.png (when a browser is at hand). Returns the paths written. */
export async function writeReport(results: readonly SuiteResult[], dir = RESULTS_DIR): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const html = join(dir, 'report.html');
  writeFileSync(html, renderReportHtml(results));
  let located;
  try {
    located = locateBrowser();
  } catch (error) {
    console.log(`report.png skipped: no browser (${error instanceof Error ? error.message : String(error)})`);
    return [html];
  }
  const { browser } = await launchBrowser(located);
  try {
    const page = await browser.newPage();
    // The results stand side by side (about 850 px each); the full-page shot takes the whole width.
    await page.setViewport({ width: Math.max(900, results.length * 880 + 60), height: 900 });
    await page.goto(`file://${html}`);
    const png = join(dir, 'report.png');
    await page.screenshot({ path: png, fullPage: true });
    return [html, png];
  } finally {
    await browser.close();
  }
}

/** The runners' flags: --quick, --only=id,id, --paging-mib=1,16, --stream-seconds=N, --out=DIR, --no-report. */
export interface RunnerArgs {
  quick: boolean;
  only?: string[];
  paging: PagingParameters;
  out: string;
  report: boolean;
}

/** Every flag of run-node.ts and run-browser.ts (run-browser.ts says what its own ones do). */
const RUNNER_FLAGS = {
  quick: { type: 'boolean' },
  only: { type: 'string' },
  'paging-mib': { type: 'string' },
  'stream-seconds': { type: 'string' },
  out: { type: 'string' },
  'no-report': { type: 'boolean' },
  page: { type: 'string' },
  browser: { type: 'string' },
  gpu: { type: 'string' },
  'browser-arg': { type: 'string', multiple: true },
  timeout: { type: 'string' },
  'developer-features': { type: 'boolean' },
} as const;

/**
 * The runners' command line read by node:util's parseArgs. Not strict, as the hand-written reader
 * before it: a flag one runner does not know (run-node.ts given a browser flag) is ignored.
 */
export function readRunnerFlags(args: readonly string[]) {
  return parseArgs({ args: [...args], options: RUNNER_FLAGS, strict: false, allowPositionals: true }).values;
}

/** A flag's value when it was given one (`--name=value`); a bare flag of a string option reads as absent. */
export const givenValue = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function parseRunnerArgs(args: readonly string[]): RunnerArgs {
  const flags = readRunnerFlags(args);
  const only = givenValue(flags.only)?.split(',');
  const sizes = givenValue(flags['paging-mib']);
  const stream = givenValue(flags['stream-seconds']);
  const paging: PagingParameters = {
    ...(sizes ? { sizesMiB: sizes.split(',').map(Number) } : {}),
    ...(stream !== undefined ? { streamSeconds: Number(stream) } : {}),
  };
  if (paging.sizesMiB?.some((mib) => !(mib > 0)))
    throw new Error(`--paging-mib must list sizes in MiB, not "${sizes}"`);
  if (paging.streamSeconds !== undefined && !(paging.streamSeconds >= 0))
    throw new Error(`--stream-seconds must be a number of seconds, not "${stream}"`);
  return {
    quick: flags.quick === true,
    ...(only ? { only } : {}),
    paging,
    out: givenValue(flags.out) ?? RESULTS_DIR,
    report: flags['no-report'] !== true,
  };
}

/** Prints the table, writes the JSON and (for a full run) the report; exits 1 if a figure failed. */
export async function finishRun(result: SuiteResult, args: RunnerArgs): Promise<never> {
  console.log(`\n${formatSuite(result)}`);
  console.log(`\nwrote ${writeResult(result, args.out)}`);
  if (args.report && !args.quick)
    for (const file of await writeReport(readResults(args.out), args.out)) console.log(`wrote ${file}`);
  process.exit(result.failures.length > 0 ? 1 : 0);
}
