/**
 * The rules of updateTileMappings and copyTileMappings (see tile-mappings.ts for the whole list),
 * one function each, as the D3D12 debug layer checks them: a resource, a region's coordinate and
 * size, where its tiles lie (regionSpans), mip tails, the heap, the mapping flags.
 *
 * Each rule is first an allocation-free predicate; the check* functions run it and name the first
 * problem only when it fails, and the per-tile fast path (single-range-fast-path.ts) is built of the
 * same predicates, so the two cannot disagree on a rule.
 */
import { D3D12Error, invalidArg, show, type Checked } from '../api/errors.js';
import { TILE_MAPPING_FLAGS, type FullResourceDesc, type TiledResourceCoordinate } from '../api/types.js';
import type { TileMappingTable, TileSpan } from '../memory/tile-mappings.js';
import {
  splitSubresource,
  subresourceCount,
  subresourceTiling,
  tailTiles,
  TILE_SIZE,
  type ResourceLayout,
} from '../memory/tiling.js';
import { asNameList, checkBoolean, checkInteger, checkName, firstProblem, isObject, type Problem } from './common.js';
import { categoryName, heapAllows, heapSegment, type ResourceCategory } from './heap.js';
import type { HeapView } from './create-resource.js';

type SubresourceTiling = ReturnType<typeof subresourceTiling>;

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
 * Streaming code calls updateTileMappings once per tile, so each rule is first a predicate that
 * allocates nothing and builds no argument name (is*, standardTile, splitTail, heapMayBack): the
 * per-tile fast path (single-range-fast-path.ts) is made of them, and the check* functions below
 * run them first and build the message of the first problem only when one fails.
 */

/**
 * What checkInteger(call, argument, value, 0, 2^32 - 1) accepts: only such numbers survive a round
 * trip through uint32. The typeof comes first: a bigint would throw, and an object's valueOf would run.
 */
export const isU32 = (value: unknown): value is number => typeof value === 'number' && value >>> 0 === value;
/** checkInteger(…, 0, 0xffff) likewise. */
export const isU16 = (value: unknown): value is number => typeof value === 'number' && (value & 0xffff) === value;

export const U32_MAX = 0xffffffff;

/** isObject's checks, written out (the per-tile path runs this). */
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A live reserved resource: what checkReserved accepts. */
export const isLiveReserved = (
  resource: ResourceView | undefined,
): resource is ResourceView & { tileMappings: TileMappingTable } =>
  resource !== undefined && !resource.released && resource.tileMappings !== undefined;

/** What checkCoordinate accepts: a D3D12_TILED_RESOURCE_COORDINATE of uint32 fields (y, z, subresource default 0). */
export const isCoordinate = (value: unknown): boolean =>
  isRecord(value) && isU32(value.x) && isU32(value.y ?? 0) && isU32(value.z ?? 0) && isU32(value.subresource ?? 0);

/** What checkRegionSize accepts: width, height and depth at least 1 with a box, else any (they go unused). */
export function isRegionSize(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const useBox = value.useBox ?? false;
  const least = value.useBox ? 1 : 0;
  const { width = 1, height = 1, depth = 1 } = value;
  return (
    isU32(value.numTiles) &&
    typeof useBox === 'boolean' &&
    isU32(width) &&
    width >= least &&
    isU16(height) &&
    height >= least &&
    isU16(depth) &&
    depth >= least
  );
}

/**
 * The resource tile at (x, y, z) of a standard (not packed) subresource, or -1 when the subresource
 * does not exist, is packed, or does not hold the coordinate.
 */
export function standardTile(layout: ResourceLayout, x: number, y: number, z: number, subresource: number): number {
  const mipLevels = layout.mipLevels;
  if (subresource >= mipLevels * layout.arraySize) return -1;
  // A subresource of the first slice (every buffer's 0) needs no division.
  const slice = subresource < mipLevels ? 0 : Math.floor(subresource / mipLevels);
  const mip = layout.mips[subresource - slice * mipLevels];
  if (!mip || mip.packed || x >= mip.widthInTiles || y >= mip.heightInTiles || z >= mip.depthInTiles) return -1;
  return slice * layout.tilesPerSlice + mip.firstTileInSlice + x + (y + z * mip.heightInTiles) * mip.widthInTiles;
}

/** Whether tiles [first, end) cover part of `slice`'s mip tail but not all of it. */
function splitsSliceTail(layout: ResourceLayout, slice: number, first: number, end: number): boolean {
  const tailFirst = slice * layout.tilesPerSlice + layout.standardTilesPerSlice;
  const tailEnd = tailFirst + layout.packedTilesPerSlice;
  return first < tailEnd && end > tailFirst && !(first <= tailFirst && end >= tailEnd);
}

/**
 * The slice whose mip tail tiles [first, end) cover only in part, or -1: a non-box span must cover
 * each tail it touches entirely. Only its first and last slice can be split (it covers the others whole).
 */
export function splitTail(layout: ResourceLayout, first: number, end: number): number {
  if (layout.packedTilesPerSlice === 0 || end <= first) return -1;
  const firstSlice = Math.floor(first / layout.tilesPerSlice);
  const lastSlice = Math.floor((end - 1) / layout.tilesPerSlice);
  if (splitsSliceTail(layout, firstSlice, first, end)) return firstSlice;
  return lastSlice !== firstSlice && splitsSliceTail(layout, lastSlice, first, end) ? lastSlice : -1;
}

