/**
 * The validation page's pure logic (validate/validation-logic.ts), which `npm run validate`
 * shares: URL parameters and their errors, mismatch rows and counts, summaries and the lines printed.
 */
import { describe, expect, test } from 'vitest';
import {
  DEFAULT_PARAMETERS,
  addSummaries,
  formatMismatch,
  formatResultLine,
  formatSummaryLine,
  mismatchCount,
  mismatchRows,
  pageQuery,
  parsePageParameters,
  progressFraction,
  readRunParameter,
  summarize,
} from '../../../../validate/validation-logic.js';
import type { ValidationMismatch, ValidationResult } from '../../../../src/validate/index.js';

const mismatch = (over: Partial<ValidationMismatch> = {}): ValidationMismatch => ({
  seed: 7,
  phase: 'differential',
  operationIndex: 12,
  operation: 'updateTileMappings',
  check: 'validateTileMappings',
  detail: 'tile 3: expected heap 1 tile 4, found NULL',
  ...over,
});

const result = (over: Partial<ValidationResult> = {}): ValidationResult => ({
  seed: 7,
  tier: 3,
  ops: 100,
  bytesCompared: 4096,
  pagesValidated: 30,
  scenarios: [],
  mismatches: [],
  counts: {},
  checkpoints: 1,
  milliseconds: 10,
  ...over,
});

describe('URL parameters', () => {
  test('defaults: seed 1, seeds 1, ops 500, tier 3, no plant, autostart', () => {
    expect(parsePageParameters('')).toEqual({
      ok: true,
      value: { seed: 1, seeds: 1, ops: 500, tier: 3, autostart: true },
    });
    expect(DEFAULT_PARAMETERS).toEqual({ seed: 1, seeds: 1, ops: 500, tier: 3, autostart: true });
  });

  test('every parameter read', () => {
    expect(parsePageParameters('?seed=0x10&seeds=4&ops=50&tier=2&plant=drop-write&autostart=0')).toEqual({
      ok: true,
      value: { seed: 16, seeds: 4, ops: 50, tier: 2, plant: 'drop-write', autostart: false },
    });
    expect(parsePageParameters('plant=corrupt-entry')).toMatchObject({ ok: true, value: { plant: 'corrupt-entry' } });
    expect(parsePageParameters('plant=off')).toEqual({ ok: true, value: { ...DEFAULT_PARAMETERS } });
    expect(parsePageParameters(new URLSearchParams({ seed: '4294967295' }))).toMatchObject({
      ok: true,
      value: { seed: 4294967295 },
    });
  });

  test('each bad value is refused with an error naming the parameter, the rule and the value', () => {
    const parsed = parsePageParameters('?seed=-1&seeds=0&ops=1.5&tier=5&plant=typo&autostart=yes');
    expect(parsed).toEqual({
      ok: false,
      errors: [
        'URL parameter seed must be an integer from 0 to 4294967295 (decimal or 0x hex), got "-1"',
        'URL parameter seeds must be an integer from 1 to 10000, got "0"',
        'URL parameter ops must be an integer from 1 to 1000000, got "1.5"',
        'URL parameter tier must be one of 1, 2, 3, 4 (the tiled resources tier), got "5"',
        'URL parameter plant must be corrupt-entry or drop-write (or off), got "typo"',
        'URL parameter autostart must be 0 or 1, got "yes"',
      ],
    });
  });

  test('empty, non-decimal and too large values, unknown and repeated names, and a seed range past 2^32 are refused', () => {
    const errors = (query: string): string[] => {
      const parsed = parsePageParameters(query);
      return parsed.ok ? [] : parsed.errors;
    };
    expect(errors('ops=')).toEqual(['URL parameter ops must be an integer from 1 to 1000000, got ""']);
    expect(errors('ops=1e3')).toEqual(['URL parameter ops must be an integer from 1 to 1000000, got "1e3"']);
    expect(errors('ops=1000001')).toEqual(['URL parameter ops must be an integer from 1 to 1000000, got "1000001"']);
    expect(errors('seeds=0x2')).toEqual(['URL parameter seeds must be an integer from 1 to 10000, got "0x2"']);
    expect(errors('opps=5')).toEqual([
      'unknown URL parameter "opps" (known: seed, seeds, ops, tier, plant, autostart)',
    ]);
    expect(errors('ops=5&ops=6')).toEqual(['URL parameter ops is given twice']);
    expect(errors('seed=4294967295&seeds=2')).toEqual([
      'the last seed (seed + seeds - 1) must not exceed 4294967295, got 4294967296',
    ]);
  });

  test('readRunParameter labels its error as asked (the CLI says --ops)', () => {
    expect(readRunParameter('ops', 'x', '--ops')).toEqual({
      error: '--ops must be an integer from 1 to 1000000, got "x"',
    });
    expect(readRunParameter('tier', '4')).toEqual({ value: 4 });
    expect(readRunParameter('plant', 'off')).toEqual({ value: undefined });
  });

  test('pageQuery writes what parsePageParameters reads back (defaults of seeds and autostart left out)', () => {
    const run = { seed: 9, seeds: 3, ops: 70, tier: 1 as const, plant: 'corrupt-entry' as const, autostart: false };
    expect(pageQuery(run)).toBe('?seed=9&seeds=3&ops=70&tier=1&plant=corrupt-entry&autostart=0');
    expect(parsePageParameters(pageQuery(run))).toEqual({ ok: true, value: run });
    expect(pageQuery({ seed: 2, seeds: 1, ops: 500, tier: 3 })).toBe('?seed=2&ops=500&tier=3');
  });
});

