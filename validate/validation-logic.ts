/**
 * The pure logic of `npm run validate` (validate/node/), which the validation page
 * (demo/validation/) imports from here so both apply the same rules: the run parameters (URL
 * parameters there, `--flags` here) each checked with an error that names it, the mismatch rows and
 * counts, the summary over several runs and the lines printed for it. No DOM, no GPU: unit-tested in test/unit/operation/validate/validation-logic.test.ts.
 */
import type { AdapterSummary } from '../src/index.js';
import type { ValidationMismatch, ValidationProgress, ValidationResult } from '../src/validate/index.js';

export type Plant = 'corrupt-entry' | 'drop-write';
export type Tier = 1 | 2 | 3 | 4;

/** What one run of the page (or one target of the CLI) does. */
export interface RunParameters {
  /** The first seed of the differential run. */
  seed: number;
  /** How many seeds: seed, seed + 1, …, seed + seeds - 1. */
  seeds: number;
  /** Operations per seed. */
  ops: number;
  tier: Tier;
  /** A planted fault (the self-check), or none. */
  plant?: Plant;
}

export interface PageParameters extends RunParameters {
  /** Start at once (1, the default) or wait for the Start button (0). */
  autostart: boolean;
}

export const DEFAULT_PARAMETERS: Readonly<PageParameters> = { seed: 1, seeds: 1, ops: 500, tier: 3, autostart: true };

export const MAX_SEED = 0xffff_ffff;
export const MAX_SEEDS = 10_000;
export const MAX_OPS = 1_000_000;
export const PLANTS: readonly Plant[] = ['corrupt-entry', 'drop-write'];
const TIERS: readonly Tier[] = [1, 2, 3, 4];

/** The parameters' names, in the order a URL or a usage line lists them. */
export const RUN_PARAMETER_NAMES = ['seed', 'seeds', 'ops', 'tier', 'plant'] as const;
export type RunParameterName = (typeof RUN_PARAMETER_NAMES)[number];

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: string[] };

type Read<T> = { value: T } | { error: string };

/** A decimal integer (or, for seeds, 0x hex) in [min, max]. */
function integer(raw: string, min: number, max: number, hex = false): Read<number> {
  const text = raw.trim();
  const valid = /^\d+$/.test(text) || (hex && /^0x[0-9a-f]+$/i.test(text));
  const value = valid ? Number(text) : Number.NaN;
  if (Number.isSafeInteger(value) && value >= min && value <= max) return { value };
  return {
    error: `must be an integer from ${min} to ${max}${hex ? ' (decimal or 0x hex)' : ''}, got ${JSON.stringify(raw)}`,
  };
}

function readTier(raw: string): Read<Tier> {
  const read = integer(raw, 1, 4);
  return 'value' in read
    ? { value: read.value as Tier }
    : { error: `must be one of ${TIERS.join(', ')} (the tiled resources tier), got ${JSON.stringify(raw)}` };
}

/** `off` reads as no plant. */
function readPlant(raw: string): Read<Plant | undefined> {
  if (raw === 'off') return { value: undefined };
  return (PLANTS as readonly string[]).includes(raw)
    ? { value: raw as Plant }
    : { error: `must be ${PLANTS.join(' or ')} (or off), got ${JSON.stringify(raw)}` };
}

/**
 * Reads one run parameter from its text. `label` is how an error names it: `URL parameter ops`
 * on the page, `--ops` in the CLI.
 */
export function readRunParameter(
  name: RunParameterName,
  raw: string,
  label: string = name,
): Read<number | Plant | undefined> {
  const read: Read<number | Plant | undefined> = (() => {
    switch (name) {
      case 'seed':
        return integer(raw, 0, MAX_SEED, true);
      case 'seeds':
        return integer(raw, 1, MAX_SEEDS);
      case 'ops':
        return integer(raw, 1, MAX_OPS);
      case 'tier':
        return readTier(raw);
      case 'plant':
        return readPlant(raw);
    }
  })();
  return 'error' in read ? { error: `${label} ${read.error}` } : read;
}

/** Checks the parameters as a whole (each one already valid on its own). */
function crossCheck(parameters: RunParameters): string[] {
  const last = parameters.seed + parameters.seeds - 1;
  return last > MAX_SEED ? [`the last seed (seed + seeds - 1) must not exceed ${MAX_SEED}, got ${last}`] : [];
}

