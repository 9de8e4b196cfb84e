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
import { D3D12Error, invalidArg, show, type Checked } from '../api/errors.js';
import {
  TILE_MAPPING_FLAGS,
  TILE_RANGE_FLAGS,
  type FullResourceDesc,
  type TiledResourceCoordinate,
} from '../api/types.js';
import {
  spanTiles,
  type TileMappingTable,
  type TileRange,
  type TileSpan,
  heapsMappedBy,
} from '../memory/tile-mappings.js';
import type { TileRangeFlag } from '../api/types.js';
import {
  splitSubresource,
  subresourceCount,
  subresourceTiling,
  tailTiles,
  TILE_SIZE,
  type ResourceLayout,
} from '../memory/tiling.js';
import {
  asNameList,
  checkBoolean,
  checkInteger,
  checkName,
  checkOptionalArray,
  firstProblem,
  isObject,
  type Problem,
} from './common.js';
import { categoryName, heapAllows, heapSegment, type ResourceCategory } from './heap.js';
import type { HeapView } from './create-resource.js';

/** What validation needs to see of a resource. */
export interface ResourceView {
  readonly label: string;
  readonly released: boolean;
  readonly desc: FullResourceDesc;
  readonly category: ResourceCategory;
  readonly layout: ResourceLayout;
  /** Present for reserved resources only. */
  readonly tileMappings?: TileMappingTable;
}

export const heapTileCount = (heap: HeapView): number => Math.floor(heap.desc.sizeInBytes / TILE_SIZE);

/*
 * Streaming code calls updateTileMappings once per tile, so the checks below first try a fast path
 * that accepts exactly what the checkInteger / checkName chains accept, with no closures and no
 * argument names built; only input it does not accept goes through the chains, which name the
 * first problem.
 */

/** What checkInteger(call, argument, value, min, max) accepts. */
const integerIn = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max;

const U32_MAX = 0xffffffff;

interface RegionSize {
  numTiles: number;
  useBox: boolean;
  width: number;
  height: number;
  depth: number;
}

function checkReserved(
  call: string,
  argument: string,
  resource: ResourceView | undefined,
): Checked<ResourceView & { tileMappings: TileMappingTable }> {
  if (!resource) return invalidArg(call, argument, 'must be a resource created by this device');
  if (resource.released) return invalidArg(call, argument, `${resource.label} was released`);
  if (!resource.tileMappings)
    return invalidArg(
      call,
      argument,
      `${resource.label} is not a reserved resource; only reserved resources have tile mappings`,
    );
  return resource as ResourceView & { tileMappings: TileMappingTable };
}

function checkCoordinate(call: string, argument: string, value: unknown): Checked<TiledResourceCoordinate> {
  if (!isObject(value))
    return invalidArg(
      call,
      argument,
      `must be a D3D12_TILED_RESOURCE_COORDINATE {x, y, z, subresource}, got ${show(value)}`,
    );
  const { x } = value;
  const y = value.y ?? 0;
  const z = value.z ?? 0;
  const subresource = value.subresource ?? 0;
  if (
    integerIn(x, 0, U32_MAX) &&
    integerIn(y, 0, U32_MAX) &&
    integerIn(z, 0, U32_MAX) &&
    integerIn(subresource, 0, U32_MAX)
  )
    return { x, y, z, subresource };
  const problem = firstProblem(
    () => checkInteger(call, `${argument}.x`, value.x, 0, 0xffffffff),
    () => checkInteger(call, `${argument}.y`, value.y ?? 0, 0, 0xffffffff),
    () => checkInteger(call, `${argument}.z`, value.z ?? 0, 0, 0xffffffff),
    () => checkInteger(call, `${argument}.subresource`, value.subresource ?? 0, 0, 0xffffffff),
  );
  if (problem) return problem;
  return {
    x: value.x as number,
    y: (value.y ?? 0) as number,
    z: (value.z ?? 0) as number,
    subresource: (value.subresource ?? 0) as number,
  };
}

