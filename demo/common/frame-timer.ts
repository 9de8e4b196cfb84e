/**
 * GPU time per frame for the scene benchmark (scene-bench.ts), from timestamp queries, summed over
 * every piece of GPU work the frame submits:
 *   - library work: each `CommandQueue.executeCommandLists` call of the frame (and each
 *     `validateThenExecuteCommandLists`, the residency manager's) is bracketed by two
 *     one-query lists (EndQuery(TIMESTAMP) before the scene's lists, after them), in the same call,
 *     so the pair spans exactly that submission's passes, as a GPU profiler's hook around
 *     ExecuteCommandLists does; the queries are resolved with ResolveQueryData into a READBACK buffer;
 *   - raw WebGPU work (the virtual texture's native-texture baseline): `rawPass()` hands out a pass's
 *     `timestampWrites`, resolved with resolveQuerySet.
 * Pairs are summed, never the span from the first to the last: the CPU time between two submissions
 * of a frame is not GPU time.
 *
 * Invariants: one frame is timed at a time (begin → work → finish → read); a frame that submits more
 * than MAX_PAIRS pairs on a side is marked `overflow` rather than timed wrong.
 */
import type { CommandQueue, Device, Fence, GraphicsCommandList, QueryHeap, Resource } from '../../src/index.js';

/** Timestamp pairs per side and frame: the scenes submit a handful of times a frame (tile batches, the frame). */
const MAX_PAIRS = 64;
const BYTES = MAX_PAIRS * 2 * 8;

export interface FrameGpuTime {
  /** Sum of the frame's timestamp pairs, in ms; null without timestamp queries or on overflow. */
  gpuMs: number | null;
  /**
   * The same time by what was submitted: the first list's name of each call with its numbers
   * replaced by N ('frame N', 'stream N tiles'), or 'raw pass'; ms per label, summing to gpuMs.
   */
  parts: Record<string, number>;
  /** Pairs summed (library and raw). */
  pairs: number;
  overflow: boolean;
}

/** Per pair, end - begin of consecutive begin/end u64 nanosecond timestamps, in ms; a pair that runs backwards (unwritten) is 0. */
export function pairsMs(words: BigUint64Array, pairs: number): number[] {
  return Array.from({ length: pairs }, (_, i) => {
    const begin = words[2 * i] ?? 0n;
    const end = words[2 * i + 1] ?? 0n;
    return end > begin ? Number(end - begin) / 1e6 : 0;
  });
}

/** A submission's label: its first list's name, numbers as N, so one kind of work adds up across frames. */
export function submissionLabel(name: string): string {
  return name === '' ? 'unnamed list' : name.replace(/\d+/g, 'N');
}

export class FrameTimer {
  readonly supported: boolean;
  private readonly heap: QueryHeap | undefined;
  private readonly readback: Resource | undefined;
  private readonly rawQueries: GPUQuerySet | undefined;
  private readonly rawResolve: GPUBuffer | undefined;
  private readonly rawRead: GPUBuffer | undefined;
  private libraryPairs = 0;
  private rawPairs = 0;
  private labels: string[] = [];
  private overflow = false;
  private timing = false;

