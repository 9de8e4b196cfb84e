/**
 * Figure 1, paging throughput: how fast the library moves a heap's bytes out to CPU memory
 * (`device.evict([heap])`) and back (`device.makeResident([heap])`), for heaps of 1, 16 and 64 MiB,
 * in GB/s (heap bytes ÷ seconds ÷ 1e9), next to two raw WebGPU baselines moving the same bytes on
 * the same device.
 *
 * What each side does (src/gpu/paging.ts for the library):
 *   - evict, library: copies the heap's pages into reused 16 MiB MAP_READ chunks (one submission),
 *     maps each chunk once and copies its bytes into a reused CPU store.
 *     Baseline (raw): what an eviction must do at least to hold the bytes in CPU memory, written the
 *     obvious way: one copyBufferToBuffer from a STORAGE buffer into a new MAP_READ | COPY_DST buffer,
 *     mapAsync(READ), getMappedRange().slice(0) (a copy into a fresh ArrayBuffer), destroy.
 *     Tuned raw: the best plain-WebGPU transfer this project could write: a kept ring of 16 MiB
 *     MAP_READ chunks, one submission and one map per chunk so the CPU copies a chunk while the GPU
 *     copies the next, into a kept, already touched ArrayBuffer.
 *   - restore, library: takes pages, writes the CPU bytes into them (queue.writeBuffer up to 4 MiB
 *     per call, kept mapped 16 MiB MAP_WRITE chunks above) and rewrites the page-table entries.
 *     Raw: queue.writeBuffer of the same bytes into an existing STORAGE buffer. That buffer got its
 *     first bytes from a GPU copy, as the heap did: Dawn writes a buffer that no GPU work has written
 *     yet by a faster path (on SwiftShader about 6× faster for 64 MiB), a state heap memory is never
 *     in. Tuned raw: queue.writeBuffer up to 4 MiB; above, kept mapped 16 MiB MAP_WRITE chunks (copy
 *     in, unmap, one copyBufferToBuffer each, one submission; they map again in the background, before
 *     the next sample).
 * Each sample runs from the call to completion after the queue has gone idle. Raw completion: the
 * bytes in the ArrayBuffer (evict), onSubmittedWorkDone (restore). Library restore: a queue fence
 * signalled after makeResident. Library evict: the moment the bytes reached CPU memory, the same event
 * the baselines wait for. No public call reports that moment (a queue fence completes once the GPU
 * copies are done, possibly before the maps resolve), so the figure waits for the test hook
 * `getEvictedBytesForTesting(heap)`, and records the fence's completion as the extra `fence GB/s`.
 * Restores run after the bytes arrived, so they measure the CPU → GPU path, not a GPU-side copy.
 * Restore rows also record how long the call itself took (makeResident; raw: writeBuffer): the
 * CPU side, so a gap to raw reads as bookkeeping before the submission or as GPU time after it.
 *
 * Lazy eviction (createDevice({ eviction: 'lazy' }), paging-lazy.ts): two more rows at the stream's
 * size, an evict + makeResident round trip of a heap whose pages nothing took ("kept") and of one
 * taken under pressure ("taken"), against the raw round trip of this run's baseline samples.
 *
 * The stream: one heap (the largest size up to STREAM_MAX_MIB) evicted and restored back to back for
 * `streamSeconds`, each operation's GB/s recorded at the second it completed (series "evict stream",
 * "restore stream"): a stall (a slow map, a GC pause, a driver hiccup) shows as a dip the medians hide.
 *
 * Checks, because a benchmark of the wrong work is useless: the heap is filled with a pattern first;
 * the first eviction's bytes must equal it, on every side; paging counters must show one eviction and
 * one restore per sample; after the last restore, the first, middle and last tiles are read back and
 * compared.
 */
import { TILE_SIZE } from '../../src/index.js';
import {
  liveRecorder,
  median,
  row,
  timeRaw,
  timeRawCall,
  type Figure,
  type FigureRow,
  type FigureRunner,
  type FigureSeries,
  type LiveRecorder,
} from './figure.js';
import { getEvictedBytesForTesting } from '../../src/testing/index.js';
import {
  checkTiles,
  fill,
  firstDifference,
  gbPerSecond,
  MIB,
  pattern,
  pagingLibrary,
  signal,
  type Library,
} from './paging-common.js';
import { measureLazyRows } from './paging-lazy.js';

