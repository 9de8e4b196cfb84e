/**
 * Paging soak (Node.js + Dawn), issue 11's acceptance point 2: at least 2,000 seeded operations per
 * seed interleave CPU writes through map()/unmap(), GPU copies and dispatch writes, the device's
 * evict / makeResident / enqueueMakeResident, residency-manager batches and updateTileMappings at
 * 4x over-commit of the LOCAL budget; every byte of every buffer and heap is compared with a CPU
 * model at checkpoints (test/shared/soak/paging-soak.ts). Two more tests flip one model byte (GPU
 * memory, CPU-visible memory) and see it reported, byte and value, so the comparison can fail.
 *
 * To run one more seed: D3D12_PAGING_SOAK_SEED=n (and D3D12_PAGING_SOAK_OPS=count;
 * D3D12_PAGING_SOAK_SERIALIZE=1 waits for the GPU after every operation, which tells an emulator race
 * from a plain data error).
 */
import { describe, expect } from 'vitest';
import { gpuTest } from '../../../harness/gpu-test.js';
import {
  describePagingSoakFailure,
  describePagingSoakRun,
  runPagingSoak,
  type PagingSoakOptions,
  type PagingSoakSummary,
} from '../../../shared/soak/paging-soak.js';
import { expectPagingSoakPass, parsePagingSoakEnvironment } from '../../../shared/soak/paging-soak-expect.js';

const OPERATIONS = 2000;
const TIMEOUT_MS = 120_000;

async function soak(device: GPUDevice, options: PagingSoakOptions): Promise<PagingSoakSummary> {
  const summary = await runPagingSoak(device, options);
  console.log(describePagingSoakRun(summary));
  return summary;
}

describe('paging soak: CPU writes, copies, dispatches, evict/makeResident, manager batches and tile remaps at 4x over-commit (Node.js + Dawn)', () => {
  for (const seed of [0x9a61, 20260311, 7]) {
    gpuTest(`seed ${seed}, ${OPERATIONS} operations`, { timeout: TIMEOUT_MS }, async ({ device }) => {
      expectPagingSoakPass(await soak(device, { seed, operations: OPERATIONS }), OPERATIONS);
    });
  }

  for (const [seed, corrupt] of [
    [11, 'DEFAULT'],
    [12, 'CPU'],
  ] as const) {
    gpuTest(
      `a flipped model byte (${corrupt} memory) is reported at the next checkpoint, seed ${seed}`,
      { timeout: TIMEOUT_MS },
      async ({ device }) => {
        const summary = await runPagingSoak(device, { seed, operations: 150, checkpoints: 1, corrupt });
        expect(summary.ok).toBe(false);
        expect(summary.error).toBeUndefined();
        expect(summary.corrupted).toBeDefined();
        expect(summary.difference?.kind).toBe('gpu');
        expect(summary.difference?.location).toBe(summary.corrupted?.location);
        expect(summary.difference?.actual).toBe(summary.corrupted?.from);
        expect(summary.difference?.expected).toBe(summary.corrupted?.to);
        // Found on the GPU's side, and for CPU-visible memory through map() as well.
        expect(summary.differingByPath.gpu).toBeGreaterThan(0);
        if (corrupt === 'CPU') expect(summary.differingByPath.cpu).toBeGreaterThan(0);
        expect(describePagingSoakFailure(summary)).toContain(summary.corrupted?.location);
      },
    );
  }

  const extra = parsePagingSoakEnvironment(
    process.env.D3D12_PAGING_SOAK_SEED,
    process.env.D3D12_PAGING_SOAK_OPS,
    OPERATIONS,
    process.env.D3D12_PAGING_SOAK_SERIALIZE,
  );
  if (extra) {
    gpuTest(
      `D3D12_PAGING_SOAK_SEED ${extra.seed}, ${extra.operations} operations`,
      { timeout: 10 * TIMEOUT_MS },
      async ({ device }) => {
        expectPagingSoakPass(await soak(device, extra), extra.operations);
      },
    );
  }
});
