/**
 * The benchmark page: the suite of bench/suite/ on this browser's WebGPU adapter. From the top: the
 * verdict (each figure's progress, then its ratios against its target), every sample charted as it
 * arrives in a grid of charts (the paging stream as GB/s over time), the results table (beside the
 * ratios of committed reference results), a side-by-side report, and the run as JSON in the
 * bench/results format. URL parameters: bench-params.ts. `npm run bench` drives this same page
 * headless (run=1&collect=1); the state is left in `window.benchState` for puppeteer too.
 */
import { formatAdapter, summarizeAdapter } from '../../src/index.js';
import { openWebGPU, watchDeviceLoss } from '../common/webgpu-access.js';
import { renderReportHtml } from '../../bench/report/render-report.js';
import type { LiveEvent } from '../../bench/suite/figure.js';
import {
  FIGURES,
  resultFileName,
  runSuite,
  serializeResult,
  type FigureEvent,
  type SuiteResult,
} from '../../bench/suite/suite.js';
import { section } from '../common/panel.js';
import { benchQuery, parseBenchParameters, type BenchPageParameters } from './bench-params.js';
import { meta } from './meta.js';
import { committedStems, defaultReferenceStems, loadCommitted, parseResultFile, type Reference } from './references.js';
import { RESULT_COLUMNS, resultLabel, resultLines } from './results-table.js';
import { GrowingChart } from './sample-chart.js';
import { VerdictList } from './verdict-list.js';
import { element, sceneHeader } from '../common/dom.js';

export type FigureState = 'waiting' | 'running' | 'done' | 'failed';

export interface BenchPageState {
  progress: string[];
  figures: Record<string, FigureState>;
  /** Live samples and stream points charted so far. */
  charted: number;
  result?: SuiteResult;
  error?: string;
  done: boolean;
  /** What the download button saves: the file name and its text. */
  download?: { name: string; text: string };
}

declare global {
  interface Window {
    benchState: BenchPageState;
  }
}

const FIGURE_IDS = FIGURES.map((f) => f.id);
const state: BenchPageState = { progress: [], figures: {}, charted: 0, done: false };
window.benchState = state;

/**
 * The page's parts, in reading order: the verdict (with what ran, where, the status and the run's
 * actions) beside the run parameters, then the charts and the results (the references that give
 * its ratio columns, the table, the side-by-side report) across the full width; bench.css lays it out.
 */
function layout() {
  const header = sceneHeader(meta);
  const main = element('main', 'scene-main bench-main');
  document.body.append(header, main);

  const verdictBox = Object.assign(section(main, 'Verdict'), { id: 'bench-verdict' });
  verdictBox.classList.add('bench-verdict');
  // What ran, on the heading's line.
  const parameters = element('span', 'bench-parameters');
  verdictBox.querySelector('h2')?.append(parameters);
  const adapter = Object.assign(element('p', 'bench-adapter', 'asking navigator.gpu…'), { id: 'bench-adapter' });
  const status = Object.assign(element('p', 'bench-status', 'Starting…'), { id: 'bench-status' });
  const download = Object.assign(element('button', undefined, 'Download JSON'), {
    id: 'bench-download',
    type: 'button' as const,
    disabled: true,
  });
  const link = Object.assign(element('a', undefined, 'link to this run'), { id: 'bench-link' });
  const runLine = element('div', 'bench-run-line');
  runLine.append(status, download, link);
  const figureList = Object.assign(element('ul', 'bench-figures'), { id: 'bench-figures' });
  verdictBox.append(adapter, runLine, figureList);

  const panel = element('aside', 'panel bench-panel');
  main.append(panel);
  const form = section(panel, 'Run parameters');

  const chartsBox = section(main, 'Samples as they arrive');
  chartsBox.classList.add('bench-charts-box');
  // The chart legends name each case's colour once: how its two sides are drawn is said here.
  chartsBox
    .querySelector('h2')
    ?.append(
      element(
        'span',
        'bench-heading-note',
        "each figure's samples in the order measured; solid: measured, dashed: baseline",
      ),
    );
  const charts = Object.assign(element('div', 'bench-charts'), { id: 'bench-charts' });
  chartsBox.append(charts);

  const resultsBox = section(main, 'Results');
  resultsBox.classList.add('bench-results-box');
  // The references choose the table's ratio columns and the side-by-side report's columns: on the heading's line.
  const refBox = element('span', 'bench-references');
  refBox.append(element('span', 'bench-references-label', 'beside the references'));
  resultsBox.querySelector('h2')?.append(refBox);
  // Wide tables scroll sideways in their box rather than wrapping their numbers.
  const scroll = element('div', 'bench-table-scroll');
  const table = Object.assign(element('table', 'bench-results'), { id: 'bench-results' });
  scroll.append(table);
  const iframe = Object.assign(element('iframe', 'bench-side-by-side'), {
    id: 'bench-side-by-side',
    title: 'this run beside the references',
  });
  resultsBox.append(scroll, sideBySide(iframe));
  return {
    parameters,
    status,
    figures: new VerdictList(figureList),
    charts,
    table,
    iframe,
    adapter,
    form,
    refBox,
    download,
    link,
  };
}

