/**
 * The benchmark page (demo/bench/) in the test browser, served by vite as `npm start` serves it: a
 * quick run of two figures (paging with its stream, and the manager's overhead) finishes with every
 * figure done, shows a results table with one line per figure row and a ratio column per committed
 * reference, charts the samples and the stream as they arrived, draws the run beside the references,
 * and its downloaded JSON is a bench/results file that the report tool reads and draws. At 1400 ×
 * 900 the finished page opens on its verdict (one entry per figure, as verdict.ts judges it), lays
 * its charts out in columns, keeps every number of the table on one line and is at most two and a
 * half screens tall; a quick run of every figure too, and its charts follow a narrow window into one
 * column. A URL that names an unknown figure is refused on the page.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { describe, expect, inject } from 'vitest';
import { renderReportHtml } from '../../../../bench/report/render-report.js';
import {
  checkSuiteResult,
  FIGURES as SUITE_FIGURES,
  resultFileName,
  type SuiteResult,
} from '../../../../bench/suite/suite.js';
import { markdownTable } from '../../../../bench/suite/table.js';
import type { BenchPageState } from '../../../../demo/bench/main.js';
import { figureVerdict } from '../../../../demo/bench/verdict.js';
import { browserTest } from '../../../harness/browser/browser-test.js';
import { expectQuickSceneFrameTime } from '../../../shared/scene-frame-time-checks.js';
import { SCREENSHOT_DIR } from './open-scene.js';

/** A quick run of every figure on SwiftShader, the scene pages' starts included. */
const RUN_TIMEOUT_MS = 400_000;
const FIGURES = ['paging-throughput', 'residency-overhead'];
const url = (query: string): string => `${inject('browserOrigin')}/demo/bench/index.html?${query}`;

/** The committed full results the page offers as references. */
const COMMITTED = readdirSync(join(process.cwd(), 'bench', 'results')).filter(
  (f) => f.endsWith('.json') && !f.endsWith('-quick.json'),
);
/** The references shown by default: the newest of each runtime and GPU vendor (demo/bench/references.ts). */
const SHOWN = (() => {
  const newest = new Map<string, { file: string; date: string }>();
  for (const file of COMMITTED) {
    const result = JSON.parse(readFileSync(join(process.cwd(), 'bench', 'results', file), 'utf8')) as {
      runtime: string;
      adapter: { vendor: string };
      date: string;
    };
    const kind = `${result.runtime} ${result.adapter.vendor}`;
    const seen = newest.get(kind);
    if (!seen || result.date > seen.date) newest.set(kind, { file, date: result.date });
  }
  return newest.size;
})();

/** A desktop screen: the page must open on its verdict and fit in MAX_SCREENS of these. */
const SCREEN = { width: 1400, height: 900 };
const MAX_SCREENS = 2.5;
/** Columns of the results table that hold numbers: measured, baseline, ratio, met, then one per reference. */
const NUMERIC_COLUMN = (index: number): boolean => index === 2 || index === 3 || index === 4 || index >= 6;

