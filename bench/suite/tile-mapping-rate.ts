/**
 * Tile-mapping rate: tiles per second of CPU time that queue.updateTileMappings sustains when an
 * application remaps every tile of a 2 GiB reserved buffer (32,768 tiles of 64 KiB), called three
 * ways:
 *   - 'one call': one region covering the buffer and one range per pass over the heap (ranges of
 *     HEAP_TILES tiles, each from heap tile 0). That is how D3D12 code maps a large region in bulk:
 *     one region, and as many ranges as the heap layout needs (with a heap as large as the buffer it
 *     is one range; the library's work is the same: per-tile table update, one page-table write);
 *   - '1-tile calls': one call per tile (a feedback-driven streamer committing tiles one at a time);
 *   - '16 MiB chunks': 256 tiles per call, one region and one range each, as UE5 commits reserved
 *     resources (FD3D12Resource::CommitReservedResource, one call per 16 MiB heap).
 * Memory is short on a software GPU, so the tiles map onto two 64 MiB heaps, tile i onto page
 * i % HEAP_TILES: D3D12 lets several tiles alias one heap page, and so does the library (validation
 * bounds each range by the heap; it never forbids reuse). Each round remaps every tile to the other
 * heap, so every round changes every mapping.
 *
 * The baseline is the page-table bytes the calls change, written raw: the emulated page table is a
 * GPU buffer of one u32 per 64 KiB page (src/gpu/page-table.ts), so the raw side uploads the same
 * bytes into a storage buffer with the writes a naive mirror would make per call: one 4-byte ×
 * tiles write for 'one call', one 4-byte write per tile for '1-tile calls', one 1 KiB write per
 * 256 tiles for '16 MiB chunks'. It writes from a prepared array, so it pays only for the upload.
 * The library batches: a call changes its CPU tile table and the CPU shadow of the page table, and
 * the dirty entries are sent (merged, one write per run) before the next submission or when a
 * fence is signalled; here the signal after the calls sends them, as one write of 4 bytes × tiles.
 * What each side times (performance.now(), tiles/s of CPU time), each repeated back to back until
 * MIN_SAMPLE_MS have passed, per repetition (the rate a remapping application sustains):
 *   - library: the calls plus the queue.signal after them, which sends their page-table writes, so
 *     every write the calls cause is inside the timed region (validation, CPU tile table, entry
 *     encoding, the merged queue write); each repetition maps every tile to the other heap;
 *   - raw: the queue.writeBuffer calls alone.
 * As extra, the milliseconds from the end of the timed region until the queue reports the writes
 * done (library: the fence wait; raw: onSubmittedWorkDone). That interval is submission to
 * completion, nothing subtracted (it includes the completion round trip, the same on both sides).
 */
import {
  TILE_SIZE,
  createDevice,
  type CommandQueue,
  type Fence,
  type Heap,
  type Resource,
  type TileRangeFlag,
  type TiledResourceCoordinate,
  type TileRegionSize,
} from '../../src/index.js';
import {
  liveRecorder,
  median,
  row,
  type BenchContext,
  type Figure,
  type FigureRow,
  type FigureRunner,
} from './figure.js';
import { getTileMappingForTesting } from '../../src/testing/index.js';

/** 2 GiB of virtual address space; quick mode remaps 128 MiB of it. */
const FULL_TILES = 32768;
const QUICK_TILES = 2048;
/** 64 MiB heaps: two fit in the 128 MiB a WebGPU device allows one storage binding by default. */
const HEAP_TILES = 1024;
/** UE5 commits reserved resources 16 MiB at a time. */
const CHUNK_TILES = 256;
const PAGE_TABLE_ENTRY_BYTES = 4;
/** Unmeasured passes over every granularity before the first row (see where it is used). */
const JIT_PRIMING_PASSES = 2;
/**
 * Unmeasured library calls per granularity at least (more passes where passes make fewer): V8
 * optimizes a function once it has run often enough, and a row timed before that measures code in
 * the middle of compilation. Measured in Chromium 147 on SwiftShader's 2-core host, one
 * 32,768-tile call at a time: medians of 20 calls 225 µs at first, 100 µs after 20 calls, 70 µs
 * after 60, 40-45 µs from about 100 on.
 */
const JIT_PRIMING_CALLS = 200;

type Granularity = 'one call' | '1-tile calls' | '16 MiB chunks';
const GRANULARITIES: Granularity[] = ['one call', '1-tile calls', '16 MiB chunks'];

