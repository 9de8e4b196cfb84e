/** The benchmark suite's pure parts: medians, rows, verdicts, file stems, tables and the HTML report. */
import { describe, expect, it } from 'vitest';
import { parseRunnerArgs, RESULTS_DIR } from '../../../../bench/node/results.js';
import { renderReportHtml } from '../../../../bench/report/render-report.js';
import { median, row, sample, type Figure } from '../../../../bench/suite/figure.js';
import { resultStem, type SuiteResult } from '../../../../bench/suite/suite.js';
import { formatNumber, formatSuite, markdownTable, verdict } from '../../../../bench/suite/table.js';

const figure = (ratio: number, direction: 'at-least' | 'at-most'): Figure => ({
  id: 'f',
  title: 'Figure <f>',
  unit: 'GB/s',
  baselineName: 'raw',
  ratioMeaning: 'lib ÷ raw',
  target: { text: 't', ratio: 0.9, direction },
  rows: [{ case: 'a & b', value: ratio, baseline: 1, ratio, samples: [ratio], baselineSamples: [1] }],
  rounds: 1,
  warmup: 0,
  parameters: {},
});

const suite = (runtime: 'node' | 'browser', vendor: string, figures: Figure[]): SuiteResult => ({
  runtime,
  commit: 'abc',
  date: '2026-11-30',
  adapter: { vendor, architecture: 'Hopper 9', device: '', description: '' },
  adapterText: `vendor=${vendor}`,
  host: 'node',
  timestampQuery: true,
  quick: false,
  figures,
  failures: [],
  seconds: 1,
});

describe('bench suite helpers', () => {
  it('median of odd and even counts, NaN when empty', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('sample drops the warm-up rounds', async () => {
    let i = 0;
    expect(await sample(3, 2, () => i++)).toEqual([2, 3, 4]);
  });

  it('row takes medians and their ratio; no baseline, no ratio', () => {
    expect(row('x', [1, 9, 3], [2, 1, 1])).toMatchObject({ value: 3, baseline: 1, ratio: 3 });
    expect(row('x', [1], [])).toMatchObject({ baseline: null, ratio: null });
  });

  it('verdict reads the target in its direction, on both sides of the bound', () => {
    expect(verdict(figure(0.9, 'at-least'), figure(0.9, 'at-least').rows[0]!)).toBe('meets');
    expect(verdict(figure(0.89, 'at-least'), figure(0.89, 'at-least').rows[0]!)).toBe('misses');
    expect(verdict(figure(0.9, 'at-most'), figure(0.9, 'at-most').rows[0]!)).toBe('meets');
    expect(verdict(figure(0.91, 'at-most'), figure(0.91, 'at-most').rows[0]!)).toBe('misses');
  });

  it('formats numbers by magnitude', () => {
    expect([
      formatNumber(1234.5),
      formatNumber(12.34),
      formatNumber(1.234),
      formatNumber(0.01234),
      formatNumber(null),
      formatNumber(2.5e7),
    ]).toEqual(['1235', '12.3', '1.23', '0.012', '–', '2.50e+7']);
  });

  it('names result files by runtime and adapter', () => {
    expect(resultStem(suite('node', 'NVIDIA', []))).toBe('node-nvidia-hopper-9');
    expect(resultStem(suite('browser', '', []))).toBe('browser-unknown-hopper-9');
    const h200 = suite('node', 'nvidia', []);
    h200.adapter = { ...h200.adapter, architecture: '', device: 'nvidia-h200' };
    expect(resultStem(h200)).toBe('node-nvidia-h200');
  });

  it('tables and the report show every row, escaped, with its verdict', () => {
    const results = [
      suite('node', 'nvidia', [figure(0.95, 'at-least')]),
      suite('browser', 'google', [figure(0.5, 'at-least')]),
    ];
    expect(formatSuite(results[0]!)).toContain('a & b');
    const markdown = markdownTable(results);
    expect(markdown.split('\n')).toHaveLength(3);
    expect(markdown).toContain('(**0.95**)');
    expect(markdown).toContain('(**0.50**)');
    const html = renderReportHtml(results);
    expect(html).toContain('Figure &lt;f&gt;');
    expect(html).toContain('a &amp; b');
    expect(html.match(/ meets</g)).toHaveLength(1);
    expect(html.match(/ misses</g)).toHaveLength(1);
  });

  it("parses the runners' flags, defaults first", () => {
    expect(parseRunnerArgs([])).toEqual({ quick: false, paging: {}, out: RESULTS_DIR, report: true });
    expect(
      parseRunnerArgs(['--quick', '--only=paging-throughput,indirection-cost', '--out=/tmp/x', '--no-report']),
    ).toEqual({
      quick: true,
      only: ['paging-throughput', 'indirection-cost'],
      paging: {},
      out: '/tmp/x',
      report: false,
    });
  });
});
