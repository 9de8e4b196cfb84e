import { describe } from 'vitest';
import { gpuTest } from '../../../harness/gpu-test.js';
import {
  computeTiers,
  memorySemantics,
  reservedBufferData,
  reservedTextureData,
} from '../../../../src/validate/index.js';
import { expectChecks } from '../../../shared/expect-checks.js';

describe('reserved texture data matches the CPU page table (Node.js + Dawn)', () => {
  gpuTest('2D boxes, spills into later mips and the tail, 3D boxes; remap', async ({ device }) => {
    expectChecks(await reservedTextureData(device));
  });
});

describe('reserved buffer data matches the CPU page table (Node.js + Dawn)', () => {
  for (const tier of [1, 2, 3] as const) {
    gpuTest(`every range flag, remap, copyTileMappings, copyTiles: tier ${tier}`, async ({ device }) => {
      expectChecks(await reservedBufferData(device, { tiledResourcesTier: tier }));
    });
  }
});

describe('memory semantics (Node.js + Dawn)', () => {
  gpuTest('queue order of mapping changes, creation never clears, scattered physical pages', async ({ device }) => {
    expectChecks(await memorySemantics(device));
  });
});

describe("compute shaders read tiles with the tier's semantics (Node.js + Dawn, shared scenario)", () => {
  for (const tier of [1, 2, 3] as const) {
    gpuTest(`tier ${tier}: d3d12_load_checked over a partially mapped reserved buffer`, async ({ device }) => {
      expectChecks(await computeTiers(device, { tiledResourcesTier: tier }));
    });
  }
});