/** The arguments of one updateTileMappings call (heap aside). */
interface Call {
  coordinates: TiledResourceCoordinate[];
  sizes: TileRegionSize[];
  flags: TileRangeFlag[];
  offsets: number[];
  counts: number[];
}

/** The calls that remap tiles 0..tiles-1 (tile i onto heap page i % HEAP_TILES) at one granularity. */
function callsFor(granularity: Granularity, tiles: number): Call[] {
  const region = (first: number, count: number): Pick<Call, 'coordinates' | 'sizes'> => ({
    coordinates: [{ x: first, y: 0, z: 0, subresource: 0 }],
    sizes: [{ numTiles: count, useBox: false, width: 1, height: 1, depth: 1 }],
  });
  if (granularity === 'one call') {
    const ranges = Math.ceil(tiles / HEAP_TILES);
    const counts = Array.from({ length: ranges }, (_, i) => Math.min(HEAP_TILES, tiles - i * HEAP_TILES));
    return [{ ...region(0, tiles), flags: counts.map(() => 'NONE'), offsets: counts.map(() => 0), counts }];
  }
  const per = granularity === '1-tile calls' ? 1 : CHUNK_TILES;
  return Array.from({ length: Math.ceil(tiles / per) }, (_, i) => {
    const first = i * per;
    const count = Math.min(per, tiles - first);
    // CHUNK_TILES divides HEAP_TILES, so a chunk never wraps around the heap.
    return { ...region(first, count), flags: ['NONE'], offsets: [first % HEAP_TILES], counts: [count] };
  });
}

/** The raw writes of the same page-table bytes: [entry offset, entry count] per queue write. */
function writesFor(granularity: Granularity, tiles: number): [number, number][] {
  if (granularity === 'one call') return [[0, tiles]];
  const per = granularity === '1-tile calls' ? 1 : CHUNK_TILES;
  return Array.from({ length: Math.ceil(tiles / per) }, (_, i) => [i * per, Math.min(per, tiles - i * per)]);
}

/**
 * Shortest sample, either side: 20× a browser's timer resolution, so its rounding stays under 5 %.
 * A sample repeats its work back to back until this has passed (a one-write upload takes a few µs,
 * a bulk remap tens of µs): both sides are timed the same way, warm, as a remapping application
 * runs them, and a collection or a stall inside one sample weighs 1/repetitions of it.
 */
const MIN_SAMPLE_MS = 2;

interface Timing {
  /** CPU time per repetition. */
  cpuMs: number;
  gpuMs: number;
  repetitions: number;
}

interface Library {
  queue: CommandQueue;
  fence: Fence;
  fenceValue: number;
  heaps: [Heap, Heap];
  buffer: Resource;
}

/**
 * The remap, repeated until MIN_SAMPLE_MS have passed, each repetition onto the other heap than the
 * one before (so each changes every mapping) and ending on `heap`; CPU time per repetition.
 */
async function remapThroughLibrary(lib: Library, calls: readonly Call[], heap: Heap): Promise<Timing> {
  // Start from an idle queue, so earlier work is not timed.
  lib.queue.signal(lib.fence, ++lib.fenceValue);
  await lib.fence.setEventOnCompletion(lib.fenceValue);
  const other = lib.heaps[0] === heap ? lib.heaps[1] : lib.heaps[0];
  const start = performance.now();
  let repetitions = 0;
  let now: number;
  do {
    // Odd repetitions map `other`, then the next maps `heap` again; stopping only after `heap`.
    const target = repetitions % 2 === 0 ? heap : other;
    for (const call of calls)
      lib.queue.updateTileMappings(
        lib.buffer,
        call.coordinates,
        call.sizes,
        target,
        call.flags,
        call.offsets,
        call.counts,
      );
    // Inside the timed region: the signal sends the page-table writes the calls left pending.
    lib.queue.signal(lib.fence, ++lib.fenceValue);
    repetitions++;
    now = performance.now();
  } while (repetitions % 2 === 0 || now - start < MIN_SAMPLE_MS);
  await lib.fence.setEventOnCompletion(lib.fenceValue);
  return { cpuMs: (now - start) / repetitions, gpuMs: performance.now() - now, repetitions };
}

