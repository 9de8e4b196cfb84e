/**
 * Gathered (src/residency/gather.ts), the residency manager's per-batch passes, on real
 * ResidencySets over a hand-made owner and ObjectTable: each tracked object once in first-seen
 * order, the bytes per segment, objects no longer tracked skipped, a set's sums kept while nothing
 * was evicted, released objects refused, and the stamp matching ReusePredictor.used on plain records.
 */
import { describe, expect, test } from 'vitest';
import type { Pageable } from '../../../../src/emulator/device-residency.js';
import { Gathered } from '../../../../src/residency/gather.js';
import { ManagedObject } from '../../../../src/residency/managed-object.js';
import {
  FREQUENCY,
  LAST_BATCH,
  MEAN_GAP,
  ObjectTable,
  POLICY_RECORD,
  PREV_END,
  PREV_START,
  RECORD,
  STRETCH_START,
  USE_STAMP,
} from '../../../../src/residency/object-table.js';
import { ResidencySet, type SetOwner } from '../../../../src/residency/residency-set.js';
import { ReusePredictor, type ReuseRecord } from '../../../../src/residency/reuse-predictor.js';
import { HALF_LIFE, Popularity } from '../../../../src/residency/popularity.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';
import { TILE } from '../../../shared/d3d12-helpers.js';

/** A manager's worth of state: the table, the objects by pageable, and the counts gather reads. */
class Rig implements SetOwner {
  readonly table = new ObjectTable();
  readonly objects = new Map<unknown, ManagedObject>();
  releases = 0;
  untracks = 0;
  evictions = 0;
  overlaps = 0;
  private fills = 0;
  private mark = 0;
  readonly gathered = new Gathered();

  releaseCount(): number {
    return this.releases;
  }
  managed(pageable: unknown): ManagedObject | undefined {
    return this.objects.get(pageable);
  }
  openFill(): number {
    return ++this.fills;
  }
  closeFill(): void {}

  track(name: string, tiles: number, segment: 'LOCAL' | 'NON_LOCAL' = 'LOCAL', resident = true): ManagedObject {
    const pageable = { label: name, released: false } as unknown as Pageable;
    const managed = new ManagedObject(
      pageable,
      this.table,
      this.table.alloc(tiles * TILE, segment === 'NON_LOCAL', resident),
    );
    this.objects.set(pageable, managed);
    return managed;
  }
  untrack(managed: ManagedObject): void {
    managed.tracked = false;
    this.untracks++;
    this.objects.delete(managed.pageable);
    this.table.release(managed.index);
  }
  set(...members: ManagedObject[]): ResidencySet {
    const set = new ResidencySet(this, 1);
    set.open();
    for (const managed of members) set.insert(managed.pageable);
    set.close();
    return set;
  }
  gather(sets: (ResidencySet | null)[], call: string | null = null): Gathered {
    return this.gathered.gather(this.table, sets, call, this.releases, this.untracks, this.evictions, ++this.mark);
  }
}

const batchOf = (g: Gathered): number[] => Array.from(g.indices.subarray(0, g.count));
const sums = (g: Gathered): number[] => [g.needsLocal, g.needsNonLocal, g.missingLocal, g.missingNonLocal];

