/**
 * Residency soak in headless Chromium: about 4x the LOCAL budget in tracked heaps, committed and
 * reserved buffers; seeded random command lists through the residency manager, each with a set of
 * exactly what it touches; every byte of every buffer and heap compared with a CPU copy at random
 * checkpoints and at the end (test/shared/soak/). Set D3D12_SOAK_SEED to run one more seed.
 */
import { describe, expect } from 'vitest';
import { browserTest } from '../../../harness/browser/browser-test.js';
import { parseSeed } from '../../../../src/validate/index.js';
import {
  describeSoakFailure,
  describeSoakRun,
  type SoakOptions,
  type SoakSummary,
} from '../../../shared/soak/residency-soak.js';

const PAGE = 'test/browser/pages/residency-soak.page.ts';
const LISTS = 150;

const seeds = [0xb0a7];
const fromEnvironment = parseSeed(process.env.D3D12_SOAK_SEED, 'D3D12_SOAK_SEED');
if (fromEnvironment !== undefined) seeds.push(fromEnvironment);

describe('residency soak: no byte lost or changed while the manager pages 4x its budget (headless Chromium)', () => {
  for (const seed of seeds) {
    browserTest(`seed ${seed}, ${LISTS} lists`, async ({ runPage }) => {
      const args: SoakOptions = { seed, lists: LISTS, checkpoints: 2 };
      const summary = await runPage<SoakSummary>(PAGE, args);
      console.log(describeSoakRun(summary));
      const failure = describeSoakFailure(summary);
      if (failure) console.error(failure);
      expect(failure, failure).toBeUndefined();
      expect(summary.removedReason).toBe('S_OK');
      expect(summary.lists).toBe(LISTS);
      expect(summary.checkpoints).toBeGreaterThan(1);
      expect(summary.budgetMultiple).toBeGreaterThanOrEqual(4);
      expect(summary.maxLocalUsage).toBeLessThanOrEqual(summary.localPool);
      expect(summary.bytesCompared).toBeGreaterThan(summary.checkpoints * summary.trackedBytes);
      expect(summary.residency.evictions).toBeGreaterThan(LISTS / 2);
      expect(summary.residency.madeResident).toBeGreaterThan(LISTS / 2);
      expect(summary.paging.restores).toBeGreaterThan(LISTS / 2);
    });
  }
});
