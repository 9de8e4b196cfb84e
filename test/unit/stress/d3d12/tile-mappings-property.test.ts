/**
 * Property test: random sequences of updateTileMappings / copyTileMappings on random reserved
 * resources and several heaps, compared after every call with a deliberately simple model.
 *
 * The model knows nothing of src/memory: a resource is a plain array of { heapId, tile } | null per
 * tile, and its geometry comes only from device.getResourceTiling plus D3D12's documented rules
 * (REFERENCE.md): a standard subresource's tiles run x, then y, then z from its start index; a slice's
 * mip tail is packedMipDesc.numTilesForPackedMips tiles at slice × (tiles per slice) +
 * packedMipDesc.startTileIndexInOverallResource (**Chosen** layout for Tier 4 arrays); a region
 * without a box runs over consecutive tile indices. Each call is expanded naively: list the region
 * tiles one by one, list the range tiles one by one, zip, apply; a copy snapshots the source first.
 *
 * Most calls are valid by construction; some are invalid on purpose (one broken rule each), and for
 * those the test expects a D3D12Error and an unchanged page table everywhere.
 * A failure names the seed, the call number and the call.
 */
import { describe, expect, test } from 'vitest';
import { createDevice } from '../../../../src/index.js';
import type {
  CommandQueue,
  Device,
  Heap,
  Resource,
  ResourceDesc,
  TiledResourceCoordinate,
  TileRangeFlag,
  TileRegionSize,
} from '../../../../src/index.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';
import { Random } from '../../../../src/validate/random.js';
import { getTileMappingForTesting } from '../../../../src/testing/index.js';

// ---- the model -------------------------------------------------------------------------------------

type Entry = { heapId: number; tile: number } | null;

interface Standard {
  sub: number;
  w: number;
  h: number;
  d: number;
  start: number;
}

interface ModelResource {
  name: string;
  resource: Resource;
  buffer: boolean;
  mipLevels: number;
  numSubresources: number;
  numTiles: number;
  tilesPerSlice: number;
  standard: Standard[];
  /** Subresources that are packed mips. */
  packedSubs: number[];
  packedStart: number;
  packedCount: number;
  table: Entry[];
}

interface ModelHeap {
  id: number;
  heap: Heap;
  tiles: number;
  released: boolean;
}

function modelResource(device: Device, name: string, resource: Resource): ModelResource {
  const tiling = device.getResourceTiling(resource);
  const desc = resource.getDesc(); // mipLevels 0 (full chain) comes back resolved
  const buffer = desc.dimension === 'BUFFER';
  const mipLevels = desc.mipLevels;
  const arraySize = desc.dimension === 'TEXTURE2D' ? desc.depthOrArraySize : 1;
  const numTiles = tiling.numTilesForEntireResource;
  const standard: Standard[] = [];
  const packedSubs: number[] = [];
  tiling.subresourceTilings.forEach((t, sub) => {
    if (t.startTileIndexInOverallResource === 0xffffffff) packedSubs.push(sub);
    else
      standard.push({
        sub,
        w: t.widthInTiles,
        h: t.heightInTiles,
        d: t.depthInTiles,
        start: t.startTileIndexInOverallResource,
      });
  });
  const packedCount = tiling.packedMipDesc.numTilesForPackedMips;
  const tilesPerSlice = numTiles / arraySize;
  // Cross-checks of the reported tiling against the layout rules the model relies on.
  expect(tiling.subresourceTilings).toHaveLength(mipLevels * arraySize);
  expect(Number.isInteger(tilesPerSlice)).toBe(true);
  const standardPerSlice = standard.filter((s) => s.sub < mipLevels).reduce((sum, s) => sum + s.w * s.h * s.d, 0);
  expect(standardPerSlice + packedCount).toBe(tilesPerSlice);
  return {
    name,
    resource,
    buffer,
    mipLevels,
    numSubresources: mipLevels * arraySize,
    numTiles,
    tilesPerSlice,
    standard,
    packedSubs,
    packedStart: tiling.packedMipDesc.startTileIndexInOverallResource,
    packedCount,
    table: Array.from({ length: numTiles }, () => null),
  };
}

/** The slice whose mip tail holds `tile`, or -1. */
function tailSliceOf(r: ModelResource, tile: number): number {
  if (r.packedCount === 0) return -1;
  const slice = Math.floor(tile / r.tilesPerSlice);
  const local = tile - slice * r.tilesPerSlice;
  return local >= r.packedStart && local < r.packedStart + r.packedCount ? slice : -1;
}

