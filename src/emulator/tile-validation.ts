/**
 * Device.validateTileMappings: proves that the GPU sees exactly the mappings the API was told. For
 * every page of the given resources the CPU authority says where the page points (a heap's memory
 * and the page in it, a heap without memory, a NULL tile), the page-table encoding turns that into
 * the entry the GPU must hold, and one dispatch (src/gpu/tile-validation.ts) compares all of them
 * with the GPU's page table. What differs comes back decoded: the resource, its tile as D3D12
 * addresses it, the expected target and the one found.
 *
 * The expected entries are computed here from the resources' mappings and the heaps' memory, not
 * taken from the code that writes the page table (MemoryBacking), so a write that was lost, misplaced
 * or computed wrong is seen, not repeated.
 *
 * Invariants: nothing changes on the device (the check only reads); the check is in queue order:
 * it sees every page-table write queued before the call and none queued after.
 */
import type { TileMappingMismatch, TileMappingValidation, TileTarget, TiledResourceCoordinate } from '../api/types.js';
import { NULL_HEAP } from '../memory/tile-mappings.js';
import { TILE_SIZE, tileCoordinate } from '../memory/tiling.js';
import type { GpuMemory } from '../gpu/gpu-memory.js';
import type { PageTableEncoding } from '../gpu/page-table.js';
import { comparePageTable } from '../gpu/tile-validation.js';
import type { Heap } from '../d3d12/heap.js';
import type { Resource } from '../d3d12/resource.js';

/**
 * Mismatches described in full per call; more are counted. Enough to show a pattern (a whole
 * 64-tile region, a box of a 3D texture) while the readback stays a few KiB.
 */
export const MAX_DESCRIBED_MISMATCHES = 1024;

export interface TileValidationContext {
  memory: GpuMemory;
  heapById(id: number): Heap | undefined;
  /** Heaps that may hold physical pages now (to name the heap behind a page found in the table). */
  heaps(): Iterable<Heap>;
}

/** Where page `page` of `resource` points, as the CPU authority says. */
export function expectedTarget(
  resource: Resource,
  page: number,
  heapById: (id: number) => Heap | undefined,
): TileTarget {
  let heap: Heap | undefined;
  let heapId: number;
  let heapTile: number;
  const table = resource.tileMappings;
  if (table) {
    const mapped = page < table.numTiles ? (table.heapIds[page] ?? NULL_HEAP) : NULL_HEAP;
    if (mapped === NULL_HEAP) return { kind: 'null' };
    heapId = mapped;
    heapTile = table.heapTiles[page] ?? 0;
    heap = heapById(heapId);
  } else {
    heap = resource.heap;
    heapId = heap?.id ?? NULL_HEAP;
    heapTile = Math.floor(resource.heapOffset / TILE_SIZE) + page;
  }
  if (heap?.memory && heap.memory.pages[heapTile] !== undefined) return { kind: 'heap', heapId, heapTile };
  return heap?.released ? { kind: 'evicted', heapId, heapTile, released: true } : { kind: 'evicted', heapId, heapTile };
}

/** The page-table entry for `target` (the encoding of shaders/prelude/common.wgsl). */
function entryOf(target: TileTarget, encoding: PageTableEncoding, heapById: (id: number) => Heap | undefined): number {
  if (target.kind === 'null') return encoding.null;
  if (target.kind === 'heap') {
    const memory = heapById(target.heapId)?.memory as NonNullable<Heap['memory']>;
    return encoding.residentPage(memory.segment, memory.pages[target.heapTile] as number);
  }
  if (target.kind === 'evicted') return encoding.absent(target.heapId);
  return encoding.unowned;
}

/**
 * An entry that differs from the expected one and still looks valid (for the self-check): a mapped
 * page moved to the next physical page, a NULL tile made resident, a page without memory made NULL.
 */
