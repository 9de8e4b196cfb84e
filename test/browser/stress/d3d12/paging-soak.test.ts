/**
 * Paging soak in headless Chromium, issue 11's acceptance point 2: at least 2,000 seeded operations
 * per seed interleave CPU writes through map()/unmap(), GPU copies and dispatch writes, the device's
 * evict / makeResident / enqueueMakeResident, residency-manager batches and updateTileMappings at
 * 4x over-commit of the LOCAL budget; every byte of every buffer and heap is compared with a CPU
 * model at checkpoints (test/shared/soak/paging-soak.ts, run by test/browser/pages/paging-soak.page.ts).
 * Set D3D12_PAGING_SOAK_SEED (and D3D12_PAGING_SOAK_OPS, D3D12_PAGING_SOAK_SERIALIZE=1) to run one more seed.
 */
import { describe } from 'vitest';
import { browserTest } from '../../../harness/browser/browser-test.js';
import { expectPagingSoakPass, parsePagingSoakEnvironment } from '../../../shared/soak/paging-soak-expect.js';
import {
  describePagingSoakRun,
  type PagingSoakOptions,
  type PagingSoakSummary,
} from '../../../shared/soak/paging-soak-report.js';

const PAGE = 'test/browser/pages/paging-soak.page.ts';
const OPERATIONS = 2000;

const runs: (PagingSoakOptions & { name: string; operations: number })[] = [0xb5e1, 424242].map((seed) => ({
  name: `seed ${seed}`,
  seed,
  operations: OPERATIONS,
}));
const extra = parsePagingSoakEnvironment(
  process.env.D3D12_PAGING_SOAK_SEED,
  process.env.D3D12_PAGING_SOAK_OPS,
  OPERATIONS,
  process.env.D3D12_PAGING_SOAK_SERIALIZE,
);
if (extra) runs.push({ name: `D3D12_PAGING_SOAK_SEED ${extra.seed}`, ...extra });

describe('paging soak: CPU writes, copies, dispatches, evict/makeResident, manager batches and tile remaps at 4x over-commit (headless Chromium)', () => {
  for (const { name, ...args } of runs) {
    browserTest(`${name}, ${args.operations} operations`, async ({ runPage }) => {
      const summary = await runPage<PagingSoakSummary>(PAGE, args);
      console.log(describePagingSoakRun(summary));
      expectPagingSoakPass(summary, args.operations);
    });
  }
});
