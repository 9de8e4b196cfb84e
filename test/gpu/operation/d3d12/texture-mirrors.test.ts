/**
 * Texture mirrors never show a stale texel (Node.js + Dawn), through the shared scenario
 * (src/validate/scenarios/texture-cache.ts's textureMirrors; the browser project runs the same one):
 * the texture cache's write paths and checks on a device whose reads are served by texture mirrors
 * (src/gpu/texture-mirrors.ts) through the descriptor each dispatch resolves: copyTiles,
 * copyTextureRegion, copyBufferRegion into an aliasing buffer, compute stores, UAV clears, CPU
 * writes through map(), remaps (another heap, NULL, back), paging and heap reuse, each sampled right
 * after and after the refill against the CPU model; stores also sampled in their own submission,
 * after the dispatches' records and summaries were resolved.
 */
import { describe } from 'vitest';
import { gpuTest } from '../../../harness/gpu-test.js';
import { expectChecks } from '../../../shared/expect-checks.js';
import { textureMirrors } from '../../../../src/validate/index.js';

describe('texture mirrors against the CPU model after every write path (Node.js + Dawn)', () => {
  gpuTest(
    'copies, aliasing buffers, stores, UAV clears, CPU writes, remaps, NULL tiles, paging and heap reuse; BGRA8, views, R32_FLOAT',
    async ({ device }) => {
      expectChecks(await textureMirrors(device));
    },
    // About 47 s beside one other gpu file on a 2-core machine since the stores sampled in their own
    // submission joined (75 s beside a benchmark run): past the project's 60 s under CI's load.
    180_000,
  );
});
