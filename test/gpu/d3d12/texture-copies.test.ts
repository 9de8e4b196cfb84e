/**
 * copyTextureRegion, getCopyableFootprints and discardResource moving real data (Node.js + Dawn),
 * through the shared scenarios (src/validate/scenarios/texture-copies.ts; the browser project runs
 * the same ones): every mip and slice of committed, placed and reserved textures, boxes, texture to
 * texture, BC formats, d3d12_tex2d_load reads, NULL tiles at each tier and evicted-heap faults,
 * every byte against the CPU's element model.
 */
import { describe } from 'vitest';
import { gpuTest } from '../../harness/gpu-test.js';
import { textureCopies, textureCopyTiers } from '../../../src/validate/index.js';
import { expectChecks } from '../../shared/expect-checks.js';

describe('texture data through copyTextureRegion matches the CPU model (Node.js + Dawn)', () => {
  gpuTest('every subresource of committed, placed and reserved textures; boxes; texture to texture; BC; d3d12_tex2d_load; discardResource', async ({ device }) => {
    expectChecks(await textureCopies(device));
  });
  for (const tier of [1, 2] as const) {
    gpuTest(`tier ${tier}: NULL tiles drop writes and read as the tier says; an evicted heap faults, named after the copy`, async ({ device }) => {
      expectChecks(await textureCopyTiers(device, { tiledResourcesTier: tier }));
    });
  }
});