/**
 * The side-by-side report, folded: it is as tall as most of the page, and the table above already
 * has every reference's ratio; opened, it draws each result in full.
 */
function sideBySide(iframe: HTMLIFrameElement): HTMLElement {
  const box = element('details', 'bench-side');
  box.append(
    element(
      'summary',
      undefined,
      'Beside the references, drawn: this run and each reference checked above, as the report tool draws them',
    ),
    iframe,
  );
  return box;
}

const ui = layout();
let references: Reference[] = [];
let shownReferences = new Set<string>();
const finished: SuiteResult['figures'] = [];

function setStatus(text: string, kind: 'waiting' | 'running' | 'passed' | 'failed' | 'error'): void {
  ui.status.textContent = text;
  ui.status.dataset.state = kind;
}

/** Sends progress and the result to the runner that serves the page (collect=1), in order. */
let posting: Promise<unknown> = Promise.resolve();
function post(collect: boolean, path: 'progress' | 'result', body: string): void {
  if (!collect) return;
  posting = posting.then(() =>
    fetch(`/__bench/${path}`, {
      method: 'POST',
      body,
      headers: { 'content-type': path === 'result' ? 'application/json' : 'text/plain' },
    }).catch(() => undefined),
  );
}

function browserName(): string {
  const match = /(HeadlessChrome|Chrome|Chromium|Edg|Firefox|Version)\/([\d.]+)/.exec(navigator.userAgent);
  return match ? `${match[1] === 'Version' ? 'Safari' : match[1]} ${match[2]}` : navigator.userAgent;
}

function renderTable(): void {
  const shown = references.filter((r) => shownReferences.has(r.stem));
  ui.table.replaceChildren();
  const head = ui.table.createTHead().insertRow();
  for (const name of [...RESULT_COLUMNS, ...shown.map((r) => `ratio, ${resultLabel(r.result)}`)])
    head.append(element('th', undefined, name));
  const body = ui.table.createTBody();
  let previous = '';
  for (const line of resultLines(
    finished,
    shown.map((r) => r.result),
  )) {
    const tr = body.insertRow();
    tr.dataset.verdict = line.verdict;
    // A figure's rows read as one group: a rule above its first row, its name dimmed below that.
    tr.classList.add(line.figureId === previous ? 'same-figure' : 'new-figure');
    previous = line.figureId;
    const cells: [string, string][] = [
      [line.figure, 'figure'],
      [line.case, 'case'],
      [line.measured, 'num'],
      [line.baseline, 'num'],
      [line.ratio, 'num'],
      [line.target, 'target'],
      [line.verdict, 'met'],
      ...line.references.map((text): [string, string] => [text, 'num']),
    ];
    for (const [text, kind] of cells) {
      const td = tr.insertCell();
      td.textContent = text;
      td.className = kind;
      // The figure and target cells are cut to their column: the whole text on hover.
      if (kind === 'figure' || kind === 'target') td.title = text;
    }
  }
}

function renderSideBySide(): void {
  const shown = references.filter((r) => shownReferences.has(r.stem)).map((r) => r.result);
  const results = state.result ? [state.result, ...shown] : shown;
  ui.iframe.srcdoc =
    results.length > 0
      ? renderReportHtml(results, state.result ? 'this run beside the references' : 'the references')
      : '<p style="color:#9aa5b1;font:14px system-ui">No run and no reference yet.</p>';
}

