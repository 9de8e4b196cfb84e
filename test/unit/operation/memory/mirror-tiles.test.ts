/**
 * The CPU's account of texture mirrors (src/memory/mirror-tiles.ts): the standard tiles' geometry,
 * what a submission drops and fills (mapping changes, stale tiles, pages another tile holds), the
 * page links, and the validity ranges' first fit and merging.
 */
import { describe, expect, test } from 'vitest';
import { MirrorLinks, MirrorRanges, mirrorTiles, MirrorTileState } from '../../../../src/memory/mirror-tiles.js';
import { computeLayout } from '../../../../src/memory/tiling.js';
import { formatInfo } from '../../../../src/memory/formats.js';

/** Entries as the page table's: pool page p resident is p * 16 + 1 (RESIDENT kind 1); 0 is UNOWNED. */
const resident = (page: number): number => page * 16 + 1;
const pageOf = (entry: number): number => ((entry & 3) === 1 ? (entry - 1) / 16 : -1);

describe('mirrorTiles', () => {
  test('a 300 × 200 RGBA8 texture: mip 0 is 3 × 2 tiles, the last column and row partial; mip 1 one row of 2', () => {
    const layout = computeLayout(
      {
        dimension: 'TEXTURE2D',
        width: 300,
        height: 200,
        depth: 1,
        arraySize: 1,
        mipLevels: 3,
        format: formatInfo('R8G8B8A8_UNORM'),
      },
      3,
    );
    const tiles = mirrorTiles(layout);
    expect(tiles.slice(0, 6)).toEqual([
      { mip: 0, x: 0, y: 0, width: 128, height: 128 },
      { mip: 0, x: 128, y: 0, width: 128, height: 128 },
      { mip: 0, x: 256, y: 0, width: 44, height: 128 },
      { mip: 0, x: 0, y: 128, width: 128, height: 72 },
      { mip: 0, x: 128, y: 128, width: 128, height: 72 },
      { mip: 0, x: 256, y: 128, width: 44, height: 72 },
    ]);
    // Only standard mips: as many tiles as the layout's standard tiles of a slice.
    expect(tiles).toHaveLength(layout.standardTilesPerSlice);
    expect(tiles.every((tile) => layout.mips[tile.mip]?.packed === false)).toBe(true);
  });
});