const tailFirst = (r: ModelResource, slice: number): number => slice * r.tilesPerSlice + r.packedStart;

/** Whether tiles [start, start + count) cover each mip tail they touch entirely. */
function coversTailsWhole(r: ModelResource, start: number, count: number): boolean {
  for (let tile = start; tile < start + count; tile++) {
    const slice = tailSliceOf(r, tile);
    if (slice < 0) continue;
    const first = tailFirst(r, slice);
    if (first < start || first + r.packedCount > start + count) return false;
  }
  return true;
}

/** The coordinate that names tile `tile` (a standard tile, or the first tile of a mip tail). */
function coordinateOf(r: ModelResource, rng: Random, tile: number): TiledResourceCoordinate {
  for (const s of r.standard) {
    const local = tile - s.start;
    if (local >= 0 && local < s.w * s.h * s.d) {
      return {
        x: local % s.w,
        y: Math.floor(local / s.w) % s.h,
        z: Math.floor(local / (s.w * s.h)),
        subresource: s.sub,
      };
    }
  }
  const slice = tailSliceOf(r, tile);
  if (slice < 0 || tile !== tailFirst(r, slice)) throw new Error(`tile ${tile} of ${r.name} has no coordinate`);
  // Any packed mip of the slice names its tail.
  const subs = r.packedSubs.filter((sub) => Math.floor(sub / r.mipLevels) === slice);
  return { x: 0, y: 0, z: 0, subresource: rng.pick(subs) };
}

/** Tiles a region may start at: every standard tile and the first tile of every tail. */
function startTiles(r: ModelResource): number[] {
  const starts: number[] = [];
  for (let tile = 0; tile < r.numTiles; tile++) {
    const slice = tailSliceOf(r, tile);
    if (slice < 0 || tile === tailFirst(r, slice)) starts.push(tile);
  }
  return starts;
}

/** A region walked tile by tile. */
interface Region {
  coordinate: TiledResourceCoordinate;
  size: TileRegionSize;
  tiles: number[];
}

function boxRegion(rng: Random, s: Standard, width: number, height: number, depth: number): Region {
  const x = rng.below(s.w - width + 1);
  const y = rng.below(s.h - height + 1);
  const z = rng.below(s.d - depth + 1);
  const tiles: number[] = [];
  for (let k = 0; k < depth; k++) {
    for (let j = 0; j < height; j++) {
      for (let i = 0; i < width; i++) tiles.push(s.start + (x + i) + (y + j) * s.w + (z + k) * s.w * s.h);
    }
  }
  return {
    coordinate: { x, y, z, subresource: s.sub },
    size: { numTiles: tiles.length, useBox: true, width, height, depth },
    tiles,
  };
}

function linearRegion(r: ModelResource, rng: Random, start: number, count: number): Region {
  const tiles = Array.from({ length: count }, (_, i) => start + i);
  return { coordinate: coordinateOf(r, rng, start), size: { numTiles: count }, tiles };
}

/** A valid region of `r`. */
function randomRegion(r: ModelResource, rng: Random): Region {
  if (!r.buffer && r.standard.length > 0 && rng.chance(0.35)) {
    const s = rng.pick(r.standard);
    return boxRegion(rng, s, rng.int(1, s.w), rng.int(1, s.h), rng.int(1, s.d));
  }
  const start = rng.pick(startTiles(r));
  const room = r.numTiles - start;
  let count = rng.chance(0.15) ? rng.int(0, room) : rng.int(0, Math.min(room, 6));
  // Stretch the region to the end of a tail it would cover only in part.
  while (!coversTailsWhole(r, start, count)) count++;
  return linearRegion(r, rng, start, count);
}

interface Range {
  flag: TileRangeFlag;
  offset: number;
  count: number;
}

/** Valid ranges for the region tiles: every covered tail inside one range; NONE ranges inside the heap. */
function randomRanges(r: ModelResource, rng: Random, regions: Region[], heapTiles: number): Range[] {
  const keys: (string | null)[] = [];
  regions.forEach((region, index) => {
    for (const tile of region.tiles) {
      const slice = tailSliceOf(r, tile);
      keys.push(slice < 0 ? null : `${index}:${slice}`);
    }
  });
  const total = keys.length;
  const cutChance = rng.pick([0, 0.1, 0.3, 0.7]);
  const counts: number[] = [];
  let current = 0;
  for (let i = 0; i < total; i++) {
    const inTail = i > 0 && keys[i] !== null && keys[i] === keys[i - 1];
    if (i > 0 && !inTail && rng.chance(cutChance)) {
      counts.push(current);
      current = 0;
      if (rng.chance(0.1)) counts.push(0);
    }
    current++;
  }
  counts.push(current);
  return counts.map((count) => {
    const roll = rng.float();
    if (roll < 0.5 && count <= heapTiles) return { flag: 'NONE', offset: rng.below(heapTiles - count + 1), count };
    if (roll < 0.7) return { flag: 'REUSE_SINGLE_TILE', offset: rng.below(heapTiles), count };
    if (roll < 0.85) return { flag: 'NULL', offset: rng.below(heapTiles), count };
    return { flag: 'SKIP', offset: rng.below(heapTiles), count };
  });
}