/** The raw upload, repeated until MIN_SAMPLE_MS have passed, CPU time per repetition. */
async function uploadRaw(
  gpuDevice: GPUDevice,
  target: GPUBuffer,
  entries: Uint32Array,
  writes: readonly [number, number][],
): Promise<Timing> {
  await gpuDevice.queue.onSubmittedWorkDone();
  const start = performance.now();
  let repetitions = 0;
  do {
    for (const [first, count] of writes)
      gpuDevice.queue.writeBuffer(target, first * PAGE_TABLE_ENTRY_BYTES, entries, first, count);
    repetitions++;
  } while (performance.now() - start < MIN_SAMPLE_MS);
  const submitted = performance.now();
  await gpuDevice.queue.onSubmittedWorkDone();
  // gpuMs: from the last write to completion, as on the library side (the queue drains the lot).
  return { cpuMs: (submitted - start) / repetitions, gpuMs: performance.now() - submitted, repetitions };
}

/** Throws unless tiles 0..tiles-1 map to `heap` at i % HEAP_TILES (a few tiles, spread out). */
function checkMapped(buffer: Resource, heap: Heap, tiles: number, granularity: Granularity): void {
  for (const tile of [0, 1, HEAP_TILES - 1, Math.floor(tiles / 2) + 3, tiles - 1]) {
    const mapping = getTileMappingForTesting(buffer, tile);
    if (mapping?.heap !== heap || mapping.heapTileOffset !== tile % HEAP_TILES) {
      throw new Error(
        `tile-mapping-rate (${granularity}): tile ${tile} maps to ${mapping ? `tile ${mapping.heapTileOffset} of ${mapping.heap.label}` : 'nothing'}, expected tile ${tile % HEAP_TILES} of ${heap.label}`,
      );
    }
  }
}