/**
 * Applies `entries` (name, text) over `defaults`: each known name once, each value checked. Unknown
 * names are errors too (a misspelt `opps=` would otherwise run the default quietly).
 */
export function parseRunEntries<T extends RunParameters>(
  entries: Iterable<[string, string]>,
  defaults: T,
  style: 'url' | 'flag',
  extra: Partial<Record<string, (raw: string, into: T) => string | undefined>> = {},
): Parsed<T> {
  const label = (name: string): string => (style === 'url' ? `URL parameter ${name}` : `--${name}`);
  const value: T = { ...defaults };
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const [name, raw] of entries) {
    if (seen.has(name)) {
      errors.push(`${label(name)} is given twice`);
      continue;
    }
    seen.add(name);
    const other = extra[name];
    if (other) {
      const error = other(raw, value);
      if (error) errors.push(error);
      continue;
    }
    if (!(RUN_PARAMETER_NAMES as readonly string[]).includes(name)) {
      const known = [...RUN_PARAMETER_NAMES, ...Object.keys(extra)].map((n) => (style === 'url' ? n : `--${n}`));
      errors.push(
        `${style === 'url' ? 'unknown URL parameter' : 'unknown flag'} ${style === 'url' ? JSON.stringify(name) : `--${name}`} (known: ${known.join(', ')})`,
      );
      continue;
    }
    const read = readRunParameter(name as RunParameterName, raw, label(name));
    if ('error' in read) errors.push(read.error);
    else if (read.value === undefined) delete value.plant;
    else (value as Record<string, unknown>)[name] = read.value;
  }
  if (errors.length === 0) errors.push(...crossCheck(value));
  return errors.length === 0 ? { ok: true, value } : { ok: false, errors };
}

/** The page's URL parameters: seed, seeds, ops, tier, plant, autostart (see DEFAULT_PARAMETERS). */
export function parsePageParameters(search: string | URLSearchParams): Parsed<PageParameters> {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  return parseRunEntries<PageParameters>(params.entries(), { ...DEFAULT_PARAMETERS }, 'url', {
    autostart: (raw, into) => {
      if (raw !== '0' && raw !== '1') return `URL parameter autostart must be 0 or 1, got ${JSON.stringify(raw)}`;
      into.autostart = raw === '1';
      return undefined;
    },
  });
}

/** The query string that runs `parameters` on the page (defaults left out; autostart=0 only if off). */
export function pageQuery(parameters: RunParameters & { autostart?: boolean }): string {
  const query = new URLSearchParams();
  query.set('seed', String(parameters.seed));
  if (parameters.seeds !== DEFAULT_PARAMETERS.seeds) query.set('seeds', String(parameters.seeds));
  query.set('ops', String(parameters.ops));
  query.set('tier', String(parameters.tier));
  if (parameters.plant) query.set('plant', parameters.plant);
  if (parameters.autostart === false) query.set('autostart', '0');
  return `?${query.toString()}`;
}

/** What the page lists for a mismatch, and what the replay link reruns: that one seed. */
export interface MismatchRow extends ValidationMismatch {
  replay: string;
}

const mentions = (mismatch: ValidationMismatch, name: string): boolean =>
  mismatch.operation === name || mismatch.check.includes(name) || mismatch.detail.includes(name);

/**
 * The mismatches of one result, plus a row for each failed scenario that no scenario mismatch names
 * (so a failure always shows and counts, whichever way the suite reports it).
 */
export function mismatchRows(
  result: ValidationResult,
  run: Pick<RunParameters, 'ops' | 'tier' | 'plant'>,
): MismatchRow[] {
  const replay = (seed: number): string =>
    pageQuery({ seed, seeds: 1, ops: run.ops, tier: run.tier, ...(run.plant ? { plant: run.plant } : {}) });
  const scenarioMismatches = result.mismatches.filter((m) => m.phase === 'scenarios');
  const unnamed = result.scenarios.filter((s) => !s.passed && !scenarioMismatches.some((m) => mentions(m, s.name)));
  return [
    ...result.mismatches.map((m) => ({ ...m, replay: replay(m.seed) })),
    ...unnamed.map((s) => ({
      seed: result.seed,
      phase: 'scenarios' as const,
      operationIndex: -1,
      operation: s.name,
      check: 'scenario',
      detail: s.detail ?? 'failed',
      replay: replay(result.seed),
    })),
  ];
}

