/**
 * ObjectTable (src/residency/object-table.ts): the residency manager's per-object records in one
 * Float64Array. A record starts in the never-used state, an index given back is handed out again
 * with a fresh record, growing keeps every record, and the flags word keeps the resident bit, the
 * segment and the last use's fence apart.
 */
import { describe, expect, test } from 'vitest';
import type { Fence } from '../../../../src/d3d12/fence.js';
import {
  BATCH_LOG,
  FENCE_UNIT,
  FLAGS,
  GATHERED,
  LAST_BATCH,
  LAST_USE_VALUE,
  LAST_USED_MS,
  MEAN_GAP,
  CHARGED,
  EPOCH,
  FREQUENCY,
  IN_USE,
  NON_LOCAL_BIT,
  ObjectTable,
  POLICY_RECORD,
  PREV_END,
  PREV_START,
  RECORD,
  RESIDENT,
  SECOND_SLOT,
  SHADOWS,
  SIZE,
  STRETCH_START,
  TRACKED_AT,
  USE_STAMP,
} from '../../../../src/residency/object-table.js';

const record = (table: ObjectTable, index: number): number[] =>
  Array.from(table.data.subarray(index * RECORD, (index + 1) * RECORD));
const policyRecord = (table: ObjectTable, index: number): number[] =>
  Array.from(table.policy.subarray(index * POLICY_RECORD, (index + 1) * POLICY_RECORD));
/**
 * A policy record in the never-used state: no stretches, in no shadow, tracked from batch 0, both
 * slots of counts for no epoch and empty, nothing charged.
 */
const FRESH_POLICY = [-1, -1, -1, 0, 0, -1, -Infinity, -Infinity, -1, -Infinity, -Infinity, -1];
const fakeFence = (name: string): Fence => ({ name }) as unknown as Fence;

describe('ObjectTable', () => {
  test('the slots are eight distinct places in one 64-byte record', () => {
    const slots = [SIZE, FLAGS, LAST_BATCH, MEAN_GAP, USE_STAMP, LAST_USED_MS, LAST_USE_VALUE, GATHERED];
    expect(new Set(slots).size).toBe(RECORD);
    expect(Math.max(...slots)).toBe(RECORD - 1);
    expect(RECORD * Float64Array.BYTES_PER_ELEMENT).toBe(64);
  });

  test('the policy slots are twelve distinct places in their own record', () => {
    const counts = [EPOCH, FREQUENCY, IN_USE];
    const slots = [STRETCH_START, PREV_START, PREV_END, SHADOWS, TRACKED_AT, CHARGED, ...counts];
    slots.push(...counts.map((field) => field + SECOND_SLOT));
    expect(new Set(slots).size).toBe(POLICY_RECORD);
    expect(Math.max(...slots)).toBe(POLICY_RECORD - 1);
  });

  test('alloc: dense indices from 0, each record in the never-used state', () => {
    const table = new ObjectTable();
    expect([table.alloc(65536, false, true), table.alloc(131072, true, false)]).toEqual([0, 1]);
    // size, flags, last batch -1, mean gap 0, stamp 0, last used -Infinity, value 0, mark 0
    expect(record(table, 0)).toEqual([65536, RESIDENT, -1, 0, 0, -Infinity, 0, 0]);
    expect(record(table, 1)).toEqual([131072, NON_LOCAL_BIT, -1, 0, 0, -Infinity, 0, 0]);
    expect([policyRecord(table, 0), policyRecord(table, 1)]).toEqual([FRESH_POLICY, FRESH_POLICY]);
    expect(table.highWater).toBe(2);
    expect([table.isResident(0), table.isNonLocal(0), table.isResident(1), table.isNonLocal(1)]).toEqual([
      true,
      false,
      false,
      true,
    ]);
    expect(table.lastUseFence(0)).toBeUndefined();
  });

  test('release: the index is handed out again, with its record reset', () => {
    const table = new ObjectTable();
    const a = table.alloc(1, false, true);
    table.alloc(2, false, true);
    table.data.fill(7, a * RECORD, (a + 1) * RECORD);
    table.policy.fill(7, a * POLICY_RECORD, (a + 1) * POLICY_RECORD);
    table.release(a);
    // Free: its shadow bits say so (the shadow caches skip it).
    expect(table.policy[a * POLICY_RECORD + SHADOWS]).toBe(-1);
    expect(table.alloc(3, true, false)).toBe(a);
    expect(record(table, a)).toEqual([3, NON_LOCAL_BIT, -1, 0, 0, -Infinity, 0, 0]);
    expect(policyRecord(table, a)).toEqual(FRESH_POLICY);
    expect(table.highWater).toBe(2);
    // Nothing free: a new index.
    expect(table.alloc(4, false, false)).toBe(2);
  });

  test('growing keeps every record (past the first capacity, several times)', () => {
    const table = new ObjectTable();
    const first = table.capacity;
    const n = first * 5 + 3;
    for (let i = 0; i < n; i++) {
      const index = table.alloc(i, i % 2 === 1, i % 3 === 0);
      table.data[index * RECORD + USE_STAMP] = 1000 + i;
      table.policy[index * POLICY_RECORD + FREQUENCY] = 2000 + i;
    }
    expect(table.capacity).toBeGreaterThanOrEqual(n);
    expect(table.data.length).toBe(table.capacity * RECORD);
    expect(table.policy.length).toBe(table.capacity * POLICY_RECORD);
    // Indices never handed out are free: -1 shadow bits.
    expect(table.policy[n * POLICY_RECORD + SHADOWS]).toBe(-1);
    for (let i = 0; i < n; i++) {
      expect([
        table.data[i * RECORD + SIZE],
        table.data[i * RECORD + USE_STAMP],
        table.isNonLocal(i),
        table.isResident(i),
      ]).toEqual([i, 1000 + i, i % 2 === 1, i % 3 === 0]);
      expect([table.policy[i * POLICY_RECORD + FREQUENCY], table.policy[i * POLICY_RECORD + SHADOWS]]).toEqual([
        2000 + i,
        0,
      ]);
    }
  });

  test('flags: the resident bit, the segment and the fence change independently', () => {
    const table = new ObjectTable();
    const fences = [fakeFence('a'), fakeFence('b')];
    const ids = fences.map((fence) => table.addFence(fence));
    expect(ids).toEqual([1, 2]);
    const i = table.alloc(1, true, false);
    const at = i * RECORD + FLAGS;
    table.data[at] = ObjectTable.withFence(table.data[at] as number, 2);
    expect([table.lastUseFence(i), table.isResident(i), table.isNonLocal(i)]).toEqual([fences[1], false, true]);
    table.setResident(i, true);
    expect([table.lastUseFence(i), table.isResident(i), table.isNonLocal(i)]).toEqual([fences[1], true, true]);
    table.data[at] = ObjectTable.withFence(table.data[at], 1);
    expect([table.lastUseFence(i), table.isResident(i), table.isNonLocal(i)]).toEqual([fences[0], true, true]);
    table.setResident(i, false);
    table.setResident(i, false);
    expect([table.lastUseFence(i), table.isResident(i), table.isNonLocal(i)]).toEqual([fences[0], false, true]);
    expect(table.data[at]).toBe(1 * FENCE_UNIT + NON_LOCAL_BIT);
  });

  test("a large fence id stays exact under the flags' bit operations", () => {
    const table = new ObjectTable();
    const i = table.alloc(1, false, true);
    const id = 2 ** 28 + 5;
    const at = i * RECORD + FLAGS;
    table.data[at] = ObjectTable.withFence(table.data[at] as number, id);
    table.setResident(i, false);
    expect(table.data[at]).toBe(id * FENCE_UNIT);
  });
});