const FULL_SIZES_MIB = [1, 16, 64];
const QUICK_SIZES_MIB = [1, 4];
/** Stream seconds: long enough to show a stall among dozens of operations, short beside the suite. */
const FULL_STREAM_SECONDS = 4;
const QUICK_STREAM_SECONDS = 0.5;
/** The stream's heap: at most 16 MiB, so an operation takes milliseconds and the line has detail. */
const STREAM_MAX_MIB = 16;
/** Seeds the heap's byte pattern (fixed, so every run pages the same bytes). */
const SEED = 0x9a61;
/**
 * Unmeasured evict/restore cycles of a one-page heap (and the raw paths' calls) before the first row,
 * as the tile-mapping figure primes its calls: V8 optimizes the library's paging code only after
 * some hundred runs, and the figure's few rounds per size otherwise time the 1 MiB row while it is
 * still interpreted (on SwiftShader, rounds 2-8 of a fresh process restored 1 MiB at 0.29 of raw,
 * rounds 100-300 at 0.49). An application that pages does so all the time: warm code is the case
 * worth measuring. The raw side has no JavaScript to warm; it runs as often, so both see the same
 * driver state.
 */
const JIT_PRIMING_CYCLES = 200;

/** Tuned raw: the chunk size and the largest queue.writeBuffer (src/gpu/staging-buffers.ts and paging.ts say why). */
const TUNED_CHUNK = 16 * MIB;
const TUNED_DIRECT_WRITE_MAX = 4 * MIB;

/**
 * The tuned raw baseline's kept buffers: MAP_READ chunks (unmapped when idle), MAP_WRITE chunks
 * (mapped when idle), and one touched CPU store per size.
 */
class TunedRaw {
  private readonly reads: GPUBuffer[] = [];
  private readonly writes: GPUBuffer[] = [];
  private remapping: Promise<unknown> = Promise.resolve();
  private readonly stores = new Map<number, Uint8Array>();

  constructor(private readonly gpuDevice: GPUDevice) {}

  private read(k: number): GPUBuffer {
    return (this.reads[k] ??= this.gpuDevice.createBuffer({
      label: 'paging-throughput: tuned raw readback chunk',
      size: TUNED_CHUNK,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    }));
  }

  private write(k: number): GPUBuffer {
    return (this.writes[k] ??= this.gpuDevice.createBuffer({
      label: 'paging-throughput: tuned raw upload chunk',
      size: TUNED_CHUNK,
      usage: GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC,
      mappedAtCreation: true,
    }));
  }

  private store(bytes: number): Uint8Array {
    let store = this.stores.get(bytes);
    if (!store) this.stores.set(bytes, (store = new Uint8Array(bytes).fill(1)));
    return store;
  }

  /** Before a timed sample: the write chunks are mapped again, the store exists (both untimed). */
  async ready(bytes: number): Promise<void> {
    await this.remapping;
    this.store(bytes);
  }

  /** Evicts `bytes` of `source` into the store: one submission and one map per chunk, overlapped. */
  async evict(source: GPUBuffer, bytes: number): Promise<Uint8Array> {
    const store = this.store(bytes);
    const copies: Promise<void>[] = [];
    for (let k = 0, offset = 0; offset < bytes; k++, offset += TUNED_CHUNK) {
      const length = Math.min(TUNED_CHUNK, bytes - offset);
      const chunk = this.read(k);
      const encoder = this.gpuDevice.createCommandEncoder({ label: 'paging-throughput: tuned raw evict' });
      encoder.copyBufferToBuffer(source, offset, chunk, 0, length);
      this.gpuDevice.queue.submit([encoder.finish()]);
      const at = offset;
      copies.push(
        chunk.mapAsync(GPUMapMode.READ, 0, length).then(() => {
          store.set(new Uint8Array(chunk.getMappedRange(0, length)), at);
          chunk.unmap();
        }),
      );
    }
    await Promise.all(copies);
    return store;
  }