export function mismatchCount(result: ValidationResult): number {
  return mismatchRows(result, { ops: 1, tier: 3 }).length;
}

export interface ValidationSummary {
  ops: number;
  bytesCompared: number;
  pagesValidated: number;
  mismatches: number;
}

export const EMPTY_SUMMARY: Readonly<ValidationSummary> = {
  ops: 0,
  bytesCompared: 0,
  pagesValidated: 0,
  mismatches: 0,
};

export function summarize(results: readonly ValidationResult[]): ValidationSummary {
  return results.reduce<ValidationSummary>(
    (sum, r) => ({
      ops: sum.ops + r.ops,
      bytesCompared: sum.bytesCompared + r.bytesCompared,
      pagesValidated: sum.pagesValidated + r.pagesValidated,
      mismatches: sum.mismatches + mismatchCount(r),
    }),
    { ...EMPTY_SUMMARY },
  );
}

export function addSummaries(summaries: readonly ValidationSummary[]): ValidationSummary {
  return summaries.reduce<ValidationSummary>(
    (sum, s) => ({
      ops: sum.ops + s.ops,
      bytesCompared: sum.bytesCompared + s.bytesCompared,
      pagesValidated: sum.pagesValidated + s.pagesValidated,
      mismatches: sum.mismatches + s.mismatches,
    }),
    { ...EMPTY_SUMMARY },
  );
}

/** The CLI's last line (the page shows the same): `validate: <ops> ops, <bytes> bytes compared, <n> mismatches`. */
export function formatSummaryLine(summary: Pick<ValidationSummary, 'ops' | 'bytesCompared' | 'mismatches'>): string {
  return `validate: ${summary.ops} ops, ${summary.bytesCompared} bytes compared, ${summary.mismatches} mismatches`;
}

/** One line per finished run: a seed of the differential run, or the scenarios. */
export function formatResultLine(target: string, result: ValidationResult, seconds: number): string {
  const what = result.scenarios.length > 0 && result.ops === 0 ? 'scenarios' : `seed ${result.seed}`;
  const scenarios =
    result.scenarios.length > 0
      ? `, ${result.scenarios.filter((s) => s.passed).length}/${result.scenarios.length} scenarios passed`
      : '';
  return `${target}: ${what}: ${result.ops} ops, ${result.bytesCompared} bytes compared, ${result.pagesValidated} pages validated${scenarios}, ${mismatchCount(result)} mismatches (${seconds.toFixed(1)} s)`;
}

/** A mismatch as one line of text (the CLI prints the first few of each run). */
export function formatMismatch(row: ValidationMismatch): string {
  const at = row.operationIndex >= 0 ? ` operation ${row.operationIndex}` : '';
  return `${row.phase} seed ${row.seed}${at} (${row.operation}): ${row.check}: ${row.detail}`;
}

/** The whole run's progress in [0, 1]: each seed one share, the scenarios one more. */
export function progressFraction(
  run: Pick<RunParameters, 'seeds'>,
  seedIndex: number,
  progress: Pick<ValidationProgress, 'phase' | 'opsDone' | 'opsTotal'> | undefined,
): number {
  const within = progress && progress.opsTotal > 0 ? Math.min(1, progress.opsDone / progress.opsTotal) : 0;
  const done = progress?.phase === 'scenarios' ? run.seeds + within : Math.min(seedIndex, run.seeds) + within;
  return Math.min(1, Math.max(0, done / (run.seeds + 1)));
}

/** What the page leaves in `window.validationState` for headless drivers (npm run validate, tests). */
export interface ValidationState {
  done: boolean;
  /** One per seed of the differential run, then the scenarios' result. */
  results: ValidationResult[];
  summary: ValidationSummary;
  adapter: AdapterSummary | null;
  error?: string;
  /** The run as parsed from the URL; absent when the URL was refused. */
  parameters?: PageParameters;
  /** The latest progress report of the run in flight. */
  progress?: ValidationProgress;
}

declare global {
  interface Window {
    validationState: ValidationState;
  }
}