function checkRegionSize(call: string, argument: string, value: unknown): Checked<RegionSize> {
  if (!isObject(value))
    return invalidArg(
      call,
      argument,
      `must be a D3D12_TILE_REGION_SIZE {numTiles, useBox, width, height, depth}, got ${show(value)}`,
    );
  const { numTiles } = value;
  const useBox = value.useBox ?? false;
  const width = value.width ?? 1;
  const height = value.height ?? 1;
  const depth = value.depth ?? 1;
  const least = value.useBox ? 1 : 0;
  if (
    integerIn(numTiles, 0, U32_MAX) &&
    typeof useBox === 'boolean' &&
    integerIn(width, least, U32_MAX) &&
    integerIn(height, least, 0xffff) &&
    integerIn(depth, least, 0xffff)
  ) {
    return { numTiles, useBox, width, height, depth };
  }
  const problem = firstProblem(
    () => checkInteger(call, `${argument}.numTiles`, value.numTiles, 0, 0xffffffff),
    () => checkBoolean(call, `${argument}.useBox`, value.useBox ?? false),
    () => checkInteger(call, `${argument}.width`, value.width ?? 1, value.useBox ? 1 : 0, 0xffffffff),
    () => checkInteger(call, `${argument}.height`, value.height ?? 1, value.useBox ? 1 : 0, 0xffff),
    () => checkInteger(call, `${argument}.depth`, value.depth ?? 1, value.useBox ? 1 : 0, 0xffff),
  );
  if (problem) return problem;
  return {
    numTiles: value.numTiles as number,
    useBox: (value.useBox ?? false) as boolean,
    width: (value.width ?? 1) as number,
    height: (value.height ?? 1) as number,
    depth: (value.depth ?? 1) as number,
  };
}

/** A non-box span must cover each mip tail it touches entirely. */
function checkTailCoverage(call: string, argument: string, layout: ResourceLayout, span: TileSpan): Problem {
  if (layout.packedTilesPerSlice === 0 || span.count === 0) return undefined;
  const end = span.first + span.count;
  const slices = new Set([Math.floor(span.first / layout.tilesPerSlice), Math.floor((end - 1) / layout.tilesPerSlice)]);
  for (const slice of slices) {
    const tail = tailTiles(layout, slice);
    const touches = span.first < tail.first + tail.count && end > tail.first;
    const covers = span.first <= tail.first && end >= tail.first + tail.count;
    if (touches && !covers) {
      return invalidArg(
        call,
        argument,
        `covers part of the packed mips of slice ${slice} (tiles ${tail.first}..${tail.first + tail.count - 1}); a mip tail is mapped as a whole`,
      );
    }
  }
  return undefined;
}

