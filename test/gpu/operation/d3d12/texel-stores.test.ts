/**
 * Texel stores through the page table (shaders/prelude/texture-stores.wgsl) on Node.js + Dawn: the
 * shared scenario test/shared/texel-stores.ts at Tiers 1 and 2 (NULL tiles: dropped, the Tier's
 * reads) and 4 (arrays with packed mips), every prelude format, against the CPU layout model.
 */
import { describe } from 'vitest';
import { gpuTest } from '../../../harness/gpu-test.js';
import { expectChecks } from '../../../shared/expect-checks.js';
import { texelStores } from '../../../shared/texel-stores.js';

describe('texel stores match the CPU layout model (Node.js + Dawn)', () => {
  for (const tier of [1, 2, 4] as const) {
    gpuTest(
      `tier ${tier}: tile edges, the packed tail, array slices, NULL tiles, out of range, a faulting store`,
      async ({ device }) => {
        expectChecks(await texelStores(device, tier));
      },
    );
  }
});
