/**
 * Random tile regions and ranges for the differential run, legal under D3D12's rules: regions of
 * reserved buffers (runs of tiles) and of textures (boxes inside one mip, runs that spill into later
 * mips and into the packed tail, the tail alone), and range lists whose flags are every
 * D3D12_TILE_RANGE_FLAG, cut so that a packed tail is mapped by one range.
 *
 * Invariants: the regions of one updateTileMappings never share a tile (D3D12 leaves overlapping
 * regions undefined), a region covers the tail whole or not at all, NONE ranges stay inside the heap.
 */
import type { TiledResourceCoordinate, TileMappingFlag, TileRangeFlag, TileRegionSize } from '../../api/types.js';
import type { Random } from '../random.js';
import { coordinateOf, regionTiles, splitsTail, type TileGrid } from '../tile-regions.js';
import type { Operation, RangeSpec, RegionSpec } from './operations.js';
import type { HeapEntry, ResourceEntry } from './world.js';

/** Longest run of tiles a generated region walks. */
const MAX_RUN = 24;

export interface PickedRegion {
  region: RegionSpec;
  tiles: number[];
}

/**
 * A box inside one standard mip, a run of tiles from a start tile (spilling on), a run that starts in
 * a mip and ends in a later one (or in the tail), or the tail alone.
 */
export function pickRegion(r: Random, grid: TileGrid, allowBox: boolean, maxTiles = MAX_RUN): PickedRegion | undefined {
  const boxable = grid.standard.filter((s) => s.width * s.height * s.depth > 1);
  const spillable = grid.standard.length > 1 || (grid.standard.length === 1 && grid.tail !== null);
  const kind = r.weighted([
    allowBox && boxable.length > 0 ? 3 : 0,
    5,
    grid.tail ? 1.5 : 0,
    allowBox && spillable ? 2 : 0,
  ]);
  let start: TiledResourceCoordinate;
  let size: TileRegionSize;
  if (kind === 0) {
    const subresource = r.below(grid.standard.length);
    const sub = grid.standard[subresource] as TileGrid['standard'][number];
    const x = r.int(0, sub.width - 1);
    const y = r.int(0, sub.height - 1);
    const z = r.int(0, sub.depth - 1);
    const width = r.int(1, sub.width - x);
    const height = r.int(1, sub.height - y);
    const depth = r.int(1, sub.depth - z);
    start = { x, y, z, subresource };
    size = { numTiles: width * height * depth, useBox: true, width, height, depth };
  } else if (kind === 1) {
    let first = r.int(0, grid.numTiles - 1);
    if (grid.tail && first > grid.tail.first) first = grid.tail.first;
    let count = r.int(1, Math.min(grid.numTiles - first, maxTiles));
    // A run that reaches into the tail takes all of it.
    if (grid.tail && splitsTail(grid, first, count)) count = grid.tail.first + grid.tail.count - first;
    start = coordinateOf(grid, first);
    size = { numTiles: count };
  } else if (kind === 2) {
    const tail = grid.tail as NonNullable<TileGrid['tail']>;
    start = { x: 0, y: 0, z: 0, subresource: tail.subresource };
    size = { numTiles: tail.count };
  } else {
    // From a tile of a standard mip past its last tile: into the next mip, or into (all of) the tail.
    const subresource = r.int(0, grid.standard.length - (grid.tail ? 1 : 2));
    const sub = grid.standard[subresource] as TileGrid['standard'][number];
    const end = sub.start + sub.width * sub.height * sub.depth;
    const first = r.int(sub.start, end - 1);
    let count = end - first + r.int(1, Math.max(1, Math.min(grid.numTiles - end, maxTiles)));
    if (grid.tail && splitsTail(grid, first, count)) count = grid.tail.first + grid.tail.count - first;
    start = coordinateOf(grid, first);
    size = { numTiles: count };
  }
  const tiles = regionTiles(grid, start, size);
  return tiles.length <= maxTiles ? { region: { start, size }, tiles } : undefined;
}

function rangeFor(r: Random, heap: HeapEntry | undefined, count: number): RangeSpec {
  const choices: [TileRangeFlag, number][] = [
    ['NONE', heap && heap.tiles >= count ? 5 : 0],
    ['REUSE_SINGLE_TILE', heap ? 1.5 : 0],
    ['NULL', 1.5],
    ['SKIP', 1],
  ];
  const flag = (choices[r.weighted(choices.map(([, w]) => w))] as [TileRangeFlag, number])[0];
  const heapStart = !heap
    ? 0
    : flag === 'NONE'
      ? r.int(0, heap.tiles - count)
      : flag === 'REUSE_SINGLE_TILE'
        ? r.int(0, heap.tiles - 1)
        : 0;
  return { flag, heapStart, count };
}

