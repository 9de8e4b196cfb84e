/**
 * The CPU page table of a reserved resource, and the two operations that change it:
 * UpdateTileMappings and CopyTileMappings. GPU-free; the authority the GPU mirror follows.
 *
 * Invariants: a table has one entry per resource tile; an entry is NULL (NULL_HEAP) or a heap id and
 * a tile offset in that heap. Heap ids are never reused by the device, so an entry naming a released
 * heap keeps naming that heap ("points at nothing") and can never alias a newer heap. Callers pass
 * validated input (src/validation/): these functions assume it and never throw on it.
 */

export const NULL_HEAP = -1;

import type { TileRangeFlag } from '../api/types.js';
import { fillWords, grownRunLength, ShiftedCopies } from './shifted-copies.js';

/** Consecutive resource tiles, in the order a region walks them. */
export interface TileSpan {
  first: number;
  count: number;
}

/** One range of UpdateTileMappings, defaults applied. */
export interface TileRange {
  flag: TileRangeFlag;
  heapStart: number;
  count: number;
}

export interface TileMapping {
  heapId: number;
  heapTile: number;
}

export class TileMappingTable {
  readonly heapIds: Int32Array;
  readonly heapTiles: Uint32Array;

  /** Mappings start NULL. */
  constructor(readonly numTiles: number) {
    this.heapIds = new Int32Array(numTiles).fill(NULL_HEAP);
    this.heapTiles = new Uint32Array(numTiles);
  }

  get(tile: number): TileMapping | null {
    const heapId = this.heapIds[tile];
    if (heapId === undefined || heapId === NULL_HEAP) return null;
    return { heapId, heapTile: this.heapTiles[tile] ?? 0 };
  }

  set(tile: number, mapping: TileMapping | null): void {
    this.heapIds[tile] = mapping ? mapping.heapId : NULL_HEAP;
    this.heapTiles[tile] = mapping ? mapping.heapTile : 0;
  }
}

/** Total tiles of a list of spans. */
export const spanTiles = (spans: readonly TileSpan[]): number => spans.reduce((sum, span) => sum + span.count, 0);

/**
 * Resource tiles [first, first + count) that one range maps alike: onto consecutive heap tiles from
 * `heapTile` (NONE), all onto heap tile `heapTile` (REUSE_SINGLE_TILE), or to nothing (NULL).
 */
export interface MappedSegment {
  first: number;
  count: number;
  flag: 'NONE' | 'REUSE_SINGLE_TILE' | 'NULL';
  heapTile: number;
}

/**
 * 0, 1, 2, ...: a run of consecutive heap tiles is a slice of it, copied natively (a bulk call's
 * 32,768 tiles took most of its time as a JavaScript loop), at any resource tile as a memmove (see
 * shifted-copies.ts). Grown by doubling, never past the largest heap tile a range has named.
 */
let iota = new ShiftedCopies(new Uint32Array(0));

/** Resource tiles [first, first + count) onto heap tiles heapTile, heapTile + 1, ... of heap `heapId`. */
export function mapTileRange(
  table: TileMappingTable,
  first: number,
  count: number,
  heapId: number,
  heapTile: number,
): void {
  const { heapIds, heapTiles } = table;
  // fill() and set() are native loops, but calls: a single tile (the per-tile fast path) is written directly.
  if (count === 1) {
    heapIds[first] = heapId;
    heapTiles[first] = heapTile;
    return;
  }
  fillWords(heapIds, first, first + count, heapId);
  const end = heapTile + count;
  if (iota.values.length < end)
    iota = new ShiftedCopies(new Uint32Array(grownRunLength(iota.values.length, end)).map((_, i) => i));
  iota.copyTo(heapTiles, first, heapTile, count);
}

/**
 * UpdateTileMappings: walks the region tiles and the range tiles in lockstep (both lists have the
 * same total), writing each resource tile as its range says, a segment (the part of a region span
 * one range covers) at a time. Later tiles overwrite earlier ones, so where regions overlap the
 * later region wins. Returns the segments written, in order (SKIP ranges write none), for the page
 * table to follow.
 */
export function applyTileMappings(
  table: TileMappingTable,
  regions: readonly TileSpan[],
  ranges: readonly TileRange[],
  heapId: number,
): MappedSegment[] {
  const segments: MappedSegment[] = [];
  let rangeIndex = 0;
  let usedInRange = 0;
  const { heapIds, heapTiles } = table;
  for (const span of regions) {
    let tile = span.first;
    let left = span.count;
    while (left > 0) {
      let range = ranges[rangeIndex];
      while (range && usedInRange === range.count) {
        range = ranges[++rangeIndex];
        usedInRange = 0;
      }
      if (!range) return segments; // totals agree after validation; nothing is left to map
      const count = Math.min(left, range.count - usedInRange);
      const end = tile + count;
      switch (range.flag) {
        case 'NONE': {
          const heapTile = range.heapStart + usedInRange;
          mapTileRange(table, tile, count, heapId, heapTile);
          segments.push({ first: tile, count, flag: 'NONE', heapTile });
          break;
        }
        case 'REUSE_SINGLE_TILE':
          fillWords(heapIds, tile, end, heapId);
          fillWords(heapTiles, tile, end, range.heapStart);
          segments.push({ first: tile, count, flag: 'REUSE_SINGLE_TILE', heapTile: range.heapStart });
          break;
        case 'NULL':
          heapIds.fill(NULL_HEAP, tile, end);
          heapTiles.fill(0, tile, end);
          segments.push({ first: tile, count, flag: 'NULL', heapTile: 0 });
          break;
        case 'SKIP':
          break;
      }
      tile = end;
      left -= count;
      usedInRange += count;
    }
  }
  return segments;
}

/**
 * CopyTileMappings: the source tiles' mappings are read into a temporary before any destination
 * tile is written, so source and destination may overlap, even within one resource.
 */
export function copyTileMappings(
  dst: TileMappingTable,
  dstRegion: readonly TileSpan[],
  src: TileMappingTable,
  srcRegion: readonly TileSpan[],
): void {
  const count = spanTiles(srcRegion);
  const savedIds = new Int32Array(count);
  const savedTiles = new Uint32Array(count);
  let i = 0;
  for (const span of srcRegion) {
    savedIds.set(src.heapIds.subarray(span.first, span.first + span.count), i);
    savedTiles.set(src.heapTiles.subarray(span.first, span.first + span.count), i);
    i += span.count;
  }
  i = 0;
  for (const span of dstRegion) {
    dst.heapIds.set(savedIds.subarray(i, i + span.count), span.first);
    dst.heapTiles.set(savedTiles.subarray(i, i + span.count), span.first);
    i += span.count;
  }
}

/** The ids of the heaps that tiles of `spans` map to (for checking they may back another resource). */
export function heapsMappedBy(table: TileMappingTable, spans: readonly TileSpan[]): Set<number> {
  const heaps = new Set<number>();
  for (const span of spans) {
    for (let tile = span.first; tile < span.first + span.count; tile++) {
      const heapId = table.heapIds[tile];
      if (heapId !== undefined && heapId !== NULL_HEAP) heaps.add(heapId);
    }
  }
  return heaps;
}
