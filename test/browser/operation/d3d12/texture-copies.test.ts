/**
 * copyTextureRegion, getCopyableFootprints and discardResource moving real data in headless
 * Chromium, through the same shared scenarios the gpu project runs
 * (src/validate/scenarios/texture-copies.ts, reinterpret-copies.ts), every byte against the CPU's element model.
 */
import { describe } from 'vitest';
import { browserTest } from '../../../harness/browser/browser-test.js';
import { expectChecks } from '../../../shared/expect-checks.js';
import type { Check } from '../../../../src/validate/index.js';

const PAGE = 'test/browser/pages/scenario.page.ts';

describe('texture data through copyTextureRegion matches the CPU model (headless Chromium)', () => {
  browserTest(
    'every subresource of committed, placed and reserved textures; boxes; texture to texture; BC; d3d12_tex2d_load; discardResource',
    async ({ runPage }) => {
      expectChecks(await runPage<Check[]>(PAGE, { scenario: 'textureCopies' }));
    },
  );
  for (const tier of [1, 2] as const) {
    browserTest(
      `tier ${tier}: NULL tiles drop writes and read as the tier says; an evicted heap faults, named after the copy`,
      async ({ runPage }) => {
        expectChecks(
          await runPage<Check[]>(PAGE, { scenario: 'textureCopyTiers', options: { tiledResourcesTier: tier } }),
        );
      },
    );
    browserTest(
      `tier ${tier}: block-compressed ↔ uncompressed copies (copyTextureRegion, copyResource), committed, placed and reserved`,
      async ({ runPage }) => {
        expectChecks(
          await runPage<Check[]>(PAGE, { scenario: 'reinterpretCopies', options: { tiledResourcesTier: tier } }),
        );
      },
    );
  }
});