function referenceControls(params: BenchPageParameters): void {
  const box = element('span', 'bench-reference-list');
  ui.refBox.append(box);
  const redraw = (): void => {
    box.replaceChildren();
    for (const ref of references) {
      const label = element('label', 'control switch');
      const input = Object.assign(element('input'), {
        type: 'checkbox',
        checked: shownReferences.has(ref.stem),
        value: ref.stem,
      });
      input.addEventListener('change', () => {
        if (input.checked) shownReferences.add(ref.stem);
        else shownReferences.delete(ref.stem);
        renderTable();
        renderSideBySide();
      });
      label.append(input, ` ${ref.stem}`);
      label.title = `${ref.stem}: commit ${ref.result.commit}, ${ref.result.date.slice(0, 10)}`;
      box.append(label);
    }
  };
  const file = Object.assign(element('input'), { type: 'file', accept: '.json,application/json', id: 'bench-load' });
  file.addEventListener('change', () => {
    const picked = file.files?.[0];
    if (!picked) return;
    void picked.text().then((text) => {
      try {
        const ref = parseResultFile(picked.name, text);
        references = [...references.filter((r) => r.stem !== ref.stem), ref];
        shownReferences.add(ref.stem);
        redraw();
        renderTable();
        renderSideBySide();
      } catch (error) {
        setStatus(error instanceof Error ? error.message : String(error), 'error');
      }
    });
  });
  const loadLabel = element('label', 'control bench-load', 'load a result file: ');
  loadLabel.append(file);
  ui.refBox.append(loadLabel);
  void loadCommitted().then(({ references: loaded, errors }) => {
    references = loaded;
    shownReferences = new Set(params.references ?? defaultReferenceStems(loaded));
    const known = committedStems();
    for (const stem of params.references ?? [])
      if (!known.includes(stem))
        setStatus(`ref: no committed result ${stem} (committed: ${known.join(', ') || 'none'})`, 'error');
    if (errors.length > 0) console.warn(errors.join('; '));
    redraw();
    renderTable();
    renderSideBySide();
  });
}

function runControls(params: BenchPageParameters): void {
  const form = element('form', 'bench-form');
  const choices = element('div', 'bench-figure-choices');
  for (const id of FIGURE_IDS) {
    const label = element('label', 'control switch');
    label.append(
      Object.assign(element('input'), {
        type: 'checkbox',
        name: 'figure',
        value: id,
        checked: !params.figures || params.figures.includes(id),
      }),
      ` ${id}`,
    );
    choices.append(label);
  }
  form.append(choices);
  const quick = Object.assign(element('input'), { type: 'checkbox', name: 'quick', checked: params.quick });
  const quickLabel = element('label', 'control switch');
  quickLabel.append(quick, ' quick (smoke sizes, not a measurement)');
  const field = (name: string, text: string, value: string, placeholder: string): HTMLInputElement => {
    const label = element('label', 'control', `${text} `);
    const input = Object.assign(element('input'), { name, value, placeholder, size: 10 });
    label.append(input);
    form.append(label);
    return input;
  };
  form.append(quickLabel);
  const paging = field('pagingMiB', 'paging sizes (MiB)', params.pagingMiB?.join(',') ?? '', 'default 1,16,64');
  const stream = field(
    'streamSeconds',
    'stream (s)',
    params.streamSeconds === null ? '' : String(params.streamSeconds),
    'default 4',
  );
  form.append(Object.assign(element('button', undefined, 'Run'), { type: 'submit', id: 'bench-run' }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const picked = [...form.querySelectorAll<HTMLInputElement>('input[name="figure"]:checked')].map((i) => i.value);
    const next = new URLSearchParams(
      benchQuery({
        ...params,
        figures: picked.length === FIGURE_IDS.length ? null : picked,
        quick: quick.checked,
        pagingMiB: null,
        streamSeconds: null,
        references: [...shownReferences],
        autostart: true,
        collect: false,
      }),
    );
    if (paging.value.trim()) next.set('pagingMiB', paging.value.trim());
    if (stream.value.trim()) next.set('streamSeconds', stream.value.trim());
    location.search = next.toString().replace(/%2C/g, ',');
  });
  ui.form.append(form);
}

function liveCharts(): (event: LiveEvent) => void {
  const charts = new Map<string, GrowingChart>();
  return (event) => {
    const key = event.kind === 'sample' ? event.figure : `${event.figure}: stream`;
    let chart = charts.get(key);
    if (!chart) {
      const box = element('div', 'bench-chart');
      box.dataset.chart = key;
      ui.charts.append(box);
      chart =
        event.kind === 'sample'
          ? new GrowingChart(box, `${event.figure} (${event.unit})`, event.unit, 'sample', false)
          : new GrowingChart(box, `${event.figure}: GB/s over time (stalls show as dips)`, event.unit, 'seconds', true);
      charts.set(key, chart);
    }
    if (event.kind === 'sample') {
      // x: the sample's number within its figure.
      chart.add(
        `${event.case} · ${event.side}`,
        chart.pointCount + 1,
        event.value,
        event.case,
        event.side === 'baseline',
      );
    } else {
      chart.add(event.series, event.x, event.y);
    }
    state.charted++;
  };
}

