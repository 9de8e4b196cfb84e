/**
 * The benchmark suite: the figures in order, run one after another on one raw device, into one
 * SuiteResult (the JSON written to bench/results/, with every raw sample). Runs in the browser
 * (the benchmark page, demo/bench/) and in Node.js (bench/node/) alike.
 */
import { formatAdapter, summarizeAdapter, type AdapterSummary } from '../../src/index.js';
import type { BenchContext, Figure, FigureRunner } from './figure.js';
import { indirectionCost } from './indirection-cost.js';
import { pagingThroughput } from './paging-throughput.js';
import { policyQuality } from './policy-quality.js';
import { residencyOverhead } from './residency-overhead.js';
import { sceneFrameTime } from './scene-frame-time.js';
import { tileMappingRate } from './tile-mapping-rate.js';
import { submitOverhead } from './submit-overhead.js';
import { textureSample } from './texture-sample.js';
import { tileStreaming } from './tile-streaming.js';
import { tileValidation } from './tile-validation.js';

/** `browserOnly`: left out of Node runs unless named (the figure runs the demo's pages). */
export const FIGURES: readonly { id: string; run: FigureRunner; browserOnly?: boolean }[] = [
  { id: 'paging-throughput', run: pagingThroughput },
  { id: 'indirection-cost', run: indirectionCost },
  { id: 'tile-mapping-rate', run: tileMappingRate },
  { id: 'residency-overhead', run: residencyOverhead },
  { id: 'policy-quality', run: policyQuality },
  { id: 'tile-validation', run: tileValidation },
  { id: 'tile-streaming', run: tileStreaming },
  { id: 'submit-overhead', run: submitOverhead },
  { id: 'texture-sample', run: textureSample },
  { id: 'scene-frame-time', run: sceneFrameTime, browserOnly: true },
];

export interface SuiteResult {
  /** 'browser' (headless Chromium) or 'node' (Dawn). */
  runtime: 'browser' | 'node';
  /** The commit the benchmark was built from, '+dirty' when the tree had changes. */
  commit: string;
  date: string;
  adapter: AdapterSummary;
  adapterText: string;
  /** navigator.userAgent or `node <version>`. */
  host: string;
  timestampQuery: boolean;
  /**
   * Browser runs: whether the page was cross-origin isolated. Without isolation Chromium coarsens
   * performance.now() to 100 µs, and sub-millisecond samples (a 1 MiB restore) are quantized.
   */
  crossOriginIsolated?: boolean;
  quick: boolean;
  figures: Figure[];
  /** Figures that threw, with the message: a broken figure must not hide the others. */
  failures: { id: string; error: string }[];
  seconds: number;
}

/** A figure starting, finishing or failing, for pages that show the suite's progress per figure. */
export type FigureEvent =
  | { id: string; state: 'running' }
  | { id: string; state: 'done'; seconds: number; figure: Figure }
  | { id: string; state: 'failed'; seconds: number; error: string };

export type SuiteOptions = BenchContext & {
  runtime: SuiteResult['runtime'];
  commit: string;
  host: string;
  only?: readonly string[];
  crossOriginIsolated?: boolean;
  onFigure?: (event: FigureEvent) => void;
};

export async function runSuite(context: SuiteOptions): Promise<SuiteResult> {
  const start = performance.now();
  const adapter = summarizeAdapter(context.gpuDevice.adapterInfo);
  const result: SuiteResult = {
    runtime: context.runtime,
    commit: context.commit,
    date: new Date().toISOString(),
    adapter,
    adapterText: formatAdapter(adapter),
    host: context.host,
    timestampQuery: context.gpuDevice.features.has('timestamp-query'),
    ...(context.crossOriginIsolated !== undefined ? { crossOriginIsolated: context.crossOriginIsolated } : {}),
    quick: context.quick,
    figures: [],
    failures: [],
    seconds: 0,
  };
  const unknown = (context.only ?? []).filter((id) => !FIGURES.some((f) => f.id === id));
  if (unknown.length > 0)
    throw new Error(`runSuite: unknown figure ${unknown.join(', ')} (figures: ${FIGURES.map((f) => f.id).join(', ')})`);
  const selected = FIGURES.filter((f) =>
    context.only ? context.only.includes(f.id) : !(f.browserOnly && context.runtime === 'node'),
  );
  for (const [i, figure] of selected.entries()) {
    context.progress(`[${i + 1}/${selected.length}] ${figure.id}…`);
    context.onFigure?.({ id: figure.id, state: 'running' });
    const figureStart = performance.now();
    const seconds = () => (performance.now() - figureStart) / 1000;
    try {
      const done = await figure.run(context);
      result.figures.push(done);
      context.progress(`[${i + 1}/${selected.length}] ${figure.id} done in ${seconds().toFixed(1)} s`);
      context.onFigure?.({ id: figure.id, state: 'done', seconds: seconds(), figure: done });
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      result.failures.push({ id: figure.id, error: message });
      context.progress(`[${i + 1}/${selected.length}] ${figure.id} FAILED: ${message}`);
      context.onFigure?.({ id: figure.id, state: 'failed', seconds: seconds(), error: message });
    }
  }
  result.seconds = (performance.now() - start) / 1000;
  return result;
}

/**
 * The file stem for a result: runtime, vendor and architecture, or the device where the adapter
 * names no architecture (NVIDIA's Vulkan driver under Dawn: "nvidia-h200"), e.g. node-nvidia-h200.
 */
export function resultStem(result: Pick<SuiteResult, 'runtime' | 'adapter'>): string {
  const clean = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
  const vendor = clean(result.adapter.vendor) || 'unknown';
  let model = clean(result.adapter.architecture) || clean(result.adapter.device) || 'unknown';
  if (model.startsWith(`${vendor}-`)) model = model.slice(vendor.length + 1);
  return `${result.runtime}-${vendor}-${model}`;
}

/** The file a result is written to in bench/results/ (and downloaded as from the bench page). */
export function resultFileName(result: Pick<SuiteResult, 'runtime' | 'adapter' | 'quick'>): string {
  return `${resultStem(result)}${result.quick ? '-quick' : ''}.json`;
}

/** The bytes of a result file: the same from Node (writeResult) and the bench page's download. */
export function serializeResult(result: SuiteResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}

/** Whether parsed JSON is a SuiteResult (the shape the report tool reads), with the reason if not. */
export function checkSuiteResult(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return 'not an object';
  const r = value as Partial<Record<keyof SuiteResult, unknown>>;
  if (r.runtime !== 'browser' && r.runtime !== 'node') return 'runtime is neither "browser" nor "node"';
  if (typeof r.adapterText !== 'string' || typeof r.adapter !== 'object' || r.adapter === null)
    return 'adapter missing';
  if (!Array.isArray(r.figures)) return 'figures is not an array';
  for (const f of r.figures as Partial<Figure>[]) {
    if (typeof f.id !== 'string' || !Array.isArray(f.rows)) return 'a figure has no id or rows';
    for (const row of f.rows)
      if (typeof row.case !== 'string' || typeof row.value !== 'number' || !Array.isArray(row.samples))
        return `figure ${f.id}: a row has no case, value or samples`;
  }
  if (!Array.isArray(r.failures)) return 'failures is not an array';
  return null;
}