  /** Writes `data` into `target`, then waits for the queue. */
  async restore(target: GPUBuffer, data: Uint8Array): Promise<void> {
    if (data.byteLength <= TUNED_DIRECT_WRITE_MAX) {
      this.gpuDevice.queue.writeBuffer(target, 0, data);
      await this.gpuDevice.queue.onSubmittedWorkDone();
      return;
    }
    const encoder = this.gpuDevice.createCommandEncoder({ label: 'paging-throughput: tuned raw restore' });
    const used: GPUBuffer[] = [];
    for (let k = 0, offset = 0; offset < data.byteLength; k++, offset += TUNED_CHUNK) {
      const length = Math.min(TUNED_CHUNK, data.byteLength - offset);
      const chunk = this.write(k);
      new Uint8Array(chunk.getMappedRange(0, length)).set(data.subarray(offset, offset + length));
      chunk.unmap();
      encoder.copyBufferToBuffer(chunk, 0, target, offset, length);
      used.push(chunk);
    }
    this.gpuDevice.queue.submit([encoder.finish()]);
    const done = this.gpuDevice.queue.onSubmittedWorkDone();
    this.remapping = Promise.all(used.map((chunk) => chunk.mapAsync(GPUMapMode.WRITE)));
    await done;
  }

  destroy(): void {
    for (const buffer of [...this.reads, ...this.writes]) buffer?.destroy();
  }
}

export const pagingThroughput: FigureRunner = async (context) => {
  const { gpuDevice, quick } = context;
  const rounds = quick ? 2 : 7;
  const warmup = quick ? 1 : 2;
  const notes: string[] = [];
  const live = liveRecorder(context, 'paging-throughput', 'GB/s');
  const streamSeconds = context.paging?.streamSeconds ?? (quick ? QUICK_STREAM_SECONDS : FULL_STREAM_SECONDS);

  // A heap lives in the LOCAL pool (one storage binding) and each eviction makes heap-sized buffers:
  // sizes beyond the adapter's binding or buffer limits cannot be measured here.
  const limits = gpuDevice.limits;
  const largestPool =
    Math.floor(Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize) / TILE_SIZE) * TILE_SIZE;
  const sizes: number[] = [];
  for (const mib of context.paging?.sizesMiB ?? (quick ? QUICK_SIZES_MIB : FULL_SIZES_MIB)) {
    if (!(Number.isInteger((mib * MIB) / TILE_SIZE) && mib > 0))
      throw new Error(`paging-throughput: a heap of ${mib} MiB is not a positive multiple of 64 KiB`);
    if (mib * MIB <= largestPool) sizes.push(mib * MIB);
    else
      notes.push(
        `${mib} MiB skipped: maxStorageBufferBindingSize ${limits.maxStorageBufferBindingSize} / maxBufferSize ${limits.maxBufferSize} cannot hold it`,
      );
  }
  const figure: Figure = {
    id: 'paging-throughput',
    title: 'Paging throughput: evict and make resident',
    unit: 'GB/s',
    baselineName:
      'raw WebGPU on the same bytes: copyBufferToBuffer into a new MAP_READ buffer + mapAsync + copy into an ArrayBuffer (evict); queue.writeBuffer + onSubmittedWorkDone (restore). Extra "tuned raw GB/s": kept 16 MiB staging chunks, overlapped maps, a kept CPU store (see the figure\'s source)',
    ratioMeaning: 'library GB/s ÷ raw GB/s',
    target: { text: 'at least 0.9 of the raw rate', ratio: 0.9, direction: 'at-least' },
    rows: [],
    rounds,
    warmup,
    parameters: { sizesMiB: sizes.map((bytes) => bytes / MIB).join(', '), seed: SEED, streamSeconds },
    notes,
    series: [],
  };
  if (sizes.length === 0) return figure;

  // Evicting frees the pages at once (later queue work is ordered after the copy) and restoring takes
  // them back, so one heap's worth of LOCAL memory is all the paging needs. NON_LOCAL holds the
  // upload buffer that fills the heap, then the readback buffer that checks it.
  const largest = Math.max(...sizes);
  const library = await pagingLibrary(gpuDevice, largest);
  const { device } = library;
  try {
    const streamBytes = Math.max(...sizes.filter((b) => b <= STREAM_MAX_MIB * MIB), Math.min(...sizes));
    let lazySource: FigureRow[] = [];
    context.progress(`paging throughput: priming (${quick ? 0 : JIT_PRIMING_CYCLES} unmeasured cycles)`);
    if (!quick) await prime(library, gpuDevice);
    for (const bytes of sizes) {
      context.progress(
        `paging throughput: ${bytes / MIB} MiB, ${rounds} rounds${bytes === streamBytes && streamSeconds > 0 ? `, then a ${streamSeconds} s stream` : ''}`,
      );
      const measured = await measure(
        library,
        gpuDevice,
        bytes,
        rounds,
        warmup,
        live,
        bytes === streamBytes ? streamSeconds : 0,
      );
      figure.rows.push(...measured.rows);
      figure.series?.push(...measured.series);
      if (bytes === streamBytes) lazySource = measured.rows;
    }
    // The lazy mode's rows: one size (the stream's), against the same raw samples (paging-lazy.ts).
    const [evictRow, restoreRow] = lazySource;
    if (evictRow && restoreRow) {
      context.progress(`paging throughput: lazy eviction, ${streamBytes / MIB} MiB, ${rounds} rounds`);
      figure.rows.push(
        ...(await measureLazyRows({
          gpuDevice,
          bytes: streamBytes,
          rounds,
          warmup,
          live,
          seed: SEED + streamBytes / MIB,
          immediate: { evict: evictRow, restore: restoreRow },
        })),
      );
    }
    if (streamSeconds > 0) figure.parameters.streamMiB = streamBytes / MIB;
    notes.push(
      'library evict: timed until the bytes reached CPU memory (the test hook getEvictedBytesForTesting(heap); no D3D12 call reports it); extra "fence GB/s": until a queue fence signalled after evict completed',
      'extras "tuned raw GB/s" and "÷ tuned raw": the library against the best plain-WebGPU transfer this project could write (kept 16 MiB chunks, overlapped maps, a kept CPU store; queue.writeBuffer up to 4 MiB)',
      'restore extras "makeResident µs" and "raw writeBuffer µs": medians of the time until the call returned (the CPU side: bookkeeping, error scopes, the queue writes); the rest of a sample is the wait for the GPU',
      'lazy rows (createDevice({ eviction: \'lazy\' }), the stream\'s size): evict + makeResident until a fence after it, against the raw evict + restore of the same run, round by round; "kept": nothing took the heap\'s pages (no copy either way); "taken": a heap as large as the pool was created and released in between, so the pages were taken under pressure; extra "immediate GB/s": the immediate mode\'s evict + restore, paired the same way',
    );
    return figure;
  } finally {
    device.destroy();
  }
};

