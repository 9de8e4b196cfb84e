/**
 * Tile streaming: MB/s (1e6 bytes a second) of 64 KiB RGBA8 tiles streamed from CPU memory into a
 * texture the way a texture streamer moves them, through the library's path against a plain WebGPU
 * streamer on the same device moving the same bytes.
 *
 *   library: the TileStreamer of d3d12-webgpu/streaming (src/streaming/tile-streamer.ts, the one
 *            the virtual texture scene streams with): a ring of RING_SLOTS 64 KiB slots in one UPLOAD committed buffer, each tile written into a free
 *            slot and copied into a reserved 2048² RGBA8 texture (quick: 768²) whose tiles are all
 *            mapped onto one heap, BATCH_TILES copies to a command list, one fence signal each. Each
 *            tile is copied by either path of the streamer, each with its own rows: copyTiles
 *            (LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE, the 64 KiB as they are), and
 *            copyTextureRegion from a placed footprint of getCopyableFootprints (rows of 512 bytes at
 *            a 512-byte pitch) into the tile's 128 × 128 box, as a D3D12 engine's streamer does.
 *            Per path three rows: the ring mapped around each write with its written range, and
 *            mapped persistently (tile-streamer.ts says what that costs in the emulator), both on a
 *            device as createDevice makes it (GPU fault logging on); then per write again on a
 *            device with gpuValidation: false, since fault logging reads a log back after every
 *            submission and a streamer submits often;
 *   raw:     a ring of RING_SLOTS MAP_WRITE | COPY_SRC staging buffers, each tile written into the
 *            mapped range of the oldest one once its mapAsync(WRITE) resolved, unmapped and copied
 *            with copyBufferToTexture into a native rgba8unorm texture of the same size, BATCH_TILES
 *            copies to a submit.
 * A round streams every tile of the texture once, from the first write until the last copy is known
 * complete on the CPU (library: the fence event; raw: onSubmittedWorkDone); the row's value is bytes
 * ÷ that time. Per-tile latency is from the moment the tile is handed to the streamer (so it includes
 * waiting for a slot: backpressure) to that completion; extras give its median and p95 for both sides.
 * Tiles are produced on the CPU (64 KiB of seeded pseudo-random bytes each, src/validate/random.ts)
 * before any round, out of the timed path; extra `cpuProduceMsPerTile` says what producing them costs. Each round shifts which
 * source tile goes where, and after the last round a few tiles of both textures are read back and
 * compared byte for byte with the CPU reference (a mismatch throws).
 *
 * Target: at least 0.9 of raw. Both sides move each byte once from CPU memory to GPU memory and copy
 * it once more on the GPU; what the library adds is bookkeeping per call and a copy through its page
 * table, which a streamer should not feel. Below 0.9, the emulated path itself slows streaming.
 */
import { createDevice, TILE_SIZE, type CommandQueue, type Device, type Resource } from '../../src/index.js';
import { quantile, TileStreamer, type CopyPath } from '../../src/streaming/index.js';
import { Random } from '../../src/validate/random.js';
import { mappedRgba8Texture } from './mapped-texture.js';
import {
  liveRecorder,
  median,
  row,
  type BenchContext,
  type Figure,
  type FigureRow,
  type FigureRunner,
  type LiveRecorder,
} from './figure.js';

const TILE_TEXELS = 128;
const ROW_BYTES = TILE_TEXELS * 4;
/** 2048² RGBA8: 256 tiles, 16 MiB a round; quick: 768², 36 tiles (a software GPU copies slowly). */
const FULL_SIDE_TILES = 16;
const QUICK_SIDE_TILES = 6;
/** 2 MiB of staging, as the virtual texture scene's ring: more than a frame's tiles, small beside the stream. */
const RING_SLOTS = 32;
/** Copies per submission: a quarter of the ring, so CPU writes overlap the GPU's copies of earlier batches. */
const BATCH_TILES = 8;
/** The seed of the source tiles' bytes: every tile different, the same bytes every run. */
const TILE_SEED = 0x7113;
/** Tiles compared after the last round: corners and two inside. */
const CHECKED = (tiles: number): number[] => [0, 1, Math.floor(tiles / 2) + 3, tiles - 1];

