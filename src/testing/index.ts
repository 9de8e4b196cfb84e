/**
 * d3d12-webgpu/testing: test hooks, kept out of the main entry so that its types show the D3D12 API
 * only. Each function takes the object a `…ForTesting` method was called on and does what that
 * method did: read the CPU page table and an evicted heap's bytes, make WebGPU refuse the next
 * allocation, corrupt or drop page-table writes behind the CPU authority's back (the self-checks of
 * validateTileMappings and of the differential run).
 */
import { invalidArg, orThrow, show } from '../api/errors.js';
import { Device } from '../d3d12/device.js';
import { Heap } from '../d3d12/heap.js';
import { Resource, type TileMappingForTesting } from '../d3d12/resource.js';
import { corruptPageTableEntry } from '../emulator/tile-validation.js';
import { ResidencyManager } from '../residency/residency-manager.js';
import type { PagingCopies } from '../emulator/memory-backing.js';
import { validateCorruptEntry } from '../validation/tile-validation.js';

export type { TileMappingForTesting } from '../d3d12/resource.js';
export type { PagingCopies } from '../emulator/memory-backing.js';

/** `value` as an instance of `type`, or E_INVALIDARG naming the hook and its argument. */
function expectInstance<T>(
  call: string,
  argument: string,
  value: unknown,
  type: abstract new (...args: never[]) => T,
): T {
  if (!(value instanceof type)) throw invalidArg(call, argument, `must be a ${type.name}, got ${show(value)}`);
  return value;
}

/**
 * The CPU page table's entry for tile `tileIndex` of `resource` (a read-only view): the heap and heap
 * tile behind it, or null for a NULL tile. For a placed small texture whose offset is not a whole
 * tile, the heap tile holding the tile's first byte.
 */
export function getTileMappingForTesting(resource: Resource, tileIndex: number): TileMappingForTesting | null {
  return expectInstance('getTileMappingForTesting', 'resource', resource, Resource).tileMapping(tileIndex);
}

/**
 * While `heap` is evicted on a GPU device, its contents once they reached CPU memory; zeros for a heap
 * created not resident and never made resident; undefined while resident, while a lazily evicted heap's
 * bytes are still in its kept pages (createDevice's `eviction: 'lazy'`), or on a CPU-only device. The
 * array is the eviction's own CPU store, not a copy (copy it to keep it).
 */
export function getEvictedBytesForTesting(heap: Heap): Promise<Uint8Array> | undefined {
  return expectInstance('getEvictedBytesForTesting', 'heap', heap, Heap).evictedBytes();
}

/**
 * What paging on `device` has copied so far (bytes out to CPU memory, back into the pool, staged on
 * the GPU), how many lazily evicted heaps an allocation took, and the old pages held now (kept for
 * lazily evicted heaps, in transit for immediately evicted ones); undefined on a CPU-only device. A
 * lazy makeResident of a heap nothing took leaves every byte count where it was.
 */
export function getPagingCopiesForTesting(device: Device): PagingCopies | undefined {
  return expectInstance(
    'getPagingCopiesForTesting',
    'device',
    device,
    Device,
  ).context.backend?.backing.pagingCopiesForTesting();
}

/** Whether `heap` was released. */
export function isReleasedForTesting(heap: Heap): boolean {
  return expectInstance('isReleasedForTesting', 'heap', heap, Heap).released;
}

/** The next buffer the emulator allocates after creation is refused by WebGPU: tests of what a refusal does. */
export function failNextAllocationForTesting(device: Device): void {
  expectInstance(
    'failNextAllocationForTesting',
    'device',
    device,
    Device,
  ).context.backend?.memory.failNextAllocationForTesting();
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
  const { context } = expectInstance('corruptPageTableEntryForTesting', 'device', device, Device);
  const { memory } = context.requireBackend('corruptPageTableEntryForTesting');
  const candidate = context.objects.ownResource(resource);
  const own = orThrow(validateCorruptEntry(candidate, candidate?.virtualRange.pageCount, page, entry));
  corruptPageTableEntry(memory, own, page, entry, (id) => context.objects.heapById(id));
}

/** Self-check of validateTileMappings: the next page-table write is lost (the GPU keeps the old entries). */
export function dropNextPageTableWriteForTesting(device: Device): void {
  expectInstance('dropNextPageTableWriteForTesting', 'device', device, Device)
    .context.requireBackend('dropNextPageTableWriteForTesting')
    .memory.pageTable.dropNextWriteForTesting();
}

/**
 * The texture cache of `device` (src/gpu/texture-cache.ts) as its tags have it after all work
 * submitted so far: the pool pages it holds (whose copies shaders may read instead of memory), and
 * its slots (0: off). Empty on a CPU-only device.
 */
export async function readTextureCacheForTesting(
  device: Device,
): Promise<{ slots: number; cachedPages: number[]; mirroredPages: number[] }> {
  const backend = expectInstance('readTextureCacheForTesting', 'device', device, Device).context.backend;
  if (!backend) return { slots: 0, cachedPages: [], mirroredPages: [] };
  const cache = backend.memory.textureCache;
  return {
    slots: cache.slots,
    cachedPages: await cache.cachedPagesForTesting(),
    mirroredPages: await backend.memory.textureMirrors.mirroredPagesForTesting(),
  };
}

/**
 * Writes texel (x, y) of mip `mip` of the texture mirror of `resource` alone (the 4 bytes of `word`,
 * as memory holds the texel), leaving memory as it is: a read that returns them was served by the
 * mirror. False when it has no mirror. Write the texel back before any check that reads it.
 */
export function writeTextureMirrorTexelForTesting(
  device: Device,
  resource: Resource,
  texel: { mip: number; x: number; y: number; word: number },
): boolean {
  const backend = expectInstance('writeTextureMirrorTexelForTesting', 'device', device, Device).context.backend;
  const { mip, x, y, word } = texel;
  return backend?.memory.textureMirrors.writeTexelForTesting(resource, mip, x, y, word) ?? false;
}

/**
 * The pool pages holding `heap`'s pages while it is resident, in heap order, numbered as
 * readTextureCacheForTesting's cachedPages (LOCAL's pages first, then NON_LOCAL's); undefined while
 * it is evicted, or on a CPU-only device. With getTileMappingForTesting, which pages of the cache a
 * texture's tiles are.
 */
export function getHeapPoolPagesForTesting(device: Device, heap: Heap): number[] | undefined {
  const call = 'getHeapPoolPagesForTesting';
  const { context } = expectInstance(call, 'device', device, Device);
  const memory = expectInstance(call, 'heap', heap, Heap).memory;
  if (!context.objects.ownHeap(heap))
    throw invalidArg(
      call,
      'heap',
      `${heap.label} is not a heap of this device (another device made it, or it is a committed resource's)`,
    );
  const backend = context.backend;
  if (!backend || !memory) return undefined;
  const first = memory.segment === 'LOCAL' ? 0 : backend.memory.pageCounts.LOCAL;
  return Array.from(memory.pages, (page) => first + page);
}

/**
 * The batch number and LRU stamp of `pageable`'s last use in `manager` (what its victim order reads;
 * lastBatch -1 and useStamp 0 before the first use), or undefined when the manager does not track it.
 */
export function getResidencyRecordForTesting(
  manager: ResidencyManager,
  pageable: unknown,
): { lastBatch: number; useStamp: number } | undefined {
  return expectInstance('getResidencyRecordForTesting', 'manager', manager, ResidencyManager).useRecordForTesting(
    pageable,
  );
}