describe('MirrorTileState.plan', () => {
  test('fills every resident tile whose page is free, linking it; UNOWNED and non-resident tiles are left', () => {
    const links = new MirrorLinks(16);
    const state = new MirrorTileState(4, 100);
    const plan = state.plan(new Uint32Array([resident(3), 0, resident(5), 2]), pageOf, links);
    expect(plan.drops).toEqual([]);
    expect(plan.fills).toEqual([
      { tile: 0, page: 3, entry: resident(3) },
      { tile: 2, page: 5, entry: resident(5) },
    ]);
    expect([links.ownerOf(3), links.ownerOf(5), links.ownerOf(4)]).toEqual([100, 102, -1]);
    expect([...state.filled]).toEqual([resident(3), 0, resident(5), 0]);
  });

  test('nothing changed: nothing to do', () => {
    const links = new MirrorLinks(16);
    const state = new MirrorTileState(2, 0);
    const entries = new Uint32Array([resident(1), resident(2)]);
    state.plan(entries, pageOf, links);
    expect(state.plan(entries, pageOf, links)).toEqual({ drops: [], fills: [] });
  });

  test('a remapped tile is dropped, its old page unlinked, and filled from the new page in the same plan', () => {
    const links = new MirrorLinks(16);
    const state = new MirrorTileState(2, 10);
    state.plan(new Uint32Array([resident(1), resident(2)]), pageOf, links);
    const plan = state.plan(new Uint32Array([resident(7), resident(2)]), pageOf, links);
    expect(plan.drops).toEqual([{ tile: 0, page: 1 }]);
    expect(plan.fills).toEqual([{ tile: 0, page: 7, entry: resident(7) }]);
    expect([links.ownerOf(1), links.ownerOf(7)]).toEqual([-1, 10]);
  });

  test('an evicted or NULL-mapped tile is dropped and not filled', () => {
    const links = new MirrorLinks(16);
    const state = new MirrorTileState(2, 0);
    state.plan(new Uint32Array([resident(1), resident(2)]), pageOf, links);
    // ABSENT (kind 2) and NULL (kind 3) entries.
    const plan = state.plan(new Uint32Array([(5 << 4) | 2, 3]), pageOf, links);
    expect(plan.drops).toEqual([
      { tile: 0, page: 1 },
      { tile: 1, page: 2 },
    ]);
    expect(plan.fills).toEqual([]);
    expect([...state.filled]).toEqual([0, 0]);
  });

  test('a stale tile (a store reached its page) is dropped and filled again from the same page', () => {
    const links = new MirrorLinks(16);
    const state = new MirrorTileState(2, 0);
    const entries = new Uint32Array([resident(1), resident(2)]);
    state.plan(entries, pageOf, links);
    state.stale[1] = 1;
    const plan = state.plan(entries, pageOf, links);
    expect(plan.drops).toEqual([{ tile: 1, page: 2 }]);
    expect(plan.fills).toEqual([{ tile: 1, page: 2, entry: resident(2) }]);
    expect(state.stale[1]).toBe(0);
    expect(links.ownerOf(2)).toBe(1);
  });

  test('a page another tile holds is not filled: two tiles of one texture, and two mirrors, on one page', () => {
    const links = new MirrorLinks(16);
    const a = new MirrorTileState(2, 0);
    const b = new MirrorTileState(1, 2);
    expect(a.plan(new Uint32Array([resident(4), resident(4)]), pageOf, links).fills).toEqual([
      { tile: 0, page: 4, entry: resident(4) },
    ]);
    expect(b.plan(new Uint32Array([resident(4)]), pageOf, links).fills).toEqual([]);
    expect(links.ownerOf(4)).toBe(0);
    // Once tile 0 lets the page go, the next plan of another mirror can take it.
    a.plan(new Uint32Array([resident(9), resident(4)]), pageOf, links);
    expect(links.ownerOf(4)).toBe(1);
    expect(b.plan(new Uint32Array([resident(4)]), pageOf, links).fills).toEqual([]);
  });

  test('drop unlinks only a page linked to that tile', () => {
    const links = new MirrorLinks(4);
    const state = new MirrorTileState(1, 5);
    state.plan(new Uint32Array([resident(2)]), pageOf, links);
    links.link(2, 9);
    expect(state.drop(0, pageOf, links)).toBe(2);
    expect(links.ownerOf(2)).toBe(9);
    expect(links.unlink(2, 8)).toBe(false);
    expect(links.unlink(2, 9)).toBe(true);
  });
});

describe('MirrorRanges', () => {
  test('first fit; a run too long for every free run is refused (-1), as is an empty one', () => {
    const ranges = new MirrorRanges(10);
    expect(ranges.allocate(4)).toBe(0);
    expect(ranges.allocate(4)).toBe(4);
    expect(ranges.allocate(3)).toBe(-1);
    expect(ranges.allocate(2)).toBe(8);
    expect(ranges.allocate(1)).toBe(-1);
    expect(ranges.allocate(0)).toBe(-1);
    expect(new MirrorRanges(0).allocate(1)).toBe(-1);
  });

  test('released runs merge with both neighbours, whatever the order', () => {
    const ranges = new MirrorRanges(12);
    const [a, b, c] = [ranges.allocate(4), ranges.allocate(4), ranges.allocate(4)];
    ranges.release(a, 4);
    ranges.release(c, 4);
    expect(ranges.freeRunsForTesting()).toEqual([
      { start: 0, length: 4 },
      { start: 8, length: 4 },
    ]);
    ranges.release(b, 4);
    expect(ranges.freeRunsForTesting()).toEqual([{ start: 0, length: 12 }]);
    expect(ranges.allocate(12)).toBe(0);
  });

  test('a run not adjacent to another stays apart', () => {
    const ranges = new MirrorRanges(9);
    const [a, , c] = [ranges.allocate(3), ranges.allocate(3), ranges.allocate(3)];
    ranges.release(c, 3);
    ranges.release(a, 3);
    expect(ranges.freeRunsForTesting()).toEqual([
      { start: 0, length: 3 },
      { start: 6, length: 3 },
    ]);
  });
});
