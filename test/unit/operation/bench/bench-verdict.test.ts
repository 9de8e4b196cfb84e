/**
 * The benchmark page's verdict per figure (demo/bench/verdict.ts): met or missed on both sides of
 * each bound, at-least and at-most, rows without a ratio, figures without a target, and the strings
 * the summary prints.
 */
import { describe, expect, it } from 'vitest';
import type { Figure, FigureTarget } from '../../../../bench/suite/figure.js';
import { verdict as tableVerdict } from '../../../../bench/suite/table.js';
import { figureVerdict, ratioText, targetBound, verdictWords } from '../../../../demo/bench/verdict.js';

const AT_LEAST: FigureTarget = { text: 'at least 0.9 of the raw rate', ratio: 0.9, direction: 'at-least' };
const AT_MOST: FigureTarget = { text: 'at most 1.10× the direct time', ratio: 1.1, direction: 'at-most' };

/** A figure whose rows have exactly these ratios (null: a row without a baseline). */
const figure = (target: FigureTarget | undefined, ratios: (number | null)[]): Figure => ({
  id: 'f',
  title: 'f title',
  unit: 'GB/s',
  baselineName: 'raw',
  ratioMeaning: 'library ÷ raw',
  ...(target ? { target } : {}),
  rows: ratios.map((ratio, i) => ({
    case: `case ${i}`,
    value: 1,
    baseline: ratio === null ? null : 1,
    ratio,
    samples: [1],
    baselineSamples: [],
  })),
  rounds: 1,
  warmup: 0,
  parameters: {},
});

describe('figure verdict', () => {
  const bounds: [string, FigureTarget, number, 'met' | 'missed'][] = [
    ['at-least, on the bound', AT_LEAST, 0.9, 'met'],
    ['at-least, just above', AT_LEAST, 0.9000001, 'met'],
    ['at-least, just below', AT_LEAST, 0.8999999, 'missed'],
    ['at-most, on the bound', AT_MOST, 1.1, 'met'],
    ['at-most, just below', AT_MOST, 1.0999999, 'met'],
    ['at-most, just above', AT_MOST, 1.1000001, 'missed'],
  ];
  for (const [name, target, ratio, kind] of bounds) {
    it(`${name} (${ratio}): ${kind}, as the table's row rule says`, () => {
      const f = figure(target, [ratio]);
      expect(figureVerdict(f).kind).toBe(kind);
      expect(tableVerdict(f, f.rows[0] as Figure['rows'][number])).toBe(kind === 'met' ? 'meets' : 'misses');
    });
  }

  it('one missing row among meeting ones: missed, naming that row', () => {
    const v = figureVerdict(figure(AT_LEAST, [1.5, 0.46, 0.95]));
    expect(v).toEqual({
      kind: 'missed',
      judged: 3,
      missedCases: ['case 1'],
      ratios: { min: 0.46, max: 1.5, count: 3 },
    });
  });

  it('rows without a ratio are not judged: the others decide; all null is nothing to judge', () => {
    expect(figureVerdict(figure(AT_MOST, [null, 1.05]))).toMatchObject({
      kind: 'met',
      judged: 1,
      ratios: { min: 1.05, max: 1.05, count: 1 },
    });
    expect(figureVerdict(figure(AT_MOST, [null, null]))).toEqual({
      kind: 'none',
      judged: 0,
      missedCases: [],
      ratios: null,
    });
  });

  it('no target: none, whatever the ratios; no rows at all: none', () => {
    expect(figureVerdict(figure(undefined, [0.1, 10]))).toEqual({
      kind: 'none',
      judged: 0,
      missedCases: [],
      ratios: { min: 0.1, max: 10, count: 2 },
    });
    expect(figureVerdict(figure(AT_LEAST, []))).toEqual({ kind: 'none', judged: 0, missedCases: [], ratios: null });
  });

  it('a non-finite ratio stays out of the span but is judged as the table judges it', () => {
    const v = figureVerdict(figure(AT_LEAST, [Number.NaN, 1]));
    expect(v.ratios).toEqual({ min: 1, max: 1, count: 1 });
    expect(v.kind).toBe('missed');
  });
});

describe('verdict strings', () => {
  it('ratios: one, a span, none', () => {
    expect(ratioText({ min: 1.2071, max: 1.2071, count: 1 })).toBe('1.21');
    expect(ratioText({ min: 0.4612, max: 1.51, count: 4 })).toBe('0.46–1.51');
    // Two ratios that print alike print once.
    expect(ratioText({ min: 1.001, max: 1.004, count: 2 })).toBe('1.00');
    expect(ratioText(null)).toBe('–');
  });

  it('the verdict in words; a single miss named', () => {
    const words = (f: Figure) => verdictWords(f, figureVerdict(f));
    expect(words(figure(AT_LEAST, [1, 1]))).toEqual({ badge: 'met', detail: '2 of 2 rows' });
    expect(words(figure(AT_LEAST, [1, 0.5]))).toEqual({ badge: 'missed', detail: '1 of 2 rows: case 1' });
    expect(words(figure(AT_LEAST, [0.1, 0.2, 1]))).toEqual({ badge: 'missed', detail: '2 of 3 rows' });
    expect(words(figure(undefined, [1]))).toEqual({ badge: 'no target', detail: '' });
    expect(words(figure(AT_LEAST, [null]))).toEqual({ badge: 'no ratio', detail: '' });
  });

  it('the bound: at least, at most, none', () => {
    expect(targetBound(AT_LEAST)).toBe('≥ 0.90');
    expect(targetBound(AT_MOST)).toBe('≤ 1.10');
    expect(targetBound(undefined)).toBe('');
  });
});