const mappingFlags = (r: Random): TileMappingFlag => (r.chance(0.2) ? 'NO_HAZARD' : 'NONE');

/** updateTileMappings of a reserved buffer or texture: up to three disjoint regions, up to four ranges. */
export function generateUpdate(r: Random, entry: ResourceEntry, heaps: HeapEntry[]): Operation {
  const grid = entry.grid as TileGrid;
  const heap = heaps.length > 0 && r.chance(0.9) ? r.pick(heaps) : undefined;
  const flags = mappingFlags(r);
  const whole = r.chance(0.12);
  const regions: RegionSpec[] = [];
  const order: number[] = [];
  const taken = new Set<number>();
  for (let i = 0, n = whole ? 0 : r.int(1, 3); i < n; i++) {
    const picked = pickRegion(r, grid, entry.kind === 'texture');
    if (!picked || picked.tiles.some((tile) => taken.has(tile))) continue;
    for (const tile of picked.tiles) taken.add(tile);
    regions.push(picked.region);
    order.push(...picked.tiles);
  }
  if (regions.length === 0) {
    // No coordinates and sizes: the whole resource, one range (the counts left to D3D12 or given).
    return {
      kind: 'updateTileMappings',
      resource: entry.name,
      regions: null,
      heap: heap?.name ?? null,
      ranges: [rangeFor(r, heap, entry.tiles)],
      defaults: r.chance(0.5),
      flags,
    };
  }
  // A cut between two tail tiles would split the tail across ranges.
  const tail = grid.tail;
  const inTail = (tile: number | undefined): boolean => tail !== null && tile !== undefined && tile >= tail.first;
  const ranges: RangeSpec[] = [];
  for (let at = 0; at < order.length;) {
    let count = ranges.length === 3 ? order.length - at : r.int(1, order.length - at);
    while (at + count < order.length && inTail(order[at + count]) && inTail(order[at + count - 1])) count++;
    ranges.push(rangeFor(r, heap, count));
    at += count;
  }
  // D3D12's defaults for the counts: one range covers every tile, several are one tile each.
  const defaultsFit = ranges.length === 1 || ranges.every((range) => range.count === 1);
  return {
    kind: 'updateTileMappings',
    resource: entry.name,
    regions,
    heap: heap?.name ?? null,
    ranges,
    defaults: defaultsFit && r.chance(0.3),
    flags,
  };
}

/** copyTileMappings between two reserved resources (or within one): a run of tiles, or a box when both are textures. */
export function generateCopyMappings(r: Random, dst: ResourceEntry, src: ResourceEntry): Operation | undefined {
  const dstGrid = dst.grid as TileGrid;
  const srcGrid = src.grid as TileGrid;
  const flags = mappingFlags(r);
  if (dst.kind === 'texture' && src.kind === 'texture' && r.chance(0.4)) {
    const ds = r.below(dstGrid.standard.length);
    const ss = r.below(srcGrid.standard.length);
    const d = dstGrid.standard[ds];
    const s = srcGrid.standard[ss];
    if (!d || !s) return undefined;
    const width = r.int(1, Math.min(d.width, s.width));
    const height = r.int(1, Math.min(d.height, s.height));
    const depth = r.int(1, Math.min(d.depth, s.depth));
    const size = { numTiles: width * height * depth, useBox: true, width, height, depth };
    const dstStart = {
      x: r.int(0, d.width - width),
      y: r.int(0, d.height - height),
      z: r.int(0, d.depth - depth),
      subresource: ds,
    };
    const srcStart = {
      x: r.int(0, s.width - width),
      y: r.int(0, s.height - height),
      z: r.int(0, s.depth - depth),
      subresource: ss,
    };
    return { kind: 'copyTileMappings', dst: dst.name, dstStart, src: src.name, srcStart, size, flags };
  }
  const numTiles = r.int(1, Math.min(dst.tiles, src.tiles, MAX_RUN));
  const dstFirst = r.int(0, dst.tiles - numTiles);
  const srcFirst = r.int(0, src.tiles - numTiles);
  if (splitsTail(dstGrid, dstFirst, numTiles) || splitsTail(srcGrid, srcFirst, numTiles)) return undefined;
  return {
    kind: 'copyTileMappings',
    dst: dst.name,
    dstStart: coordinateOf(dstGrid, dstFirst),
    src: src.name,
    srcStart: coordinateOf(srcGrid, srcFirst),
    size: { numTiles },
    flags,
  };
}