/** The naive expansion of an update: region tiles zipped with range tiles. */
function applyUpdate(r: ModelResource, regions: Region[], ranges: Range[], heapId: number): void {
  const regionTiles = regions.flatMap((region) => region.tiles);
  const rangeTiles: (Entry | 'skip')[] = [];
  for (const range of ranges) {
    for (let i = 0; i < range.count; i++) {
      if (range.flag === 'NONE') rangeTiles.push({ heapId, tile: range.offset + i });
      else if (range.flag === 'REUSE_SINGLE_TILE') rangeTiles.push({ heapId, tile: range.offset });
      else if (range.flag === 'NULL') rangeTiles.push(null);
      else rangeTiles.push('skip');
    }
  }
  if (regionTiles.length !== rangeTiles.length) throw new Error('generator bug: totals differ');
  regionTiles.forEach((tile, i) => {
    const value = rangeTiles[i];
    if (value !== 'skip' && value !== undefined) r.table[tile] = value;
  });
}

// ---- the run ----------------------------------------------------------------------------------------

const DESCS: ResourceDesc[][] = [
  // Buffers (width set per seed), 2D without packed mips, 2D with packed mips, tier-4 arrays, 3D.
  [{ dimension: 'BUFFER', width: 0 }],
  [
    { dimension: 'TEXTURE2D', format: 'R8G8B8A8_UNORM', width: 512, height: 256, mipLevels: 2 },
    { dimension: 'TEXTURE2D', format: 'R16G16B16A16_FLOAT', width: 384, height: 192, mipLevels: 2 },
    { dimension: 'TEXTURE2D', format: 'BC1_UNORM', width: 1536, height: 512, mipLevels: 2 },
  ],
  [
    { dimension: 'TEXTURE2D', format: 'R8G8B8A8_UNORM', width: 512, height: 512, mipLevels: 10 },
    { dimension: 'TEXTURE2D', format: 'R8G8B8A8_UNORM', width: 1024, height: 128, mipLevels: 2 },
    { dimension: 'TEXTURE2D', format: 'R8_UNORM', width: 1000, height: 300, mipLevels: 0 },
    { dimension: 'TEXTURE2D', format: 'R32G32B32A32_FLOAT', width: 4096, height: 16, mipLevels: 1 },
  ],
  [
    { dimension: 'TEXTURE2D', format: 'R8G8B8A8_UNORM', width: 1024, height: 128, mipLevels: 2, depthOrArraySize: 3 },
    { dimension: 'TEXTURE2D', format: 'R8G8B8A8_UNORM', width: 300, height: 300, mipLevels: 0, depthOrArraySize: 2 },
    { dimension: 'TEXTURE2D', format: 'BC7_UNORM', width: 512, height: 256, mipLevels: 0, depthOrArraySize: 4 },
  ],
  [
    { dimension: 'TEXTURE3D', format: 'R32G32B32A32_FLOAT', width: 64, height: 64, depthOrArraySize: 64, mipLevels: 0 },
    { dimension: 'TEXTURE3D', format: 'R8G8B8A8_UNORM', width: 96, height: 64, depthOrArraySize: 32, mipLevels: 3 },
    { dimension: 'TEXTURE3D', format: 'R16_FLOAT', width: 64, height: 96, depthOrArraySize: 64, mipLevels: 0 },
  ],
];

const HEAP_TILES = [3, 8, 24, 96];

/** What the generated calls exercised, over all seeds (checked by the last test). */
const coverage = new Map<string, number>();
const note = (what: string, when = true): void => {
  if (when) coverage.set(what, (coverage.get(what) ?? 0) + 1);
};
const CALLS_PER_SEED = 300;

interface Call {
  describe: string;
  run: () => void;
  /** Valid calls: the model's change. Invalid calls: undefined. */
  apply?: () => void;
  /** Invalid calls: the argument the error must name. */
  argument?: string;
}

