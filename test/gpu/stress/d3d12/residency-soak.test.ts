/**
 * Residency soak (Node.js + Dawn): with about 4x the LOCAL budget in tracked heaps, committed and
 * reserved buffers, hundreds of seeded random command lists run through the residency manager, each
 * with a residency set of exactly what it touches; every byte of every buffer and heap is compared
 * with a CPU copy at random checkpoints and at the end (test/shared/soak/). One run more keeps the
 * debug budget at 0 (maximum pressure: every batch pages).
 *
 * To run one more seed: D3D12_SOAK_SEED=n (and optionally D3D12_SOAK_DEBUG_BUDGET=bytes,
 * D3D12_SOAK_LISTS=count); a failure prints the line that reproduces it.
 */
import { describe, expect } from 'vitest';
import { gpuTest } from '../../../harness/gpu-test.js';
import { parseSeed } from '../../../../src/validate/index.js';
import {
  describeSoakFailure,
  describeSoakRun,
  runResidencySoak,
  type SoakOptions,
  type SoakSummary,
} from '../../../shared/soak/residency-soak.js';

const LISTS = 320;
const TIMEOUT_MS = 120_000;

function expectSoakPass(summary: SoakSummary, lists: number): void {
  const failure = describeSoakFailure(summary);
  if (failure) console.error(failure);
  expect(failure, failure).toBeUndefined();
  expect(summary.removedReason).toBe('S_OK');
  expect(summary.lists).toBe(lists);
  expect(summary.checkpoints).toBeGreaterThan(1);
  expect(summary.budgetMultiple).toBeGreaterThanOrEqual(4);
  expect(summary.maxLocalUsage).toBeLessThanOrEqual(summary.localPool);
  // Every buffer and every heap at every checkpoint: more than the tracked bytes each time.
  expect(summary.bytesCompared).toBeGreaterThan(summary.checkpoints * summary.trackedBytes);
  // Paging, a lot of it, and batches of several lists, some of which split.
  expect(summary.residency.evictions).toBeGreaterThan(lists / 2);
  expect(summary.residency.madeResident).toBeGreaterThan(lists / 2);
  expect(summary.paging.evictions).toBeGreaterThan(lists / 2);
  expect(summary.paging.restores).toBeGreaterThan(lists / 2);
  expect(summary.multiListCalls).toBeGreaterThan(lists / 10);
  expect(summary.residency.splits).toBeGreaterThan(0);
}

/** At a debug budget of 0, every object outside a call's sets is evicted by the end of the call. */
function expectMaximumPressure(summary: SoakSummary): void {
  expect(summary.residentOutsideBatch).toBe(0);
  expect(summary.pagedCalls).toBeGreaterThanOrEqual(0.9 * summary.calls);
}

async function soak(device: GPUDevice, options: SoakOptions): Promise<SoakSummary> {
  const summary = await runResidencySoak(device, options);
  console.log(describeSoakRun(summary));
  return summary;
}

describe('residency soak: no byte lost or changed while the manager pages 4x its budget (Node.js + Dawn)', () => {
  for (const seed of [0x50a4, 20260101]) {
    gpuTest(`seed ${seed}, ${LISTS} lists`, { timeout: TIMEOUT_MS }, async ({ device }) => {
      expectSoakPass(await soak(device, { seed, lists: LISTS }), LISTS);
    });
  }

  gpuTest(`debug budget 0 (every batch pages), seed 7, ${LISTS} lists`, { timeout: TIMEOUT_MS }, async ({ device }) => {
    const summary = await soak(device, { seed: 7, lists: LISTS, debugBudget: 0 });
    expectSoakPass(summary, LISTS);
    expectMaximumPressure(summary);
  });

  const seed = parseSeed(process.env.D3D12_SOAK_SEED, 'D3D12_SOAK_SEED');
  if (seed !== undefined) {
    const budget = process.env.D3D12_SOAK_DEBUG_BUDGET;
    const debugBudget = budget === undefined || budget === '' ? null : Number(budget);
    const lists = Number(process.env.D3D12_SOAK_LISTS ?? LISTS);
    gpuTest(
      `D3D12_SOAK_SEED ${seed}, debug budget ${debugBudget ?? 'none'}, ${lists} lists`,
      { timeout: 10 * TIMEOUT_MS },
      async ({ device }) => {
        const summary = await soak(device, { seed, lists, debugBudget });
        expectSoakPass(summary, lists);
        if (debugBudget === 0) expectMaximumPressure(summary);
      },
    );
  }
});
