/**
 * Memory statistics, in the spirit of D3D12MA's BuildStatsString: what each segment, heap and
 * resource holds, as plain data (JSON-serializable: addresses as '0x…' hex strings) that a tool can
 * draw or a test can compare. Demos and benchmarks read this instead of the objects' internals.
 *
 * Per segment: the pool, the budget and usage (QueryVideoMemoryInfo's numbers: a demoted heap counts
 * in NON_LOCAL), free pool bytes, and heap counts (by the segment a heap prefers). Per heap (explicit
 * heaps, and the implicit heap of each committed resource): size, its preferred segment, whether it
 * is resident or evicted and, resident, whether it is demoted (its memory in NON_LOCAL though it
 * prefers LOCAL), its MakeResident reference count, priority, mapped resources, and the resources in it. Per resource: kind, size, address range, heap and offset (committed and
 * placed) or tiles mapped (reserved), maps, and whether it was released with GPU work still using it.
 */
import type { MemorySegment, ResourceDimension } from '../api/types.js';
import type { Heap } from '../d3d12/heap.js';
import type { Resource, ResourceKind } from '../d3d12/resource.js';
import { NULL_HEAP } from '../memory/tile-mappings.js';

export interface SegmentStats {
  /** The pool's size (on a CPU-only device: the size asked for, which is bookkeeping only). */
  poolBytes: number;
  budget: number;
  currentUsage: number;
  currentReservation: number;
  /** Pool bytes no heap holds (on a CPU-only device: the pool less the usage). */
  freeBytes: number;
  heaps: number;
  residentHeaps: number;
}

export interface HeapStats {
  id: number;
  name: string;
  label: string;
  /** A heap from createHeap, or the implicit heap of a committed resource (whose id is `committedResource`). */
  kind: 'heap' | 'implicit';
  committedResource?: number;
  type: string;
  /** The segment its heap type prefers. */
  segment: MemorySegment;
  sizeInBytes: number;
  /** Whole pages against the budget. */
  residentBytes: number;
  resident: boolean;
  /** Resident in NON_LOCAL memory although `segment` is LOCAL (demoted over the LOCAL budget); false while evicted. */
  demoted: boolean;
  /** MakeResident minus Evict (D3D12's residency reference count). */
  residencyReferences: number;
  residencyPriority: number;
  /** Resources in it mapped now (mapped memory stays resident). */
  mappedResources: number;
  released: boolean;
  /** Ids of the resources whose memory it is (placed, or the committed one). */
  resources: number[];
}

export interface ResourceStats {
  id: number;
  name: string;
  label: string;
  kind: ResourceKind;
  dimension: ResourceDimension;
  /** What it occupies: GetResourceAllocationInfo's SizeInBytes (a buffer: its width in whole 64 KiB pages). */
  sizeInBytes: number;
  /** Its GPU virtual addresses, [start, end) as hex strings (JSON has no 64-bit integers). */
  addressRange: { start: string; end: string };
  heap?: number;
  heapOffset?: number;
  /** Reserved resources: tiles in all, and tiles mapped to a heap. */
  tiles?: { total: number; mapped: number };
  mapCount: number;
  /** Released, its memory kept until GPU work that uses it completes. */
  released: boolean;
}

/**
 * Device.getPagingStats: heaps paged out and in since the device was created, and their bytes; and
 * resident heaps moved between segments by demotion (LOCAL to NON_LOCAL) and promotion (back). A
 * heap made resident straight into NON_LOCAL is a restore, not a demotion: nothing moved.
 */
export interface PagingStats {
  evictions: number;
  evictedBytes: number;
  restores: number;
  restoredBytes: number;
  demotions: number;
  demotedBytes: number;
  promotions: number;
  promotedBytes: number;
}

export interface MemoryStats {
  segments: Record<MemorySegment, SegmentStats>;
  heaps: HeapStats[];
  resources: ResourceStats[];
  paging: PagingStats;
}

/** What the stats are built from (the device's own view of its objects). */
export interface StatsSource {
  heaps: Iterable<Heap>;
  resources: Iterable<Resource>;
  segment(segment: MemorySegment): Omit<SegmentStats, 'heaps' | 'residentHeaps'>;
  paging: MemoryStats['paging'];
}

const hex = (value: bigint): string => `0x${value.toString(16)}`;

function resourceStats(resource: Resource): ResourceStats {
  const range = resource.virtualRange;
  const table = resource.tileMappings;
  let mapped = 0;
  if (table) for (const heapId of table.heapIds) if (heapId !== NULL_HEAP) mapped++;
  return {
    id: resource.id,
    name: resource.getName(),
    label: resource.label,
    kind: resource.kind,
    dimension: resource.desc.dimension,
    sizeInBytes: resource.layout.sizeInBytes,
    addressRange: { start: hex(range.address), end: hex(range.address + BigInt(resource.layout.sizeInBytes)) },
    ...(resource.heap ? { heap: resource.heap.id, heapOffset: resource.heapOffset } : {}),
    ...(table ? { tiles: { total: table.numTiles, mapped } } : {}),
    mapCount: resource.mapCount,
    released: resource.released,
  };
}

export function memoryStats(source: StatsSource): MemoryStats {
  const resources = [...source.resources];
  const byHeap = new Map<Heap, number[]>();
  for (const resource of resources) {
    if (!resource.heap) continue;
    const ids = byHeap.get(resource.heap) ?? [];
    ids.push(resource.id);
    byHeap.set(resource.heap, ids);
  }
  const heaps: HeapStats[] = [...source.heaps].map((heap) => ({
    id: heap.id,
    name: heap.getName(),
    label: heap.label,
    kind: heap.implicitFor ? 'implicit' : 'heap',
    ...(heap.implicitFor ? { committedResource: byHeap.get(heap)?.[0] } : {}),
    type: heap.desc.properties.type,
    segment: heap.segment,
    sizeInBytes: heap.desc.sizeInBytes,
    residentBytes: heap.residentBytes,
    resident: heap.resident,
    demoted: heap.demoted,
    residencyReferences: heap.residencyReferences,
    residencyPriority: heap.residencyPriority,
    mappedResources: heap.residencyLocks,
    released: heap.released,
    resources: byHeap.get(heap) ?? [],
  }));
  const segment = (name: MemorySegment): SegmentStats => ({
    ...source.segment(name),
    heaps: heaps.filter((heap) => heap.segment === name).length,
    residentHeaps: heaps.filter((heap) => heap.segment === name && heap.resident).length,
  });
  return {
    segments: { LOCAL: segment('LOCAL'), NON_LOCAL: segment('NON_LOCAL') },
    heaps,
    resources: resources.map(resourceStats),
    paging: { ...source.paging },
  };
}
