/**
 * TileStreamer: tiles produced on the CPU reach a reserved texture the way a D3D12 texture streamer
 * moves them: each is written into a 64 KiB slot of one UPLOAD committed buffer (the ring), copied
 * into the texture, the copies of a batch recorded into one command list, executed, and fenced.
 * d3d12-webgpu/streaming: a client of the library's public API only (src/index.ts), no WebGPU call
 * and no DOM of its own, so the virtual texture scene, the bench (bench/suite/tile-streaming.ts) and
 * any application stream tiles through the same code.
 *
 * Two copy paths (options.copy, or the `copy` field, which applies to tiles written from then on):
 *   'copyTiles' (default)  the slot holds the tile's 64 KiB in copyTiles' linear layout, copied by one
 *                          copyTiles (LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE);
 *   'copyTextureRegion'    the slot holds a placed footprint per box of the tile (getCopyableFootprints,
 *                          rows at its 256-byte row pitch), each copied by copyTextureRegion into its
 *                          box of its subresource: a standard tile's texels, or each packed mip whole
 *                          (tile-regions.ts). The texels that land are the same.
 *
 * Every public call checks its arguments first (streamer-validation.ts) and throws a D3D12Error
 * (E_INVALIDARG) naming the call, the argument and the rule, having changed nothing; after release()
 * the calls that do work (tryWrite, write, submit, drain, the copy setter) refuse, the queries
 * (freeSlots, pending, takeCompleted, stats) still answer.
 *
 * Invariants:
 *   - a slot is written only while free: before its first use, or once the fence value signalled
 *     after the copy that read it has completed. With every slot taken, tryWrite refuses and write
 *     waits for the oldest copy (backpressure); a tile is never dropped and a slot in flight never
 *     overwritten;
 *   - a tile written with `mapTo` is mapped (updateTileMappings) right before the executeCommandLists
 *     that copies it: queue order puts the mapping before the copy and the copy before any work
 *     submitted later, so no later submission sees the tile mapped without its data;
 *   - every tile written is reported complete exactly once (takeCompleted), after its copy's fence
 *     completed, with its latency from `requestedAt` to that completion;
 *   - tiles are copied in the order they were written; a copy into a NULL tile is dropped (as
 *     copies to NULL tiles are), and still completes.
 *
 * The ring is mapped in one of two ways (options.mapping):
 *   'per-write' (default)  map with an empty read range and unmap with the slot's range around each
 *                          write: D3D12's own way to say which bytes the CPU wrote, so each submission
 *                          sends those bytes only;
 *   'persistent'           mapped once for the ring's life, as D3D12 allows for UPLOAD memory. The
 *                          emulator cannot see writes through a pointer kept mapped, so every
 *                          executeCommandLists on the device then re-sends the whole ring
 *                          (src/emulator/cpu-coherence.ts); the bench measures what that costs.
 */
import {
  D3D12Error,
  TILE_SIZE,
  type CommandQueue,
  type Device,
  type Fence,
  type Heap,
  type Resource,
  type ResourceTiling,
  type TiledResourceCoordinate,
} from '../index.js';
import {
  checkCopyPath,
  checkLive,
  checkQueueOfDevice,
  checkStreamerArguments,
  checkUpload,
  invalid,
} from './streamer-validation.js';
import { TileRegionCopier, type PlacedRegion, type TileRegion } from './tile-regions.js';

/** Latencies kept for the median and p95: the recent past, a few seconds of a busy stream. */
const LATENCY_WINDOW = 512;
/** The window of streamedBytesPerSecond(): a rate that reads steadily on a panel. */
const RATE_WINDOW_MS = 1000;