/** Where the finished page put things, measured in the browser. */
async function layoutOf(page: Page) {
  return page.evaluate(() => {
    const verdict = document.querySelector('#bench-verdict');
    const charts = document.querySelector('#bench-charts');
    const box = verdict?.getBoundingClientRect();
    const cells = [...document.querySelectorAll<HTMLElement>('#bench-charts .bench-chart')];
    // A cell's text, line by line: a Range has one client rect per line box the text wraps onto.
    const lines = (td: HTMLTableCellElement) => {
      const range = document.createRange();
      range.selectNodeContents(td);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      return {
        rects: rects.length,
        height: range.getBoundingClientRect().height,
        lineHeight: parseFloat(getComputedStyle(td).lineHeight),
      };
    };
    return {
      scrollHeight: document.documentElement.scrollHeight,
      verdictFirst:
        verdict !== null &&
        charts !== null &&
        (verdict.compareDocumentPosition(charts) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0,
      verdictTop: box ? box.top + scrollY : Number.NaN,
      verdictBottom: box ? box.bottom + scrollY : Number.NaN,
      entries: [...document.querySelectorAll<HTMLElement>('#bench-verdict [data-figure]')].map((e) => ({
        figure: e.dataset.figure,
        verdict: e.dataset.verdict,
      })),
      chartLefts: cells.map((c) => c.offsetLeft),
      // Each chart as wide as its grid cell.
      chartWidths: cells.map((c) => ({
        cell: c.clientWidth,
        plot: c.querySelector<HTMLElement>('.uplot')?.offsetWidth ?? 0,
      })),
      numericCells: [...document.querySelectorAll<HTMLTableRowElement>('#bench-results tbody tr')].flatMap((tr) =>
        [...tr.cells].map((td, column) => ({ column, text: td.textContent, ...lines(td) })),
      ),
    };
  });
}

/** The finished page at SCREEN: the verdict first and on the first screen, charts in columns, numbers unwrapped, the page short. */
function expectCompactPage(layout: Awaited<ReturnType<typeof layoutOf>>, result: SuiteResult): void {
  expect(layout.verdictFirst).toBe(true);
  expect(layout.verdictTop).toBeGreaterThanOrEqual(0);
  expect(layout.verdictTop).toBeLessThan(SCREEN.height);
  // Readable without scrolling: the whole verdict is on the first screen.
  expect(layout.verdictBottom).toBeLessThanOrEqual(SCREEN.height);
  // One entry per figure of the run, saying what verdict.ts says of that figure.
  expect(layout.entries).toEqual(result.figures.map((f) => ({ figure: f.id, verdict: figureVerdict(f).kind })));
  expect(layout.scrollHeight).toBeLessThanOrEqual(MAX_SCREENS * SCREEN.height);
  expect(new Set(layout.chartLefts).size).toBeGreaterThanOrEqual(2);
  for (const { cell, plot } of layout.chartWidths) expect(Math.abs(plot - cell)).toBeLessThanOrEqual(1);
  const numeric = layout.numericCells.filter((c) => NUMERIC_COLUMN(c.column) && c.text !== '');
  expect(numeric.length).toBeGreaterThan(0);
  for (const cell of numeric) {
    expect(cell, `column ${cell.column}: ${cell.text}`).toMatchObject({ rects: 1 });
    expect(cell.height, `column ${cell.column}: ${cell.text}`).toBeLessThanOrEqual(1.5 * cell.lineHeight);
  }
}

describe('the benchmark page', () => {
  browserTest(
    'a quick run: every figure done, a table row per figure row, live charts, the run beside the references, and a JSON download the report tool reads',
    async ({ openPage }) => {
      const page = await openPage(url(`figures=${FIGURES.join(',')}&quick=1&pagingMiB=1,2&streamSeconds=0.3&run=1`));
      await page.setViewport(SCREEN);
      await page.waitForFunction(() => window.benchState?.done, { timeout: RUN_TIMEOUT_MS, polling: 250 });
      const state: BenchPageState = await page.evaluate(() => window.benchState);
      expect(state.error).toBeUndefined();
      const result = state.result as SuiteResult;
      expect(checkSuiteResult(result)).toBeNull();
      expect(result.figures.map((f) => f.id)).toEqual(FIGURES);
      expect(result.failures).toEqual([]);
      expect(typeof result.crossOriginIsolated).toBe('boolean');
      expect(state.figures).toEqual(Object.fromEntries(FIGURES.map((id) => [id, 'done'])));
      const paging = result.figures[0];
      expect(paging?.rows.map((r) => r.case)).toEqual([
        'evict 1 MiB',
        'restore 1 MiB',
        'evict 2 MiB',
        'restore 2 MiB',
        'lazy evict + restore 2 MiB, kept',
        'lazy evict + restore 2 MiB, taken',
      ]);
      // The stream ran on the 2 MiB heap, one point per operation, for about 0.3 s.
      expect(paging?.series?.map((s) => s.name)).toEqual(['evict stream, 2 MiB', 'restore stream, 2 MiB']);
      for (const s of paging?.series ?? []) {
        expect(s.x.length).toBeGreaterThan(0);
        expect(s.x.length).toBe(s.y.length);
        expect(s.y.every((v) => v > 0 && Number.isFinite(v))).toBe(true);
      }
      const rows = result.figures.flatMap((f) => f.rows);
      const streamPoints = (paging?.series ?? []).reduce((n, s) => n + s.x.length, 0);
      // Every sample of every row (measured and baseline) and every stream point was charted live.
      expect(state.charted).toBe(
        rows.reduce((n, r) => n + r.samples.length + r.baselineSamples.length, 0) + streamPoints,
      );

      const shown = await page.evaluate(() => ({
        status: document.querySelector('#bench-status')?.getAttribute('data-state'),
        adapter: document.querySelector('#bench-adapter')?.textContent ?? '',
        head: [...document.querySelectorAll('#bench-results thead th')].map((th) => th.textContent),
        body: [...document.querySelectorAll<HTMLTableRowElement>('#bench-results tbody tr')].map((tr) =>
          [...tr.cells].map((td) => td.textContent),
        ),
        charts: [...document.querySelectorAll('#bench-charts .bench-chart')].map((c) => ({
          key: (c as HTMLElement).dataset.chart,
          canvas: c.querySelector('canvas') !== null,
        })),
        figures: [...document.querySelectorAll('#bench-figures li')].map((li) => (li as HTMLElement).dataset.state),
        sideBySide: document.querySelector<HTMLIFrameElement>('#bench-side-by-side')?.srcdoc ?? '',
        download: !document.querySelector<HTMLButtonElement>('#bench-download')?.disabled,
      }));
      expect(shown.status).toBe('passed');
      expect(shown.adapter).toContain(`vendor=${result.adapter.vendor}`);
      expect(shown.adapter).toMatch(/Chrome\/?\s?\d+/);
      expect(shown.figures).toEqual(['done', 'done']);
      expect(shown.head.slice(0, 7)).toEqual(['figure', 'case', 'measured', 'baseline', 'ratio', 'target', 'met']);
      // One ratio column per reference shown: by default the newest of each runtime and vendor.
      expect(SHOWN).toBeGreaterThan(0);
      expect(SHOWN).toBeLessThanOrEqual(COMMITTED.length);
      expect(shown.head.length).toBe(7 + SHOWN);
      expect(shown.body.map((cells) => cells[1])).toEqual(rows.map((r) => r.case));
      for (const cells of shown.body) expect(cells.length).toBe(7 + SHOWN);
      // The paging rows have a target: each says whether it is met.
      expect(shown.body.slice(0, 4).every((cells) => cells[6] === 'meets' || cells[6] === 'misses')).toBe(true);
      expect(shown.charts).toEqual([
        { key: 'paging-throughput', canvas: true },
        { key: 'paging-throughput: stream', canvas: true },
        { key: 'residency-overhead', canvas: true },
      ]);
      expect(shown.sideBySide).toContain('this run beside the references');
      expect(shown.sideBySide).toContain(result.adapterText.replace(/&/g, '&amp;'));
      expect(shown.download).toBe(true);

      // The download, as a user gets it: the browser saves the file into a folder.
      const folder = mkdtempSync(join(tmpdir(), 'bench-download-'));
      try {
        const cdp = await page.createCDPSession();
        // The test's own browser context (each test has one): downloads are allowed per context.
        await cdp.send('Browser.setDownloadBehavior', {
          behavior: 'allow',
          downloadPath: folder,
          ...(page.browserContext().id ? { browserContextId: page.browserContext().id } : {}),
        });
        await page.click('#bench-download');
        const name = resultFileName(result);
        const deadline = Date.now() + 20_000;
        while (!readdirSync(folder).includes(name) && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 100));
        expect(readdirSync(folder)).toContain(name);
        const text = readFileSync(join(folder, name), 'utf8');
        expect(text).toBe(state.download?.text);
        const parsed = JSON.parse(text) as SuiteResult;
        expect(checkSuiteResult(parsed)).toBeNull();
        expect(parsed).toEqual(result);
        // The report tool reads it: its table and its drawing.
        expect(markdownTable([parsed])).toContain('| Paging throughput: evict and make resident | evict 1 MiB |');
        expect(renderReportHtml([parsed])).toContain('evict stream');
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
      expectCompactPage(await layoutOf(page), result);
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'bench-page.png'), fullPage: true });
    },
    RUN_TIMEOUT_MS + 60_000,
  );

  browserTest(
    'a quick run of every figure: the verdict on the first screen, the page within two and a half screens, the charts following a narrow window',
    async ({ openPage }) => {
      const page = await openPage(url('quick=1&run=1'));
      await page.setViewport(SCREEN);
      await page.waitForFunction(() => window.benchState?.done, { timeout: RUN_TIMEOUT_MS, polling: 250 });
      const state: BenchPageState = await page.evaluate(() => window.benchState);
      expect(state.error).toBeUndefined();
      const result = state.result as SuiteResult;
      expect(result.failures).toEqual([]);
      expect(result.figures.map((f) => f.id)).toEqual(SUITE_FIGURES.map((f) => f.id));
      await expectQuickSceneFrameTime(
        result.figures.find((f) => f.id === 'scene-frame-time'),
        page,
      );
      expectCompactPage(await layoutOf(page), result);
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'bench-page-all.png'), fullPage: true });

      // A narrow window: one column, each chart redrawn at its cell's new width.
      await page.setViewport({ width: 700, height: SCREEN.height });
      await page.waitForFunction(
        () => {
          const cells = [...document.querySelectorAll<HTMLElement>('#bench-charts .bench-chart')];
          return (
            new Set(cells.map((c) => c.offsetLeft)).size === 1 &&
            cells.every(
              (c) => Math.abs((c.querySelector<HTMLElement>('.uplot')?.offsetWidth ?? 0) - c.clientWidth) <= 1,
            )
          );
        },
        { timeout: 10_000, polling: 'raf' },
      );
    },
    RUN_TIMEOUT_MS + 60_000,
  );

  browserTest(
    'ref=none shows no reference column; an unknown figure in the URL is refused on the page',
    async ({ openPage }) => {
      const idle = await openPage(url('ref=none&figures=residency-overhead'));
      await idle.waitForSelector('#bench-results thead th');
      expect(await idle.$$eval('#bench-results thead th', (ths) => ths.length)).toBe(7);
      expect(await idle.evaluate(() => window.benchState.done)).toBe(false);
      expect(await idle.$eval('#bench-status', (p) => p.getAttribute('data-state'))).toBe('waiting');

      const refused = await openPage(url('figures=paging-throughput,no-such-figure&run=1'));
      await refused.waitForFunction(() => window.benchState?.done, { timeout: 30_000 });
      const error = await refused.evaluate(() => window.benchState.error ?? '');
      expect(error).toContain('figures: unknown no-such-figure');
      expect(await refused.$eval('#bench-status', (p) => p.getAttribute('data-state'))).toBe('error');
    },
  );
});