/** JIT_PRIMING_CYCLES evict/restore cycles of a one-page heap through the library and the raw paths, unmeasured. */
async function prime(library: Library, gpuDevice: GPUDevice): Promise<void> {
  const { device } = library;
  const heap = device.createHeap({ sizeInBytes: TILE_SIZE, properties: { type: 'DEFAULT' } });
  const raw = gpuDevice.createBuffer({
    label: 'paging-throughput: priming',
    size: TILE_SIZE,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
  });
  const bytes = pattern(TILE_SIZE, SEED);
  try {
    for (let i = 0; i < JIT_PRIMING_CYCLES; i++) {
      device.evict([heap]);
      await getEvictedBytesForTesting(heap);
      device.makeResident([heap]);
      await signal(library);
      const readable = gpuDevice.createBuffer({
        label: 'paging-throughput: priming readback',
        size: TILE_SIZE,
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      });
      const encoder = gpuDevice.createCommandEncoder({ label: 'paging-throughput: priming' });
      encoder.copyBufferToBuffer(raw, 0, readable, 0, TILE_SIZE);
      gpuDevice.queue.submit([encoder.finish()]);
      await readable.mapAsync(GPUMapMode.READ);
      readable.destroy();
      await timeRaw(gpuDevice, () => gpuDevice.queue.writeBuffer(raw, 0, bytes));
    }
    // Left evicted, its page is free once the bytes arrived: the largest row may need the whole pool.
    device.evict([heap]);
    await getEvictedBytesForTesting(heap);
  } finally {
    heap.release();
    raw.destroy();
  }
}

