/**
 * The benchmark suite: the figures in order, run one after another on one raw device, into one
 * SuiteResult (the JSON written to bench/results/, with every raw sample). Runs in the browser
 * (bench/browser/) and in Node.js (bench/node/) alike.
 */
import { formatAdapter, summarizeAdapter, type AdapterSummary } from '../../src/index.js';
import type { BenchContext, Figure, FigureRunner } from './figure.js';
import { indirectionCost } from './indirection-cost.js';
import { pagingThroughput } from './paging-throughput.js';
import { policyQuality } from './policy-quality.js';
import { residencyOverhead } from './residency-overhead.js';
import { tileMappingRate } from './tile-mapping-rate.js';
import { tileValidation } from './tile-validation.js';

export const FIGURES: readonly { id: string; run: FigureRunner }[] = [
  { id: 'paging-throughput', run: pagingThroughput },
  { id: 'indirection-cost', run: indirectionCost },
  { id: 'tile-mapping-rate', run: tileMappingRate },
  { id: 'residency-overhead', run: residencyOverhead },
  { id: 'policy-quality', run: policyQuality },
  { id: 'tile-validation', run: tileValidation },
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
  quick: boolean;
  figures: Figure[];
  /** Figures that threw, with the message: a broken figure must not hide the others. */
  failures: { id: string; error: string }[];
  seconds: number;
}

export async function runSuite(context: BenchContext & { runtime: SuiteResult['runtime']; commit: string; host: string; only?: readonly string[] }): Promise<SuiteResult> {
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
    quick: context.quick,
    figures: [],
    failures: [],
    seconds: 0,
  };
  const selected = FIGURES.filter((f) => !context.only || context.only.includes(f.id));
  for (const [i, figure] of selected.entries()) {
    context.progress(`[${i + 1}/${selected.length}] ${figure.id}…`);
    const figureStart = performance.now();
    try {
      result.figures.push(await figure.run(context));
      context.progress(`[${i + 1}/${selected.length}] ${figure.id} done in ${((performance.now() - figureStart) / 1000).toFixed(1)} s`);
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      result.failures.push({ id: figure.id, error: message });
      context.progress(`[${i + 1}/${selected.length}] ${figure.id} FAILED: ${message}`);
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
  const clean = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  const vendor = clean(result.adapter.vendor) || 'unknown';
  let model = clean(result.adapter.architecture) || clean(result.adapter.device) || 'unknown';
  if (model.startsWith(`${vendor}-`)) model = model.slice(vendor.length + 1);
  return `${result.runtime}-${vendor}-${model}`;
}