describe('Gathered.gather', () => {
  test('one set: its own index array, in insertion order, with the bytes per segment and the missing ones', () => {
    const r = new Rig();
    const [a, b, c] = [r.track('a', 1), r.track('b', 2, 'NON_LOCAL', false), r.track('c', 3, 'LOCAL', false)];
    const set = r.set(c, a, b, a);
    const g = r.gather([null, set]);
    expect(g.indices).toBe(set.indices());
    expect(batchOf(g)).toEqual([c.index, a.index, b.index]);
    expect(sums(g)).toEqual([4 * TILE, 2 * TILE, 3 * TILE, 2 * TILE]);
  });

  test('several sets: each object once, where first seen; null and empty sets add nothing', () => {
    const r = new Rig();
    const [a, b, c, d] = [
      r.track('a', 1),
      r.track('b', 1),
      r.track('c', 1, 'NON_LOCAL'),
      r.track('d', 1, 'LOCAL', false),
    ];
    const g = r.gather([r.set(b, a), null, r.set(), r.set(a, c, b, d)]);
    expect(batchOf(g)).toEqual([b.index, a.index, c.index, d.index]);
    expect(sums(g)).toEqual([3 * TILE, TILE, TILE, 0]);
    // A new gather (a new mark) takes them all again.
    expect(batchOf(r.gather([r.set(a), r.set(a, b)]))).toEqual([a.index, b.index]);
  });

  test('an object no longer tracked is skipped, even once its index belongs to another object', () => {
    const r = new Rig();
    const [a, b] = [r.track('a', 1), r.track('b', 2)];
    const set = r.set(a, b);
    r.untrack(a);
    const reused = r.track('reused', 8, 'NON_LOCAL', false);
    expect(reused.index).toBe(a.index);
    const g = r.gather([set]);
    expect(batchOf(g)).toEqual([b.index]);
    expect(sums(g)).toEqual([2 * TILE, 0, 0, 0]);
    expect(g.indices).not.toBe(set.indices());
  });

  test('a set whose members are all still tracked after an untrack elsewhere is confirmed once, then used as it is', () => {
    const r = new Rig();
    const [a, b, other] = [r.track('a', 1), r.track('b', 1), r.track('other', 1)];
    const set = r.set(a, b);
    r.untrack(other);
    expect(set.untracksChecked).toBe(0);
    expect(r.gather([set]).indices).toBe(set.indices());
    expect(set.untracksChecked).toBe(1);
  });

  test('a set found all resident keeps its sums until the manager evicts something', () => {
    const r = new Rig();
    const [a, b] = [r.track('a', 1), r.track('b', 2, 'NON_LOCAL')];
    const set = r.set(a, b);
    expect(sums(r.gather([set]))).toEqual([TILE, 2 * TILE, 0, 0]);
    expect(set.residentAsOf).toBe(0);
    // Planted: a member not resident with no eviction counted. The kept sums do not look (the
    // manager counts every eviction, so this cannot happen there); once one is counted they do.
    r.table.setResident(b.index, false);
    expect(sums(r.gather([set]))).toEqual([TILE, 2 * TILE, 0, 0]);
    r.evictions++;
    expect(sums(r.gather([set]))).toEqual([TILE, 2 * TILE, 0, 2 * TILE]);
    expect(set.residentAsOf).toBe(0);
    // Resident again: the next gather keeps the sums as of the new count.
    r.table.setResident(b.index, true);
    r.gather([set]);
    expect(set.residentAsOf).toBe(1);
    // Refilling the set forgets them.
    set.open();
    expect(set.residentAsOf).toBe(-1);
  });

  test('with a call named, a set holding a released tracked object is refused once something was released since it opened', () => {
    const r = new Rig();
    const [a, b] = [r.track('a', 1), r.track('b', 1)];
    const set = r.set(a, b);
    (b.pageable as { released: boolean }).released = true;
    // Release count unchanged since the set opened: not looked through.
    expect(batchOf(r.gather([set], 'call'))).toEqual([a.index, b.index]);
    r.releases++;
    expectD3D12Error(() => r.gather([null, set], 'call'), {
      call: 'call',
      argument: 'residencySets[1]',
      message: /holds b, which was released/,
    });
    // Without a call (a half of a split batch) there is no check; an untracked released object is skipped.
    expect(batchOf(r.gather([set]))).toEqual([a.index, b.index]);
    r.untrack(b);
    expect(batchOf(r.gather([set], 'call'))).toEqual([a.index]);
  });

  test('a set looked through with no released member is not looked through again until the next release', () => {
    const r = new Rig();
    const [a, b] = [r.track('a', 1), r.track('b', 1)];
    const set = r.set(a, b);
    r.releases++; // something else was released
    r.gather([set], 'call');
    expect(set.releasesChecked).toBe(1);
    // Planted: b released with the count unchanged (the device always moves it): not looked at.
    (b.pageable as { released: boolean }).released = true;
    expect(batchOf(r.gather([set], 'call'))).toEqual([a.index, b.index]);
    // As on the device: the release moves the count, and the set is refused.
    r.releases++;
    expectD3D12Error(() => r.gather([set], 'call'), { call: 'call', argument: 'residencySets[0]', message: /holds b/ });
    expect(set.releasesChecked).toBe(1);
  });
});

