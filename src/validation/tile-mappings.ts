/**
 * updateTileMappings and copyTileMappings, validated the way the D3D12 debug layer does, and turned
 * into the region spans and ranges that src/memory/tile-mappings.ts applies.
 *
 * Defaults (Microsoft's UpdateTileMappings documentation and examples):
 *   - no start coordinates: one region at tile (0,0,0) of subresource 0 (one region only);
 *   - no sizes: the whole resource when there are no coordinates either, else one tile per region;
 *   - no range flags: NONE; no heap offsets: 0; no range counts: one range covers every region
 *     tile, several ranges are one tile each (**Chosen**, Microsoft's documented example).
 * Rules: coordinates inside their subresource; a box inside its subresource with numTiles equal to
 * its volume; without a box, tiles run x, y, z and spill into the following subresources, never
 * past the resource's last tile; a mip tail is addressed by x alone (y = z = 0, no box) and mapped
 * as a whole: a region covers all of a slice's packed tiles or none, and those tiles fall in one
 * range; region and range tile totals agree; a heap is needed unless every range is NULL or SKIP,
 * and must be a live, GPU-local heap whose flags allow the resource; NONE ranges stay inside the heap.
 */
import { D3D12Error, invalidArg, type Checked } from '../api/errors.js';
import { TILE_RANGE_FLAGS, type TileRangeFlag } from '../api/types.js';
import {
  spanTiles,
  type TileMappingTable,
  type TileRange,
  type TileSpan,
  heapsMappedBy,
} from '../memory/tile-mappings.js';
import { tailTiles, type ResourceLayout } from '../memory/tiling.js';
import { checkInteger, checkName, checkOptionalArray, firstProblem, type Problem } from './common.js';
import { categoryName, heapAllows } from './heap.js';
import type { HeapView } from './create-resource.js';
import {
  checkCoordinate,
  checkHeapBacks,
  checkMappingFlags,
  checkRegion,
  checkRegionSize,
  checkReserved,
  heapTileCount,
  isU32,
  regionSpans,
  U32_MAX,
  type ResourceView,
} from './tile-mapping-rules.js';

export { checkRegion, heapTileCount, type ResourceView } from './tile-mapping-rules.js';
export { singleRangeStart } from './single-range-fast-path.js';

interface Region {
  spans: TileSpan[];
  tiles: number;
}

/** The regions of updateTileMappings, defaults applied. */
function checkRegions(call: string, layout: ResourceLayout, coordinates: unknown, sizes: unknown): Checked<Region[]> {
  const problem =
    checkOptionalArray(call, 'regionStartCoordinates', coordinates) ?? checkOptionalArray(call, 'regionSizes', sizes);
  if (problem) return problem;
  const coords = coordinates as unknown[] | null | undefined;
  const sizeList = sizes as unknown[] | null | undefined;
  if (coords && sizeList && coords.length !== sizeList.length) {
    return invalidArg(
      call,
      'regionSizes',
      `must have one entry per region start coordinate (${coords.length}), got ${sizeList.length}`,
    );
  }
  const count = coords?.length ?? sizeList?.length ?? 1;
  if (!coords && count !== 1)
    return invalidArg(call, 'regionStartCoordinates', `may be null only for a single region, and there are ${count}`);
  const regions: Region[] = [];
  for (let i = 0; i < count; i++) {
    const coordinate = coords
      ? checkCoordinate(call, `regionStartCoordinates[${i}]`, coords[i])
      : { x: 0, y: 0, z: 0, subresource: 0 };
    if (coordinate instanceof D3D12Error) return coordinate;
    const defaultSize = coords ? 1 : layout.numTiles;
    const size = sizeList
      ? checkRegionSize(call, `regionSizes[${i}]`, sizeList[i])
      : { numTiles: defaultSize, useBox: false, width: 1, height: 1, depth: 1 };
    if (size instanceof D3D12Error) return size;
    const spans = regionSpans(
      call,
      coords ? `regionStartCoordinates[${i}]` : 'regionStartCoordinates',
      sizeList ? `regionSizes[${i}]` : 'regionSizes',
      layout,
      coordinate,
      size,
    );
    if (spans instanceof D3D12Error) return spans;
    regions.push({ spans, tiles: spanTiles(spans) });
  }
  return regions;
}