class Session {
  readonly resources: ModelResource[] = [];
  readonly heaps: ModelHeap[] = [];
  readonly heapIds = new Map<Heap, number>();

  constructor(
    readonly device: Device,
    readonly queue: CommandQueue,
    readonly rng: Random,
  ) {}

  liveHeaps(): ModelHeap[] {
    return this.heaps.filter((heap) => !heap.released);
  }

  /** A valid updateTileMappings, sometimes written with the null-argument defaults. */
  validUpdate(): Call {
    const { rng } = this;
    const r = rng.pick(this.resources);
    const heap = rng.pick(this.liveHeaps());
    const regions = Array.from({ length: rng.pick([1, 1, 1, 2, 3]) }, () => randomRegion(r, rng));
    if (rng.chance(0.1)) regions.splice(0, regions.length, linearRegion(r, rng, 0, r.numTiles)); // whole resource
    const ranges = randomRanges(r, rng, regions, heap.tiles);
    const mapsTiles = ranges.some(
      (range) => range.count > 0 && (range.flag === 'NONE' || range.flag === 'REUSE_SINGLE_TILE'),
    );
    const useHeap = mapsTiles || rng.chance(0.5) ? heap : null;

    let coords: TiledResourceCoordinate[] | null = regions.map((region) => region.coordinate);
    let sizes: TileRegionSize[] | null = regions.map((region) => region.size);
    const only = regions[0];
    const atOrigin =
      regions.length === 1 &&
      only !== undefined &&
      only.coordinate.subresource === 0 &&
      only.coordinate.x === 0 &&
      only.coordinate.y === 0 &&
      only.coordinate.z === 0;
    if (atOrigin && only.size.useBox !== true && only.size.numTiles === r.numTiles && rng.chance(0.7)) {
      coords = null;
      sizes = null;
    } else if (atOrigin && rng.chance(0.5)) {
      coords = null;
    } else if (
      regions.every((region) => region.size.useBox !== true && region.size.numTiles === 1) &&
      rng.chance(0.7)
    ) {
      sizes = null;
    }
    let flags: TileRangeFlag[] | null = ranges.map((range) => range.flag);
    let offsets: number[] | null = ranges.map((range) => range.offset);
    let counts: number[] | null = ranges.map((range) => range.count);
    if (ranges.every((range) => range.flag === 'NONE') && rng.chance(0.5)) flags = null;
    if (
      ranges.every((range) => range.offset === 0 || range.flag === 'NULL' || range.flag === 'SKIP') &&
      rng.chance(0.5)
    )
      offsets = null;
    const total = ranges.reduce((sum, range) => sum + range.count, 0);
    if (ranges.length === 1 && ranges[0]?.count === total && rng.chance(0.5)) counts = null;
    else if (ranges.length > 1 && ranges.every((range) => range.count === 1) && rng.chance(0.7)) counts = null;
    if (flags === null && offsets === null && counts === null) {
      // All three null means one range: only valid when there is one.
      if (ranges.length !== 1) counts = ranges.map((range) => range.count);
    }
    const heapId = useHeap ? heap.id : -1;
    note('update: null coordinates', coords === null);
    note('update: null sizes', sizes === null);
    note('update: null coordinates and sizes (whole resource)', coords === null && sizes === null);
    note('update: null range flags', flags === null);
    note('update: null offsets', offsets === null);
    note('update: null counts, one range', counts === null && ranges.length === 1);
    note('update: null counts, several ranges', counts === null && ranges.length > 1);
    note('update: null heap', useHeap === null);
    note('update: several regions', regions.length > 1);
    note(
      'update: overlapping regions',
      new Set(regions.flatMap((region) => region.tiles)).size <
        regions.reduce((sum, region) => sum + region.tiles.length, 0),
    );
    note(
      'update: box',
      regions.some((region) => region.size.useBox === true),
    );
    note(
      'update: box with depth > 1',
      regions.some((region) => (region.size.depth ?? 1) > 1),
    );
    note(
      'update: region spilling into the next subresource',
      regions.some((region) => {
        const first = r.standard.find((standard) => standard.sub === region.coordinate.subresource);
        const last = region.tiles[region.tiles.length - 1];
        return (
          region.size.useBox !== true &&
          first !== undefined &&
          last !== undefined &&
          last >= first.start + first.w * first.h * first.d
        );
      }),
    );
    note(
      'update: a mip tail mapped',
      regions.some((region) => region.tiles.some((tile) => tailSliceOf(r, tile) >= 0)),
    );
    note(
      'update: a tail of slice > 0 mapped',
      regions.some((region) => region.tiles.some((tile) => tailSliceOf(r, tile) > 0)),
    );
    note(
      'update: a multi-tile tail mapped',
      r.packedCount > 1 && regions.some((region) => region.tiles.some((tile) => tailSliceOf(r, tile) >= 0)),
    );
    for (const flag of ['NONE', 'NULL', 'SKIP', 'REUSE_SINGLE_TILE'] as const)
      note(
        `update: ${flag} range`,
        ranges.some((range) => range.flag === flag && range.count > 0),
      );
    note(
      'update: zero-count range',
      ranges.some((range) => range.count === 0),
    );
    const args = [r.name, coords, sizes, useHeap ? `heap ${heap.id}` : null, flags, offsets, counts];
    return {
      describe: `updateTileMappings(${JSON.stringify(args).slice(1, -1)})`,
      run: () =>
        this.queue.updateTileMappings(r.resource, coords, sizes, useHeap ? heap.heap : null, flags, offsets, counts),
      apply: () => applyUpdate(r, regions, ranges, heapId),
    };
  }

