/**
 * The package's differential run (d3d12-webgpu/validate: runDifferential) in Node.js + Dawn: ≥1,000
 * seeded random operations over buffers and 2D/3D reserved textures, on the GPU and on the CPU
 * reference, every live resource compared byte for byte at random checkpoints and at the end, and
 * the GPU page table compared with the CPU authority (validateTileMappings) after every operation.
 * Set D3D12_DIFFERENTIAL_SEED to run one more seed. (Moved from test/gpu/d3d12/differential.test.ts
 * with the generator; its assertions kept.)
 */
import { describe, expect } from 'vitest';
import {
  describeValidationFailure,
  parseSeed,
  runDifferential,
  type ValidationResult,
} from '../../../../src/validate/index.js';
import { gpuTest } from '../../../harness/gpu-test.js';

const OPERATIONS = 1000;

function expectDifferentialPass(result: ValidationResult): void {
  const failure = describeValidationFailure(result);
  const message =
    failure &&
    `${failure}\nreproduce: D3D12_DIFFERENTIAL_SEED=${result.seed} npx vitest run --project gpu test/gpu/stress/validate/differential.test.ts`;
  if (message) console.error(message);
  expect(message, message).toBeUndefined();
  expect(result.ops).toBeGreaterThanOrEqual(OPERATIONS);
  expect(result.checkpoints).toBeGreaterThan(1);
  // Every operation was followed by a page-table check, and checkpoints read back megabytes.
  expect(result.pagesValidated).toBeGreaterThan(10 * OPERATIONS);
  expect(result.bytesCompared).toBeGreaterThan(4 << 20);
}

const seeds: [number, 2 | 3][] = [
  [1, 3],
  [0x5eed2, 2],
  [20250917, 3],
];
const fromEnvironment = parseSeed(process.env.D3D12_DIFFERENTIAL_SEED, 'D3D12_DIFFERENTIAL_SEED');
if (fromEnvironment !== undefined) seeds.push([fromEnvironment, 3]);

describe('differential: random operations on the GPU match the CPU reference executor (Node.js + Dawn)', () => {
  for (const [seed, tier] of seeds) {
    gpuTest(`seed ${seed}, tier ${tier}, ${OPERATIONS} operations`, async ({ device }) => {
      const result = await runDifferential({ gpuDevice: device, seed, ops: OPERATIONS, tier });
      expectDifferentialPass(result);
      console.log(
        `[differential] seed ${seed} tier ${tier}: ${result.ops} ops, ${result.bytesCompared} bytes compared, ${result.pagesValidated} pages validated, ${result.checkpoints} checkpoints, ${result.milliseconds} ms`,
      );
    });
  }
});
