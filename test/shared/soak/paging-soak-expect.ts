/**
 * What a passing paging soak (test/shared/soak/paging-soak.ts) must show, shared by the gpu and
 * browser tests: no difference and no error, the operation count, 4x over-commit, every object read
 * at every checkpoint, paging in both directions, and every operation kind and order exercised.
 */
import { expect } from 'vitest';
import { describePagingSoakFailure, type PagingSoakSummary } from './paging-soak-report.js';

/** Kinds every run of 2,000 operations must contain. */
const KINDS = [
  'managerExecute',
  'queueExecute',
  'copyBufferRegion',
  'copyTilesToTiled',
  'copyTilesToBuffer',
  'dispatch',
  'cpuWrite',
  'cpuWriteNoRange',
  'cpuRead',
  'mapPersistent',
  'cpuWritePersistent',
  'unmapPersistent',
  'evict',
  'makeResident',
  'enqueueMakeResident',
  'updateTileMappings',
];

export function expectPagingSoakPass(summary: PagingSoakSummary, operations: number): void {
  const failure = describePagingSoakFailure(summary);
  if (failure) console.error(failure);
  expect(failure, failure).toBeUndefined();
  expect(summary.removedReason).toBe('S_OK');
  expect(summary.bytesDiffering).toBe(0);
  expect(summary.operations).toBeGreaterThanOrEqual(operations);
  expect(summary.checkpoints).toBeGreaterThan(1);
  expect(summary.budgetMultiple).toBeGreaterThanOrEqual(4);
  expect(summary.maxLocalUsage).toBeLessThanOrEqual(summary.localPool);
  // Every buffer and heap at every checkpoint: more than all pageable bytes each time.
  expect(summary.bytesCompared.gpu).toBeGreaterThan(summary.checkpoints * summary.pageableBytes);
  expect(summary.bytesCompared.cpu).toBeGreaterThan(0);
  if (operations >= 2000) {
    for (const kind of KINDS) expect(summary.counts[kind] ?? 0, kind).toBeGreaterThan(0);
    expect(summary.orders.writeThenEvict).toBeGreaterThan(0);
    expect(summary.orders.writeEvictRestoreRead).toBeGreaterThan(0);
    expect(summary.paging.evictions).toBeGreaterThan(operations / 10);
    expect(summary.paging.restores).toBeGreaterThan(operations / 10);
  }
}

/** D3D12_PAGING_SOAK_SEED / D3D12_PAGING_SOAK_OPS (/ D3D12_PAGING_SOAK_SERIALIZE): one more seed, or undefined. */
export function parsePagingSoakEnvironment(
  seedText: string | undefined,
  opsText: string | undefined,
  defaultOperations: number,
  serializeText?: string,
): { seed: number; operations: number; serialize: boolean } | undefined {
  if (seedText === undefined || seedText.trim() === '') return undefined;
  const seed = Number(seedText.trim());
  if (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 32)
    throw new Error(`D3D12_PAGING_SOAK_SEED must be an integer in [0, 2^32), got ${JSON.stringify(seedText)}`);
  const operations = opsText === undefined || opsText.trim() === '' ? defaultOperations : Number(opsText.trim());
  if (!Number.isInteger(operations) || operations < 1)
    throw new Error(`D3D12_PAGING_SOAK_OPS must be a positive integer, got ${JSON.stringify(opsText)}`);
  return { seed, operations, serialize: serializeText === '1' };
}
