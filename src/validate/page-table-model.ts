/**
 * The scenarios' CPU prediction of what reserved tiles hold: heap memory as byte arrays, reached
 * through the library's CPU page table (resource.getTileMappingForTesting, the public read-only view
 * of the CPU authority). Writes through a tile land in its heap page; reads of a NULL tile give what
 * the tier says (0 on Tier 2+, the poison word on Tier 1).
 *
 * Invariant: a scenario first tells the API a mapping, then asks this model; the model trusts the
 * CPU page table, so the scenarios check the GPU's bytes against the CPU authority (the differential
 * run keeps a mapping model of its own and checks the CPU page table too).
 */
import type { Heap } from '../d3d12/heap.js';
import type { Resource } from '../d3d12/resource.js';
import { TILE } from './bytes.js';
import { getTileMappingForTesting } from '../testing/index.js';

/** Tier 1's documented value for reads of NULL tiles (shaders/prelude/common.wgsl). */
export const TIER1_NULL_READ = 0xdeadbeef;

export class PageTableModel {
  private readonly heaps = new Map<Heap, Uint8Array>();

  constructor(private readonly tier: number) {}

  private heapBytes(heap: Heap): Uint8Array {
    let bytes = this.heaps.get(heap);
    if (!bytes) {
      bytes = new Uint8Array(heap.getDesc().sizeInBytes);
      this.heaps.set(heap, bytes);
    }
    return bytes;
  }

  /** A copy of 64 KiB into resource tile `tile` (dropped on a NULL tile). */
  writeTile(resource: Resource, tile: number, bytes: Uint8Array): void {
    const mapping = getTileMappingForTesting(resource, tile);
    if (mapping) this.heapBytes(mapping.heap).set(bytes.subarray(0, TILE), mapping.heapTileOffset * TILE);
  }

  readTile(resource: Resource, tile: number): Uint8Array {
    const mapping = getTileMappingForTesting(resource, tile);
    if (mapping)
      return this.heapBytes(mapping.heap).slice(mapping.heapTileOffset * TILE, (mapping.heapTileOffset + 1) * TILE);
    const bytes = new Uint8Array(TILE);
    if (this.tier === 1) new Uint32Array(bytes.buffer).fill(TIER1_NULL_READ);
    return bytes;
  }

  /** Bytes [offset, offset + length) of a reserved buffer, tile by tile. */
  readRange(resource: Resource, offset: number, length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let tile = Math.floor(offset / TILE); tile * TILE < offset + length; tile++) {
      const bytes = this.readTile(resource, tile);
      const start = Math.max(offset, tile * TILE);
      const end = Math.min(offset + length, (tile + 1) * TILE);
      out.set(bytes.subarray(start - tile * TILE, end - tile * TILE), start - offset);
    }
    return out;
  }

  writeRange(resource: Resource, offset: number, bytes: Uint8Array): void {
    for (let tile = Math.floor(offset / TILE); tile * TILE < offset + bytes.length; tile++) {
      const current = this.readTile(resource, tile);
      const start = Math.max(offset, tile * TILE);
      const end = Math.min(offset + bytes.length, (tile + 1) * TILE);
      current.set(bytes.subarray(start - offset, end - offset), start - tile * TILE);
      this.writeTile(resource, tile, current);
    }
  }
}
