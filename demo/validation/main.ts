/**
 * The validation page: on this browser's GPU, the differential run for seeds [seed, seed + seeds)
 * with `ops` operations each, then the conformance scenarios (src/validate/). Progress, counters,
 * the adapter, and each mismatch with a replay link. URL parameters and the state left in
 * `window.validationState` for headless drivers: validate/validation-logic.ts.
 */
import { formatAdapter, summarizeAdapter } from '../../src/index.js';
import { openWebGPU, watchDeviceLoss } from '../common/webgpu-access.js';
import {
  runDifferential,
  runScenarios,
  type ValidationProgress,
  type ValidationResult,
} from '../../src/validate/index.js';
import { button, section, StatTable } from '../common/panel.js';
import { meta } from './meta.js';
import {
  DEFAULT_PARAMETERS,
  EMPTY_SUMMARY,
  formatSummaryLine,
  mismatchRows,
  pageQuery,
  parsePageParameters,
  progressFraction,
  summarize,
  type PageParameters,
  type ValidationState,
} from '../../validate/validation-logic.js';
import { element, sceneHeader } from '../common/dom.js';

/** Rows the mismatch table shows; the rest stay in window.validationState. */
const MAX_ROWS = 200;

function layout() {
  const header = sceneHeader(meta);
  const main = element('main', 'scene-main validation-main');
  const report = element('div', 'validation-report');
  const panel = element('aside', 'panel');
  main.append(report, panel);
  document.body.append(header, main);

  const runBox = section(report, 'Run');
  const parameters = element('p', 'validation-parameters');
  const bar = Object.assign(element('progress'), { id: 'validation-progress', max: 1, value: 0 });
  const status = Object.assign(element('p', 'validation-status', 'Starting WebGPU…'), { id: 'validation-status' });
  runBox.append(parameters, bar, status);
  const stats = new StatTable(runBox, [
    'phase',
    'seed',
    'operations',
    'bytes compared',
    'pages validated',
    'mismatches',
    'elapsed',
  ]);
  const summaryLine = Object.assign(element('p', 'validation-summary'), { id: 'validation-summary' });
  runBox.append(summaryLine);
  const mismatchBox = section(report, 'Mismatches');
  const table = Object.assign(element('table', 'validation-mismatches'), { id: 'validation-mismatches' });
  const head = table.createTHead().insertRow();
  for (const name of ['seed', 'phase', 'operation #', 'operation', 'check', 'detail', ''])
    head.append(element('th', undefined, name));
  const body = table.createTBody();
  const more = element('p', 'legend');
  mismatchBox.append(table, more);
  const scenarios = Object.assign(element('ul', 'validation-scenarios'), { id: 'validation-scenarios' });
  section(report, 'Conformance scenarios').append(scenarios);
  const adapter = Object.assign(element('p', undefined, 'asking navigator.gpu…'), { id: 'validation-adapter' });
  section(panel, 'Adapter').append(adapter);
  const controls = section(panel, 'Parameters');
  return { parameters, bar, status, stats, summaryLine, body, more, scenarios, adapter, controls };
}

const ui = layout();
const state: ValidationState = { done: false, results: [], summary: { ...EMPTY_SUMMARY }, adapter: null };
window.validationState = state;

function setStatus(text: string, kind: 'running' | 'passed' | 'failed' | 'error' | 'waiting'): void {
  ui.status.textContent = text;
  ui.status.dataset.state = kind;
}

/** Ends the run with `error`; a run that failed (not a refused URL, shown on the page) also logs it. */
function fail(error: unknown, log = true): void {
  if (state.error) return;
  state.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  setStatus(state.error, 'error');
  if (log) console.error(`validation: ${state.error}`);
  state.done = true;
}

function showResult(result: ValidationResult, run: PageParameters): void {
  for (const row of mismatchRows(result, run)) {
    if (ui.body.rows.length >= MAX_ROWS) continue;
    const tr = ui.body.insertRow();
    for (const text of [
      row.seed,
      row.phase,
      row.operationIndex >= 0 ? row.operationIndex : '',
      row.operation,
      row.check,
      row.detail,
    ])
      tr.insertCell().textContent = String(text);
    tr.insertCell().append(Object.assign(element('a', undefined, 'replay'), { href: row.replay }));
  }
  const shown = ui.body.rows.length;
  ui.more.textContent =
    state.summary.mismatches > shown
      ? `… and ${state.summary.mismatches - shown} more (all in window.validationState)`
      : '';
  for (const scenario of result.scenarios) {
    const item = element('li', scenario.passed ? 'passed' : 'failed');
    item.append(
      element('span', 'mark', scenario.passed ? 'passed' : 'FAILED'),
      `${scenario.name}${scenario.detail ? `: ${scenario.detail}` : ''}`,
    );
    ui.scenarios.append(item);
  }
}

