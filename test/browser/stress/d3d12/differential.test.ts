/**
 * The package's differential run in headless Chromium: ≥1,000 seeded random operations over buffers
 * and 2D/3D reserved textures on the GPU and on the CPU reference, all memory compared byte for byte
 * at random checkpoints and at the end, the GPU page table checked after every operation
 * (src/validate/). Set D3D12_DIFFERENTIAL_SEED to run one more seed.
 */
import { describe, expect } from 'vitest';
import { describeValidationFailure, parseSeed, type ValidationResult } from '../../../../src/validate/index.js';
import { browserTest } from '../../../harness/browser/browser-test.js';
import type { DifferentialPageArgs } from '../../pages/differential.page.js';

const PAGE = 'test/browser/pages/differential.page.ts';
const OPERATIONS = 1000;

const seeds: [number, 2 | 3][] = [[0xb0a710, 3]];
const fromEnvironment = parseSeed(process.env.D3D12_DIFFERENTIAL_SEED, 'D3D12_DIFFERENTIAL_SEED');
if (fromEnvironment !== undefined) seeds.push([fromEnvironment, 3]);

describe('differential: random operations on the GPU match the CPU reference executor (headless Chromium)', () => {
  for (const [seed, tier] of seeds) {
    browserTest(`seed ${seed}, tier ${tier}, ${OPERATIONS} operations`, async ({ runPage }) => {
      const args: DifferentialPageArgs = { seed, ops: OPERATIONS, tier };
      const result = await runPage<ValidationResult>(PAGE, args);
      const failure = describeValidationFailure(result);
      if (failure) console.error(failure);
      expect(failure, failure).toBeUndefined();
      expect(result.ops).toBeGreaterThanOrEqual(OPERATIONS);
      expect(result.checkpoints).toBeGreaterThan(1);
      expect(result.pagesValidated).toBeGreaterThan(10 * OPERATIONS);
    });
  }
});
