/**
 * The validate entry refuses options that would make a run do nothing and pass: one invalid field
 * at a time, with E_INVALIDARG naming the run and the option, beside a valid control.
 */
import { describe, expect } from 'vitest';
import { runDifferential, runScenarios, runValidation } from '../../../../src/validate/index.js';
import { gpuTest } from '../../../harness/gpu-test.js';
import { expectD3D12Rejection } from '../../../shared/expect-d3d12-error.js';

const loose = (value: unknown): never => value as never;

describe('validate: options', () => {
  gpuTest('seed, ops, tier, plant and gpuDevice are checked before anything runs', async ({ device }) => {
    const good = { gpuDevice: device, seed: 5, ops: 20, tier: 3 as const };
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['ops', { ops: NaN }, /must be a positive integer/],
      ['ops', { ops: undefined }, /must be a positive integer/],
      ['ops', { ops: 0 }, /must be a positive integer/],
      ['ops', { ops: '500' }, /must be a positive integer/],
      ['seed', { seed: 1.5 }, /must be an integer from 0 to 2\^32 - 1/],
      ['seed', { seed: -1 }, /must be an integer/],
      ['seed', { seed: 2 ** 32 }, /must be an integer/],
      ['tier', { tier: 5 }, /must be 1, 2, 3 or 4/],
      ['plant', { plant: 'everything' }, /must be one of corrupt-entry, drop-write/],
      ['gpuDevice', { gpuDevice: null }, /must be a WebGPU device/],
    ];
    for (const [argument, change, message] of cases) {
      for (const [call, run] of [
        ['runDifferential', runDifferential],
        ['runValidation', runValidation],
      ] as const) {
        await expectD3D12Rejection(run(loose({ ...good, ...change })), {
          call,
          argument: `options.${argument}`,
          message,
        });
      }
    }
    await expectD3D12Rejection(runScenarios(loose({ gpuDevice: device, tier: 0 })), {
      call: 'runScenarios',
      argument: 'options.tier',
    });
    // Control: the same options, valid, run and pass.
    const result = await runDifferential(good);
    expect([result.ops, result.mismatches]).toEqual([20, []]);
    expect(result.bytesCompared).toBeGreaterThan(0);
  });
});