describe('Gathered.stamp', () => {
  test('stamps in batch order with the batch, the time and the sync point; gaps reach the predictor as through used()', () => {
    const r = new Rig();
    const objects = Array.from({ length: 6 }, (_, i) => r.track(`o${i}`, 1));
    const fence = r.table.addFence({} as never);
    const table = new ReusePredictor();
    const plain = new ReusePredictor();
    const records: ReuseRecord[] = objects.map(() => ({ lastBatch: -1, meanGap: 0 }));
    const popularity = new Popularity();
    let counter = 0;
    // Batches use the objects at varying strides, so some are consecutive uses and some are gaps.
    for (let batch = 1; batch <= 40; batch++) {
      const members = objects.filter((_, i) => batch % (i + 1) === 0);
      const g = r.gather([r.set(...members)]);
      counter = g.stamp(r.table, table, popularity, counter, batch, batch * 10, fence, batch + 100);
      for (const managed of members) plain.used(records[objects.indexOf(managed)] as ReuseRecord, batch);
    }
    objects.forEach((managed, i) => {
      const at = managed.index * RECORD;
      expect([r.table.data[at + LAST_BATCH], r.table.data[at + MEAN_GAP]]).toEqual([
        records[i]?.lastBatch,
        records[i]?.meanGap,
      ]);
      expect(table.expectedWait(managed, 41)).toBe(plain.expectedWait(records[i] as ReuseRecord, 41));
    });
    // Batch 40 used o0, o1, o3, o4 (40 % (i + 1) === 0), stamped in that order.
    const last = [0, 1, 3, 4].map((i) => objects[i] as ManagedObject);
    expect(last.map((m) => m.useStamp)).toEqual([counter - 3, counter - 2, counter - 1, counter]);
    for (const m of last) expect([m.lastUsedMs, m.lastUseValue, m.lastUseFence]).toEqual([400, 140, {}]);
    // o5 was last used in batch 36.
    expect([(objects[5] as ManagedObject).lastUsedMs, (objects[5] as ManagedObject).lastUseValue]).toEqual([360, 136]);
    expect((objects[5] as ManagedObject).lastBatch).toBe(36);
    expect((objects[5] as ManagedObject).useStamp).toBeLessThan(counter - 3);
    expect(r.table.data[(objects[0] as ManagedObject).index * RECORD + USE_STAMP]).toBe(counter - 3);
    // Arrivals reach the policy records: o1 (every 2nd batch) came back at 40 after its use at 38;
    // o0 (every batch) has had one stretch since batch 1.
    const stretch = (m: ManagedObject): number[] =>
      [STRETCH_START, PREV_START, PREV_END].map((f) => r.table.policy[m.index * POLICY_RECORD + f] as number);
    expect(stretch(objects[1] as ManagedObject)).toEqual([40, 38, 38]);
    expect(stretch(objects[0] as ManagedObject)).toEqual([1, -1, -1]);
    // o5 (every 6th): 6 arrivals, at 6..36, counted by the popularity estimate (no shift found).
    expect(popularity.shifts).toBe(0);
    const h = HALF_LIFE;
    const count = [6, 12, 18, 24, 30, 36].reduce((sum, b) => sum + 2 ** ((b - 36) / h), 0);
    expect(r.table.policy[(objects[5] as ManagedObject).index * POLICY_RECORD + FREQUENCY]).toBeCloseTo(
      36 / h + Math.log2(count),
      10,
    );
  });
});
