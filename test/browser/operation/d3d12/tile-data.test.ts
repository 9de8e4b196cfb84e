import { describe } from 'vitest';
import { browserTest } from '../../../harness/browser/browser-test.js';
import { expectChecks } from '../../../shared/expect-checks.js';
import type { Check, ResidencyBasics } from '../../../../src/validate/index.js';
import { expect } from 'vitest';

const PAGE = 'test/browser/pages/scenario.page.ts';

describe('reserved memory matches the CPU page table (headless Chromium)', () => {
  for (const tier of [1, 3] as const) {
    browserTest(`buffer: every range flag, remap, copyTileMappings, copyTiles: tier ${tier}`, async ({ runPage }) => {
      expectChecks(
        await runPage<Check[]>(PAGE, { scenario: 'reservedBufferData', options: { tiledResourcesTier: tier } }),
      );
    });
  }
  browserTest('textures: 2D boxes, spills into later mips and the tail, 3D boxes; remap', async ({ runPage }) => {
    expectChecks(await runPage<Check[]>(PAGE, { scenario: 'reservedTextureData' }));
  });
});

describe('memory semantics (headless Chromium)', () => {
  browserTest(
    'queue order of mapping changes, creation never clears, scattered physical pages',
    async ({ runPage }) => {
      expectChecks(await runPage<Check[]>(PAGE, { scenario: 'memorySemantics' }));
    },
  );
});

describe("compute shaders read tiles with the tier's semantics (headless Chromium)", () => {
  for (const tier of [1, 2, 3] as const) {
    browserTest(`tier ${tier}: d3d12_load_checked over a partially mapped reserved buffer`, async ({ runPage }) => {
      expectChecks(await runPage<Check[]>(PAGE, { scenario: 'computeTiers', options: { tiledResourcesTier: tier } }));
    });
  }
});

describe('paging keeps every byte; a missing registration is reported (headless Chromium)', () => {
  browserTest('evict/restore round trips, and the planted missing insert', async ({ runPage }) => {
    const result = await runPage<ResidencyBasics>(PAGE, { scenario: 'residencyBasics' });
    expectChecks(result.checks);
    expect(result.removedReason).toBe('DXGI_ERROR_DEVICE_HUNG');
    expect(result.fault).toMatchObject({
      kind: 'read-absent',
      tile: 0,
      resource: 'vertex data',
      heap: 'mesh heap',
      commandIndex: 3,
      commandName: 'dispatch',
    });
    expect(result.fault?.message).toMatch(
      /placed resource #\d+ 'vertex data' tile 0, heap #\d+ 'mesh heap'.*command 3 \(dispatch\) of DIRECT command list #\d+ 'draw meshes'/,
    );
  });
});

describe('CPU writes through map() survive every order of paging (headless Chromium)', () => {
  browserTest(
    'UPLOAD, CUSTOM write-back and write-combine: write/evict/restore orders, faulting reads, map of an evicted heap, ranged writes',
    async ({ runPage }) => {
      expectChecks(await runPage<Check[]>(PAGE, { scenario: 'mapCoherence' }));
    },
  );
});
