import { describe } from 'vitest';
import { browserTest } from '../../harness/browser/browser-test.js';
import { expectChecks } from '../../shared/expect-checks.js';
import type { Check } from '../../shared/page-table-model.js';

const PAGE = 'test/browser/pages/scenario.page.ts';

describe('reserved memory matches the CPU page table (headless Chromium)', () => {
  for (const tier of [1, 3] as const) {
    browserTest(`buffer: every range flag, remap, copyTileMappings, copyTiles: tier ${tier}`, async ({ runPage }) => {
      expectChecks(await runPage<Check[]>(PAGE, { scenario: 'reservedBufferData', options: { tiledResourcesTier: tier } }));
    });
  }
  browserTest('textures: 2D boxes, spills into later mips and the tail, 3D boxes; remap', async ({ runPage }) => {
    expectChecks(await runPage<Check[]>(PAGE, { scenario: 'reservedTextureData' }));
  });
});

describe('memory semantics (headless Chromium)', () => {
  browserTest('queue order of mapping changes, creation never clears, scattered physical pages', async ({ runPage }) => {
    expectChecks(await runPage<Check[]>(PAGE, { scenario: 'memorySemantics' }));
  });
});

describe('compute shaders read tiles with the tier\'s semantics (headless Chromium)', () => {
  for (const tier of [1, 2, 3] as const) {
    browserTest(`tier ${tier}: d3d12_load_checked over a partially mapped reserved buffer`, async ({ runPage }) => {
      expectChecks(await runPage<Check[]>(PAGE, { scenario: 'computeTiers', options: { tiledResourcesTier: tier } }));
    });
  }
});