/** The ranges of updateTileMappings, defaults applied. */
function checkRanges(
  call: string,
  flags: unknown,
  offsets: unknown,
  counts: unknown,
  regionTiles: number,
): Checked<TileRange[]> {
  const problem =
    checkOptionalArray(call, 'rangeFlags', flags) ??
    checkOptionalArray(call, 'heapRangeStartOffsets', offsets) ??
    checkOptionalArray(call, 'rangeTileCounts', counts);
  if (problem) return problem;
  const flagList = flags as unknown[] | null | undefined;
  const offsetList = offsets as unknown[] | null | undefined;
  const countList = counts as unknown[] | null | undefined;
  const count = flagList?.length ?? offsetList?.length ?? countList?.length ?? 1;
  if (
    (flagList && flagList.length !== count) ||
    (offsetList && offsetList.length !== count) ||
    (countList && countList.length !== count)
  ) {
    const arrays = [
      ['rangeFlags', flags],
      ['heapRangeStartOffsets', offsets],
      ['rangeTileCounts', counts],
    ] as const;
    const given = arrays.filter(([, value]) => Array.isArray(value)) as [string, unknown[]][];
    for (const [name, value] of given) {
      if (value.length !== count)
        return invalidArg(
          call,
          name,
          `must have one entry per range (${count}, from ${given[0]?.[0]}), got ${value.length}`,
        );
    }
  }
  const ranges: TileRange[] = [];
  let rangeTiles = 0;
  for (let i = 0; i < count; i++) {
    const flag = flagList ? flagList[i] : 'NONE';
    const heapStart = offsetList ? offsetList[i] : 0;
    const tiles = countList ? countList[i] : count === 1 ? regionTiles : 1;
    if (!(
      typeof flag === 'string' &&
      (TILE_RANGE_FLAGS as readonly string[]).includes(flag) &&
      isU32(heapStart) &&
      isU32(tiles)
    )) {
      const rangeProblem = firstProblem(
        () => checkName(call, `rangeFlags[${i}]`, flag, TILE_RANGE_FLAGS),
        () => checkInteger(call, `heapRangeStartOffsets[${i}]`, heapStart, 0, U32_MAX),
        () => checkInteger(call, `rangeTileCounts[${i}]`, tiles, 0, U32_MAX),
      );
      if (rangeProblem) return rangeProblem;
    }
    ranges.push({ flag: flag as TileRangeFlag, heapStart: heapStart as number, count: tiles as number });
    rangeTiles += tiles as number;
  }
  if (rangeTiles !== regionTiles) {
    return invalidArg(
      call,
      'rangeTileCounts',
      `the ranges cover ${rangeTiles} tile(s) and the regions ${regionTiles}; the totals must agree`,
    );
  }
  return ranges;
}

/** Each mip tail a region covers must take its tiles from a single range. */
function checkTailsInOneRange(call: string, layout: ResourceLayout, regions: Region[], ranges: TileRange[]): Problem {
  if (layout.packedTilesPerSlice === 0) return undefined;
  const rangeEnds: number[] = [];
  let total = 0;
  for (const range of ranges) rangeEnds.push((total += range.count));
  let position = 0;
  for (const region of regions) {
    for (const span of region.spans) {
      const firstSlice = Math.floor(span.first / layout.tilesPerSlice);
      const lastSlice = Math.floor((span.first + span.count - 1) / layout.tilesPerSlice);
      for (let slice = firstSlice; span.count > 0 && slice <= lastSlice; slice++) {
        const tail = tailTiles(layout, slice);
        if (tail.first < span.first || tail.first + tail.count > span.first + span.count) continue;
        const at = position + (tail.first - span.first);
        const range = rangeEnds.findIndex((end) => end > at);
        if (at + tail.count > (rangeEnds[range] ?? 0)) {
          return invalidArg(
            call,
            'rangeTileCounts',
            `slice ${slice}'s mip tail (${tail.count} tiles) is split across ranges ${range} and ${range + 1}; a mip tail is mapped by one range`,
          );
        }
      }
      position += span.count;
    }
  }
  return undefined;
}

export interface UpdatePlan {
  table: TileMappingTable;
  regions: TileSpan[];
  ranges: TileRange[];
}

