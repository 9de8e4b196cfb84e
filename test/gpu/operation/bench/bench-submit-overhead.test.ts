/**
 * The submit-overhead benchmark figure (bench/suite/submit-overhead.ts) in quick mode on the Node.js
 * Dawn device: its rows (an empty list, one dispatch), one sample per round on both sides, its target,
 * live samples, the one-dispatch row's two diagnostic extras (a raw submission known complete by a
 * mapped readback; the library with gpuValidation off), and registration after tile-streaming. The
 * figure itself throws when the dispatch's store, or the raw readback's word, did not land or the
 * device was removed. Nothing about speed is asserted.
 */
import { expect } from 'vitest';
import type { LiveEvent } from '../../../../bench/suite/figure.js';
import { submitOverhead } from '../../../../bench/suite/submit-overhead.js';
import { FIGURES } from '../../../../bench/suite/suite.js';
import { gpuTest } from '../../../harness/gpu-test.js';
import { expectFigureShape, figureReport, quickContext } from '../../../shared/bench-figures.js';

gpuTest('submit-overhead (quick): rows, target, live samples; registered after tile-streaming', async ({ device }) => {
  const events: LiveEvent[] = [];
  const figure = await submitOverhead({ ...quickContext(device), live: (event) => events.push(event) });
  console.log(figureReport(figure));
  expectFigureShape(figure, 'submit-overhead', 'µs/submit', ['empty list', 'one dispatch']);
  expect(figure.target).toEqual({ text: 'at most 1.2× raw', ratio: 1.2, direction: 'at-most' });
  expect(figure.parameters.callsPerSample).toBe(20);
  for (const name of ['empty list', 'one dispatch']) {
    for (const side of ['measured', 'baseline'] as const) {
      expect(
        events.filter((e) => e.kind === 'sample' && e.case === name && e.side === side),
        `${name} ${side}`,
      ).toHaveLength(figure.rounds);
    }
  }
  const byName = new Map(figure.rows.map((r) => [r.case, r]));
  expect(byName.get('empty list')?.extra).toBeUndefined();
  const extra = byName.get('one dispatch')?.extra ?? {};
  expect(Object.keys(extra).sort()).toEqual(['gpuValidation off µs', 'raw, done by a mapped readback µs']);
  for (const value of Object.values(extra)) expect(value).toBeGreaterThan(0);
  const ids = FIGURES.map((f) => f.id);
  expect(ids.indexOf('submit-overhead')).toBe(ids.indexOf('tile-streaming') + 1);
});