export const tileMappingRate: FigureRunner = async (context: BenchContext): Promise<Figure> => {
  const tiles = context.quick ? QUICK_TILES : FULL_TILES;
  const rounds = context.quick ? 2 : 5;
  const warmup = 1;
  const { gpuDevice } = context;
  const device = await createDevice({
    gpuDevice,
    localMemoryBytes: 2 * HEAP_TILES * TILE_SIZE,
    nonLocalMemoryBytes: TILE_SIZE,
  });
  const target = gpuDevice.createBuffer({
    label: 'tile-mapping-rate raw page table',
    size: tiles * PAGE_TABLE_ENTRY_BYTES,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
  });
  try {
    const newHeap = (): Heap =>
      device.createHeap({
        sizeInBytes: HEAP_TILES * TILE_SIZE,
        properties: { type: 'DEFAULT' },
        flags: ['ALLOW_ONLY_BUFFERS'],
      });
    const lib: Library = {
      queue: device.createCommandQueue({ type: 'DIRECT' }),
      fence: device.createFence(0),
      fenceValue: 0,
      heaps: [newHeap(), newHeap()],
      buffer: device.createReservedResource({ dimension: 'BUFFER', width: tiles * TILE_SIZE }, 'COMMON'),
    };
    // Any u32s will do for the raw side: page-table entries of resident pages, as the library writes.
    const entries = new Uint32Array(tiles).map((_, i) => (((i % HEAP_TILES) << 8) | 1) >>> 0);
    // Built before the clock starts: the application has its arguments ready; the call is measured.
    const plans = GRANULARITIES.map((granularity) => ({
      granularity,
      calls: callsFor(granularity, tiles),
      writes: writesFor(granularity, tiles),
    }));
    // JIT priming, once for the figure: every granularity runs through both paths, unmeasured, so
    // no row is timed while V8 is still compiling the library's code (a streaming application
    // remaps all the time, so warm code is the case worth measuring): JIT_PRIMING_PASSES passes
    // over every granularity, then more of each until it has made JIT_PRIMING_CALLS calls. The
    // first pass (cold code) is kept as extra.coldCpuMs. The per-row warm-up round below then
    // absorbs what is left (caches, Dawn's staging for the row's write sizes).
    const coldCpuMs = new Map<Granularity, number>();
    const primed = new Map<Granularity, number>();
    // One unmeasured remap, its calls counted for the granularity; returns its timing.
    const prime = async ({ granularity, calls }: (typeof plans)[number], heap: Heap): Promise<Timing> => {
      context.progress(`tile-mapping-rate: priming (${granularity})`);
      const timing = await remapThroughLibrary(lib, calls, heap);
      primed.set(granularity, (primed.get(granularity) ?? 0) + timing.repetitions * calls.length);
      return timing;
    };
    for (let pass = 0; pass < JIT_PRIMING_PASSES; pass++) {
      for (const plan of plans) {
        const timing = await prime(plan, lib.heaps[pass % 2] as Heap);
        if (pass === 0) coldCpuMs.set(plan.granularity, timing.cpuMs);
        await uploadRaw(gpuDevice, target, entries, plan.writes);
      }
    }
    for (const plan of plans) {
      while ((primed.get(plan.granularity) ?? 0) < JIT_PRIMING_CALLS) await prime(plan, lib.heaps[0]);
    }
    const rows: FigureRow[] = [];
    const live = liveRecorder(context, 'tile-mapping-rate', 'tiles/s');
    const rate = (timing: Timing): number => tiles / (timing.cpuMs / 1000);
    for (const { granularity, calls, writes } of plans) {
      const library: Timing[] = [];
      const raw: Timing[] = [];
      for (let i = 0; i < warmup + rounds; i++) {
        context.progress(
          `tile-mapping-rate: ${granularity}, ${i < warmup ? 'warm-up' : `round ${i - warmup + 1}/${rounds}`}`,
        );
        // Alternate heaps: every round changes every tile's mapping.
        const heap = lib.heaps[i % 2] as Heap;
        const libraryTiming = await remapThroughLibrary(lib, calls, heap);
        checkMapped(lib.buffer, heap, tiles, granularity);
        const rawTiming = await uploadRaw(gpuDevice, target, entries, writes);
        if (i >= warmup) {
          library.push(libraryTiming);
          raw.push(rawTiming);
          live.sample(granularity, 'measured', rate(libraryTiming));
          live.sample(granularity, 'baseline', rate(rawTiming));
        }
      }
      rows.push(
        row(granularity, library.map(rate), raw.map(rate), {
          calls: calls.length,
          cpuMs: median(library.map((t) => t.cpuMs)),
          gpuMs: median(library.map((t) => t.gpuMs)),
          rawCpuMs: median(raw.map((t) => t.cpuMs)),
          rawGpuMs: median(raw.map((t) => t.gpuMs)),
          repetitions: median(library.map((t) => t.repetitions)),
          rawRepetitions: median(raw.map((t) => t.repetitions)),
          coldCpuMs: coldCpuMs.get(granularity) ?? NaN,
        }),
      );
    }
    return {
      id: 'tile-mapping-rate',
      title: 'Tile-mapping rate: remapping a 2 GiB reserved buffer',
      unit: 'tiles/s',
      baselineName:
        'raw WebGPU: queue.writeBuffer of the same page-table bytes (4 bytes a tile) into a storage buffer, with the same writes per call',
      ratioMeaning:
        'library tiles/s ÷ raw tiles/s (CPU time of the calls and the signal that sends their writes, vs the raw writes; 1 = as fast as the naive upload)',
      rows,
      rounds,
      warmup,
      parameters: {
        tiles,
        tileBytes: TILE_SIZE,
        virtualMiB: (tiles * TILE_SIZE) / 2 ** 20,
        heapTiles: HEAP_TILES,
        heaps: 2,
        chunkTiles: CHUNK_TILES,
      },
      notes: [
        `Tiles alias the heaps' pages: tile i maps to page i % ${HEAP_TILES} of one of two 64 MiB heaps, alternating by round so every round changes every mapping.`,
        "'one call' is one region with one range per pass over the heap; '16 MiB chunks' is UE5's CommitReservedResource granularity (256 tiles a call).",
        'Library values are CPU time of the calls plus the queue.signal that sends their (merged) page-table writes; raw values are CPU time of the writes. extra.gpuMs (and rawGpuMs) is submission to completion after that, nothing subtracted.',
        `Each sample repeats its side's work back to back for at least ${MIN_SAMPLE_MS} ms and divides (extra.repetitions, rawRepetitions: medians), the library remapping every tile to the other heap each time.`,
        `Before the rows, unmeasured passes over every granularity warm V8's JIT (${JIT_PRIMING_PASSES}, then more until each granularity has made ${JIT_PRIMING_CALLS} calls): the library's side is JavaScript, the raw side is a native call. extra.coldCpuMs is the library's first pass, in code not yet optimized.`,
      ],
    };
  } finally {
    target.destroy();
    device.destroy();
  }
};
