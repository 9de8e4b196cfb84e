/**
 * The paging-throughput and indirection-cost benchmark figures (bench/suite/) run in quick mode on the
 * Node.js Dawn device: each returns a Figure of the promised shape (its row cases, finite positive
 * values and baselines, one sample per round, its target). Nothing about speed is asserted. Each
 * figure checks its own work as it runs (the paged bytes, the three kernels' sums) and throws when
 * the work is wrong, so a passing run also says the figures measured what they claim. The paging
 * figure's evict/restore stream is a time series beside its rows; its lazy-eviction rows check their
 * own copies (none for a heap nothing took, one page-out for a heap taken under pressure).
 */
import { describe, expect } from 'vitest';
import { indirectionCost } from '../../../../bench/suite/indirection-cost.js';
import { pagingThroughput } from '../../../../bench/suite/paging-throughput.js';
import { gpuTest } from '../../../harness/gpu-test.js';
import { expectFigureShape, figureReport, quickContext } from '../../../shared/bench-figures.js';

describe('benchmark figures 1–2 (quick)', () => {
  gpuTest('paging-throughput', async ({ device }) => {
    const figure = await pagingThroughput(quickContext(device));
    console.log(figureReport(figure));
    // Quick mode: 1 and 4 MiB heaps (both within every adapter's limits), 2 rounds after 1 warm-up.
    expectFigureShape(figure, 'paging-throughput', 'GB/s', [
      'evict 1 MiB',
      'restore 1 MiB',
      'evict 4 MiB',
      'restore 4 MiB',
      'lazy evict + restore 4 MiB, kept',
      'lazy evict + restore 4 MiB, taken',
    ]);
    // The stream (quick: 0.5 s) on the largest heap up to 16 MiB: a point per operation, at increasing seconds.
    expect(figure.series?.map((s) => s.name)).toEqual(['evict stream, 4 MiB', 'restore stream, 4 MiB']);
    for (const line of figure.series ?? []) {
      expect(line.x.length).toBeGreaterThan(0);
      expect(line.y.every((v) => v > 0)).toBe(true);
      expect(line.x.every((x, i) => i === 0 || x > (line.x[i - 1] ?? Infinity))).toBe(true);
    }
    expect([figure.rounds, figure.warmup]).toEqual([2, 1]);
    expect(figure.target).toEqual({ text: 'at least 0.9 of the raw rate', ratio: 0.9, direction: 'at-least' });
    // The lazy rows (the stream's size) share the immediate rows' raw samples, as round trips.
    const lazy = figure.rows.filter((r) => r.case.startsWith('lazy'));
    const [rawEvict, rawRestore] = [figure.rows[2], figure.rows[3]].map((r) => r?.baselineSamples ?? []);
    for (const r of lazy) {
      expect(r.baselineSamples, r.case).toEqual(
        (rawEvict ?? []).map((e, i) => 1 / (1 / e + 1 / ((rawRestore ?? [])[i] as number))),
      );
      expect(r.extra?.['immediate GB/s'], r.case).toBeGreaterThan(0);
    }
    for (const r of figure.rows.filter((r) => r.case.startsWith('evict'))) {
      expect(Number.isFinite(r.extra?.['fence GB/s']), r.case).toBe(true);
      expect(r.extra?.['fence GB/s'], r.case).toBeGreaterThan(0);
    }
    // A restore's call returns before its sample ends: the call time is a positive part of it.
    for (const r of figure.rows.filter((r) => r.case.startsWith('restore'))) {
      const mib = Number(r.case.split(' ')[1]);
      for (const key of ['makeResident µs', 'raw writeBuffer µs']) {
        const us = r.extra?.[key] as number;
        expect(us, `${r.case}: ${key}`).toBeGreaterThan(0);
        const slowest = key === 'makeResident µs' ? Math.min(...r.samples) : Math.min(...r.baselineSamples);
        // GB/s → µs per sample: the call cannot take longer than the slowest sample it is part of.
        expect(us, `${r.case}: ${key}`).toBeLessThanOrEqual(((mib * 2 ** 20) / (slowest * 1e9)) * 1e6 * 1.0001);
      }
    }
  });

  gpuTest('indirection-cost', async ({ device }) => {
    const figure = await indirectionCost(quickContext(device));
    console.log(figureReport(figure));
    expectFigureShape(figure, 'indirection-cost', 'ms', [
      'placed resource',
      'reserved, scattered pages',
      '16-byte loads',
      'page handle',
    ]);
    expect([figure.rounds, figure.warmup]).toEqual([2, 1]);
    expect(figure.target).toEqual({
      text: 'at most 1.10× the direct time on a real GPU',
      ratio: 1.1,
      direction: 'at-most',
    });
    // The two 4-byte rows share the direct 4-byte kernel's samples; the 16-byte rows have their own
    // direct kernels (vectors in grid-stride order, vectors page by page).
    expect(figure.rows[0]?.baselineSamples).toEqual(figure.rows[1]?.baselineSamples);
    expect(figure.rows[2]?.baselineSamples).not.toEqual(figure.rows[0]?.baselineSamples);
    expect(figure.rows[3]?.baselineSamples).not.toEqual(figure.rows[2]?.baselineSamples);
    expect(figure.parameters.streamedMiB).toBe(4);
    expect(figure.parameters.dispatchesPerSubmission).toBeGreaterThanOrEqual(1);
  });
});
