/**
 * Texture data in headless Chromium: texel stores and UAV clears, the same shared scenarios as the
 * gpu project runs (test/shared/texel-stores.ts and texture-clears.ts against the CPU layout model;
 * src/validate/scenarios/uav-clear-buffers.ts and uav-clear-textures.ts through the public API).
 */
import { describe } from 'vitest';
import { browserTest } from '../../../harness/browser/browser-test.js';
import { expectChecks } from '../../../shared/expect-checks.js';
import type { Check } from '../../../../src/validate/index.js';

const SCENARIO = 'test/browser/pages/scenario.page.ts';
const TEXTURE_DATA = 'test/browser/pages/texture-data.page.ts';

describe('texel stores match the CPU layout model (headless Chromium)', () => {
  for (const tier of [1, 2, 4] as const) {
    browserTest(
      `tier ${tier}: tile edges, the packed tail, array slices, NULL tiles, out of range, a faulting store`,
      async ({ runPage }) => {
        expectChecks(await runPage<Check[]>(TEXTURE_DATA, { scenario: 'texelStores', tier }));
      },
    );
  }
});

describe('UAV clears (headless Chromium)', () => {
  browserTest(
    'textures against the CPU layout model: every texel size, standard tiles and packed tails, rectangles, slices, 1D, committed, Texture3D views',
    async ({ runPage }) => {
      expectChecks(await runPage<Check[]>(TEXTURE_DATA, { scenario: 'textureClears' }));
    },
  );
  for (const tier of [1, 2] as const) {
    browserTest(
      `buffers at tier ${tier}: raw, typed and structured views, rectangles, NULL tiles, a fault attributed to the clear`,
      async ({ runPage }) => {
        expectChecks(
          await runPage<Check[]>(SCENARIO, { scenario: 'uavClearBuffers', options: { tiledResourcesTier: tier } }),
        );
      },
    );
    browserTest(
      `reserved textures at tier ${tier}: whole and partial clears over NULL tiles, texel by texel`,
      async ({ runPage }) => {
        expectChecks(
          await runPage<Check[]>(SCENARIO, { scenario: 'uavClearTextures', options: { tiledResourcesTier: tier } }),
        );
      },
    );
  }
  browserTest(
    "tier 4: every (mip, slice) of a 256² array of 4 slices with 9 mips holds its own value; each slice's tail its own",
    async ({ runPage }) => {
      expectChecks(
        await runPage<Check[]>(SCENARIO, { scenario: 'uavClearTextures', options: { tiledResourcesTier: 4 } }),
      );
    },
  );
});