describe('ObjectTable: the last uses through the batch ring', () => {
  /** Uses `index` in `batch` as Gathered.stamp does: the batch logged once, the record given the batch. */
  const use = (table: ObjectTable, indices: number[], batch: number, fenceId: number): void => {
    table.logBatch(batch, batch * 10 + 0.5, fenceId, batch + 7);
    for (const index of indices) table.data[index * RECORD + LAST_BATCH] = batch;
  };

  test('before any use: no time, no value, no fence', () => {
    const table = new ObjectTable();
    const i = table.alloc(1, false, true);
    expect([table.lastUsedMs(i), table.lastUseValue(i), table.lastUseFence(i)]).toEqual([-Infinity, 0, undefined]);
  });

  // Both sides of the ring's reach: a last use still in the ring, one spilled to the record, one
  // exactly a ring's length old, one many rings old, with batches skipped and not.
  test.each([
    { name: 'consecutive batches, 3 rings', batches: 3 * BATCH_LOG, step: 1 },
    { name: 'every 3rd batch number', batches: 3 * BATCH_LOG, step: 3 },
    { name: 'a gap of 5 rings between batches', batches: 12 * BATCH_LOG, step: 5 * BATCH_LOG + 1 },
  ])('$name: every record reads its own last use (time, value, fence), against a plain model', ({ batches, step }) => {
    const table = new ObjectTable();
    const fences = [fakeFence('a'), fakeFence('b'), fakeFence('c')];
    const ids = fences.map((fence) => table.addFence(fence));
    const count = 40;
    const indices = Array.from({ length: count }, (_, i) => table.alloc(i, false, true));
    table.setResident(indices[3] as number, false);
    const model = indices.map(() => ({ ms: -Infinity, value: 0, fence: undefined as Fence | undefined }));
    for (let batch = 1, k = 0; batch <= batches; batch += step, k++) {
      // Object i is used every (i + 1)th logged batch; objects 30.. only in the first few.
      const members = indices.filter((_, i) => k % (i + 1) === 0 && (i < 30 || k < 3));
      const fenceId = ids[k % 3] as number;
      use(table, members, batch, fenceId);
      for (const index of members) model[index] = { ms: batch * 10 + 0.5, value: batch + 7, fence: fences[k % 3] };
      if (k % 97 === 0 || batch + step > batches) {
        for (const index of indices) {
          expect([table.lastUsedMs(index), table.lastUseValue(index), table.lastUseFence(index)]).toEqual([
            model[index]?.ms,
            model[index]?.value,
            model[index]?.fence,
          ]);
        }
      }
    }
    // The spill leaves the other flags alone.
    expect(indices.map((index) => [table.isResident(index), table.isNonLocal(index)])).toEqual(
      indices.map((_, i) => [i !== 3, false]),
    );
  });

  test('an index handed out again starts unused, though its old batch is still in the ring', () => {
    const table = new ObjectTable();
    const fence = table.addFence(fakeFence('a'));
    const i = table.alloc(1, false, true);
    use(table, [i], 5, fence);
    expect(table.lastUsedMs(i)).toBe(50.5);
    table.release(i);
    expect(table.alloc(2, false, true)).toBe(i);
    expect([table.lastUsedMs(i), table.lastUseValue(i), table.lastUseFence(i)]).toEqual([-Infinity, 0, undefined]);
  });
});