  constructor(
    private readonly device: Device,
    private readonly gpuDevice: GPUDevice,
    private readonly queue: CommandQueue,
    private readonly fence: Fence,
  ) {
    this.supported = gpuDevice.features.has('timestamp-query');
    if (!this.supported) return;
    this.heap = device.createQueryHeap({ type: 'TIMESTAMP', count: 2 * MAX_PAIRS });
    this.heap.setName('frame timer');
    this.readback = device.createCommittedResource(
      { type: 'READBACK' },
      [],
      { dimension: 'BUFFER', width: BYTES },
      'COPY_DEST',
    );
    this.readback.setName('frame timer readback');
    this.rawQueries = gpuDevice.createQuerySet({
      label: 'frame timer (raw passes)',
      type: 'timestamp',
      count: 2 * MAX_PAIRS,
    });
    this.rawResolve = gpuDevice.createBuffer({
      label: 'frame timer (raw resolve)',
      size: BYTES,
      usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
    });
    this.rawRead = gpuDevice.createBuffer({
      label: 'frame timer (raw readback)',
      size: BYTES,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    this.instrument();
  }

  /**
   * Wraps the queue's executeCommandLists, and validateThenExecuteCommandLists (the residency
   * manager's path), so every call of a timed frame is bracketed (see the header).
   */
  private instrument(): void {
    const queue = this.queue;
    const execute = queue.executeCommandLists.bind(queue);
    queue.executeCommandLists = (lists: GraphicsCommandList[]): void => {
      const pair = this.nextPair(lists);
      if (pair === undefined) return execute(lists);
      execute([this.marker(pair), ...lists, this.marker(pair + 1)]);
    };
    const validateThenExecute = queue.validateThenExecuteCommandLists.bind(queue);
    queue.validateThenExecuteCommandLists = (lists, between): void => {
      const pair = this.nextPair(lists);
      if (pair === undefined) return validateThenExecute(lists, between);
      // The markers are checked with the batch; a range that starts the batch takes the first and
      // one that ends it the second, so a batch the caller splits is still timed from first to last.
      const n = lists.length;
      validateThenExecute([this.marker(pair), ...lists, this.marker(pair + 1)], (inner) =>
        between((first, count) => {
          const start = first === 0 ? 0 : first + 1;
          const end = first + count === n ? n + 2 : first + count + 1;
          inner(start, end - start);
        }),
      );
    };
  }

  /** The first query index of a new pair for a submission of `lists`, or undefined when it goes untimed. */
  private nextPair(lists: readonly GraphicsCommandList[]): number | undefined {
    if (!this.timing || !this.heap) return undefined;
    if (this.libraryPairs >= MAX_PAIRS) {
      this.overflow = true;
      return undefined;
    }
    this.labels.push(submissionLabel(lists[0]?.getName() ?? ''));
    return 2 * this.libraryPairs++;
  }

  private marker(index: number): GraphicsCommandList {
    const list = this.device.createCommandList('DIRECT');
    list.setName(`frame timer query ${index}`);
    if (this.heap) list.endQuery(this.heap, 'TIMESTAMP', index);
    list.close();
    return list;
  }

  /** Starts timing a frame: the frame's submissions from now on are bracketed. */
  begin(): void {
    this.libraryPairs = 0;
    this.rawPairs = 0;
    this.labels = [];
    this.overflow = false;
    this.timing = this.supported;
  }

  /** A raw pass's timestampWrites for this frame (undefined without timestamps or when the frame has used them all). */
  rawPass(): GPURenderPassTimestampWrites | undefined {
    if (!this.timing || !this.rawQueries) return undefined;
    if (this.rawPairs >= MAX_PAIRS) {
      this.overflow = true;
      return undefined;
    }
    const index = 2 * this.rawPairs++;
    return { querySet: this.rawQueries, beginningOfPassWriteIndex: index, endOfPassWriteIndex: index + 1 };
  }

  /**
   * Ends the frame: resolves its queries behind its work, signals the fence with `fenceValue` and
   * resolves once the fence has passed it, that is once the frame's GPU work has completed.
   */
  async finish(fenceValue: number): Promise<void> {
    this.timing = false;
    if (this.heap && this.readback && this.libraryPairs > 0) {
      const list = this.device.createCommandList('DIRECT');
      list.setName('frame timer resolve');
      list.resolveQueryData(this.heap, 'TIMESTAMP', 0, 2 * this.libraryPairs, this.readback, 0);
      list.close();
      this.queue.executeCommandLists([list]);
    }
    if (this.rawQueries && this.rawResolve && this.rawRead && this.rawPairs > 0) {
      const encoder = this.gpuDevice.createCommandEncoder({ label: 'frame timer resolve (raw)' });
      encoder.resolveQuerySet(this.rawQueries, 0, 2 * this.rawPairs, this.rawResolve, 0);
      encoder.copyBufferToBuffer(this.rawResolve, 0, this.rawRead, 0, 2 * this.rawPairs * 8);
      this.gpuDevice.queue.submit([encoder.finish()]);
    }
    this.queue.signal(this.fence, fenceValue);
    await this.fence.setEventOnCompletion(fenceValue);
  }

  /** The finished frame's GPU time (after finish()). */
  async read(): Promise<FrameGpuTime> {
    const pairs = this.libraryPairs + this.rawPairs;
    if (!this.supported || this.overflow) return { gpuMs: null, parts: {}, pairs, overflow: this.overflow };
    const parts: Record<string, number> = {};
    const add = (label: string, ms: number): void => {
      parts[label] = (parts[label] ?? 0) + ms;
    };
    if (this.readback && this.libraryPairs > 0) {
      const ms = pairsMs(
        new BigUint64Array(this.readback.map(0).slice(0, 2 * this.libraryPairs * 8).buffer),
        this.libraryPairs,
      );
      this.readback.unmap(0, { begin: 0, end: 0 });
      ms.forEach((value, i) => add(this.labels[i] ?? 'unnamed list', value));
    }
    if (this.rawRead && this.rawPairs > 0) {
      await this.rawRead.mapAsync(GPUMapMode.READ, 0, 2 * this.rawPairs * 8);
      for (const value of pairsMs(
        new BigUint64Array(this.rawRead.getMappedRange(0, 2 * this.rawPairs * 8).slice(0)),
        this.rawPairs,
      ))
        add('raw pass', value);
      this.rawRead.unmap();
    }
    return { gpuMs: Object.values(parts).reduce((sum, ms) => sum + ms, 0), parts, pairs, overflow: false };
  }
}