type Mapping = 'per-write' | 'persistent';
/** The last one leaves GPU fault logging off (gpuValidation: false): what its per-submission readback costs. */
const VARIANTS: { name: string; mapping: Mapping; gpuValidation: boolean }[] = [
  { name: 'ring mapped per write (written ranges)', mapping: 'per-write', gpuValidation: true },
  { name: 'ring mapped persistently', mapping: 'persistent', gpuValidation: true },
  { name: 'mapped per write, gpuValidation off', mapping: 'per-write', gpuValidation: false },
];
/** The copyTextureRegion rows carry a prefix; the copyTiles rows keep the names their committed results have (references match rows by name). */
const COPY_PREFIX: Record<CopyPath, string> = { copyTiles: '', copyTextureRegion: 'copyTextureRegion: ' };
/** Each variant on copyTiles, then on copyTextureRegion: the two paths side by side. */
const CASES = VARIANTS.flatMap((variant) =>
  (['copyTiles', 'copyTextureRegion'] as const).map((copy) => ({
    ...variant,
    copy,
    name: `${COPY_PREFIX[copy]}${variant.name}`,
  })),
);

interface Round {
  ms: number;
  latencies: number[];
}

interface Library {
  device: Device;
  queue: CommandQueue;
  texture: Resource;
}

interface RawSlot {
  buffer: GPUBuffer;
  /** mapped: free to write; batched: written, its copy not submitted; pending: mapAsync(WRITE) in flight. */
  state: 'mapped' | 'batched' | 'pending';
  ready: Promise<void>;
}

interface Raw {
  texture: GPUTexture;
  slots: RawSlot[];
  next: number;
}

/** A device over the raw one, and a reserved texture of side² tiles, all mapped onto one heap. */
async function createLibrary(gpuDevice: GPUDevice, side: number, gpuValidation: boolean): Promise<Library> {
  const tiles = side * side;
  const device = await createDevice({
    gpuDevice,
    gpuValidation,
    localMemoryBytes: tiles * TILE_SIZE,
    nonLocalMemoryBytes: (RING_SLOTS + CHECKED(tiles).length) * TILE_SIZE,
  });
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  const { texture } = mappedRgba8Texture(device, queue, side * TILE_TEXELS, side * TILE_TEXELS);
  return { device, queue, texture };
}

/** One source tile: TILE_SIZE bytes of the generator's output, 32 bits at a time. */
function producedTile(random: Random): Uint8Array {
  const words = new Uint32Array(TILE_SIZE / 4);
  for (let i = 0; i < words.length; i++) words[i] = random.next();
  return new Uint8Array(words.buffer);
}

const mbPerSecond = (bytes: number, ms: number): number => bytes / (ms / 1000) / 1e6;
/** The source tile streamed into texture tile `i` in round `round`: every round moves other bytes. */
const sourceOf = (i: number, round: number, tiles: number): number => (i + round) % tiles;

async function libraryRound(
  name: string,
  sources: readonly Uint8Array[],
  side: number,
  round: number,
  streamer: TileStreamer<number>,
): Promise<Round> {
  await streamer.drain();
  streamer.takeCompleted();
  const tiles = side * side;
  const start = performance.now();
  let sinceSubmit = 0;
  for (let i = 0; i < tiles; i++) {
    const upload = {
      coordinate: { x: i % side, y: Math.floor(i / side), z: 0, subresource: 0 },
      data: sources[sourceOf(i, round, tiles)] as Uint8Array,
      requestedAt: performance.now(),
      key: i,
    };
    // Full ring: wait for the oldest copy (write() submits first if the ring holds unsubmitted tiles).
    if (!streamer.tryWrite(upload)) await streamer.write(upload);
    if (++sinceSubmit === BATCH_TILES) {
      streamer.submit();
      sinceSubmit = 0;
    }
  }
  await streamer.drain();
  const ms = performance.now() - start;
  const done = streamer.takeCompleted();
  if (done.length !== tiles) throw new Error(`tile-streaming (${name}): ${done.length} of ${tiles} tiles completed`);
  return { ms, latencies: done.map((d) => d.latencyMs) };
}

