/**
 * The texture cache never shows a stale texel in headless Chromium, through the same shared scenario
 * the gpu project runs (src/validate/scenarios/texture-cache.ts): textures sampled until cached, then
 * written through every path (copies, aliasing buffers, stores, UAV clears, CPU writes, remaps, NULL
 * tiles, paging, heap reuse) and sampled right after and after the refill against the CPU model.
 */
import { describe } from 'vitest';
import { browserTest } from '../../../harness/browser/browser-test.js';
import { expectChecks } from '../../../shared/expect-checks.js';
import type { Check } from '../../../../src/validate/index.js';

const PAGE = 'test/browser/pages/scenario.page.ts';

describe('the texture cache against the CPU model after every write path (headless Chromium)', () => {
  browserTest(
    'copies, aliasing buffers, stores, UAV clears, CPU writes, remaps, NULL tiles, paging and heap reuse; BGRA8, views, R32_FLOAT, other cache sizes',
    async ({ runPage }) => {
      expectChecks(await runPage<Check[]>(PAGE, { scenario: 'textureCache' }));
    },
  );
});