/** Whether `heap` may hold tiles of `resource`: live, GPU-local, its flags allowing the resource's category. */
export const heapMayBack = (heap: HeapView, resource: ResourceView): boolean =>
  !heap.released &&
  // A DEFAULT heap is LOCAL without working out its CUSTOM equivalent.
  (heap.desc.properties.type === 'DEFAULT' || heapSegment(heap.desc.properties) === 'LOCAL') &&
  heapAllows(heap.flagBits, resource.category);

/** What checkMappingFlags accepts as a single name (the per-tile path's case). */
export const isMappingFlag = (flags: unknown): boolean =>
  flags == null || (typeof flags === 'string' && (TILE_MAPPING_FLAGS as readonly string[]).includes(flags));

export interface RegionSize {
  numTiles: number;
  useBox: boolean;
  width: number;
  height: number;
  depth: number;
}

export function checkReserved(
  call: string,
  argument: string,
  resource: ResourceView | undefined,
): Checked<ResourceView & { tileMappings: TileMappingTable }> {
  if (isLiveReserved(resource)) return resource;
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

export function checkCoordinate(call: string, argument: string, value: unknown): Checked<TiledResourceCoordinate> {
  if (!isObject(value))
    return invalidArg(
      call,
      argument,
      `must be a D3D12_TILED_RESOURCE_COORDINATE {x, y, z, subresource}, got ${show(value)}`,
    );
  if (isCoordinate(value))
    return {
      x: value.x as number,
      y: (value.y ?? 0) as number,
      z: (value.z ?? 0) as number,
      subresource: (value.subresource ?? 0) as number,
    };
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

export function checkRegionSize(call: string, argument: string, value: unknown): Checked<RegionSize> {
  if (!isObject(value))
    return invalidArg(
      call,
      argument,
      `must be a D3D12_TILE_REGION_SIZE {numTiles, useBox, width, height, depth}, got ${show(value)}`,
    );
  const problem = isRegionSize(value)
    ? undefined
    : firstProblem(
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
  const slice = splitTail(layout, span.first, span.first + span.count);
  if (slice < 0) return undefined;
  const tail = tailTiles(layout, slice);
  return invalidArg(
    call,
    argument,
    `covers part of the packed mips of slice ${slice} (tiles ${tail.first}..${tail.first + tail.count - 1}); a mip tail is mapped as a whole`,
  );
}

/** The first tile of a region in a mip tail: x indexes the tail's tiles, y and z are 0, no box. */
function tailStart(
  call: string,
  coordinateArg: string,
  sizeArg: string,
  layout: ResourceLayout,
  coordinate: TiledResourceCoordinate,
  size: RegionSize,
  slice: number,
): Checked<number> {
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
  return tail.first + coordinate.x;
}

/** The problem of a coordinate outside its standard subresource's grid of tiles. */
function outsideGrid(
  call: string,
  coordinateArg: string,
  coordinate: TiledResourceCoordinate,
  tiling: SubresourceTiling,
): D3D12Error {
  const axis: 'x' | 'y' | 'z' =
    coordinate.x >= tiling.widthInTiles ? 'x' : coordinate.y >= tiling.heightInTiles ? 'y' : 'z';
  return invalidArg(
    call,
    `${coordinateArg}.${axis}`,
    `subresource ${coordinate.subresource} is ${tiling.widthInTiles}×${tiling.heightInTiles}×${tiling.depthInTiles} tiles, got ${axis}=${coordinate[axis]}`,
  );
}

/** A box from tile `start` of a standard subresource: inside it, numTiles its volume; one span per row. */
function boxSpans(
  call: string,
  sizeArg: string,
  coordinate: TiledResourceCoordinate,
  size: RegionSize,
  tiling: SubresourceTiling,
  start: number,
): Checked<TileSpan[]> {
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

/** The tiles a region walks, in order, as spans of consecutive resource tiles. */
export function regionSpans(
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
    const first = tailStart(call, coordinateArg, sizeArg, layout, coordinate, size, slice);
    if (first instanceof D3D12Error) return first;
    start = first;
  } else {
    const tiling = subresourceTiling(layout, coordinate.subresource);
    start = standardTile(layout, coordinate.x, coordinate.y, coordinate.z, coordinate.subresource);
    if (start < 0) return outsideGrid(call, coordinateArg, coordinate, tiling);
    if (size.useBox) return boxSpans(call, sizeArg, coordinate, size, tiling, start);
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

/** Whether `heap` may hold tiles of `resource`. */
export function checkHeapBacks(call: string, argument: string, heap: HeapView, resource: ResourceView): Problem {
  if (heapMayBack(heap, resource)) return undefined;
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

export function checkMappingFlags(call: string, flags: unknown): Problem {
  if (isMappingFlag(flags)) return undefined;
  const names = asNameList(flags ?? 'NONE');
  for (let i = 0; i < names.length; i++) {
    const problem = checkName(call, Array.isArray(flags) ? `flags[${i}]` : 'flags', names[i], TILE_MAPPING_FLAGS);
    if (problem) return problem;
  }
  return undefined;
}
