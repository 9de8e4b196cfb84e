/**
 * d3d12-webgpu/testing: test hooks, kept out of the main entry so that its types show the D3D12 API
 * only. Each function takes the object a `…ForTesting` method was called on and does what that
 * method did: read the CPU page table and an evicted heap's bytes, make WebGPU refuse the next
 * allocation, corrupt or drop page-table writes behind the CPU authority's back (the self-checks of
 * validateTileMappings and of the differential run).
 */
import { orThrow } from '../api/errors.js';
import type { Device } from '../d3d12/device.js';
import type { Heap } from '../d3d12/heap.js';
import type { Resource, TileMappingForTesting } from '../d3d12/resource.js';
import { corruptPageTableEntry } from '../emulator/tile-validation.js';
import { validateCorruptEntry } from '../validation/tile-validation.js';

export type { TileMappingForTesting } from '../d3d12/resource.js';

/**
 * The CPU page table's entry for tile `tileIndex` of `resource` (a read-only view): the heap and heap
 * tile behind it, or null for a NULL tile. For a placed small texture whose offset is not a whole
 * tile, the heap tile holding the tile's first byte.
 */
export function getTileMappingForTesting(resource: Resource, tileIndex: number): TileMappingForTesting | null {
  return resource.tileMapping(tileIndex);
}

/**
 * While `heap` is evicted on a GPU device, its contents once they reached CPU memory; zeros for a heap
 * created not resident and never made resident; undefined while resident or on a CPU-only device. The
 * array is the eviction's own CPU store, not a copy (copy it to keep it).
 */
export function getEvictedBytesForTesting(heap: Heap): Promise<Uint8Array> | undefined {
  return heap.evictedBytes();
}

/** Whether `heap` was released. */
export function isReleasedForTesting(heap: Heap): boolean {
  return heap.released;
}

/** The next buffer the emulator allocates after creation is refused by WebGPU: tests of what a refusal does. */
export function failNextAllocationForTesting(device: Device): void {
  device.context.backend?.memory.failNextAllocationForTesting();
}

/**
 * Self-check of validateTileMappings: writes `entry` (default: one that points elsewhere) into the
 * GPU page table at page `page` of `resource`, behind the CPU authority's back.
 */
export function corruptPageTableEntryForTesting(
  device: Device,
  resource: Resource,
  page: number,
  entry?: number,
): void {
  const { context } = device;
  const { memory } = context.requireBackend('corruptPageTableEntryForTesting');
  const candidate = context.ownResource(resource);
  const own = orThrow(validateCorruptEntry(candidate, candidate?.virtualRange.pageCount, page, entry));
  corruptPageTableEntry(memory, own, page, entry, (id) => context.objects.heapById(id));
}

/** Self-check of validateTileMappings: the next page-table write is lost (the GPU keeps the old entries). */
export function dropNextPageTableWriteForTesting(device: Device): void {
  device.context.requireBackend('dropNextPageTableWriteForTesting').memory.pageTable.dropNextWriteForTesting();
}