/** The tiles a region walks, in order, as spans of consecutive resource tiles. */
function regionSpans(
  call: string,
  coordinateArg: string,
  sizeArg: string,
  layout: ResourceLayout,
  coordinate: TiledResourceCoordinate,
  size: RegionSize,
): Checked<TileSpan[]> {
  const count = subresourceCount(layout);
  if (coordinate.subresource >= count) {
    return invalidArg(
      call,
      `${coordinateArg}.subresource`,
      `must be less than the resource's ${count} subresources, got ${coordinate.subresource}`,
    );
  }
  const { mip, slice } = splitSubresource(layout, coordinate.subresource);
  let start: number;
  if (layout.mips[mip]?.packed) {
    if (size.useBox)
      return invalidArg(
        call,
        `${sizeArg}.useBox`,
        `subresource ${coordinate.subresource} is a packed mip; a box cannot address a mip tail`,
      );
    if (coordinate.y !== 0 || coordinate.z !== 0) {
      return invalidArg(
        call,
        coordinateArg,
        `subresource ${coordinate.subresource} is a packed mip: x indexes the mip tail's tiles and y and z must be 0, got y=${coordinate.y} z=${coordinate.z}`,
      );
    }
    const tail = tailTiles(layout, slice);
    if (coordinate.x >= tail.count) {
      return invalidArg(
        call,
        `${coordinateArg}.x`,
        `slice ${slice}'s mip tail has ${tail.count} tile(s), got x=${coordinate.x}`,
      );
    }
    start = tail.first + coordinate.x;
  } else {
    const tiling = subresourceTiling(layout, coordinate.subresource);
    if (
      coordinate.x >= tiling.widthInTiles ||
      coordinate.y >= tiling.heightInTiles ||
      coordinate.z >= tiling.depthInTiles
    ) {
      const grid: [keyof TiledResourceCoordinate, number][] = [
        ['x', tiling.widthInTiles],
        ['y', tiling.heightInTiles],
        ['z', tiling.depthInTiles],
      ];
      for (const [axis, extent] of grid) {
        if (coordinate[axis] >= extent) {
          return invalidArg(
            call,
            `${coordinateArg}.${axis}`,
            `subresource ${coordinate.subresource} is ${tiling.widthInTiles}×${tiling.heightInTiles}×${tiling.depthInTiles} tiles, got ${axis}=${coordinate[axis]}`,
          );
        }
      }
    }
    start =
      tiling.startTileIndexInOverallResource +
      coordinate.x +
      (coordinate.y + coordinate.z * tiling.heightInTiles) * tiling.widthInTiles;
    if (size.useBox) {
      const box: [keyof TiledResourceCoordinate, 'width' | 'height' | 'depth', number][] = [
        ['x', 'width', tiling.widthInTiles],
        ['y', 'height', tiling.heightInTiles],
        ['z', 'depth', tiling.depthInTiles],
      ];
      for (const [axis, field, extent] of box) {
        if (coordinate[axis] + size[field] > extent) {
          return invalidArg(
            call,
            `${sizeArg}.${field}`,
            `the box runs past subresource ${coordinate.subresource} (${extent} tiles along ${axis}): ${axis}=${coordinate[axis]} + ${field}=${size[field]}`,
          );
        }
      }
      const volume = size.width * size.height * size.depth;
      if (size.numTiles !== volume) {
        return invalidArg(
          call,
          `${sizeArg}.numTiles`,
          `must equal the box's width × height × depth (${volume}), got ${size.numTiles}`,
        );
      }
      const spans: TileSpan[] = [];
      for (let z = 0; z < size.depth; z++) {
        for (let y = 0; y < size.height; y++) {
          spans.push({ first: start + (y + z * tiling.heightInTiles) * tiling.widthInTiles, count: size.width });
        }
      }
      return spans;
    }
  }
  if (start + size.numTiles > layout.numTiles) {
    return invalidArg(
      call,
      `${sizeArg}.numTiles`,
      `${size.numTiles} tiles from tile ${start} run past the resource's last tile (${layout.numTiles - 1})`,
    );
  }
  const span = { first: start, count: size.numTiles };
  return checkTailCoverage(call, sizeArg, layout, span) ?? [span];
}

/** A region given as a raw coordinate and size (copyTiles, copyTileMappings): checked, as spans. */
export function checkRegion(
  call: string,
  coordinateArg: string,
  sizeArg: string,
  layout: ResourceLayout,
  coordinate: unknown,
  size: unknown,
): Checked<TileSpan[]> {
  const checkedCoordinate = checkCoordinate(call, coordinateArg, coordinate);
  if (checkedCoordinate instanceof D3D12Error) return checkedCoordinate;
  const checkedSize = checkRegionSize(call, sizeArg, size);
  if (checkedSize instanceof D3D12Error) return checkedSize;
  return regionSpans(call, coordinateArg, sizeArg, layout, checkedCoordinate, checkedSize);
}

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
      integerIn(heapStart, 0, U32_MAX) &&
      integerIn(tiles, 0, U32_MAX)
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