/** Shows the counters: those of the finished runs plus `progress` of the one in flight (none: finished). */
function showProgress(
  run: PageParameters,
  seedIndex: number,
  progress: ValidationProgress | undefined,
  started: number,
  finished = false,
): void {
  state.progress = progress;
  const live = progress
    ? {
        ops: progress.phase === 'differential' ? progress.opsDone : 0,
        bytes: progress.bytesCompared,
        mismatches: progress.mismatches,
      }
    : { ops: 0, bytes: 0, mismatches: 0 };
  ui.bar.value = finished ? 1 : progressFraction(run, seedIndex, progress);
  const phase =
    progress?.phase === 'scenarios' || seedIndex >= run.seeds
      ? `scenarios${progress?.scenario ? `: ${progress.scenario}` : ''}`
      : `differential (seed ${seedIndex + 1} of ${run.seeds})`;
  ui.stats.set({
    phase: finished ? 'finished' : phase,
    seed: String(progress?.seed ?? run.seed + Math.min(seedIndex, run.seeds - 1)),
    operations: `${state.summary.ops + live.ops} of ${run.seeds * run.ops}`,
    'bytes compared': (state.summary.bytesCompared + live.bytes).toLocaleString('en'),
    'pages validated': state.summary.pagesValidated.toLocaleString('en'),
    mismatches: String(state.summary.mismatches + live.mismatches),
    elapsed: `${((performance.now() - started) / 1000).toFixed(1)} s`,
  });
}

async function run(params: PageParameters): Promise<void> {
  const started = performance.now();
  setStatus('Running…', 'running');
  const gpuDevice = await openWebGPU();
  gpuDevice.addEventListener('uncapturederror', (event) => fail(new Error(`WebGPU error: ${event.error.message}`)));
  watchDeviceLoss(gpuDevice, (message) => fail(new Error(message)));
  state.adapter = summarizeAdapter(gpuDevice.adapterInfo);
  ui.adapter.textContent = formatAdapter(state.adapter);
  const plant = params.plant ? { plant: params.plant } : {};
  const record = (result: ValidationResult): void => {
    state.results.push(result);
    state.summary = summarize(state.results);
    showResult(result, params);
  };
  for (let i = 0; i < params.seeds && !state.error; i++) {
    showProgress(params, i, undefined, started);
    const onProgress = (p: ValidationProgress): void => showProgress(params, i, p, started);
    record(
      await runDifferential({
        gpuDevice,
        seed: params.seed + i,
        ops: params.ops,
        tier: params.tier,
        onProgress,
        ...plant,
      }),
    );
  }
  if (!state.error)
    record(
      await runScenarios({
        gpuDevice,
        seed: params.seed,
        tier: params.tier,
        onProgress: (p) => showProgress(params, params.seeds, p, started),
        ...plant,
      }),
    );
  showProgress(params, params.seeds, undefined, started, true);
  gpuDevice.destroy();
  if (state.error) return;
  ui.summaryLine.textContent = formatSummaryLine(state.summary);
  if (state.summary.mismatches === 0) ui.more.textContent = 'None: every byte and every page-table entry matched.';
  const failed = state.summary.mismatches > 0;
  setStatus(
    failed
      ? `${state.summary.mismatches} ${state.summary.mismatches === 1 ? 'mismatch' : 'mismatches'}: the GPU does not see what the API was told`
      : 'Passed: the GPU saw every mapping and every byte as the CPU reference did.',
    failed ? 'failed' : 'passed',
  );
  state.done = true;
}

function controls(params: PageParameters): void {
  const form = element('form', 'validation-form');
  const field = (name: string, value: string, options?: string[]): void => {
    const label = element('label', 'control', `${name} `);
    const input = options ? element('select') : Object.assign(element('input'), { value, size: 8 });
    input.name = name;
    for (const option of options ?? [])
      input.append(Object.assign(element('option', undefined, option), { value: option, selected: option === value }));
    label.append(input);
    form.append(label);
  };
  field('seed', String(params.seed));
  field('seeds', String(params.seeds));
  field('ops', String(params.ops));
  field('tier', String(params.tier), ['1', '2', '3', '4']);
  field('plant', params.plant ?? 'off', ['off', 'corrupt-entry', 'drop-write']);
  form.append(Object.assign(element('button', undefined, 'Run'), { type: 'submit' }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const fields = [...form.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select')];
    const query = new URLSearchParams(
      fields.filter((f) => !(f.name === 'plant' && f.value === 'off')).map((f) => [f.name, f.value]),
    );
    location.search = query.toString();
  });
  ui.controls.append(form);
}

const parsed = parsePageParameters(location.search);
if (!parsed.ok) {
  fail(
    new Error(
      `this page's URL is not valid: ${parsed.errors.join('; ')} (the defaults: ${pageQuery(DEFAULT_PARAMETERS)})`,
    ),
    false,
  );
} else {
  const params = parsed.value;
  state.parameters = params;
  const last = params.seed + params.seeds - 1;
  ui.parameters.textContent = `${params.seeds > 1 ? `seeds ${params.seed}–${last}` : `seed ${params.seed}`}, ${params.ops} operations${params.seeds > 1 ? ' each' : ''}, tier ${params.tier}${params.plant ? `, planted fault: ${params.plant}` : ''}`;
  controls(params);
  const start = (): void => void run(params).catch(fail);
  if (params.autostart) start();
  else {
    setStatus('Waiting: press Start.', 'waiting');
    const startButton = button(ui.controls, 'Start', () => {
      startButton.disabled = true;
      start();
    });
    startButton.id = 'validation-start';
  }
}