export function corruptPageTableEntry(
  memory: GpuMemory,
  resource: Resource,
  page: number,
  entry: number | undefined,
  heapById: (id: number) => Heap | undefined,
): void {
  const encoding = memory.pageTable.encoding;
  let corrupt = entry;
  if (corrupt === undefined) {
    const target = expectedTarget(resource, page, heapById);
    if (target.kind === 'heap') {
      const held = heapById(target.heapId)?.memory as NonNullable<Heap['memory']>;
      corrupt = encoding.residentPage(
        held.segment,
        ((held.pages[target.heapTile] as number) + 1) % memory.pageCounts[held.segment],
      );
    } else {
      corrupt = target.kind === 'null' ? encoding.residentPage('LOCAL', 0) : encoding.null;
    }
  }
  memory.pageTable.corruptEntryForTesting(resource.virtualRange.firstPage + page, corrupt);
}

/** What an entry found in the table points at, with the heap behind a physical page named. */
function foundTarget(
  entry: number,
  encoding: PageTableEncoding,
  physical: () => Map<string, { heapId: number; heapTile: number }>,
): TileTarget {
  const decoded = encoding.decode(entry);
  if (decoded.kind === 'null') return { kind: 'null' };
  if (decoded.kind === 'unowned') return { kind: 'unowned' };
  if (decoded.kind === 'absent') return { kind: 'evicted', heapId: decoded.heapId as number };
  const owner = physical().get(`${decoded.segment}:${decoded.page}`);
  return owner ? { kind: 'heap', ...owner } : { kind: 'unknown', entry };
}

/** The tile of page `page` as D3D12 addresses it. */
function tileOf(resource: Resource, page: number): TiledResourceCoordinate {
  if (page < resource.layout.numTiles) return tileCoordinate(resource.layout, page);
  return { subresource: 0, x: page, y: 0, z: 0 };
}

/** Compares the GPU page table with the CPU authority for every page of `resources`. */
export async function validateTileMappings(
  context: TileValidationContext,
  resources: readonly Resource[],
): Promise<TileMappingValidation> {
  const { memory } = context;
  const heapById = (id: number): Heap | undefined => context.heapById(id);
  const encoding = memory.pageTable.encoding;
  let pages = 0;
  for (const resource of resources) pages += resource.virtualRange.pageCount;
  // Pairs (page-table index, expected entry); `owners` maps an index back to its resource and page.
  const expected = new Uint32Array(pages * 2);
  const owners: { resource: Resource; first: number }[] = [];
  let index = 0;
  for (const resource of resources) {
    owners.push({ resource, first: index });
    const { firstPage, pageCount } = resource.virtualRange;
    for (let page = 0; page < pageCount; page++, index++) {
      expected[index * 2] = firstPage + page;
      expected[index * 2 + 1] = entryOf(expectedTarget(resource, page, heapById), encoding, heapById);
    }
  }
  const { count, records } = await comparePageTable(memory, expected, MAX_DESCRIBED_MISMATCHES);

  let physical: Map<string, { heapId: number; heapTile: number }> | undefined;
  const physicalPages = (): Map<string, { heapId: number; heapTile: number }> => {
    if (!physical) {
      physical = new Map();
      for (const heap of context.heaps()) {
        const held = heap.memory;
        held?.pages.forEach((page, heapTile) =>
          physical?.set(`${held.segment}:${page}`, { heapId: heap.id, heapTile }),
        );
      }
    }
    return physical;
  };
  const mismatches: TileMappingMismatch[] = [];
  for (let i = 0; i < records.length; i += 2) {
    const at = records[i] as number;
    // The owner whose run of indices holds `at` (owners are in index order).
    let low = 0;
    let high = owners.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((owners[mid] as { first: number }).first <= at) low = mid;
      else high = mid - 1;
    }
    const { resource, first } = owners[low] as { resource: Resource; first: number };
    const page = at - first;
    mismatches.push({
      resourceId: resource.id,
      resource: resource.label,
      page,
      tile: tileOf(resource, page),
      expected: expectedTarget(resource, page, heapById),
      found: foundTarget(records[i + 1] as number, encoding, physicalPages),
    });
  }
  mismatches.sort((a, b) => a.resourceId - b.resourceId || a.page - b.page);
  return { resources: resources.length, pages, mismatchCount: count, mismatches };
}