  /** A valid copyTileMappings (possibly within one resource, overlapping). */
  validCopy(): Call {
    const { rng } = this;
    const dst = rng.pick(this.resources);
    const src = rng.chance(0.4) ? dst : rng.pick(this.resources);
    let dstRegion: Region | undefined;
    let srcRegion: Region | undefined;
    if (!dst.buffer && !src.buffer && dst.standard.length > 0 && src.standard.length > 0 && rng.chance(0.4)) {
      const ds = rng.pick(dst.standard);
      const ss = rng.pick(src.standard);
      const width = rng.int(1, Math.min(ds.w, ss.w));
      const height = rng.int(1, Math.min(ds.h, ss.h));
      const depth = rng.int(1, Math.min(ds.d, ss.d));
      dstRegion = boxRegion(rng, ds, width, height, depth);
      srcRegion = boxRegion(rng, ss, width, height, depth);
    } else {
      for (let attempt = 0; attempt < 20 && !dstRegion; attempt++) {
        const count = rng.chance(0.2) ? rng.int(0, Math.min(dst.numTiles, src.numTiles)) : rng.int(0, 6);
        const dstStarts = startTiles(dst).filter((t) => t + count <= dst.numTiles && coversTailsWhole(dst, t, count));
        const srcStarts = startTiles(src).filter((t) => t + count <= src.numTiles && coversTailsWhole(src, t, count));
        if (dstStarts.length === 0 || srcStarts.length === 0) continue;
        dstRegion = linearRegion(dst, rng, rng.pick(dstStarts), count);
        srcRegion = linearRegion(src, rng, rng.pick(srcStarts), count);
      }
      if (!dstRegion || !srcRegion) {
        dstRegion = linearRegion(dst, rng, 0, 0);
        srcRegion = linearRegion(src, rng, 0, 0);
      }
    }
    const d = dstRegion;
    const s = srcRegion;
    if (!d || !s) throw new Error('generator bug: no copy regions');
    note('copy: box', d.size.useBox === true);
    note('copy: across resources', dst !== src && d.tiles.length > 0);
    const srcTiles = new Set(s.tiles);
    const overlap = dst === src && d.tiles.some((tile) => srcTiles.has(tile));
    note('copy: overlapping, destination after source', overlap && (d.tiles[0] ?? 0) > (s.tiles[0] ?? 0));
    note('copy: overlapping, destination before source', overlap && (d.tiles[0] ?? 0) < (s.tiles[0] ?? 0));
    note(
      'copy: a mip tail',
      d.tiles.some((tile) => tailSliceOf(dst, tile) >= 0),
    );
    return {
      describe: `copyTileMappings(${dst.name}, ${JSON.stringify(d.coordinate)}, ${src.name}, ${JSON.stringify(s.coordinate)}, ${JSON.stringify(d.size)})`,
      run: () => this.queue.copyTileMappings(dst.resource, d.coordinate, src.resource, s.coordinate, d.size),
      apply: () => {
        const saved = s.tiles.map((tile) => src.table[tile] ?? null);
        d.tiles.forEach((tile, i) => {
          dst.table[tile] = saved[i] ?? null;
        });
      },
    };
  }