/** Rows 'evict N MiB' and 'restore N MiB' for one heap size, and the stream where asked. */
async function measure(
  library: Library,
  gpuDevice: GPUDevice,
  bytes: number,
  rounds: number,
  warmup: number,
  live: LiveRecorder,
  streamSeconds: number,
): Promise<{ rows: FigureRow[]; series: FigureSeries[] }> {
  const { device } = library;
  const name = `${bytes / MIB} MiB`;
  const data = pattern(bytes, SEED + bytes / MIB);
  const heap = device.createHeap({ sizeInBytes: bytes, properties: { type: 'DEFAULT' } });
  const placed = device.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: bytes }, 'COMMON');
  // The baseline's "heap": a STORAGE buffer, as the library's pool is, holding the same bytes.
  const source = gpuDevice.createBuffer({
    label: 'paging-throughput: raw heap',
    size: bytes,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
  });
  const tuned = new TunedRaw(gpuDevice);
  try {
    await fill(library, placed, data);
    // The raw buffer gets its bytes from a GPU copy too, as the heap did: Dawn writes a buffer that no
    // GPU work has written yet by a faster path (on SwiftShader, writeBuffer of 64 MiB ran about 6×
    // faster into such a buffer), and heap memory is never in that state (pools are cleared and
    // copied into), so a baseline in that state would measure a path the library cannot take.
    const staging = gpuDevice.createBuffer({
      label: 'paging-throughput: raw fill',
      size: bytes,
      usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
    gpuDevice.queue.writeBuffer(staging, 0, data);
    const encoder = gpuDevice.createCommandEncoder({ label: 'paging-throughput: raw fill' });
    encoder.copyBufferToBuffer(staging, 0, source, 0, bytes);
    gpuDevice.queue.submit([encoder.finish()]);
    await gpuDevice.queue.onSubmittedWorkDone();
    staging.destroy();

    const libraryEvict = async (check: boolean): Promise<{ ms: number; fenceMs: number }> => {
      await signal(library);
      const before = device.getPagingStats().evictions;
      const start = performance.now();
      device.evict([heap]);
      const arrived = getEvictedBytesForTesting(heap);
      let fenceMs = NaN;
      const fenceDone = signal(library).then(() => {
        fenceMs = performance.now() - start;
      });
      const evicted = await arrived;
      const ms = performance.now() - start;
      await fenceDone;
      if (device.getPagingStats().evictions !== before + 1 || !evicted)
        throw new Error(`paging-throughput: evict did not page the ${name} heap out to CPU memory`);
      if (check) {
        const at = firstDifference(evicted, data);
        if (at >= 0)
          throw new Error(
            `paging-throughput: the evicted bytes of the ${name} heap differ from what was written, first at byte ${at}`,
          );
      }
      return { ms, fenceMs };
    };
    const libraryRestore = async (): Promise<{ ms: number; callMs: number }> => {
      await signal(library);
      const before = device.getPagingStats().restores;
      const start = performance.now();
      device.makeResident([heap]);
      const callMs = performance.now() - start;
      await signal(library);
      const ms = performance.now() - start;
      if (device.getPagingStats().restores !== before + 1)
        throw new Error(`paging-throughput: makeResident did not page the ${name} heap in`);
      return { ms, callMs };
    };
    const rawEvict = async (check: boolean): Promise<{ ms: number; bytes: Uint8Array }> => {
      await gpuDevice.queue.onSubmittedWorkDone();
      const start = performance.now();
      const readable = gpuDevice.createBuffer({
        label: 'paging-throughput: raw evicted bytes',
        size: bytes,
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      });
      const encoder = gpuDevice.createCommandEncoder({ label: 'paging-throughput: raw evict' });
      encoder.copyBufferToBuffer(source, 0, readable, 0, bytes);
      gpuDevice.queue.submit([encoder.finish()]);
      await readable.mapAsync(GPUMapMode.READ);
      const copy = new Uint8Array(readable.getMappedRange().slice(0));
      readable.destroy();
      const ms = performance.now() - start;
      if (check) {
        const at = firstDifference(copy, data);
        if (at >= 0)
          throw new Error(
            `paging-throughput: the raw baseline read back the ${name} buffer wrong, first at byte ${at}`,
          );
      }
      return { ms, bytes: copy };
    };

    const tunedEvict = async (check: boolean): Promise<{ ms: number; bytes: Uint8Array }> => {
      await gpuDevice.queue.onSubmittedWorkDone();
      await tuned.ready(bytes);
      const start = performance.now();
      const copy = await tuned.evict(source, bytes);
      const ms = performance.now() - start;
      if (check) {
        const at = firstDifference(copy, data);
        if (at >= 0)
          throw new Error(
            `paging-throughput: the tuned raw baseline read back the ${name} buffer wrong, first at byte ${at}`,
          );
      }
      return { ms, bytes: copy };
    };
    const tunedRestore = async (from: Uint8Array): Promise<number> => {
      await gpuDevice.queue.onSubmittedWorkDone();
      await tuned.ready(bytes);
      const start = performance.now();
      await tuned.restore(source, from);
      return performance.now() - start;
    };

    const samples = {
      evict: [] as number[],
      evictFence: [] as number[],
      restore: [] as number[],
      restoreCall: [] as number[],
      rawEvict: [] as number[],
      rawRestore: [] as number[],
      rawRestoreCall: [] as number[],
      tunedEvict: [] as number[],
      tunedRestore: [] as number[],
    };
    // Interleaved, so drift (clock, thermal, GC) hits both sides alike.
    for (let i = 0; i < warmup + rounds; i++) {
      const evicted = await libraryEvict(i === 0);
      const restored = await libraryRestore();
      const raw = await rawEvict(i === 0);
      const rawRestored = await timeRawCall(gpuDevice, () => gpuDevice.queue.writeBuffer(source, 0, raw.bytes));
      const tunedOut = await tunedEvict(i === 0);
      const tunedIn = await tunedRestore(tunedOut.bytes);
      if (i < warmup) continue;
      samples.tunedEvict.push(gbPerSecond(bytes, tunedOut.ms));
      samples.tunedRestore.push(gbPerSecond(bytes, tunedIn));
      const rates = {
        evict: gbPerSecond(bytes, evicted.ms),
        restore: gbPerSecond(bytes, restored.ms),
        rawEvict: gbPerSecond(bytes, raw.ms),
        rawRestore: gbPerSecond(bytes, rawRestored.ms),
      };
      samples.restoreCall.push(restored.callMs * 1000);
      samples.rawRestoreCall.push(rawRestored.callMs * 1000);
      samples.evict.push(rates.evict);
      samples.evictFence.push(gbPerSecond(bytes, evicted.fenceMs));
      samples.restore.push(rates.restore);
      samples.rawEvict.push(rates.rawEvict);
      samples.rawRestore.push(rates.rawRestore);
      live.sample(`evict ${name}`, 'measured', rates.evict);
      live.sample(`evict ${name}`, 'baseline', rates.rawEvict);
      live.sample(`restore ${name}`, 'measured', rates.restore);
      live.sample(`restore ${name}`, 'baseline', rates.rawRestore);
    }
    const series: FigureSeries[] = [];
    if (streamSeconds > 0) {
      const evictLine: FigureSeries = { name: `evict stream, ${name}`, unit: 'GB/s', x: [], y: [] };
      const restoreLine: FigureSeries = { name: `restore stream, ${name}`, unit: 'GB/s', x: [], y: [] };
      const start = performance.now();
      const at = () => (performance.now() - start) / 1000;
      const plot = (line: FigureSeries, ms: number): void => {
        const x = at();
        const y = gbPerSecond(bytes, ms);
        line.x.push(x);
        line.y.push(y);
        live.point(line.name, line.unit, x, y);
      };
      while (at() < streamSeconds) {
        plot(evictLine, (await libraryEvict(false)).ms);
        plot(restoreLine, (await libraryRestore()).ms);
      }
      series.push(evictLine, restoreLine);
    }
    await checkTiles(
      library,
      placed,
      data,
      `the ${name} heap after ${warmup + rounds} evict/restore cycles${streamSeconds > 0 ? ' and the stream' : ''}`,
    );
    const againstTuned = (library: number[], tunedSamples: number[]): Record<string, number> => ({
      'tuned raw GB/s': median(tunedSamples),
      '÷ tuned raw': median(library) / median(tunedSamples),
    });
    return {
      rows: [
        row(`evict ${name}`, samples.evict, samples.rawEvict, {
          'fence GB/s': median(samples.evictFence),
          ...againstTuned(samples.evict, samples.tunedEvict),
        }),
        row(`restore ${name}`, samples.restore, samples.rawRestore, {
          ...againstTuned(samples.restore, samples.tunedRestore),
          'makeResident µs': median(samples.restoreCall),
          'raw writeBuffer µs': median(samples.rawRestoreCall),
        }),
      ],
      series,
    };
  } finally {
    placed.release();
    heap.release();
    source.destroy();
    tuned.destroy();
  }
}
