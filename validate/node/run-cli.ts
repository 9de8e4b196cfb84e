/**
 * `npm run validate`: the validation suite (src/validate/) headless, in Node.js on Dawn and in
 * Chromium through the validation page, then one summary line over both. Flags: args.ts (USAGE).
 * Returns the exit code: 0 with no mismatch, 1 with mismatches, 2 on an error.
 */
import { addSummaries, formatSummaryLine, summarize, type ValidationSummary } from '../validation-logic.js';
import { parseCliArgs, USAGE, type Target } from './args.js';
import type { BrowserTargetOptions } from './browser-target.js';
import { TargetReport, type Log } from './report.js';

export interface CliDependencies extends BrowserTargetOptions {
  log?: Log;
  /** The Node target runs on this device (left open) instead of opening its own. */
  gpuDevice?: GPUDevice;
}

function targetLine(target: Target, summary: ValidationSummary, error?: string): string {
  const counts = `${summary.ops} ops, ${summary.bytesCompared} bytes compared, ${summary.pagesValidated} pages validated, ${summary.mismatches} mismatches`;
  return `${target}: ${counts}${error ? ` (failed: ${error})` : ''}`;
}

export async function runCli(argv: readonly string[], dependencies: CliDependencies = {}): Promise<number> {
  const log = dependencies.log ?? ((line: string) => console.log(line));
  const parsed = parseCliArgs(argv);
  if (!parsed.ok) {
    for (const error of parsed.errors) log(`validate: ${error}`);
    log(USAGE);
    return 2;
  }
  const options = parsed.value;
  if (options.help) {
    log(USAGE);
    return 0;
  }
  const last = options.seed + options.seeds - 1;
  log(
    `validate: ${options.seeds > 1 ? `seeds ${options.seed}..${last}` : `seed ${options.seed}`}, ${options.ops} ops${options.seeds > 1 ? ' each' : ''}, tier ${options.tier}${options.plant ? `, planted fault ${options.plant}` : ''}, on ${options.targets.join(' and ')}`,
  );
  const summaries: ValidationSummary[] = [];
  const lines: string[] = [];
  let failed = false;
  for (const target of options.targets) {
    const report = new TargetReport(target, options, log);
    let error: string | undefined;
    try {
      // Loaded when needed: flags are checked (and --help answered) without opening Dawn or Chromium.
      if (target === 'node')
        await (await import('./node-target.js')).runNodeTarget(options, report, dependencies.gpuDevice);
      else await (await import('./browser-target.js')).runBrowserTarget(options, report, dependencies);
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
      failed = true;
      report.line(`error: ${error}`);
    }
    const summary = summarize(report.results);
    summaries.push(summary);
    lines.push(targetLine(target, summary, error));
  }
  for (const line of lines) log(line);
  const total = addSummaries(summaries);
  log(formatSummaryLine(total));
  return failed ? 2 : total.mismatches > 0 ? 1 : 0;
}