  /** A call that breaks exactly one rule, or undefined if the chosen rule cannot be broken here. */
  invalidCall(): Call | undefined {
    const { rng } = this;
    const r = rng.pick(this.resources);
    const heap = rng.pick(this.liveHeaps());
    const big = this.heaps.find((h) => h.tiles === 96 && !h.released) ?? heap;
    const standardStarts = startTiles(r).filter((t) => tailSliceOf(r, t) < 0);
    const update = (
      name: string,
      argument: string,
      coords: TiledResourceCoordinate[] | null,
      sizes: TileRegionSize[] | null,
      h: Heap | null,
      flags: unknown,
      offsets: number[] | null,
      counts: number[] | null,
    ): Call => ({
      describe: `invalid (${name}) updateTileMappings(${r.name}, ${JSON.stringify([coords, sizes, h ? `heap ${this.heapIds.get(h)}` : null, flags, offsets, counts]).slice(1, -1)})`,
      run: () => {
        note(`invalid: ${name}`);
        this.queue.updateTileMappings(r.resource, coords, sizes, h, flags as never, offsets, counts);
      },
      argument,
    });
    const kind = rng.below(14);
    const s = r.standard.length > 0 ? rng.pick(r.standard) : undefined;
    const packedSub = r.packedSubs.length > 0 ? rng.pick(r.packedSubs) : undefined;
    switch (kind) {
      case 0: // x one past the subresource's width
        return (
          s &&
          update(
            'x out of range',
            'regionStartCoordinates[0].x',
            [{ x: s.w, y: 0, z: 0, subresource: s.sub }],
            [{ numTiles: 1 }],
            heap.heap,
            null,
            null,
            null,
          )
        );
      case 1: // y or z one past
        return (
          s &&
          (rng.chance(0.5)
            ? update(
                'y out of range',
                'regionStartCoordinates[0].y',
                [{ x: 0, y: s.h, z: 0, subresource: s.sub }],
                [{ numTiles: 1 }],
                heap.heap,
                null,
                null,
                null,
              )
            : update(
                'z out of range',
                'regionStartCoordinates[0].z',
                [{ x: 0, y: 0, z: s.d, subresource: s.sub }],
                [{ numTiles: 1 }],
                heap.heap,
                null,
                null,
                null,
              ))
        );
      case 2:
        return update(
          'subresource out of range',
          'regionStartCoordinates[0].subresource',
          [{ x: 0, y: 0, z: 0, subresource: r.numSubresources }],
          [{ numTiles: 1 }],
          heap.heap,
          null,
          null,
          null,
        );
      case 3: {
        // A region from a valid start running one tile past the end.
        const start = rng.pick(startTiles(r));
        return update(
          'past the end',
          'regionSizes[0].numTiles',
          [coordinateOf(r, rng, start)],
          [{ numTiles: r.numTiles - start + 1 }],
          big.heap,
          ['NULL'],
          null,
          null,
        );
      }
      case 4: {
        if (!s || r.buffer) return undefined;
        const x = rng.below(s.w);
        return update(
          'box past the edge',
          'regionSizes[0].width',
          [{ x, y: 0, z: 0, subresource: s.sub }],
          [{ numTiles: s.w - x + 1, useBox: true, width: s.w - x + 1, height: 1, depth: 1 }],
          big.heap,
          ['NULL'],
          null,
          null,
        );
      }
      case 5:
        return s && !r.buffer
          ? update(
              'box volume',
              'regionSizes[0].numTiles',
              [{ x: 0, y: 0, z: 0, subresource: s.sub }],
              [{ numTiles: 2, useBox: true, width: 1, height: 1, depth: 1 }],
              heap.heap,
              ['NULL'],
              null,
              [2],
            )
          : undefined;
      case 6:
        return packedSub === undefined
          ? undefined
          : update(
              'y on a packed mip',
              'regionStartCoordinates[0]',
              [{ x: 0, y: 1, z: 0, subresource: packedSub }],
              [{ numTiles: r.packedCount }],
              big.heap,
              null,
              null,
              null,
            );
      case 7:
        return packedSub === undefined || r.packedCount < 2
          ? undefined
          : update(
              'part of a tail',
              'regionSizes[0]',
              [{ x: 0, y: 0, z: 0, subresource: packedSub }],
              [{ numTiles: r.packedCount - 1 }],
              big.heap,
              null,
              null,
              null,
            );
      case 8:
        return packedSub === undefined || r.packedCount < 2
          ? undefined
          : update(
              'tail split across ranges',
              'rangeTileCounts',
              [{ x: 0, y: 0, z: 0, subresource: packedSub }],
              [{ numTiles: r.packedCount }],
              big.heap,
              ['NONE', 'NONE'],
              [0, 0],
              [1, r.packedCount - 1],
            );
      case 9: {
        const start = standardStarts.length > 0 ? rng.pick(standardStarts) : undefined;
        return start === undefined
          ? undefined
          : update(
              'totals differ',
              'rangeTileCounts',
              [coordinateOf(r, rng, start)],
              [{ numTiles: 1 }],
              heap.heap,
              null,
              null,
              [2],
            );
      }
      case 10: {
        const start = standardStarts.length > 0 ? rng.pick(standardStarts) : undefined;
        return start === undefined
          ? undefined
          : update(
              'NONE past the heap end',
              'heapRangeStartOffsets[0]',
              [coordinateOf(r, rng, start)],
              [{ numTiles: 1 }],
              heap.heap,
              ['NONE'],
              [heap.tiles],
              null,
            );
      }
      case 11: {
        const start = standardStarts.length > 0 ? rng.pick(standardStarts) : undefined;
        return start === undefined
          ? undefined
          : update(
              'no heap for REUSE',
              'heap',
              [coordinateOf(r, rng, start)],
              [{ numTiles: 1 }],
              null,
              ['REUSE_SINGLE_TILE'],
              [0],
              null,
            );
      }
      case 12: {
        const released = this.heaps.find((h) => h.released);
        const start = standardStarts.length > 0 ? rng.pick(standardStarts) : undefined;
        if (start === undefined) return undefined;
        return released
          ? update(
              'released heap',
              'heap',
              [coordinateOf(r, rng, start)],
              [{ numTiles: 1 }],
              released.heap,
              null,
              null,
              null,
            )
          : update(
              'bad range flag',
              'rangeFlags[0]',
              [coordinateOf(r, rng, start)],
              [{ numTiles: 1 }],
              heap.heap,
              ['MAYBE'],
              null,
              null,
            );
      }
      default: {
        // copyTileMappings with the source coordinate one past its subresource (an empty destination region).
        const src = rng.pick(this.resources.filter((candidate) => candidate.standard.length > 0));
        const ss = rng.pick(src.standard);
        const srcStart = { x: ss.w, y: 0, z: 0, subresource: ss.sub };
        return {
          describe: `invalid copyTileMappings(${r.name}, x=0, ${src.name}, ${JSON.stringify(srcStart)}, 0 tiles)`,
          run: () => {
            note('invalid: copy source coordinate');
            this.queue.copyTileMappings(r.resource, { x: 0, y: 0, z: 0, subresource: 0 }, src.resource, srcStart, {
              numTiles: 0,
            });
          },
          argument: 'srcRegionStartCoordinate.x',
        };
      }
    }
  }