export interface TileUpload<K> {
  coordinate: TiledResourceCoordinate;
  /**
   * The tile's bytes, at most 64 KiB, in copyTiles' linear layout (on that path the rest of the slot
   * is zeroed); on the copyTextureRegion path, laid out as `regions` say.
   */
  data: Uint8Array;
  /** When the tile was asked for (performance.now() time base): its latency counts from here. */
  requestedAt: number;
  /**
   * copyTextureRegion path: the boxes `data` fills and where their rows lie in it; absent: the standard
   * tile at `coordinate`, its rows as copyTiles' linear layout has them. Packed mips must be named.
   */
  regions?: readonly TileRegion[];
  /** Map the tile onto this heap tile just before its copy; absent: the mapping is left as it is. */
  mapTo?: { heap: Heap; heapTile: number };
  /** Handed back with the completion. */
  key: K;
}

export interface CompletedTile<K> {
  key: K;
  coordinate: TiledResourceCoordinate;
  /** requestedAt to the completion of the copy's fence, ms. */
  latencyMs: number;
  completedAt: number;
}

export interface TileStreamerOptions {
  /** Slots in the ring (64 KiB each). */
  slots: number;
  mapping?: 'per-write' | 'persistent';
  copy?: CopyPath;
  name?: string;
  /** The clock (default performance.now). */
  now?: () => number;
}

export type CopyPath = 'copyTiles' | 'copyTextureRegion';

export interface StreamingStats {
  tiles: number;
  /** 64 KiB a tile, whichever path copied it. */
  bytes: number;
  /** Over the latest LATENCY_WINDOW tiles; NaN before the first. */
  latencyMedianMs: number;
  latencyP95Ms: number;
  /** Bytes completed in the last RATE_WINDOW_MS, per second. */
  bytesPerSecond: number;
}

interface Slot<K> {
  state: 'free' | 'written' | 'in-flight';
  upload?: TileUpload<K>;
  /** Written for copyTextureRegion: its footprints; absent: copyTiles. */
  placed?: PlacedRegion[];
}