async function rawRound(
  gpuDevice: GPUDevice,
  raw: Raw,
  sources: readonly Uint8Array[],
  side: number,
  round: number,
): Promise<Round> {
  await gpuDevice.queue.onSubmittedWorkDone();
  const tiles = side * side;
  const latencies: Promise<number>[] = [];
  let encoder: GPUCommandEncoder | null = null;
  let batch: { slot: RawSlot; requestedAt: number }[] = [];
  const submit = (): void => {
    if (!encoder) return;
    gpuDevice.queue.submit([encoder.finish()]);
    encoder = null;
    const done = gpuDevice.queue.onSubmittedWorkDone().then(() => performance.now());
    for (const { slot, requestedAt } of batch) {
      // Mapped again once the GPU is done reading it: the slot is free then.
      slot.state = 'pending';
      slot.ready = slot.buffer.mapAsync(GPUMapMode.WRITE);
      latencies.push(done.then((time) => time - requestedAt));
    }
    batch = [];
  };
  const start = performance.now();
  for (let i = 0; i < tiles; i++) {
    const requestedAt = performance.now();
    const slot = raw.slots[raw.next++ % raw.slots.length] as RawSlot;
    // The oldest slot, in the batch not yet submitted (a ring smaller than a batch): submit it first.
    if (slot.state === 'batched') submit();
    if (slot.state === 'pending') {
      await slot.ready;
      slot.state = 'mapped';
    }
    new Uint8Array(slot.buffer.getMappedRange()).set(sources[sourceOf(i, round, tiles)] as Uint8Array);
    slot.buffer.unmap();
    slot.state = 'batched';
    encoder ??= gpuDevice.createCommandEncoder({ label: 'tile-streaming raw' });
    encoder.copyBufferToTexture(
      { buffer: slot.buffer, bytesPerRow: ROW_BYTES, rowsPerImage: TILE_TEXELS },
      { texture: raw.texture, origin: { x: (i % side) * TILE_TEXELS, y: Math.floor(i / side) * TILE_TEXELS } },
      [TILE_TEXELS, TILE_TEXELS],
    );
    batch.push({ slot, requestedAt });
    if (batch.length === BATCH_TILES) submit();
  }
  submit();
  const all = await Promise.all(latencies);
  await gpuDevice.queue.onSubmittedWorkDone();
  return { ms: performance.now() - start, latencies: all };
}

/** Throws unless the library's texture holds the last round's bytes at the checked tiles. */
async function checkLibrary(
  library: Library,
  sources: readonly Uint8Array[],
  side: number,
  round: number,
  name: string,
): Promise<void> {
  const { device, queue, texture } = library;
  const tiles = side * side;
  const checked = CHECKED(tiles);
  const readback = device.createCommittedResource(
    { type: 'READBACK' },
    [],
    { dimension: 'BUFFER', width: checked.length * TILE_SIZE },
    'COPY_DEST',
  );
  const list = device.createCommandList('DIRECT');
  // The streamer's copies left the texture in COPY_DEST (a texture's write state does not decay).
  list.resourceBarrier([
    {
      type: 'TRANSITION',
      transition: { resource: texture, subresource: 0, stateBefore: 'COPY_DEST', stateAfter: 'COPY_SOURCE' },
    },
  ]);
  checked.forEach((i, k) =>
    list.copyTiles(
      texture,
      { x: i % side, y: Math.floor(i / side), z: 0, subresource: 0 },
      { numTiles: 1 },
      readback,
      k * TILE_SIZE,
      'SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER',
    ),
  );
  list.resourceBarrier([
    {
      type: 'TRANSITION',
      transition: { resource: texture, subresource: 0, stateBefore: 'COPY_SOURCE', stateAfter: 'COPY_DEST' },
    },
  ]);
  list.close();
  queue.executeCommandLists([list]);
  const fence = device.createFence(0);
  queue.signal(fence, 1);
  await fence.setEventOnCompletion(1);
  const bytes = readback.map();
  try {
    checked.forEach((i, k) =>
      compare(
        bytes.subarray(k * TILE_SIZE, (k + 1) * TILE_SIZE),
        sources[sourceOf(i, round, tiles)] as Uint8Array,
        `library (${name}) tile ${i}`,
      ),
    );
  } finally {
    readback.unmap();
    readback.release();
  }
}

