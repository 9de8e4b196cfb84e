/**
 * Differential test in headless Chromium: ≥1,000 seeded random operations on the GPU and on the CPU
 * reference executor, all memory compared byte for byte at random checkpoints and at the end
 * (test/shared/differential/). Set D3D12_DIFFERENTIAL_SEED to run one more seed.
 */
import { describe, expect } from 'vitest';
import { browserTest } from '../../harness/browser/browser-test.js';
import { describeFailure, parseSeed, type DifferentialOptions, type DifferentialSummary } from '../../shared/differential/operations.js';

const PAGE = 'test/browser/pages/differential.page.ts';
const OPERATIONS = 1000;

const seeds: [number, 2 | 3][] = [[0xb0a710, 3]];
const fromEnvironment = parseSeed(process.env.D3D12_DIFFERENTIAL_SEED);
if (fromEnvironment !== undefined) seeds.push([fromEnvironment, 3]);

describe('differential: random operations on the GPU match the CPU reference executor (headless Chromium)', () => {
  for (const [seed, tier] of seeds) {
    browserTest(`seed ${seed}, tier ${tier}, ${OPERATIONS} operations`, async ({ runPage }) => {
      const args: DifferentialOptions = { seed, operations: OPERATIONS, tiledResourcesTier: tier };
      const summary = await runPage<DifferentialSummary>(PAGE, args);
      const failure = describeFailure(summary);
      if (failure) console.error(failure);
      expect(failure, failure).toBeUndefined();
      expect(summary.operations).toBeGreaterThanOrEqual(OPERATIONS);
      expect(summary.checkpoints).toBeGreaterThan(1);
    });
  }
});