/** The q-quantile (0..1) of `values`, by nearest rank (how stats() reads its latencies); NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

export class TileStreamer<K = unknown> {
  readonly ring: Resource;
  readonly slotCount: number;
  private readonly slots: Slot<K>[];
  /** Written slots in write order, not yet submitted. */
  private written: number[] = [];
  private readonly fence: Fence;
  private fenceValue = 0;
  private readonly persistentView: Uint8Array | undefined;
  private readonly now: () => number;
  private completed: CompletedTile<K>[] = [];
  private readonly waiters: (() => void)[] = [];
  private readonly latencies: number[] = [];
  private latencyNext = 0;
  private recent: { time: number; bytes: number }[] = [];
  private inFlight = 0;
  private totalTiles = 0;
  private totalBytes = 0;
  private released = false;
  private regionCopier: TileRegionCopier | undefined;
  private copyPath: CopyPath;
  private readonly tiling: ResourceTiling;
  /** How messages name the streamer. */
  private readonly label: string;

  constructor(
    private readonly device: Device,
    private readonly queue: CommandQueue,
    readonly texture: Resource,
    options: TileStreamerOptions,
  ) {
    this.tiling = checkStreamerArguments(device, queue, texture, options);
    checkQueueOfDevice('new TileStreamer', device, queue);
    this.label = `TileStreamer '${options.name ?? 'tile streamer'}'`;
    this.slotCount = options.slots;
    this.slots = Array.from({ length: options.slots }, () => ({ state: 'free' }));
    this.now = options.now ?? (() => performance.now());
    this.copyPath = options.copy ?? 'copyTiles';
    this.ring = device.createCommittedResource(
      { type: 'UPLOAD' },
      [],
      { dimension: 'BUFFER', width: options.slots * TILE_SIZE },
      'GENERIC_READ',
    );
    this.ring.setName(`${options.name ?? 'tile streamer'} upload ring (${options.slots} slots)`);
    this.fence = device.createFence(0);
    // Nothing to read: an empty read range, as D3D12 code maps memory it only writes.
    if (options.mapping === 'persistent') this.persistentView = this.ring.map(0, { begin: 0, end: 0 });
  }

  /** How tiles written from now on are copied; tiles already written keep the path they were written for. */
  get copy(): CopyPath {
    return this.copyPath;
  }

  set copy(value: CopyPath) {
    checkLive('TileStreamer.copy', this.released, this.label);
    checkCopyPath('TileStreamer.copy', 'copy', value);
    this.copyPath = value;
  }

  get freeSlots(): number {
    return this.slots.filter((s) => s.state === 'free').length;
  }

  /** Tiles written and not yet complete (waiting for submit() or for their fence). */
  get pending(): number {
    return this.written.length + this.inFlight;
  }

  /** Writes the tile into a free slot; false (nothing written) when every slot is taken. */
  tryWrite(upload: TileUpload<K>): boolean {
    return this.writeAs('TileStreamer.tryWrite', upload);
  }

  /** tryWrite under `call`'s name: checks the upload, then writes it if a slot is free. */
  private writeAs(call: string, upload: TileUpload<K>): boolean {
    checkLive(call, this.released, this.label);
    checkUpload(call, upload, this.device, this.texture, this.tiling);
    const index = this.slots.findIndex((s) => s.state === 'free');
    // Placed (and checked) before the ring is mapped, so a refused tile leaves nothing mapped, and
    // before a full ring returns false, so a tile is refused the same whether a slot is free or not.
    const offset = Math.max(0, index) * TILE_SIZE;
    const copier =
      this.copyPath === 'copyTextureRegion'
        ? (this.regionCopier ??= new TileRegionCopier(this.device, this.texture))
        : undefined;
    const regions = copier ? this.placeFor(call, copier, upload, offset) : undefined;
    const slot = this.slots[index];
    if (!slot) return false;
    const view = this.persistentView ?? this.ring.map(0, { begin: 0, end: 0 });
    if (copier && regions) copier.writeRows(view, upload.data, regions.placed);
    else {
      view.set(upload.data, offset);
      if (upload.data.byteLength < TILE_SIZE) view.fill(0, offset + upload.data.byteLength, offset + TILE_SIZE);
    }
    if (!this.persistentView) this.ring.unmap(0, { begin: offset, end: offset + (regions?.bytes ?? TILE_SIZE) });
    slot.state = 'written';
    slot.upload = upload;
    slot.placed = regions?.placed;
    this.written.push(index);
    return true;
  }

  /** The upload's footprints in the slot at `offset`; the copier's refusal, named as `call`'s. */
  private placeFor(
    call: string,
    copier: TileRegionCopier,
    upload: TileUpload<K>,
    offset: number,
  ): { placed: PlacedRegion[]; bytes: number } {
    try {
      return copier.place(
        upload.regions ?? [copier.standardRegion(upload.coordinate)],
        offset,
        TILE_SIZE,
        upload.data.byteLength,
      );
    } catch (error) {
      if (!(error instanceof D3D12Error)) throw error;
      throw invalid(call, error.argument === 'dataBytes' ? 'upload.data' : 'upload.regions', error.rule);
    }
  }

  /**
   * Writes the tile, waiting for a slot when the ring is full (backpressure). A ring full of tiles
   * not yet submitted is submitted first, so a caller that writes without submitting never deadlocks.
   */
  async write(upload: TileUpload<K>): Promise<void> {
    while (!this.writeAs('TileStreamer.write', upload)) {
      if (this.written.length > 0) this.submit();
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /**
   * Maps (where asked) and copies every tile written since the last submit: one updateTileMappings
   * per heap, one command list, one executeCommandLists, one signal. Returns the fence value (0 when
   * nothing was written).
   */
  submit(): number {
    checkLive('TileStreamer.submit', this.released, this.label);
    if (this.written.length === 0) return 0;
    const batch = this.written;
    this.written = [];
    // Made only when a tile is to be mapped (a streamer over mapped tiles submits without one).
    let byHeap: Map<Heap, TileUpload<K>[]> | undefined;
    for (const index of batch) {
      const upload = this.slots[index]?.upload as TileUpload<K>;
      if (!upload.mapTo) continue;
      byHeap ??= new Map();
      const uploads = byHeap.get(upload.mapTo.heap);
      if (uploads) uploads.push(upload);
      else byHeap.set(upload.mapTo.heap, [upload]);
    }
    for (const [heap, uploads] of byHeap ?? []) {
      this.queue.updateTileMappings(
        this.texture,
        uploads.map((u) => u.coordinate),
        uploads.map(() => ({ numTiles: 1 })),
        heap,
        uploads.map(() => 'NONE' as const),
        uploads.map((u) => u.mapTo?.heapTile ?? 0),
        uploads.map(() => 1),
      );
    }
    const list = this.device.createCommandList('DIRECT');
    list.setName(`stream ${batch.length} tiles`);
    for (const index of batch) {
      const slot = this.slots[index] as Slot<K>;
      if (slot.placed && this.regionCopier) this.regionCopier.record(list, this.ring, slot.placed);
      else
        list.copyTiles(
          this.texture,
          (slot.upload as TileUpload<K>).coordinate,
          { numTiles: 1 },
          this.ring,
          index * TILE_SIZE,
          'LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE',
        );
    }
    list.close();
    this.queue.executeCommandLists([list]);
    const value = ++this.fenceValue;
    this.queue.signal(this.fence, value);
    for (const index of batch) (this.slots[index] as Slot<K>).state = 'in-flight';
    this.inFlight += batch.length;
    void this.fence.setEventOnCompletion(value).then(() => this.complete(batch));
    return value;
  }

  private complete(batch: number[]): void {
    const time = this.now();
    for (const index of batch) {
      const slot = this.slots[index] as Slot<K>;
      const upload = slot.upload as TileUpload<K>;
      const latencyMs = time - upload.requestedAt;
      this.completed.push({ key: upload.key, coordinate: upload.coordinate, latencyMs, completedAt: time });
      this.latencies[this.latencyNext] = latencyMs;
      this.latencyNext = (this.latencyNext + 1) % LATENCY_WINDOW;
      this.recent.push({ time, bytes: TILE_SIZE });
      slot.state = 'free';
      slot.upload = undefined;
      slot.placed = undefined;
    }
    // Entries older than the rate's window no longer count (stats() drops them too): without a
    // stats() call, as in a stream nobody watches, the array would otherwise grow by a tile a tile.
    if (this.recent.length > 4 * LATENCY_WINDOW)
      this.recent = this.recent.filter((r) => time - r.time < RATE_WINDOW_MS);
    this.inFlight -= batch.length;
    this.totalTiles += batch.length;
    this.totalBytes += batch.length * TILE_SIZE;
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** The tiles whose copies completed since the last call, in completion order. */
  takeCompleted(): CompletedTile<K>[] {
    const out = this.completed;
    this.completed = [];
    return out;
  }

  /** Submits what is written and resolves once every copy so far has completed. */
  async drain(): Promise<void> {
    checkLive('TileStreamer.drain', this.released, this.label);
    this.submit();
    await this.fence.setEventOnCompletion(this.fenceValue);
    // The completion callbacks run in signal order, the last one no earlier than this await.
    while (this.inFlight > 0) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  stats(): StreamingStats {
    const time = this.now();
    this.recent = this.recent.filter((r) => time - r.time < RATE_WINDOW_MS);
    return {
      tiles: this.totalTiles,
      bytes: this.totalBytes,
      latencyMedianMs: quantile(this.latencies, 0.5),
      latencyP95Ms: quantile(this.latencies, 0.95),
      bytesPerSecond: (this.recent.reduce((sum, r) => sum + r.bytes, 0) * 1000) / RATE_WINDOW_MS,
    };
  }

  /** Releases the ring (its memory returns once the copies in flight are done). */
  release(): void {
    if (this.released) return;
    this.released = true;
    if (this.persistentView) this.ring.unmap(0, { begin: 0, end: 0 });
    this.ring.release();
  }
}
