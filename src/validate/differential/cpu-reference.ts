/**
 * The CPU reference executor of the differential run: emulated memory as plain byte arrays, one
 * 64 KiB array per memory page (created zeroed on first use: new heaps and committed resources start
 * zeroed), reached through the run's own mapping model (world.ts), never through the emulator. It is
 * deliberately simple: no GPU, no batching, byte loops.
 *
 * Semantics it predicts:
 *   - a byte of a NULL tile reads 0 on Tier 2 and up, and byte (offset mod 4) of the little-endian
 *     word 0xdeadbeef on Tier 1 (the emulator's documented poison); a write to a NULL tile is dropped;
 *   - a copy reads all its source bytes, then writes them (source and destination never share
 *     memory: the generator guarantees it, as D3D12 requires);
 *   - copyTiles moves whole tiles in the region's order against consecutive 64 KiB of the buffer;
 *   - the read-modify-write shader sets each 4-byte little-endian word v to v * 3 + seed (mod 2^32);
 *   - a CPU write through map() lands in the buffer's memory at once.
 */
import { TILE } from '../bytes.js';
import { TIER1_NULL_READ } from '../page-table-model.js';
import type { CpuReferenceBugForTesting } from '../types.js';
import { physical, type Memory, type ResourceEntry } from './world.js';

export class CpuReference {
  private readonly memory = new Map<Memory, Map<number, Uint8Array>>();

  constructor(
    private readonly tier: number,
    private readonly bug?: CpuReferenceBugForTesting,
  ) {}

  /** Page `page` of `memory`, zeroed the first time it is touched. */
  private page(memory: Memory, page: number): Uint8Array {
    let pages = this.memory.get(memory);
    if (!pages) {
      pages = new Map();
      this.memory.set(memory, pages);
    }
    let bytes = pages.get(page);
    if (!bytes) {
      bytes = new Uint8Array(TILE);
      pages.set(page, bytes);
    }
    return bytes;
  }

  /** Drops a released memory's pages. */
  forget(memory: Memory): void {
    this.memory.delete(memory);
  }

  /** Calls `visit` for each tile-sized piece of resource bytes [offset, offset + length). */
  private walk(
    entry: ResourceEntry,
    offset: number,
    length: number,
    visit: (page: Uint8Array | null, pageOffset: number, dataOffset: number, count: number) => void,
  ): void {
    let done = 0;
    while (done < length) {
      const at = offset + done;
      const tile = Math.floor(at / TILE);
      const pageOffset = at - tile * TILE;
      const count = Math.min(length - done, TILE - pageOffset);
      const target = physical(entry, tile);
      visit(target ? this.page(target.memory, target.page) : null, pageOffset, done, count);
      done += count;
    }
  }

  /** Bytes [offset, offset + length) of a resource, as the GPU reads them. */
  read(entry: ResourceEntry, offset: number, length: number): Uint8Array {
    const out = new Uint8Array(length);
    this.walk(entry, offset, length, (page, pageOffset, dataOffset, count) => {
      if (page) out.set(page.subarray(pageOffset, pageOffset + count), dataOffset);
      else if (this.tier === 1)
        for (let i = 0; i < count; i++) out[dataOffset + i] = (TIER1_NULL_READ >>> (8 * ((pageOffset + i) & 3))) & 0xff;
    });
    return out;
  }

  /** Writes `bytes` at `offset` of a resource (bytes of NULL tiles are dropped). */
  write(entry: ResourceEntry, offset: number, bytes: Uint8Array): void {
    this.walk(entry, offset, bytes.length, (page, pageOffset, dataOffset, count) => {
      if (page) page.set(bytes.subarray(dataOffset, dataOffset + count), pageOffset);
    });
  }

  /** Whole tiles of a reserved resource, in the given order. */
  readTiles(entry: ResourceEntry, tiles: readonly number[]): Uint8Array {
    const out = new Uint8Array(tiles.length * TILE);
    tiles.forEach((tile, i) => out.set(this.read(entry, tile * TILE, TILE), i * TILE));
    return out;
  }

  writeTiles(entry: ResourceEntry, tiles: readonly number[], bytes: Uint8Array): void {
    tiles.forEach((tile, i) => this.write(entry, tile * TILE, bytes.subarray(i * TILE, (i + 1) * TILE)));
  }

  copyBufferRegion(
    dst: ResourceEntry,
    dstOffset: number,
    src: ResourceEntry,
    srcOffset: number,
    numBytes: number,
  ): void {
    const bytes = this.read(src, srcOffset, numBytes);
    this.write(
      dst,
      dstOffset,
      this.bug === 'copy-drops-last-byte' ? bytes.subarray(0, Math.max(0, numBytes - 1)) : bytes,
    );
  }

  /** copyTiles of `tiles` (in region order) of a reserved resource against a linear buffer from `bufferOffset`. */
  copyTiles(
    tiled: ResourceEntry,
    tiles: readonly number[],
    buffer: ResourceEntry,
    bufferOffset: number,
    toTiles: boolean,
  ): void {
    if (toTiles) this.writeTiles(tiled, tiles, this.read(buffer, bufferOffset, tiles.length * TILE));
    else this.write(buffer, bufferOffset, this.readTiles(tiled, tiles));
  }

  /** The read-modify-write shader over `words` words from `offset` (a multiple of 4). */
  readModifyWrite(entry: ResourceEntry, offset: number, words: number, seed: number): void {
    const bytes = this.read(entry, offset, words * 4);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < words * 4; i += 4)
      view.setUint32(i, (Math.imul(view.getUint32(i, true), 3) + seed) >>> 0, true);
    this.write(entry, offset, bytes);
  }
}
