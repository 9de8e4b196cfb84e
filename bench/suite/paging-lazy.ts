/**
 * The paging figure's lazy-eviction rows (createDevice({ eviction: 'lazy' })): one heap size (the
 * stream's), two rows, each a whole round trip, evict then makeResident, timed from the evict call
 * until a queue fence signalled after makeResident has completed:
 *   - "kept": nothing needed the heap's pages in between, so nothing is copied either way (the
 *     Residency Starter Library's README: VidMM "will try really hard not to evict it if it doesn't
 *     need to", making the MakeResident "a no-op"). What is left is bookkeeping and the page-table
 *     entries, ABSENT and back.
 *   - "taken": between the two calls a heap as large as the LOCAL pool is created (CREATE_NOT_ZEROED)
 *     and released, so the evicted heap's pages are taken under pressure: paged out as an immediate
 *     eviction pages, copied to a GPU buffer before the new heap may use them (its bytes have not
 *     reached CPU memory yet), and restored from that copy.
 * Baseline: the raw WebGPU round trip of the same bytes, from the immediate rows' own baseline samples
 * of the same run (raw evict then raw restore, round by round: 1 / (1/evict + 1/restore) GB/s), so
 * every paging row is measured against one baseline. The immediate mode's own round trip (its evict
 * and restore samples, paired the same way) is the extra "immediate GB/s".
 *
 * Checks: each sample's copies are what the mode promises (getPagingCopiesForTesting: none for kept;
 * one heap taken, and its bytes copied out, for taken), and the heap's first, middle and last tiles are
 * read back after the last round.
 */
import { getPagingCopiesForTesting, type PagingCopies } from '../../src/testing/index.js';
import { median, row, type FigureRow, type LiveRecorder } from './figure.js';
import { checkTiles, fill, gbPerSecond, MIB, pattern, pagingLibrary, signal } from './paging-common.js';

export interface LazyRowsInput {
  gpuDevice: GPUDevice;
  /** The heap's size: the stream's (the LOCAL pool is exactly this, so any other heap is pressure). */
  bytes: number;
  rounds: number;
  warmup: number;
  live: LiveRecorder;
  seed: number;
  /** The immediate rows of this size, from this run: their samples and baseline samples pair round by round. */
  immediate: { evict: FigureRow; restore: FigureRow };
}

/** GB/s of a round trip whose halves ran at `a` and `b` GB/s over the same bytes. */
const roundTrip = (a: number, b: number): number => 1 / (1 / a + 1 / b);

const pairs = (a: readonly number[], b: readonly number[]): number[] =>
  a.slice(0, Math.min(a.length, b.length)).map((x, i) => roundTrip(x, b[i] as number));

export async function measureLazyRows(input: LazyRowsInput): Promise<FigureRow[]> {
  const { gpuDevice, bytes, rounds, warmup, live } = input;
  const name = `${bytes / MIB} MiB`;
  const library = await pagingLibrary(gpuDevice, bytes, 'lazy');
  const { device } = library;
  try {
    const copies = (): PagingCopies => getPagingCopiesForTesting(device) as PagingCopies;
    const data = pattern(bytes, input.seed);
    const heap = device.createHeap({ sizeInBytes: bytes, properties: { type: 'DEFAULT' } });
    const placed = device.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: bytes }, 'COMMON');
    try {
      await fill(library, placed, data);
      const roundTripMs = async (between: () => void): Promise<number> => {
        await signal(library);
        const start = performance.now();
        device.evict([heap]);
        between();
        device.makeResident([heap]);
        await signal(library);
        return performance.now() - start;
      };
      const kept = async (): Promise<number> => {
        const before = copies();
        const ms = await roundTripMs(() => undefined);
        const after = copies();
        if (after.copiedOutBytes !== before.copiedOutBytes || after.copiedInBytes !== before.copiedInBytes)
          throw new Error(`paging-throughput: the lazy round trip of the ${name} heap copied bytes, nothing took it`);
        return ms;
      };
      const taken = async (): Promise<number> => {
        const before = copies();
        const ms = await roundTripMs(() => {
          const pressure = device.createHeap({
            sizeInBytes: bytes,
            properties: { type: 'DEFAULT' },
            flags: ['CREATE_NOT_ZEROED'],
          });
          pressure.release();
        });
        const after = copies();
        if (
          after.lazyHeapsTaken !== before.lazyHeapsTaken + 1 ||
          after.copiedOutBytes !== before.copiedOutBytes + bytes
        )
          throw new Error(`paging-throughput: the pressure heap did not take the lazily evicted ${name} heap`);
        return ms;
      };
      const samples = { kept: [] as number[], taken: [] as number[] };
      for (let i = 0; i < warmup + rounds; i++) {
        const keptMs = await kept();
        const takenMs = await taken();
        if (i < warmup) continue;
        samples.kept.push(gbPerSecond(bytes, keptMs));
        samples.taken.push(gbPerSecond(bytes, takenMs));
        live.sample(`lazy evict + restore ${name}, kept`, 'measured', gbPerSecond(bytes, keptMs));
        live.sample(`lazy evict + restore ${name}, taken`, 'measured', gbPerSecond(bytes, takenMs));
      }
      await checkTiles(
        library,
        placed,
        data,
        `the ${name} heap after ${warmup + rounds} lazy round trips of each kind`,
      );
      const { evict, restore } = input.immediate;
      const raw = pairs(evict.baselineSamples, restore.baselineSamples);
      // Every row's samples are charted live, its baseline's too (the bench page counts them).
      for (const value of raw) {
        live.sample(`lazy evict + restore ${name}, kept`, 'baseline', value);
        live.sample(`lazy evict + restore ${name}, taken`, 'baseline', value);
      }
      const immediate = median(pairs(evict.samples, restore.samples));
      const extra = (measured: number[]): Record<string, number> => ({
        'immediate GB/s': immediate,
        '÷ immediate': median(measured) / immediate,
      });
      return [
        row(`lazy evict + restore ${name}, kept`, samples.kept, raw, extra(samples.kept)),
        row(`lazy evict + restore ${name}, taken`, samples.taken, raw, extra(samples.taken)),
      ];
    } finally {
      placed.release();
      heap.release();
    }
  } finally {
    device.destroy();
  }
}
