/**
 * The CPU reference executor of the differential test: emulated memory as plain byte arrays, one
 * 64 KiB array per heap page (created zeroed on first use: new heaps and committed resources start
 * zeroed), reached through the library's CPU page table (resource.getTileMappingForTesting). It is
 * deliberately simple: no GPU, no batching, byte loops.
 *
 * Semantics it predicts (tiled resources tier 2 and up, buffers only):
 *   - a byte of a NULL tile reads 0 and a write to it is dropped;
 *   - a copy reads all its source bytes, then writes them (source and destination never overlap in
 *     memory: the generator guarantees it, as D3D12 requires);
 *   - the read-modify-write shader sets each 4-byte little-endian word v to v * 3 + seed (mod 2^32).
 */
import type { Heap, Resource } from '../../../src/index.js';

export const TILE = 65536;

export class CpuExecutor {
  private readonly memory = new Map<Heap, Map<number, Uint8Array>>();

  /** Heap page `page` of `heap`, zeroed the first time it is touched. */
  private page(heap: Heap, page: number): Uint8Array {
    let pages = this.memory.get(heap);
    if (!pages) {
      pages = new Map();
      this.memory.set(heap, pages);
    }
    let bytes = pages.get(page);
    if (!bytes) {
      bytes = new Uint8Array(TILE);
      pages.set(page, bytes);
    }
    return bytes;
  }

  /** The heap page behind resource tile `tile`, or null for a NULL tile. */
  private translate(resource: Resource, tile: number): Uint8Array | null {
    const mapping = resource.getTileMappingForTesting(tile);
    return mapping ? this.page(mapping.heap, mapping.heapTileOffset) : null;
  }

  /** Calls `visit` for each tile-sized piece of resource bytes [offset, offset + length). */
  private walk(resource: Resource, offset: number, length: number, visit: (page: Uint8Array | null, pageOffset: number, dataOffset: number, count: number) => void): void {
    let done = 0;
    while (done < length) {
      const at = offset + done;
      const tile = Math.floor(at / TILE);
      const pageOffset = at - tile * TILE;
      const count = Math.min(length - done, TILE - pageOffset);
      visit(this.translate(resource, tile), pageOffset, done, count);
      done += count;
    }
  }

  /** Bytes [offset, offset + length) of a resource, as the GPU would read them. */
  read(resource: Resource, offset: number, length: number): Uint8Array {
    const out = new Uint8Array(length);
    this.walk(resource, offset, length, (page, pageOffset, dataOffset, count) => {
      for (let i = 0; i < count; i++) out[dataOffset + i] = page ? (page[pageOffset + i] as number) : 0;
    });
    return out;
  }

  /** Writes `bytes` at `offset` of a resource (bytes of NULL tiles are dropped). */
  write(resource: Resource, offset: number, bytes: Uint8Array): void {
    this.walk(resource, offset, bytes.length, (page, pageOffset, dataOffset, count) => {
      if (!page) return;
      for (let i = 0; i < count; i++) page[pageOffset + i] = bytes[dataOffset + i] as number;
    });
  }

  copyBufferRegion(dst: Resource, dstOffset: number, src: Resource, srcOffset: number, numBytes: number): void {
    this.write(dst, dstOffset, this.read(src, srcOffset, numBytes));
  }

  /** copyTiles of tiles [firstTile, firstTile + numTiles) of a reserved buffer, each 64 KiB, against a linear buffer. */
  copyTiles(tiled: Resource, firstTile: number, numTiles: number, buffer: Resource, bufferOffset: number, toTiles: boolean): void {
    if (toTiles) this.write(tiled, firstTile * TILE, this.read(buffer, bufferOffset, numTiles * TILE));
    else this.write(buffer, bufferOffset, this.read(tiled, firstTile * TILE, numTiles * TILE));
  }

  /** The read-modify-write shader over `words` words from `offset` (a multiple of 4). */
  readModifyWrite(resource: Resource, offset: number, words: number, seed: number): void {
    const bytes = this.read(resource, offset, words * 4);
    for (let i = 0; i < words * 4; i += 4) {
      const v = ((bytes[i] as number) | ((bytes[i + 1] as number) << 8) | ((bytes[i + 2] as number) << 16) | ((bytes[i + 3] as number) << 24)) >>> 0;
      const next = (Math.imul(v, 3) + seed) >>> 0;
      bytes[i] = next & 0xff;
      bytes[i + 1] = (next >>> 8) & 0xff;
      bytes[i + 2] = (next >>> 16) & 0xff;
      bytes[i + 3] = next >>> 24;
    }
    this.write(resource, offset, bytes);
  }
}
