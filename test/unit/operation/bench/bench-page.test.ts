/**
 * The benchmark page's pure logic: its URL parameters (each rule broken alone, beside a valid
 * control), the query that reproduces a run, the results table's lines beside references, and the
 * runners' flags.
 */
import { describe, expect, it } from 'vitest';
import { parseRunnerArgs } from '../../../../bench/node/results.js';
import type { Figure } from '../../../../bench/suite/figure.js';
import { checkSuiteResult, resultFileName, serializeResult, type SuiteResult } from '../../../../bench/suite/suite.js';
import { benchQuery, DEFAULT_BENCH_PARAMETERS, parseBenchParameters } from '../../../../demo/bench/bench-params.js';
import { resultLabel, resultLines } from '../../../../demo/bench/results-table.js';

const IDS = ['paging-throughput', 'indirection-cost', 'residency-overhead'];

describe('bench page parameters', () => {
  it('no parameters: every figure, full sizes, every reference, waiting for Run', () => {
    expect(parseBenchParameters('', IDS)).toEqual({ ok: true, value: DEFAULT_BENCH_PARAMETERS });
  });

  it('a full set parses, in the suite order, and its query reproduces it', () => {
    const parsed = parseBenchParameters(
      '?figures=residency-overhead,paging-throughput&quick=1&pagingMiB=16,1,0.0625&streamSeconds=2.5&ref=node-nvidia-h200&run=1&collect=1&commit=abc123%2Bdirty',
      IDS,
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value).toEqual({
      figures: ['paging-throughput', 'residency-overhead'],
      quick: true,
      pagingMiB: [0.0625, 1, 16],
      streamSeconds: 2.5,
      references: ['node-nvidia-h200'],
      autostart: true,
      collect: true,
      commit: 'abc123+dirty',
    });
    expect(parseBenchParameters(`?${benchQuery(parsed.value)}`, IDS)).toEqual(parsed);
    expect(benchQuery(DEFAULT_BENCH_PARAMETERS)).toBe('');
  });

  it('ref=none: no reference; streamSeconds=0: no stream', () => {
    const parsed = parseBenchParameters('?ref=none&streamSeconds=0', IDS);
    expect(parsed.ok && parsed.value.references).toEqual([]);
    expect(parsed.ok && parsed.value.streamSeconds).toBe(0);
  });

  const invalid: [string, string][] = [
    ['figures=paging-throughput,nope', 'figures: unknown nope'],
    ['figures=', 'figures names no figure'],
    ['quick=yes', 'quick must be 0 or 1'],
    ['run=2', 'run must be 0 or 1'],
    ['collect=true', 'collect must be 0 or 1'],
    ['pagingMiB=0', 'pagingMiB: 0 is not a size'],
    ['pagingMiB=1,abc', 'pagingMiB: NaN is not a size'],
    ['pagingMiB=0.01', 'pagingMiB: 0.01 is not a size'],
    ['pagingMiB=8192', 'pagingMiB: 8192 is not a size'],
    ['pagingMiB=', 'pagingMiB names no size'],
    ['streamSeconds=-1', 'streamSeconds must be a number of seconds in [0, 120]'],
    ['streamSeconds=121', 'streamSeconds must be a number'],
    ['streamSeconds=', 'streamSeconds must be a number'],
    ['streamSeconds=NaN', 'streamSeconds must be a number'],
    ['commit=<script>', 'commit must be a commit id'],
    ['only=paging-throughput', 'unknown parameter "only"'],
  ];
  for (const [query, message] of invalid) {
    it(`refuses ${query}`, () => {
      const parsed = parseBenchParameters(`?${query}`, IDS);
      expect(parsed.ok).toBe(false);
      expect(parsed.ok ? [] : parsed.errors).toEqual([expect.stringContaining(message)]);
    });
  }
});

const figure = (id: string, cases: [string, number, number][]): Figure => ({
  id,
  title: `${id} title`,
  unit: 'GB/s',
  baselineName: 'raw',
  ratioMeaning: 'library ÷ raw',
  target: { text: 'at least 0.9 of raw', ratio: 0.9, direction: 'at-least' },
  rows: cases.map(([c, value, baseline]) => ({
    case: c,
    value,
    baseline,
    ratio: value / baseline,
    samples: [value],
    baselineSamples: [baseline],
  })),
  rounds: 1,
  warmup: 0,
  parameters: {},
});

const result = (runtime: 'browser' | 'node', vendor: string, figures: Figure[]): SuiteResult => ({
  runtime,
  commit: 'abc',
  date: '2026-12-01T00:00:00.000Z',
  adapter: {
    vendor,
    architecture: vendor === 'nvidia' ? '' : 'swiftshader',
    device: vendor === 'nvidia' ? 'h200' : '',
    description: '',
    isFallbackAdapter: false,
  } as SuiteResult['adapter'],
  adapterText: vendor,
  host: 'test',
  timestampQuery: true,
  quick: false,
  figures,
  failures: [],
  seconds: 1,
});

describe('bench page results table', () => {
  it('one line per row with its verdict, and each reference ratio on the same case (– where it has none)', () => {
    const mine = [
      figure('paging-throughput', [
        ['evict 1 MiB', 0.8, 1],
        ['restore 1 MiB', 2, 2],
      ]),
    ];
    const reference = result('node', 'nvidia', [figure('paging-throughput', [['evict 1 MiB', 0.95, 1]])]);
    const lines = resultLines(mine, [reference]);
    expect(lines.map((l) => [l.case, l.measured, l.baseline, l.ratio, l.verdict, l.references])).toEqual([
      ['evict 1 MiB', '0.80 GB/s', '1.00 GB/s', '0.80', 'misses', ['0.95']],
      ['restore 1 MiB', '2.00 GB/s', '2.00 GB/s', '1.00', 'meets', ['–']],
    ]);
    expect(resultLabel(reference)).toBe('node · nvidia h200');
  });

  it('a result file: its name, its text, and the check the report tool relies on', () => {
    const r = result('browser', 'google', [figure('paging-throughput', [['evict 1 MiB', 1, 1]])]);
    expect(resultFileName(r)).toBe('browser-google-swiftshader.json');
    expect(resultFileName({ ...r, quick: true })).toBe('browser-google-swiftshader-quick.json');
    expect(JSON.parse(serializeResult(r))).toEqual(r);
    expect(checkSuiteResult(r)).toBeNull();
    expect(checkSuiteResult({ ...r, runtime: 'deno' })).toContain('runtime');
    expect(checkSuiteResult({ ...r, figures: {} })).toContain('figures');
    expect(checkSuiteResult({ ...r, figures: [{ id: 'x', rows: [{ case: 'c' }] }] })).toContain('figure x');
    expect(checkSuiteResult(null)).toBe('not an object');
  });
});

describe('runner flags', () => {
  it('paging sizes and stream seconds reach the suite; bad ones are refused', () => {
    expect(
      parseRunnerArgs(['--quick', '--paging-mib=1,16', '--stream-seconds=2', '--out=/tmp/x', '--no-report']),
    ).toEqual({ quick: true, paging: { sizesMiB: [1, 16], streamSeconds: 2 }, out: '/tmp/x', report: false });
    expect(parseRunnerArgs([]).paging).toEqual({});
    expect(() => parseRunnerArgs(['--paging-mib=1,x'])).toThrow('--paging-mib');
    expect(() => parseRunnerArgs(['--stream-seconds=-3'])).toThrow('--stream-seconds');
  });
});