  compare(context: string): void {
    for (const r of this.resources) {
      for (let tile = 0; tile < r.numTiles; tile++) {
        const actual = getTileMappingForTesting(r.resource, tile);
        const expected = r.table[tile] ?? null;
        const actualId = actual ? this.heapIds.get(actual.heap) : undefined;
        const same =
          expected === null
            ? actual === null
            : actual !== null && actualId === expected.heapId && actual.heapTileOffset === expected.tile;
        if (!same) {
          const shown = actual ? `heap ${actualId} tile ${actual.heapTileOffset}` : 'NULL';
          const wanted = expected ? `heap ${expected.heapId} tile ${expected.tile}` : 'NULL';
          throw new Error(`${context}\n  ${r.name} tile ${tile}: page table has ${shown}, the model ${wanted}`);
        }
      }
    }
  }
}

async function runSeed(seed: number): Promise<{ valid: number; invalid: number }> {
  const rng = new Random(seed);
  const device = await createDevice({ tiledResourcesTier: 4 });
  const queue = device.createCommandQueue({ type: rng.pick(['DIRECT', 'COMPUTE', 'COPY'] as const) });
  const session = new Session(device, queue, rng);
  HEAP_TILES.forEach((tiles, id) => {
    const heap = device.createHeap({ sizeInBytes: tiles * 65536, properties: { type: 'DEFAULT' } });
    session.heaps.push({ id, heap, tiles, released: false });
    session.heapIds.set(heap, id);
  });
  // One resource of each kind, plus a second buffer and a second texture, all chosen by the seed.
  const descs: ResourceDesc[] = DESCS.map((choices) => rng.pick(choices));
  descs.push({ dimension: 'BUFFER', width: 0 }, rng.pick(DESCS[2] ?? []));
  descs.forEach((desc, i) => {
    const full: ResourceDesc =
      desc.dimension === 'BUFFER'
        ? { ...desc, width: rng.int(1, 40) * 65536 - rng.below(65536) }
        : { ...desc, layout: '64KB_UNDEFINED_SWIZZLE' };
    const resource = device.createReservedResource(full, 'COMMON');
    session.resources.push(
      modelResource(
        device,
        `r${i}(${full.dimension}${full.format ? ` ${full.format}` : ''} ${full.width}×${full.height ?? 1}×${full.depthOrArraySize ?? 1} mips ${resource.getDesc().mipLevels})`,
        resource,
      ),
    );
  });
  session.compare(`seed ${seed}: initial state (mappings start NULL)`);

  let valid = 0;
  let invalid = 0;
  for (let i = 0; i < CALLS_PER_SEED; i++) {
    if (i === Math.floor(CALLS_PER_SEED * 0.6)) {
      // Release a heap mid-run: its tiles stay mapped to it; later calls may not use it.
      const victim = session.heaps[1] as ModelHeap;
      victim.heap.release();
      victim.released = true;
      session.compare(`seed ${seed}, after releasing heap ${victim.id} at call ${i}`);
    }
    let call: Call | undefined;
    while (!call) {
      const roll = rng.float();
      call = roll < 0.6 ? session.validUpdate() : roll < 0.8 ? session.validCopy() : session.invalidCall();
    }
    const context = `seed ${seed}, call ${i}: ${call.describe}`;
    if (call.apply) {
      try {
        call.run();
      } catch (error) {
        throw new Error(`${context}\n  a valid call threw: ${error instanceof Error ? error.message : 'a non-Error'}`, {
          cause: error,
        });
      }
      call.apply();
      valid++;
    } else {
      const { run, argument } = call;
      if (argument === undefined)
        throw new Error(`${context}\n  an invalid call must say which argument its error names`);
      try {
        expectD3D12Error(run, { hresult: 'E_INVALIDARG', argument });
      } catch (error) {
        // The seed and the call number first, so that a failure can be replayed.
        throw new Error(
          `${context}\n  expected E_INVALIDARG naming ${argument}: ${error instanceof Error ? error.message : 'a non-Error'}`,
          { cause: error },
        );
      }
      invalid++;
    }
    session.compare(context);
  }
  return { valid, invalid };
}