describe('mismatches', () => {
  test('a row per mismatch, with a replay query for its seed alone', () => {
    const rows = mismatchRows(result({ mismatches: [mismatch(), mismatch({ seed: 8, operationIndex: 3 })] }), {
      ops: 100,
      tier: 2,
      plant: 'drop-write',
    });
    expect(rows.map((r) => [r.seed, r.operationIndex, r.replay])).toEqual([
      [7, 12, '?seed=7&ops=100&tier=2&plant=drop-write'],
      [8, 3, '?seed=8&ops=100&tier=2&plant=drop-write'],
    ]);
  });

  test('a failed scenario counts once: as its own row when no scenario mismatch names it, else through that mismatch', () => {
    const unnamed = result({
      ops: 0,
      scenarios: [
        { name: '2D box', passed: false, detail: 'tile (1,0) read 0' },
        { name: 'copyTiles', passed: true },
      ],
    });
    expect(mismatchRows(unnamed, { ops: 10, tier: 3 })).toEqual([
      {
        seed: 7,
        phase: 'scenarios',
        operationIndex: -1,
        operation: '2D box',
        check: 'scenario',
        detail: 'tile (1,0) read 0',
        replay: '?seed=7&ops=10&tier=3',
      },
    ]);
    const named = result({
      ...unnamed,
      mismatches: [mismatch({ phase: 'scenarios', operation: '2D box', operationIndex: 0 })],
    });
    expect(mismatchCount(named)).toBe(1);
    expect(mismatchCount(result({ mismatches: [mismatch(), mismatch()] }))).toBe(2);
    expect(mismatchCount(result())).toBe(0);
  });

  test('formatMismatch: phase, seed, operation index, operation, check and detail on one line', () => {
    expect(formatMismatch(mismatch())).toBe(
      'differential seed 7 operation 12 (updateTileMappings): validateTileMappings: tile 3: expected heap 1 tile 4, found NULL',
    );
    expect(
      formatMismatch(mismatch({ phase: 'scenarios', operationIndex: -1, operation: '3D box', check: 'scenario' })),
    ).toBe('scenarios seed 7 (3D box): scenario: tile 3: expected heap 1 tile 4, found NULL');
  });
});

describe('summaries and lines', () => {
  const runs = [
    result({ seed: 1, mismatches: [mismatch()] }),
    result({ seed: 2 }),
    result({ ops: 0, bytesCompared: 100, pagesValidated: 5, scenarios: [{ name: 'a', passed: false }] }),
  ];

  test('summarize sums ops, bytes, pages and mismatches (failed scenarios included); addSummaries sums targets', () => {
    const summary = summarize(runs);
    expect(summary).toEqual({ ops: 200, bytesCompared: 8292, pagesValidated: 65, mismatches: 2 });
    expect(addSummaries([summary, summary])).toEqual({
      ops: 400,
      bytesCompared: 16584,
      pagesValidated: 130,
      mismatches: 4,
    });
    expect(summarize([])).toEqual({ ops: 0, bytesCompared: 0, pagesValidated: 0, mismatches: 0 });
  });

  test('the summary line is exactly "validate: <ops> ops, <bytes> bytes compared, <n> mismatches"', () => {
    expect(formatSummaryLine({ ops: 1000, bytesCompared: 123456789, mismatches: 0 })).toBe(
      'validate: 1000 ops, 123456789 bytes compared, 0 mismatches',
    );
    expect(formatSummaryLine(summarize(runs))).toMatch(/^validate: \d+ ops, \d+ bytes compared, \d+ mismatches$/);
  });

  test('a line per finished run: the seed, or the scenarios with how many passed', () => {
    expect(formatResultLine('node', runs[0] as ValidationResult, 2.345)).toBe(
      'node: seed 1: 100 ops, 4096 bytes compared, 30 pages validated, 1 mismatches (2.3 s)',
    );
    expect(formatResultLine('browser', runs[2] as ValidationResult, 0.5)).toBe(
      'browser: scenarios: 0 ops, 100 bytes compared, 5 pages validated, 0/1 scenarios passed, 1 mismatches (0.5 s)',
    );
  });

  test('progress: each seed one share, the scenarios the last', () => {
    const run = { seeds: 3 };
    expect(progressFraction(run, 0, undefined)).toBe(0);
    expect(progressFraction(run, 0, { phase: 'differential', opsDone: 50, opsTotal: 100 })).toBe(0.125);
    expect(progressFraction(run, 2, { phase: 'differential', opsDone: 100, opsTotal: 100 })).toBe(0.75);
    expect(progressFraction(run, 3, { phase: 'scenarios', opsDone: 2, opsTotal: 4 })).toBe(0.875);
    expect(progressFraction(run, 3, { phase: 'scenarios', opsDone: 4, opsTotal: 4 })).toBe(1);
    expect(progressFraction(run, 1, { phase: 'differential', opsDone: 9, opsTotal: 0 })).toBe(0.25);
  });
});