/** Whether `heap` may hold tiles of `resource`. */
function checkHeapBacks(call: string, argument: string, heap: HeapView, resource: ResourceView): Problem {
  if (heap.released) return invalidArg(call, argument, `${heap.label} was released`);
  if (heapSegment(heap.desc.properties) !== 'LOCAL') {
    return invalidArg(
      call,
      argument,
      `${heap.label} is a ${heap.desc.properties.type} heap in system memory; a reserved resource's tiles live in GPU memory (a DEFAULT heap, or a CUSTOM heap in L1)`,
    );
  }
  if (!heapAllows(heap.flagBits, resource.category)) {
    return invalidArg(
      call,
      argument,
      `${heap.label} was created with flags [${heap.desc.flags.join(', ')}], which deny ${categoryName(resource.category)}, and ${resource.label} is one`,
    );
  }
  return undefined;
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

function checkMappingFlags(call: string, flags: unknown): Problem {
  if (flags == null || (typeof flags === 'string' && (TILE_MAPPING_FLAGS as readonly string[]).includes(flags)))
    return undefined;
  const names = asNameList(flags ?? 'NONE');
  for (let i = 0; i < names.length; i++) {
    const problem = checkName(call, Array.isArray(flags) ? `flags[${i}]` : 'flags', names[i], TILE_MAPPING_FLAGS);
    if (problem) return problem;
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

/**
 * integerIn(value, 0, 2^32 - 1), cheaper: only such numbers survive a round trip through uint32.
 * The typeof comes first: a bigint would throw, and an object's valueOf would run.
 */
const isU32 = (value: unknown): value is number => typeof value === 'number' && value >>> 0 === value;
/** integerIn(value, 0, 0xffff) likewise. */
const isU16 = (value: unknown): value is number => typeof value === 'number' && (value & 0xffff) === value;

/**
 * The call a streamer makes per tile (or per run of tiles), checked with no allocation: one region
 * of a non-packed subresource without a box, one NONE range into `heap`, every array given, at
 * least one tile. Returns the first resource tile of the region, or -1 when the call has another
 * shape or breaks a rule; the caller then runs validateUpdateTileMappings, which names the problem
 * or accepts the other shapes. What this accepts, validateUpdateTileMappings accepts with the same
 * plan (one span, one range), so the fast path changes only the cost: 1-tile calls cost 4-8
 * allocations each through the full path, about half their time (bench figure 3).
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
  if (!resource || resource.released || !resource.tileMappings || !heap || heap.released) return -1;
  if (!Array.isArray(coordinates) || coordinates.length !== 1 || !Array.isArray(sizes) || sizes.length !== 1) return -1;
  if (!Array.isArray(rangeFlags) || rangeFlags.length !== 1 || rangeFlags[0] !== 'NONE') return -1;
  if (
    !Array.isArray(heapRangeStartOffsets) ||
    heapRangeStartOffsets.length !== 1 ||
    !Array.isArray(rangeTileCounts) ||
    rangeTileCounts.length !== 1
  )
    return -1;
  if (flags != null && flags !== 'NONE' && flags !== 'NO_HAZARD') return -1;
  const first: unknown = coordinates[0];
  const region: unknown = sizes[0];
  // isObject's checks, written out: this runs once per tile of a streamer.
  if (typeof first !== 'object' || first === null || Array.isArray(first)) return -1;
  if (typeof region !== 'object' || region === null || Array.isArray(region)) return -1;
  const coordinate = first as Record<string, unknown>;
  const size = region as Record<string, unknown>;
  const { x } = coordinate;
  const y = coordinate.y ?? 0;
  const z = coordinate.z ?? 0;
  const subresource = coordinate.subresource ?? 0;
  if (!isU32(x) || !isU32(y) || !isU32(z) || !isU32(subresource)) return -1;
  // Without a box width, height and depth are checked but unused (checkRegionSize).
  const { numTiles } = size;
  if ((size.useBox ?? false) !== false || !isU32(numTiles) || numTiles === 0) return -1;
  if (!isU32(size.width ?? 1) || !isU16(size.height ?? 1) || !isU16(size.depth ?? 1)) return -1;
  const heapStart: unknown = heapRangeStartOffsets[0];
  if (rangeTileCounts[0] !== numTiles || !isU32(heapStart) || heapStart + numTiles > heapTileCount(heap)) return -1;
  const layout = resource.layout;
  const mipLevels = layout.mipLevels;
  if (subresource >= mipLevels * layout.arraySize) return -1;
  // A subresource of the first slice (every buffer's 0) needs no division.
  const slice = subresource < mipLevels ? 0 : Math.floor(subresource / mipLevels);
  const mip = layout.mips[subresource - slice * mipLevels];
  if (!mip || mip.packed || x >= mip.widthInTiles || y >= mip.heightInTiles || z >= mip.depthInTiles) return -1;
  const subresourceStart = slice * layout.tilesPerSlice + mip.firstTileInSlice;
  const start = subresourceStart + x + (y + z * mip.heightInTiles) * mip.widthInTiles;
  const end = start + numTiles;
  if (end > layout.numTiles) return -1;
  // A region that stays in its (non-packed) subresource touches no mip tail; one that runs on may.
  if (
    layout.packedTilesPerSlice !== 0 &&
    end > subresourceStart + mip.widthInTiles * mip.heightInTiles * mip.depthInTiles
  )
    return -1;
  // A DEFAULT heap is LOCAL without working out its CUSTOM equivalent.
  if (
    (heap.desc.properties.type !== 'DEFAULT' && heapSegment(heap.desc.properties) !== 'LOCAL') ||
    !heapAllows(heap.flagBits, resource.category)
  )
    return -1;
  return start;
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