async function run(params: BenchPageParameters): Promise<void> {
  const started = performance.now();
  const ids = params.figures ?? FIGURE_IDS;
  ui.figures.add(ids);
  for (const id of ids) state.figures[id] = 'waiting';
  const progress = (message: string): void => {
    const line = `${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s  ${message}`;
    state.progress.push(line);
    setStatus(message, 'running');
    post(params.collect, 'progress', line);
  };
  const onFigure = (event: FigureEvent): void => {
    state.figures[event.id] = event.state;
    ui.figures.progress(event);
    if (event.state === 'done') {
      finished.push(event.figure);
      renderTable();
    }
  };
  const gpuDevice = await openWebGPU();
  watchDeviceLoss(gpuDevice, (message) => fail(params.collect, new Error(message)));
  ui.adapter.textContent = `${formatAdapter(summarizeAdapter(gpuDevice.adapterInfo))} · ${browserName()} · timestamp queries ${gpuDevice.features.has('timestamp-query') ? 'yes' : 'no'} · timers ${self.crossOriginIsolated ? '5 µs (cross-origin isolated)' : '100 µs (not cross-origin isolated: sub-millisecond samples are coarse)'}`;
  const paging = {
    ...(params.pagingMiB ? { sizesMiB: params.pagingMiB } : {}),
    ...(params.streamSeconds !== null ? { streamSeconds: params.streamSeconds } : {}),
  };
  const result = await runSuite({
    gpuDevice,
    quick: params.quick,
    runtime: 'browser',
    commit: params.commit,
    host: navigator.userAgent,
    crossOriginIsolated: self.crossOriginIsolated,
    ...(params.figures ? { only: params.figures } : {}),
    paging,
    progress,
    live: liveCharts(),
    onFigure,
  });
  gpuDevice.destroy();
  state.result = result;
  state.download = { name: resultFileName(result), text: serializeResult(result) };
  ui.download.disabled = false;
  renderSideBySide();
  const misses = resultLines(result.figures, []).filter((l) => l.verdict === 'misses').length;
  progress('done');
  setStatus(
    result.failures.length > 0
      ? `done in ${result.seconds.toFixed(0)} s; ${result.failures.length} figure(s) failed`
      : `done in ${result.seconds.toFixed(0)} s; ${misses} row(s) miss their target`,
    result.failures.length > 0 ? 'failed' : 'passed',
  );
  post(params.collect, 'result', state.download.text);
  state.done = true;
}

/** Ends the page's run with `error`; a runner that serves the page (collect) hears it too. */
function fail(collect: boolean, error: unknown): void {
  // A lost device fails the run once; the run's own rejection that follows adds nothing.
  if (state.error) return;
  state.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  setStatus(state.error, 'error');
  state.progress.push(`failed: ${state.error}`);
  post(collect, 'result', JSON.stringify({ error: state.error }));
  state.done = true;
}

ui.download.addEventListener('click', () => {
  if (!state.download) return;
  const url = URL.createObjectURL(new Blob([state.download.text], { type: 'application/json' }));
  const anchor = Object.assign(element('a'), { href: url, download: state.download.name });
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
});

const parsed = parseBenchParameters(location.search, FIGURE_IDS);
if (!parsed.ok) {
  // An invalid URL still reaches a runner that asked to collect, so it fails at once with the reason.
  fail(
    new URLSearchParams(location.search).get('collect') === '1',
    new Error(`this page's URL is not valid: ${parsed.errors.join('; ')}`),
  );
} else {
  const params = parsed.value;
  ui.parameters.textContent = `${params.figures ? params.figures.join(', ') : 'every figure'}${params.quick ? ', quick' : ''}${params.pagingMiB ? `, paging ${params.pagingMiB.join(', ')} MiB` : ''}${params.streamSeconds !== null ? `, ${params.streamSeconds} s stream` : ''}`;
  ui.link.href = `?${benchQuery({ ...params, autostart: true, collect: false })}`;
  runControls(params);
  referenceControls(params);
  // The adapter, before any run (a run replaces this with the device it got).
  void navigator.gpu?.requestAdapter().then((adapter) => {
    if (state.result || ui.adapter.textContent !== 'asking navigator.gpu…') return;
    ui.adapter.textContent = adapter
      ? `${formatAdapter(summarizeAdapter(adapter.info))} · ${browserName()}`
      : `WebGPU gave no adapter in this browser (${browserName()}): the GPU may be blocklisted or WebGPU switched off`;
  });
  if (!navigator.gpu)
    ui.adapter.textContent = `no WebGPU in this browser (${browserName()}): use a recent Chrome or Edge (on Linux with --enable-unsafe-webgpu)`;
  if (params.autostart) void run(params).catch((error: unknown) => fail(params.collect, error));
  else setStatus('Waiting: pick figures and press Run.', 'waiting');
}
