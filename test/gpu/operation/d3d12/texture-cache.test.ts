/**
 * The texture cache never shows a stale texel (Node.js + Dawn), through the shared scenario
 * (src/validate/scenarios/texture-cache.ts; the browser project runs the same one): RGBA8 and BGRA8
 * textures sampled until cached, then written by copyTiles, copyTextureRegion, copyBufferRegion into
 * an aliasing buffer, compute stores, UAV clears, CPU writes through map(), remaps (another heap,
 * NULL, back), paging and heap reuse, and sampled right after and after the refill against the CPU
 * model (stores also in their own submission); a descriptor view, an R32_FLOAT control, a device
 * without a cache and one of 2 slots.
 */
import { describe } from 'vitest';
import { gpuTest } from '../../../harness/gpu-test.js';
import { expectChecks } from '../../../shared/expect-checks.js';
import { textureCache } from '../../../../src/validate/index.js';

describe('the texture cache against the CPU model after every write path (Node.js + Dawn)', () => {
  gpuTest(
    'copies, aliasing buffers, stores, UAV clears, CPU writes, remaps, NULL tiles, paging and heap reuse; BGRA8, views, R32_FLOAT, other cache sizes',
    async ({ device }) => {
      expectChecks(await textureCache(device));
    },
    // Near the project's 60 s on a 2-core machine beside another gpu file since the stores sampled
    // in their own submission joined (over it beside a benchmark run).
    180_000,
  );
});
