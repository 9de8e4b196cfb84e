/**
 * D3D12's tile regions, recomputed on the CPU from what GetResourceTiling reports (the public
 * tiling of a resource) and nothing else: which resource tiles a region start coordinate and a
 * region size walk, in which order, and the coordinate of a tile. The differential run's reference
 * uses this to know which tiles updateTileMappings, copyTileMappings and copyTiles touch, so its
 * prediction does not share the emulator's own region code.
 *
 * D3D12's rules, for one-slice resources (buffers, 2D textures with mips, 3D textures):
 *   - standard mips: tile (x, y, z) of subresource s is start(s) + x + (y + z * height) * width;
 *   - a box walks x fastest, then y, then z, inside one subresource;
 *   - without a box, numTiles tiles run in resource tile order from the start tile, spilling into
 *     the following mips and into the packed tail;
 *   - the packed tail is addressed as the first packed mip with x counting through the tail's tiles,
 *     and a region covers all of it or none of it.
 */
import type { ResourceTiling, TiledResourceCoordinate, TileRegionSize } from '../api/types.js';

/** The tile grid of one resource: its standard subresources, in mip order, and its packed tail. */
export interface TileGrid {
  numTiles: number;
  /** Standard subresources (mips), each a tile grid starting at a resource tile. */
  standard: { width: number; height: number; depth: number; start: number }[];
  /** The packed mips' tiles, or null when nothing is packed. */
  tail: { subresource: number; first: number; count: number } | null;
}

/** The grid of a reserved buffer of `tiles` tiles: one row of tiles, no tail. */
export function bufferGrid(tiles: number): TileGrid {
  return { numTiles: tiles, standard: [{ width: tiles, height: 1, depth: 1, start: 0 }], tail: null };
}

/** The grid of a one-slice texture, from GetResourceTiling. */
export function textureGrid(tiling: ResourceTiling): TileGrid {
  const packed = tiling.packedMipDesc;
  const standard = tiling.subresourceTilings.slice(0, packed.numStandardMips).map((s) => ({
    width: s.widthInTiles,
    height: s.heightInTiles,
    depth: s.depthInTiles,
    start: s.startTileIndexInOverallResource,
  }));
  const tail =
    packed.numPackedMips > 0
      ? {
          subresource: packed.numStandardMips,
          first: packed.startTileIndexInOverallResource,
          count: packed.numTilesForPackedMips,
        }
      : null;
  return { numTiles: tiling.numTilesForEntireResource, standard, tail };
}

/** The resource tiles a region walks, in the region's order (the order copyTiles lays them out in the buffer). */
export function regionTiles(grid: TileGrid, start: TiledResourceCoordinate, size: TileRegionSize): number[] {
  if (grid.tail && start.subresource >= grid.tail.subresource) {
    const first = grid.tail.first + start.x;
    return Array.from({ length: size.numTiles }, (_, i) => first + i);
  }
  const sub = grid.standard[start.subresource];
  if (!sub) throw new Error(`regionTiles: no subresource ${start.subresource}`);
  const origin = sub.start + start.x + (start.y + start.z * sub.height) * sub.width;
  if (!size.useBox) return Array.from({ length: size.numTiles }, (_, i) => origin + i);
  const tiles: number[] = [];
  for (let z = 0; z < (size.depth ?? 1); z++) {
    for (let y = 0; y < (size.height ?? 1); y++) {
      for (let x = 0; x < (size.width ?? 1); x++) tiles.push(origin + x + (y + z * sub.height) * sub.width);
    }
  }
  return tiles;
}

/** The coordinate D3D12 names resource tile `tile` by (tail tiles: the first packed mip, x through the tail). */
export function coordinateOf(grid: TileGrid, tile: number): TiledResourceCoordinate {
  if (grid.tail && tile >= grid.tail.first)
    return { x: tile - grid.tail.first, y: 0, z: 0, subresource: grid.tail.subresource };
  for (let subresource = grid.standard.length - 1; subresource >= 0; subresource--) {
    const sub = grid.standard[subresource] as TileGrid['standard'][number];
    if (tile < sub.start) continue;
    const local = tile - sub.start;
    const plane = sub.width * sub.height;
    return {
      x: local % sub.width,
      y: Math.floor((local % plane) / sub.width),
      z: Math.floor(local / plane),
      subresource,
    };
  }
  throw new Error(`coordinateOf: tile ${tile} is outside the grid`);
}

/** Whether a linear run [first, first + count) touches part of the tail only (D3D12 forbids it). */
export function splitsTail(grid: TileGrid, first: number, count: number): boolean {
  if (!grid.tail || count === 0) return false;
  const end = first + count;
  const tailEnd = grid.tail.first + grid.tail.count;
  const touches = first < tailEnd && end > grid.tail.first;
  return touches && !(first <= grid.tail.first && end >= tailEnd);
}
