/**
 * The scene's CPU tile source (source=cpu): tiles the cache placed on a page are produced by the
 * worker (WorkerTileProducer), streamed through the UPLOAD ring (TileStreamer), mapped right before
 * their copy (copyTiles, or copyTextureRegion per box: the `copy` field), and reported as arrived once
 * that copy's fence completed.
 *
 * Invariants:
 *   - a tile is waiting from request() until it arrives or is forgotten (evicted); only the latest
 *     request of a tile counts, so bytes produced for an evicted tile are dropped before they reach
 *     the ring, and a copy completing for one is not reported;
 *   - tiles go into the ring and are submitted in the same synchronous step (stream()), after the
 *     frame's evictions, so a tile is never mapped onto a page the cache has since given away;
 *   - a produced tile waits in the worker's ready queue while the ring is full (backpressure).
 */
import type { CommandQueue, Device, Heap, Resource } from '../../src/index.js';
import { WorkerTileProducer, type ProducedTile } from './tile-producer.js';
import { TAIL_REGIONS } from './tile-texels.js';
import { TileStreamer, type CopyPath, type StreamingStats, type TileUpload } from '../../src/streaming/index.js';
import { TAIL_TILE, tileCoord } from './vt-layout.js';
import { VT_STANDARD_MIPS } from './procedural.js';

interface Key {
  tile: number;
  id: number;
}

export interface CpuTileStats extends StreamingStats {
  /** Tiles asked for whose copy has not completed. */
  waiting: number;
  /** Produced tiles waiting for a ring slot. */
  waitingForSlot: number;
  ringSlots: number;
  /** Mean CPU time the worker spent on a tile, ms. */
  produceMsPerTile: number;
}

/** The texture coordinate of a tile: standard tiles by mip and grid position, the tail as its first packed mip. */
export function tileCoordinate(tile: number): { x: number; y: number; z: number; subresource: number } {
  if (tile === TAIL_TILE) return { x: 0, y: 0, z: 0, subresource: VT_STANDARD_MIPS };
  const { mip, x, y } = tileCoord(tile);
  return { x, y, z: 0, subresource: mip };
}

export class CpuTiles {
  private readonly producer = new WorkerTileProducer();
  private readonly streamer: TileStreamer<Key>;
  /** Tile → id of its latest request, while waiting. */
  private readonly requests = new Map<number, number>();

  constructor(
    device: Device,
    queue: CommandQueue,
    texture: Resource,
    private readonly heap: Heap,
    ringSlots: number,
    copy: CopyPath,
  ) {
    this.streamer = new TileStreamer<Key>(device, queue, texture, { slots: ringSlots, copy, name: 'virtual texture' });
  }

  /** How tiles go from the ring into the texture; a switch applies to tiles not yet in the ring. */
  get copy(): CopyPath {
    return this.streamer.copy;
  }

  set copy(path: CopyPath) {
    this.streamer.copy = path;
  }

  get waiting(): number {
    return this.requests.size;
  }

  isWaiting(tile: number): boolean {
    return this.requests.has(tile);
  }

  request(tile: number): void {
    this.requests.set(tile, this.producer.request(tile));
  }

  /** The tile was evicted: whatever is on its way for it is dropped. */
  forget(tile: number): void {
    this.requests.delete(tile);
  }

  /** The tiles whose copies completed since the last call (and are still wanted). */
  collect(): number[] {
    if (this.producer.error) throw new Error(this.producer.error);
    const arrived: number[] = [];
    for (const { key } of this.streamer.takeCompleted()) {
      if (this.requests.get(key.tile) !== key.id) continue;
      this.requests.delete(key.tile);
      arrived.push(key.tile);
    }
    return arrived;
  }

  /** Writes produced tiles into free slots (mapping each onto `pageOf(tile)`) and submits them. */
  stream(pageOf: (tile: number) => number | undefined): void {
    const ready = this.producer.ready;
    while (ready.length > 0 && this.streamer.freeSlots > 0) {
      const next = ready.shift();
      if (!next) break;
      const page = pageOf(next.tile);
      if (this.requests.get(next.tile) === next.id && page !== undefined) {
        this.streamer.tryWrite(this.upload(next, page));
      }
      // Copied into the ring (or not wanted): the buffer goes back to the worker.
      this.producer.recycle(next.buffer);
    }
    this.streamer.submit();
  }

  /**
   * Before the first frame: produces and streams `tiles` (the pinned ones), waiting for slots as the
   * ring fills, and resolves once every copy completed.
   */
  async fill(tiles: readonly { tile: number; page: number }[]): Promise<void> {
    const pages = new Map(tiles.map((t) => [t.tile, t.page]));
    for (const { tile } of tiles) this.request(tile);
    let streamed = 0;
    while (streamed < tiles.length) {
      await this.producer.waitForReady(1);
      const next = this.producer.ready.shift();
      if (!next) continue;
      await this.streamer.write(this.upload(next, pages.get(next.tile) ?? 0));
      this.producer.recycle(next.buffer);
      streamed++;
    }
    await this.streamer.drain();
    this.collect();
  }

  /** A produced tile as the streamer takes it: mapped onto `page`; the tail names its packed mips' boxes. */
  private upload(tile: ProducedTile, page: number): TileUpload<Key> {
    return {
      coordinate: tileCoordinate(tile.tile),
      data: new Uint8Array(tile.buffer),
      requestedAt: tile.requestedAt,
      mapTo: { heap: this.heap, heapTile: page },
      key: { tile: tile.tile, id: tile.id },
      ...(tile.tile === TAIL_TILE ? { regions: TAIL_REGIONS } : {}),
    };
  }

  stats(): CpuTileStats {
    return {
      ...this.streamer.stats(),
      waiting: this.requests.size,
      waitingForSlot: this.producer.ready.length,
      ringSlots: this.streamer.slotCount,
      produceMsPerTile: this.producer.produced > 0 ? this.producer.produceMs / this.producer.produced : NaN,
    };
  }

  release(): void {
    this.producer.terminate();
    this.streamer.release();
  }
}