describe('updateTileMappings / copyTileMappings against a naive model', () => {
  const seeds = [1, 2, 3, 0xc0ffee, 20240607];
  for (const seed of seeds) {
    test(`seed ${seed}`, async () => {
      const started = performance.now();
      const { valid, invalid } = await runSeed(seed);
      note('time (ms)', false);
      coverage.set('time (ms)', (coverage.get('time (ms)') ?? 0) + performance.now() - started);
      // The mix is what the generator intends: mostly valid calls, some invalid ones.
      expect(valid + invalid).toBe(CALLS_PER_SEED);
      expect(valid).toBeGreaterThan(CALLS_PER_SEED * 0.6);
      expect(invalid).toBeGreaterThan(5);
    });
  }

  test('the generator reached every case it is meant to (over all seeds)', () => {
    const wanted = [
      'update: null coordinates',
      'update: null sizes',
      'update: null coordinates and sizes (whole resource)',
      'update: null range flags',
      'update: null offsets',
      'update: null counts, one range',
      'update: null counts, several ranges',
      'update: null heap',
      'update: several regions',
      'update: overlapping regions',
      'update: box',
      'update: box with depth > 1',
      'update: region spilling into the next subresource',
      'update: a mip tail mapped',
      'update: a tail of slice > 0 mapped',
      'update: a multi-tile tail mapped',
      'update: NONE range',
      'update: NULL range',
      'update: SKIP range',
      'update: REUSE_SINGLE_TILE range',
      'update: zero-count range',
      'copy: box',
      'copy: across resources',
      'copy: overlapping, destination after source',
      'copy: overlapping, destination before source',
      'copy: a mip tail',
      'invalid: x out of range',
      'invalid: subresource out of range',
      'invalid: past the end',
      'invalid: box past the edge',
      'invalid: box volume',
      'invalid: y on a packed mip',
      'invalid: part of a tail',
      'invalid: tail split across ranges',
      'invalid: totals differ',
      'invalid: NONE past the heap end',
      'invalid: no heap for REUSE',
      'invalid: released heap',
      'invalid: copy source coordinate',
    ];
    const missing = wanted.filter((what) => !coverage.has(what));
    expect(missing, `coverage: ${JSON.stringify(Object.fromEntries(coverage))}`).toEqual([]);
    // The whole property run stays fast.
    expect(coverage.get('time (ms)') ?? 0).toBeLessThan(8000);
  });
});
