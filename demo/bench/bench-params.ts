/**
 * The benchmark page's URL parameters: a link reproduces a run (which figures, quick or full, the
 * paging sizes, the stream's length, the references drawn beside it), and `npm run bench` drives the
 * page with the same parameters. Pure, so unit tests cover every rule.
 *
 *   figures=id,id        the figures to run (default: all, in the suite's order)
 *   quick=1              smoke sizes and rounds: a check that the page works, not a measurement
 *   pagingMiB=1,16,64    heap sizes of the paging figure (positive multiples of 1/16 MiB = 64 KiB)
 *   streamSeconds=4      length of the evict/restore stream drawn as GB/s over time (0: none)
 *   ref=stem,stem|none   committed results drawn beside the run (default: the newest of each runtime and GPU vendor)
 *   run=1                start at once (headless drivers; people press Run)
 *   collect=1            POST progress and the result to /__bench/progress and /__bench/result
 *                        (bench/node/run-browser.ts serves the page and listens there)
 *   commit=sha           the commit recorded in the result (the runner passes the bundle's)
 */

export interface BenchPageParameters {
  /** Figure ids, or null for all. */
  figures: string[] | null;
  quick: boolean;
  pagingMiB: number[] | null;
  streamSeconds: number | null;
  /** Result file stems (e.g. node-nvidia-h200), null for every committed one, [] for none. */
  references: string[] | null;
  autostart: boolean;
  collect: boolean;
  commit: string;
}

export const DEFAULT_BENCH_PARAMETERS: BenchPageParameters = {
  figures: null,
  quick: false,
  pagingMiB: null,
  streamSeconds: null,
  references: null,
  autostart: false,
  collect: false,
  commit: 'unknown',
};

/** The longest stream the page accepts: the whole suite must stay within a headless run's minutes. */
export const MAX_STREAM_SECONDS = 120;
/** The largest paging heap: 4 GiB, beyond any adapter's maxBufferSize seen so far. */
export const MAX_PAGING_MIB = 4096;

const KNOWN = new Set(['figures', 'quick', 'pagingMiB', 'streamSeconds', 'ref', 'run', 'collect', 'commit']);

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: string[] };

function flag(params: URLSearchParams, name: string, errors: string[]): boolean {
  const value = params.get(name);
  if (value === null) return false;
  if (value !== '0' && value !== '1') errors.push(`${name} must be 0 or 1, not "${value}"`);
  return value === '1';
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function parseBenchParameters(search: string, figureIds: readonly string[]): Parsed<BenchPageParameters> {
  const params = new URLSearchParams(search);
  const errors: string[] = [];
  for (const name of params.keys())
    if (!KNOWN.has(name)) errors.push(`unknown parameter "${name}" (known: ${[...KNOWN].join(', ')})`);
  const value: BenchPageParameters = { ...DEFAULT_BENCH_PARAMETERS };
  const figures = params.get('figures');
  if (figures !== null) {
    const ids = list(figures);
    const unknown = ids.filter((id) => !figureIds.includes(id));
    if (ids.length === 0) errors.push('figures names no figure');
    if (unknown.length > 0) errors.push(`figures: unknown ${unknown.join(', ')} (figures: ${figureIds.join(', ')})`);
    // The suite's order, whatever order the link gives.
    value.figures = figureIds.filter((id) => ids.includes(id));
  }
  value.quick = flag(params, 'quick', errors);
  value.autostart = flag(params, 'run', errors);
  value.collect = flag(params, 'collect', errors);
  const paging = params.get('pagingMiB');
  if (paging !== null) {
    const sizes = list(paging).map(Number);
    const bad = sizes.filter(
      (mib) => !(Number.isFinite(mib) && mib > 0 && mib <= MAX_PAGING_MIB && Number.isInteger(mib * 16)),
    );
    if (sizes.length === 0) errors.push('pagingMiB names no size');
    if (bad.length > 0)
      errors.push(
        `pagingMiB: ${bad.join(', ')} is not a size in (0, ${MAX_PAGING_MIB}] MiB that is a multiple of 64 KiB (1/16 MiB)`,
      );
    value.pagingMiB = [...new Set(sizes)].sort((a, b) => a - b);
  }
  const stream = params.get('streamSeconds');
  if (stream !== null) {
    const seconds = Number(stream);
    if (stream.trim() === '' || !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_STREAM_SECONDS)
      errors.push(`streamSeconds must be a number of seconds in [0, ${MAX_STREAM_SECONDS}], not "${stream}"`);
    value.streamSeconds = seconds;
  }
  const ref = params.get('ref');
  if (ref !== null) value.references = ref === 'none' ? [] : list(ref);
  const commit = params.get('commit');
  if (commit !== null) {
    if (!/^[\w.+-]{1,64}$/.test(commit))
      errors.push(`commit must be a commit id (letters, digits, . + - _), not "${commit}"`);
    value.commit = commit;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value };
}

/** The query string that reproduces `params` (defaults left out), without the leading '?'. */
export function benchQuery(params: BenchPageParameters): string {
  const query = new URLSearchParams();
  if (params.figures) query.set('figures', params.figures.join(','));
  if (params.quick) query.set('quick', '1');
  if (params.pagingMiB) query.set('pagingMiB', params.pagingMiB.join(','));
  if (params.streamSeconds !== null) query.set('streamSeconds', String(params.streamSeconds));
  if (params.references) query.set('ref', params.references.length === 0 ? 'none' : params.references.join(','));
  if (params.autostart) query.set('run', '1');
  if (params.collect) query.set('collect', '1');
  if (params.commit !== DEFAULT_BENCH_PARAMETERS.commit) query.set('commit', params.commit);
  return query.toString().replace(/%2C/g, ',');
}
