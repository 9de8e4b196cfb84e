/**
 * What the quick-mode benchmark figure tests share: a quick BenchContext, the promised Figure shape,
 * and one log line per row.
 */
import { expect } from 'vitest';
import type { BenchContext, Figure } from '../../bench/suite/figure.js';

export const quickContext = (gpuDevice: GPUDevice): BenchContext => ({ gpuDevice, quick: true, progress: () => {} });

/** The figure's id, unit and row cases; one sample per round on both sides; every number finite and positive. */
export function expectFigureShape(figure: Figure, id: string, unit: string, cases: string[]): void {
  expect(figure.id).toBe(id);
  expect(figure.unit).toBe(unit);
  expect(figure.rows.map((r) => r.case)).toEqual(cases);
  for (const r of figure.rows) {
    expect(r.samples, r.case).toHaveLength(figure.rounds);
    expect(r.baselineSamples, r.case).toHaveLength(figure.rounds);
    for (const value of [r.value, r.baseline, r.ratio, ...r.samples, ...r.baselineSamples]) {
      expect(Number.isFinite(value), `${r.case}: ${value}`).toBe(true);
      expect(value as number, r.case).toBeGreaterThan(0);
    }
  }
}

/** One line per row, for the test log. */
export const figureReport = (figure: Figure): string =>
  figure.rows
    .map(
      (r) =>
        `${figure.id} ${r.case}: ${r.value.toPrecision(4)} ${figure.unit} (baseline ${r.baseline?.toPrecision(4)}, ratio ${r.ratio?.toFixed(3)}) ${JSON.stringify(r.extra ?? {})} samples ${JSON.stringify(r.samples)} baseline samples ${JSON.stringify(r.baselineSamples)}`,
    )
    .join('\n');
