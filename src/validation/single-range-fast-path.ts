/**
 * updateTileMappings' per-tile fast path: the call a streamer makes per tile (or per run of tiles),
 * checked with no allocation by the validator's own rule predicates (tile-mapping-rules.ts).
 *
 * Invariant: what this accepts, validateUpdateTileMappings accepts with the same plan (one span, one
 * NONE range); what it declines goes through validateUpdateTileMappings, which names the problem or
 * accepts the other shapes. So the fast path changes only the cost: 1-tile calls cost 4-8
 * allocations each through the full path, about half their time (bench figure 3). The equivalence
 * is tested differentially (test/unit/validation/d3d12/tile-mapping-fast-path.test.ts).
 */
import type { HeapView } from './create-resource.js';
import {
  heapMayBack,
  heapTileCount,
  isCoordinate,
  isLiveReserved,
  isMappingFlag,
  isRegionSize,
  isU32,
  splitTail,
  standardTile,
  type ResourceView,
} from './tile-mapping-rules.js';

const isSingle = (value: unknown): value is unknown[] => Array.isArray(value) && value.length === 1;

/**
 * One region of a standard subresource without a box, one NONE range into `heap`, every array
 * given, at least one tile: returns the region's first resource tile, or -1 when the call has
 * another shape or breaks a rule.
 */
export function singleRangeStart(
  resource: ResourceView | undefined,
  coordinates: unknown,
  sizes: unknown,
  heap: HeapView | undefined,
  rangeFlags: unknown,
  heapRangeStartOffsets: unknown,
  rangeTileCounts: unknown,
  flags: unknown,
): number {
  if (!isLiveReserved(resource) || !heap || !heapMayBack(heap, resource)) return -1;
  if (!isSingle(coordinates) || !isSingle(sizes) || !isSingle(rangeFlags)) return -1;
  if (!isSingle(heapRangeStartOffsets) || !isSingle(rangeTileCounts)) return -1;
  if (rangeFlags[0] !== 'NONE' || !isMappingFlag(flags)) return -1;
  if (!isCoordinate(coordinates[0]) || !isRegionSize(sizes[0])) return -1;
  const coordinate = coordinates[0] as Record<string, unknown>;
  const size = sizes[0] as Record<string, unknown>;
  if ((size.useBox ?? false) !== false) return -1;
  const numTiles = size.numTiles as number;
  const heapStart: unknown = heapRangeStartOffsets[0];
  if (numTiles === 0 || rangeTileCounts[0] !== numTiles) return -1;
  if (!isU32(heapStart) || heapStart + numTiles > heapTileCount(heap)) return -1;
  const { layout } = resource;
  const start = standardTile(
    layout,
    coordinate.x as number,
    (coordinate.y ?? 0) as number,
    (coordinate.z ?? 0) as number,
    (coordinate.subresource ?? 0) as number,
  );
  const end = start + numTiles;
  if (start < 0 || end > layout.numTiles || splitTail(layout, start, end) >= 0) return -1;
  return start;
}
