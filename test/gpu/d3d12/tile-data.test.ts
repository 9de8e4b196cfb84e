import { describe, expect } from 'vitest';
import { gpuTest } from '../../harness/gpu-test.js';
import { reservedBufferData } from '../../shared/scenarios/reserved-buffer-data.js';
import type { Check } from '../../shared/page-table-model.js';

export function expectChecks(checks: Check[]): void {
  expect(checks.length).toBeGreaterThan(0);
  for (const c of checks) {
    expect(c.firstDifference, `${c.name}: byte ${c.firstDifference} of ${c.length} is ${c.actual}, predicted ${c.expected}`).toBe(-1);
  }
}

describe('reserved buffer data matches the CPU page table (Node.js + Dawn)', () => {
  for (const tier of [1, 2, 3] as const) {
    gpuTest(`every range flag, remap, copyTileMappings, copyTiles: tier ${tier}`, async ({ device }) => {
      expectChecks(await reservedBufferData(device, { tiledResourcesTier: tier }));
    });
  }
});
