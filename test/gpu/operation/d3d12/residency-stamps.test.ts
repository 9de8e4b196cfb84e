/**
 * The residency manager's record of each object's last use (batch number and LRU stamp: what its
 * victim order reads) against a CPU model of d3dx12residency's per-batch stamp: every batch numbers
 * its objects in order (sets in list order, members in insertion order, each object once, objects no
 * longer tracked skipped) with the next values of one use counter. A set used alone in consecutive
 * batches has its stamp deferred (residency-manager.ts, step 3); this checks the records come out as
 * the eager stamp writes them, over random sequences of single-set and multi-set batches, refilled
 * sets, untracked objects whose records are handed to new ones, and more batches than the table's
 * ring of batches holds between spills.
 */
import { describe, expect } from 'vitest';
import {
  createDevice,
  createResidencyManager,
  TILE_SIZE,
  type Heap,
  type ResidencySet,
} from '../../../../src/index.js';
import { getResidencyRecordForTesting } from '../../../../src/testing/index.js';
import { Random } from '../../../../src/validate/random.js';
import { gpuTest as test } from '../../../harness/gpu-test.js';

interface ModelSet {
  set: ResidencySet;
  members: Heap[];
}

describe('deferred stamps', () => {
  for (const seed of [1, 2, 3]) {
    test(`seed ${seed}: every tracked object's last batch and LRU stamp equal the eager model's`, async ({
      device: gpuDevice,
    }) => {
      const random = new Random(seed);
      const d3d = await createDevice({ gpuDevice, localMemoryBytes: 4 << 20, nonLocalMemoryBytes: 1 << 20 });
      try {
        const queue = d3d.createCommandQueue({ type: 'DIRECT' });
        const manager = createResidencyManager(d3d);
        const lists = [0, 1, 2].map(() => {
          const list = d3d.createCommandList('DIRECT');
          list.close();
          return list;
        });
        const newHeap = (): Heap =>
          d3d.createHeap({ sizeInBytes: TILE_SIZE, properties: { type: 'DEFAULT' }, flags: ['CREATE_NOT_RESIDENT'] });
        const tracked: Heap[] = [];
        const model = new Map<Heap, { lastBatch: number; useStamp: number }>();
        const track = (heap: Heap): void => {
          manager.beginTrackingObject(heap);
          tracked.push(heap);
          model.set(heap, { lastBatch: -1, useStamp: 0 });
        };
        for (let i = 0; i < 12; i++) track(newHeap());
        const sets: ModelSet[] = [];
        const fill = (entry: ModelSet): void => {
          const count = random.int(1, 6);
          entry.members = [];
          entry.set.open();
          for (let i = 0; i < count; i++) {
            const heap = random.pick(tracked);
            entry.set.insert(heap);
            if (!entry.members.includes(heap)) entry.members.push(heap);
          }
          entry.set.close();
        };
        for (let i = 0; i < 3; i++) {
          const entry = { set: manager.createResidencySet(), members: [] };
          fill(entry);
          sets.push(entry);
        }
        let batch = 0;
        let counter = 0;
        const execute = (used: ModelSet[]): void => {
          manager.executeCommandLists(
            queue,
            lists.slice(0, used.length),
            used.map((entry) => entry.set),
          );
          batch++;
          const seen = new Set<Heap>();
          for (const entry of used)
            for (const heap of entry.members) {
              if (seen.has(heap) || !model.has(heap)) continue;
              seen.add(heap);
              model.set(heap, { lastBatch: batch, useStamp: ++counter });
            }
        };
        const check = (): void => {
          for (const heap of tracked)
            expect(getResidencyRecordForTesting(manager, heap), `${heap.label} after batch ${batch}`).toEqual(
              model.get(heap),
            );
        };
        // More than the 1,024 batches between the table's spills; runs of one set are the deferred case.
        for (let op = 0; op < 1400; op++) {
          const kind = random.float();
          if (kind < 0.8) {
            const entry = random.pick(sets);
            const repeats = random.int(1, 8);
            for (let i = 0; i < repeats; i++) execute([entry]);
          } else if (kind < 0.9) {
            execute([random.pick(sets), random.pick(sets)]);
          } else if (kind < 0.96) {
            fill(random.pick(sets));
          } else {
            // Untracked, its record goes to the next object tracked; sets that hold it skip it.
            const gone = tracked.splice(random.below(tracked.length), 1)[0] as Heap;
            manager.endTrackingObject(gone);
            model.delete(gone);
            track(newHeap());
          }
          if (random.chance(0.1)) check();
        }
        check();
        expect(batch).toBeGreaterThan(1024);
      } finally {
        d3d.destroy();
      }
    });
  }
});
