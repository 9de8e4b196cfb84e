/**
 * Tile regions for the API fuzzer's updateTileMappings, copyTileMappings and copyTiles calls: a
 * region inside one subresource of a reserved resource (a run of tiles, a box, or a whole mip tail),
 * read from the public getResourceTiling, and wrong coordinates and sizes.
 *
 * Invariants: a region from `tileRegion` lies inside its subresource and never covers part of a mip
 * tail; the bad coordinates and sizes tagged 'invalid' lie outside the resource or are not numbers.
 */
import { PACKED_TILE, type Resource, type TiledResourceCoordinate, type TileRegionSize } from '../../../src/index.js';
import type { Random } from '../../../src/validate/random.js';
import type { FuzzContext } from './pool.js';
import { badBoolean, badField, badUint, invalid, maybe, notAStruct, type Arg } from './values.js';

export interface Region {
  coordinate: TiledResourceCoordinate;
  size: TileRegionSize;
  tiles: number;
  /** The region is a mip tail (mapped as a whole, by one range). */
  packed: boolean;
}

/** A region of at most `maxTiles` tiles (a tail may be larger) of `resource`. */
export function tileRegion(ctx: FuzzContext, resource: Resource, maxTiles: number): Region {
  const { rng } = ctx;
  const tiling = ctx.main.device.getResourceTiling(resource);
  const subresource = rng.int(0, tiling.subresourceTilings.length - 1);
  const sub = tiling.subresourceTilings[subresource];
  if (!sub || sub.startTileIndexInOverallResource === PACKED_TILE) {
    const tiles = tiling.packedMipDesc.numTilesForPackedMips;
    return { coordinate: { x: 0, y: 0, z: 0, subresource }, size: { numTiles: tiles }, tiles, packed: true };
  }
  const [w, h, d] = [sub.widthInTiles, sub.heightInTiles, sub.depthInTiles];
  const x = rng.int(0, w - 1);
  const y = rng.int(0, h - 1);
  const z = rng.int(0, d - 1);
  const coordinate = { x, y, z, subresource };
  if (rng.chance(0.5)) {
    const width = rng.int(1, Math.min(w - x, maxTiles));
    const height = rng.int(1, Math.max(1, Math.min(h - y, Math.floor(maxTiles / width))));
    const depth = rng.int(1, Math.max(1, Math.min(d - z, Math.floor(maxTiles / (width * height)))));
    const tiles = width * height * depth;
    return { coordinate, size: { numTiles: tiles, useBox: true, width, height, depth }, tiles, packed: false };
  }
  const remaining = w * h * d - (x + (y + z * h) * w);
  const tiles = rng.int(rng.chance(0.05) ? 0 : 1, Math.max(1, Math.min(remaining, maxTiles)));
  return { coordinate, size: { numTiles: tiles }, tiles, packed: false };
}

/** A coordinate outside the resource, or not a coordinate. */
export function badCoordinate(rng: Random, good: TiledResourceCoordinate): Arg {
  const r = rng.float();
  if (r < 0.15) return notAStruct(rng);
  if (r < 0.4)
    return invalid({ ...good, [rng.pick(['x', 'y', 'z', 'subresource'])]: rng.pick([100000, 2 ** 32, 0xffffffff]) });
  return badField(rng, good, {
    x: (g) => badUint(g),
    y: (g) => badUint(g, { optional: true }),
    z: (g) => badUint(g, { optional: true }),
    subresource: (g) => badUint(g, { optional: true }),
  });
}

/** A size that disagrees with itself (box volume), runs past the resource, or is not a size. */
export function badRegionSize(rng: Random, good: TileRegionSize): Arg {
  const r = rng.float();
  if (r < 0.15) return notAStruct(rng);
  if (r < 0.3) return invalid({ ...good, numTiles: 1_000_000 });
  if (r < 0.45 && good.useBox) return invalid({ ...good, numTiles: good.numTiles + 1 });
  if (r < 0.55) return invalid({ numTiles: 1, useBox: true, width: 0, height: 1, depth: 1 });
  return badField(rng, good, {
    numTiles: (g) => badUint(g),
    useBox: badBoolean,
    // Without a box D3D12 ignores width, height and depth.
    // The fields are optional (1 when left out), so undefined is fine and null the emulator's to take.
    width: (g) => (good.useBox ? badUint(g, { min: 1, optional: true }) : maybe(-1)),
    height: (g) => (good.useBox ? badUint(g, { min: 1, max: 0xffff, optional: true }) : maybe(NaN)),
    depth: (g) => (good.useBox ? badUint(g, { min: 1, max: 0xffff, optional: true }) : maybe(1.5)),
  });
}