/** Throws unless the raw texture holds the last round's bytes at the checked tiles. */
async function checkRaw(
  gpuDevice: GPUDevice,
  raw: Raw,
  sources: readonly Uint8Array[],
  side: number,
  round: number,
): Promise<void> {
  const tiles = side * side;
  const checked = CHECKED(tiles);
  const readback = gpuDevice.createBuffer({
    label: 'tile-streaming raw check',
    size: checked.length * TILE_SIZE,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const encoder = gpuDevice.createCommandEncoder();
  checked.forEach((i, k) =>
    encoder.copyTextureToBuffer(
      { texture: raw.texture, origin: { x: (i % side) * TILE_TEXELS, y: Math.floor(i / side) * TILE_TEXELS } },
      { buffer: readback, offset: k * TILE_SIZE, bytesPerRow: ROW_BYTES, rowsPerImage: TILE_TEXELS },
      [TILE_TEXELS, TILE_TEXELS],
    ),
  );
  gpuDevice.queue.submit([encoder.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  try {
    const bytes = new Uint8Array(readback.getMappedRange());
    checked.forEach((i, k) =>
      compare(
        bytes.subarray(k * TILE_SIZE, (k + 1) * TILE_SIZE),
        sources[sourceOf(i, round, tiles)] as Uint8Array,
        `raw tile ${i}`,
      ),
    );
  } finally {
    readback.destroy();
  }
}

function compare(got: Uint8Array, want: Uint8Array, what: string): void {
  for (let i = 0; i < want.length; i++) {
    if (got[i] !== want[i])
      throw new Error(
        `tile-streaming: ${what} differs from the CPU reference at byte ${i} (0x${(got[i] ?? 0).toString(16)}, expected 0x${(want[i] ?? 0).toString(16)})`,
      );
  }
}

async function measureCase(
  context: BenchContext,
  library: Library,
  raw: Raw,
  { name, mapping, copy }: (typeof CASES)[number],
  sources: readonly Uint8Array[],
  side: number,
  rounds: number,
  warmup: number,
  live: LiveRecorder,
): Promise<{ row: FigureRow; lastRound: number }> {
  const { gpuDevice } = context;
  const streamer = new TileStreamer<number>(library.device, library.queue, library.texture, {
    slots: RING_SLOTS,
    mapping,
    copy,
    name: 'tile-streaming',
  });
  const bytes = side * side * TILE_SIZE;
  const measured: Round[] = [];
  const baseline: Round[] = [];
  let round = 0;
  try {
    for (let i = 0; i < warmup + rounds; i++, round++) {
      context.progress(`tile-streaming: ${name}, ${i < warmup ? 'warm-up' : `round ${i - warmup + 1}/${rounds}`}`);
      const l = await libraryRound(name, sources, side, round, streamer);
      const r = await rawRound(gpuDevice, raw, sources, side, round);
      if (i < warmup) continue;
      measured.push(l);
      baseline.push(r);
      live.sample(name, 'measured', mbPerSecond(bytes, l.ms));
      live.sample(name, 'baseline', mbPerSecond(bytes, r.ms));
    }
  } finally {
    await streamer.drain();
    streamer.release();
  }
  const lastRound = round - 1;
  await checkLibrary(library, sources, side, lastRound, name);
  const latency = (set: Round[]) => set.flatMap((r) => r.latencies);
  return {
    lastRound,
    row: row(
      name,
      measured.map((r) => mbPerSecond(bytes, r.ms)),
      baseline.map((r) => mbPerSecond(bytes, r.ms)),
      {
        latencyMedianMs: quantile(latency(measured), 0.5),
        latencyP95Ms: quantile(latency(measured), 0.95),
        rawLatencyMedianMs: quantile(latency(baseline), 0.5),
        rawLatencyP95Ms: quantile(latency(baseline), 0.95),
        msPerRound: median(measured.map((r) => r.ms)),
        rawMsPerRound: median(baseline.map((r) => r.ms)),
      },
    ),
  };
}

export const tileStreaming: FigureRunner = async (context: BenchContext): Promise<Figure> => {
  const side = context.quick ? QUICK_SIDE_TILES : FULL_SIDE_TILES;
  const tiles = side * side;
  const rounds = context.quick ? 2 : 7;
  const warmup = context.quick ? 1 : 2;
  const { gpuDevice } = context;
  const live = liveRecorder(context, 'tile-streaming', 'MB/s');

  // Produced before any round (out of the timed path).
  context.progress(`tile-streaming: producing ${tiles} tiles on the CPU`);
  const produceStart = performance.now();
  const random = new Random(TILE_SEED);
  const sources = Array.from({ length: tiles }, () => producedTile(random));
  const cpuProduceMsPerTile = (performance.now() - produceStart) / tiles;

  const raw: Raw = {
    texture: gpuDevice.createTexture({
      label: 'tile-streaming raw texture',
      size: [side * TILE_TEXELS, side * TILE_TEXELS],
      format: 'rgba8unorm',
      usage: GPUTextureUsage.COPY_DST | GPUTextureUsage.COPY_SRC,
    }),
    slots: Array.from({ length: RING_SLOTS }, (_, i) => ({
      buffer: gpuDevice.createBuffer({
        label: `tile-streaming raw staging ${i}`,
        size: TILE_SIZE,
        usage: GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC,
        mappedAtCreation: true,
      }),
      state: 'mapped' as const,
      ready: Promise.resolve(),
    })),
    next: 0,
  };
  const rows: FigureRow[] = [];
  try {
    let lastRound = 0;
    for (const testCase of CASES) {
      const library = await createLibrary(gpuDevice, side, testCase.gpuValidation);
      try {
        const measured = await measureCase(context, library, raw, testCase, sources, side, rounds, warmup, live);
        rows.push(measured.row);
        lastRound = measured.lastRound;
      } finally {
        library.device.destroy();
      }
    }
    await checkRaw(gpuDevice, raw, sources, side, lastRound);
    for (const r of rows) r.extra = { ...r.extra, cpuProduceMsPerTile, tiles };
  } finally {
    // A buffer destroyed while mapAsync is pending rejects that promise: let them settle first.
    await Promise.allSettled(raw.slots.map((slot) => slot.ready));
    await gpuDevice.queue.onSubmittedWorkDone();
    raw.texture.destroy();
    for (const slot of raw.slots) slot.buffer.destroy();
  }
  return {
    id: 'tile-streaming',
    title: 'Tile streaming: CPU-made tiles through an upload ring into a reserved texture',
    unit: 'MB/s',
    baselineName: `raw WebGPU: a ring of ${RING_SLOTS} MAP_WRITE staging buffers, copyBufferToTexture into a native rgba8unorm texture, ${BATCH_TILES} tiles a submit`,
    ratioMeaning: 'library MB/s ÷ raw MB/s',
    target: { text: 'at least 0.9 of the raw rate', ratio: 0.9, direction: 'at-least' },
    rows,
    rounds,
    warmup,
    parameters: {
      tiles,
      tileBytes: TILE_SIZE,
      textureSide: side * TILE_TEXELS,
      ringSlots: RING_SLOTS,
      batchTiles: BATCH_TILES,
      bytesPerRound: tiles * TILE_SIZE,
    },
    notes: [
      "Rows without a prefix copy each tile with copyTiles; 'copyTextureRegion:' rows copy it from a placed footprint (getCopyableFootprints) into its box with copyTextureRegion.",
      'A round streams every tile once; MB/s is its bytes over the time from the first write until the last copy is known complete on the CPU.',
      'Latency (extras, ms): from handing a tile to the streamer (waiting for a free slot included) to its completion: library fence event, raw onSubmittedWorkDone.',
      'Tiles are produced on the CPU before the rounds, out of the timed path; extra cpuProduceMsPerTile is what producing one cost.',
      "'ring mapped persistently': the emulator cannot see writes through a pointer kept mapped, so every executeCommandLists re-sends the whole ring (src/emulator/cpu-coherence.ts).",
      "'gpuValidation off': the same as the first row on a device without GPU fault logging, which otherwise reads its log back after every submission.",
    ],
  };
};
