/**
 * The CPU's account of texture mirrors (src/gpu/texture-mirrors.ts), free of WebGPU: which tiles of
 * each mirror were filled from which page-table entry, which pool page links to which tile, and
 * what a submission must drop and fill.
 *
 * Invariants (with the GPU's, shaders/prelude/texture-mirrors.wgsl):
 *   - a tile's GPU validity word can be 1 only while `filled[tile]` is non-zero: the CPU sets the
 *     word when it fills the tile and clears `filled` only after queueing the word's clear;
 *   - `filled[tile]` is the page-table entry the tile was filled under; a tile whose entry is no
 *     longer that (remapped, evicted, NULL, moved) is dropped before the next submission reads it;
 *   - a pool page links to at most one tile (`owner`), so a store to it clears exactly the word of
 *     the tile filled from it; a tile whose page another tile holds is not filled (it reads memory).
 */
import type { ResourceLayout } from './tiling.js';

/** Where one standard tile of slice 0 lies in its mip, in texels (the last row and column may be partial). */
export interface MirrorTile {
  mip: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The standard tiles of slice 0 of a texture with 128 × 128 tiles, in tile-index order (D3D12's). */
export function mirrorTiles(layout: ResourceLayout): MirrorTile[] {
  const { widthInTexels: tw, heightInTexels: th } = layout.tileShape;
  const tiles: MirrorTile[] = [];
  layout.mips.forEach((mip, level) => {
    if (mip.packed) return;
    for (let row = 0; row < mip.heightInTiles; row++)
      for (let column = 0; column < mip.widthInTiles; column++) {
        const x = column * tw;
        const y = row * th;
        tiles[mip.firstTileInSlice + row * mip.widthInTiles + column] = {
          mip: level,
          x,
          y,
          width: Math.min(tw, mip.width - x),
          height: Math.min(th, mip.height - y),
        };
      }
  });
  return tiles;
}

/** What a submission does to one mirror: tiles whose words it clears, and tiles it fills from pool pages. */
export interface MirrorPlan {
  /** page: the pool page the tile was filled from, whose link the caller clears (-1: none). */
  drops: { tile: number; page: number }[];
  fills: { tile: number; page: number; entry: number }[];
}

/** Which pool page links to which mirror tile (by global validity index), device-wide. */
export class MirrorLinks {
  private readonly owner: Int32Array;

  constructor(poolPages: number) {
    this.owner = new Int32Array(poolPages).fill(-1);
  }

  /** The global tile `page` links to, or -1. */
  ownerOf(page: number): number {
    return this.owner[page] ?? -1;
  }

  link(page: number, tile: number): void {
    this.owner[page] = tile;
  }

  /** Unlinks `page` if it links to `tile`; whether it did. */
  unlink(page: number, tile: number): boolean {
    if (this.owner[page] !== tile) return false;
    this.owner[page] = -1;
    return true;
  }
}

/** One mirror's tiles: the entry each was filled under (0: not filled) and whether a store made it stale. */
export class MirrorTileState {
  readonly filled: Uint32Array;
  readonly stale: Uint8Array;

  constructor(
    readonly count: number,
    /** The global validity index of tile 0. */
    readonly base: number,
  ) {
    this.filled = new Uint32Array(count);
    this.stale = new Uint8Array(count);
  }

  /**
   * The plan for a submission that binds this mirror, given the entries the submission reads for its
   * tiles (`entries[tile]`) and `poolPageOf(entry)` (-1 unless RESIDENT). Applies it to this state
   * and to `links`: the caller must queue every drop's word clear, and every fill's copy and word
   * set, before the submission.
   */
  plan(entries: Uint32Array, poolPageOf: (entry: number) => number, links: MirrorLinks): MirrorPlan {
    const drops: MirrorPlan['drops'] = [];
    const fills: MirrorPlan['fills'] = [];
    for (let tile = 0; tile < this.count; tile++) {
      const entry = entries[tile] ?? 0;
      const filled = this.filled[tile] as number;
      if (filled !== 0 && (filled !== entry || this.stale[tile] !== 0)) {
        drops.push({ tile, page: this.drop(tile, poolPageOf, links) });
      }
      if (this.filled[tile] !== 0) continue;
      const page = poolPageOf(entry);
      if (page < 0 || links.ownerOf(page) !== -1) continue;
      links.link(page, this.base + tile);
      this.filled[tile] = entry;
      this.stale[tile] = 0;
      fills.push({ tile, page, entry });
    }
    return { drops, fills };
  }

  /** Forgets tile `tile`'s fill (the caller clears its word and its page's link) and unlinks its page; returns the page. */
  drop(tile: number, poolPageOf: (entry: number) => number, links: MirrorLinks): number {
    const page = poolPageOf(this.filled[tile] as number);
    if (page >= 0) links.unlink(page, this.base + tile);
    this.filled[tile] = 0;
    this.stale[tile] = 0;
    return page;
  }
}

/** Validity ranges: first fit over free runs of words, merged again when freed. */
export class MirrorRanges {
  private readonly free: { start: number; length: number }[];

  constructor(readonly words: number) {
    this.free = words > 0 ? [{ start: 0, length: words }] : [];
  }

  /** The start of `length` free words, taken; -1 when no free run is that long. */
  allocate(length: number): number {
    const index = this.free.findIndex((range) => range.length >= length);
    const range = this.free[index];
    if (!range || length <= 0) return -1;
    const start = range.start;
    range.start += length;
    range.length -= length;
    if (range.length === 0) this.free.splice(index, 1);
    return start;
  }

  /** Gives back `length` words from `start` (taken by allocate). */
  release(start: number, length: number): void {
    let at = this.free.findIndex((range) => range.start > start);
    if (at < 0) at = this.free.length;
    this.free.splice(at, 0, { start, length });
    // Merge with the next run, then with the previous one.
    const next = this.free[at + 1];
    const self = this.free[at] as { start: number; length: number };
    if (next && self.start + self.length === next.start) {
      self.length += next.length;
      this.free.splice(at + 1, 1);
    }
    const previous = this.free[at - 1];
    if (previous && previous.start + previous.length === self.start) {
      previous.length += self.length;
      this.free.splice(at, 1);
    }
  }

  /** The free runs, in order (for tests). */
  freeRunsForTesting(): { start: number; length: number }[] {
    return this.free.map((range) => ({ ...range }));
  }
}