/** queue.updateTileMappings(resource, coordinates, sizes, heap, rangeFlags, heapRangeStartOffsets, rangeTileCounts, flags). */
export function validateUpdateTileMappings(
  resource: ResourceView | undefined,
  coordinates: unknown,
  sizes: unknown,
  heap: HeapView | null | undefined,
  heapGiven: boolean,
  rangeFlags: unknown,
  heapRangeStartOffsets: unknown,
  rangeTileCounts: unknown,
  flags: unknown,
): Checked<UpdatePlan> {
  const call = 'updateTileMappings';
  const reserved = checkReserved(call, 'resource', resource);
  if (reserved instanceof D3D12Error) return reserved;
  const regions = checkRegions(call, reserved.layout, coordinates, sizes);
  if (regions instanceof D3D12Error) return regions;
  const regionTiles = regions.reduce((sum, region) => sum + region.tiles, 0);
  const ranges = checkRanges(call, rangeFlags, heapRangeStartOffsets, rangeTileCounts, regionTiles);
  if (ranges instanceof D3D12Error) return ranges;
  if (heapGiven && !heap) return invalidArg(call, 'heap', 'must be a heap created by this device, or null');
  if (heap) {
    const problem = checkHeapBacks(call, 'heap', heap, reserved);
    if (problem) return problem;
  }
  const tiles = heap ? heapTileCount(heap) : 0;
  for (let i = 0; i < ranges.length; i++) {
    const range = ranges[i] as TileRange;
    if (range.count === 0 || range.flag === 'NULL' || range.flag === 'SKIP') continue;
    if (!heap)
      return invalidArg(
        call,
        'heap',
        `range ${i} is ${range.flag}, which maps tiles, so a heap is needed (null is only for NULL and SKIP ranges)`,
      );
    const end = range.flag === 'NONE' ? range.heapStart + range.count : range.heapStart + 1;
    if (end > tiles) {
      return invalidArg(
        call,
        `heapRangeStartOffsets[${i}]`,
        `range ${i} needs heap tiles ${range.heapStart}..${end - 1}, and ${heap.label} has ${tiles} tile(s)`,
      );
    }
  }
  const tailProblem = checkTailsInOneRange(call, reserved.layout, regions, ranges);
  if (tailProblem) return tailProblem;
  const mappingProblem = checkMappingFlags(call, flags);
  if (mappingProblem) return mappingProblem;
  return {
    table: reserved.tileMappings,
    regions: regions.length === 1 ? (regions[0] as Region).spans : regions.flatMap((region) => region.spans),
    ranges,
  };
}

export interface CopyPlan {
  dst: TileMappingTable;
  dstRegion: TileSpan[];
  src: TileMappingTable;
  srcRegion: TileSpan[];
}

/** queue.copyTileMappings(dstResource, dstRegionStartCoordinate, srcResource, srcRegionStartCoordinate, regionSize, flags). */
export function validateCopyTileMappings(
  dstResource: ResourceView | undefined,
  dstStart: unknown,
  srcResource: ResourceView | undefined,
  srcStart: unknown,
  regionSize: unknown,
  flags: unknown,
  heapById: (id: number) => HeapView | undefined,
): Checked<CopyPlan> {
  const call = 'copyTileMappings';
  const dst = checkReserved(call, 'dstResource', dstResource);
  if (dst instanceof D3D12Error) return dst;
  const src = checkReserved(call, 'srcResource', srcResource);
  if (src instanceof D3D12Error) return src;
  const dstRegion = checkRegion(call, 'dstRegionStartCoordinate', 'regionSize', dst.layout, dstStart, regionSize);
  if (dstRegion instanceof D3D12Error) return dstRegion;
  const srcRegion = checkRegion(call, 'srcRegionStartCoordinate', 'regionSize', src.layout, srcStart, regionSize);
  if (srcRegion instanceof D3D12Error) return srcRegion;
  if (dst.category !== src.category) {
    for (const heapId of heapsMappedBy(src.tileMappings, srcRegion)) {
      const heap = heapById(heapId);
      if (heap && !heap.released && !heapAllows(heap.flagBits, dst.category)) {
        return invalidArg(
          call,
          'srcResource',
          `a source tile maps into ${heap.label}, whose flags deny ${categoryName(dst.category)}, and ${dst.label} is one`,
        );
      }
    }
  }
  const mappingProblem = checkMappingFlags(call, flags);
  if (mappingProblem) return mappingProblem;
  return { dst: dst.tileMappings, dstRegion, src: src.tileMappings, srcRegion };
}
