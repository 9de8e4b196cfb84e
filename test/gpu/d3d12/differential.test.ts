/**
 * Differential test (Node.js + Dawn): ≥1,000 seeded random operations on the GPU and on the CPU
 * reference executor, all memory compared byte for byte at random checkpoints and at the end
 * (test/shared/differential/). Set D3D12_DIFFERENTIAL_SEED to run one more seed.
 */
import { describe, expect } from 'vitest';
import { gpuTest } from '../../harness/gpu-test.js';
import { describeFailure, parseSeed, runDifferential, type DifferentialSummary } from '../../shared/differential/operations.js';

const OPERATIONS = 1000;

function expectDifferentialPass(summary: DifferentialSummary): void {
  const failure = describeFailure(summary);
  if (failure) console.error(failure);
  expect(failure, failure).toBeUndefined();
  expect(summary.operations).toBeGreaterThanOrEqual(OPERATIONS);
  expect(summary.checkpoints).toBeGreaterThan(1);
}

const seeds: [number, 2 | 3][] = [
  [1, 3],
  [0x5eed2, 2],
  [20250917, 3],
];
const fromEnvironment = parseSeed(process.env.D3D12_DIFFERENTIAL_SEED);
if (fromEnvironment !== undefined) seeds.push([fromEnvironment, 3]);

describe('differential: random operations on the GPU match the CPU reference executor (Node.js + Dawn)', () => {
  for (const [seed, tier] of seeds) {
    gpuTest(`seed ${seed}, tier ${tier}, ${OPERATIONS} operations`, async ({ device }) => {
      expectDifferentialPass(await runDifferential(device, { seed, operations: OPERATIONS, tiledResourcesTier: tier }));
    });
  }
});
