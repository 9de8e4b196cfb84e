/**
 * The tile-mapping-rate and policy-quality benchmark figures (bench/suite/) run in quick mode on the
 * Node.js Dawn device: each returns a Figure of the promised shape (its row cases, finite positive
 * values and baselines, one sample per round). Nothing about speed is asserted; policy quality is
 * checked only where a bound is a theorem: the manager pages every heap of the trace in at least
 * once, and (MIN being only a heuristic for heaps of different sizes) stays within reach of MIN.
 */
import { describe, expect } from 'vitest';
import { policyQuality } from '../../../../bench/suite/policy-quality.js';
import { tileMappingRate } from '../../../../bench/suite/tile-mapping-rate.js';
import { tileValidation } from '../../../../bench/suite/tile-validation.js';
import { gpuTest } from '../../../harness/gpu-test.js';
import { expectFigureShape, figureReport, quickContext } from '../../../shared/bench-figures.js';

describe('benchmark figures 3–5 (quick)', () => {
  gpuTest('tile-mapping-rate', async ({ device }) => {
    const figure = await tileMappingRate(quickContext(device));
    console.log(figureReport(figure));
    expectFigureShape(figure, 'tile-mapping-rate', 'tiles/s', ['one call', '1-tile calls', '16 MiB chunks']);
    expect(figure.target).toBeUndefined();
    for (const r of figure.rows) {
      expect(Number.isFinite(r.extra?.gpuMs), r.case).toBe(true);
      expect(r.extra?.gpuMs, r.case).toBeGreaterThanOrEqual(0);
    }
  });

  gpuTest('policy-quality', async ({ device }) => {
    const figure = await policyQuality(quickContext(device));
    console.log(figureReport(figure));
    const shapes = ['camera walk', 'popular sets', 'phase shift', 'cyclic scan'];
    expectFigureShape(
      figure,
      'policy-quality',
      'MiB paged',
      shapes.flatMap((shape) =>
        [2, 4].flatMap((multiple) => {
          const name = `${shape}, ${multiple}× budget`;
          return shape === 'popular sets' || shape === 'phase shift' ? [name, `${name}: oracle`] : [name];
        }),
      ),
    );
    // The oracle's rows: the manager's row names its median ÷ the oracle's.
    for (const r of figure.rows.filter((each) => each.case.endsWith(': oracle'))) {
      const manager = figure.rows.find((each) => each.case === r.case.replace(': oracle', ''));
      expect(manager?.extra?.managerVsOracle, r.case).toBeCloseTo((manager?.value ?? NaN) / r.value, 10);
      expect(r.value, r.case).toBeGreaterThanOrEqual(manager?.extra?.workingSetMiB ?? Infinity);
    }
    for (const r of figure.rows.filter((each) => !each.case.endsWith(': oracle'))) {
      const extra = r.extra ?? {};
      // Every heap the trace touches is paged in at least once, by any policy.
      expect(r.value, r.case).toBeGreaterThanOrEqual(extra.workingSetMiB ?? Infinity);
      expect(r.baseline as number, r.case).toBeGreaterThanOrEqual(extra.workingSetMiB ?? Infinity);
      // MIN is a lower bound only for equal sizes; with these heaps it is a heuristic, so only a
      // manager far below it would point at a counting error.
      expect(r.ratio as number, r.case).toBeGreaterThan(0.5);
      expect(extra.lruRatio, r.case).toBeGreaterThan(0.5);
      // The manager's ratio to LRU is the two medians' quotient, and LRU pages the working set too.
      expect(extra.managerVsLru, r.case).toBeCloseTo(r.value / (extra.lruMiB ?? NaN), 10);
      expect(extra.lruMiB, r.case).toBeGreaterThanOrEqual(extra.workingSetMiB ?? Infinity);
    }
  });

  gpuTest('tile-validation', async ({ device }) => {
    const figure = await tileValidation(quickContext(device));
    console.log(figureReport(figure));
    expectFigureShape(figure, 'tile-validation', 'ms', ['2,048 tiles (128 MiB)', '256 tiles (16 MiB)']);
    // Each sample is one whole check: the library's also found every page it was given mapped.
    for (const r of figure.rows) expect(r.extra?.tiles, r.case).toBeGreaterThan(0);
  });
});
