/**
 * ClearUnorderedAccessViewUint / Float on Node.js + Dawn, through the shared scenarios
 * (src/validate/scenarios/uav-clear-buffers.ts, uav-clear-textures.ts): buffer views of every kind,
 * NULL tiles at Tiers 1 and 2 (dropped writes, recorded as unmapped writes of the clear), a fault
 * attributed to the clear, and at Tier 4 every (mip, slice) of a 256² × 4 array with 9 mips.
 */
import { describe } from 'vitest';
import { gpuTest } from '../../../harness/gpu-test.js';
import { uavClearBuffers, uavClearTextures } from '../../../../src/validate/index.js';
import { expectChecks } from '../../../shared/expect-checks.js';

describe('UAV clears of buffers (Node.js + Dawn)', () => {
  for (const tier of [1, 2] as const) {
    gpuTest(
      `tier ${tier}: raw, typed and structured views, rectangles, NULL tiles, a fault attributed to the clear`,
      async ({ device }) => {
        expectChecks(await uavClearBuffers(device, { tiledResourcesTier: tier }));
      },
    );
  }
});

describe('UAV clears of reserved textures (Node.js + Dawn)', () => {
  for (const tier of [1, 2] as const) {
    gpuTest(`tier ${tier}: whole and partial clears over NULL tiles, texel by texel`, async ({ device }) => {
      expectChecks(await uavClearTextures(device, { tiledResourcesTier: tier }));
    });
  }
  gpuTest(
    "tier 4: every (mip, slice) of a 256² array of 4 slices with 9 mips holds its own value; each slice's tail its own",
    async ({ device }) => {
      expectChecks(await uavClearTextures(device, { tiledResourcesTier: 4 }));
    },
  );
});
