/**
 * The virtual texture's page pool (demo/virtual-texture/tile-cache.ts): LRU eviction, pinned tiles,
 * requested tiles kept, coarse mips first, one tile per page, against a brute-force check of the
 * invariants over a seeded run.
 */
import { describe, expect, it } from 'vitest';
import { TileCache, type TileInfo } from '../../../../demo/virtual-texture/tile-cache.js';
import { Random } from '../../../../src/validate/random.js';

const tile = (id: number, mip = 0): TileInfo => ({ tile: id, mip });

describe('TileCache', () => {
  it('maps missing tiles onto free pages, coarse mips first, at most maxNewPerFrame', () => {
    const cache = new TileCache(8);
    const plan = cache.update([tile(1, 0), tile(2, 2), tile(3, 1)], 0, 2);
    expect(plan.map.map((m) => m.tile)).toEqual([2, 3]);
    expect(plan.unmap).toEqual([]);
    expect(cache.states.get(1)).toBe('requested');
    expect(cache.update([tile(1, 0)], 1, 2).map.map((m) => m.tile)).toEqual([1]);
    expect(cache.states.get(1)).toBe('mapped');
  });

  it('evicts the least recently requested tile and reuses its page', () => {
    const cache = new TileCache(3);
    cache.update([tile(1), tile(2), tile(3)], 0, 8);
    cache.update([tile(1), tile(3)], 1, 8); // 2 is now the LRU
    const page2 = cache.pageOf(2);
    const plan = cache.update([tile(4)], 2, 8);
    expect(plan.unmap).toEqual([{ tile: 2, page: page2 }]);
    expect(plan.map).toEqual([{ tile: 4, page: page2 }]);
    expect(cache.states.get(2)).toBe('evicted');
    expect(cache.evictions).toBe(1);
  });

  it('never evicts a pinned tile or a tile requested in the same frame', () => {
    const cache = new TileCache(3);
    cache.pin(100);
    cache.update([tile(1), tile(2)], 0, 8);
    const plan = cache.update([tile(1), tile(2), tile(3)], 1, 8);
    expect(plan.map).toEqual([]);
    expect(plan.unmap).toEqual([]);
    expect(cache.pageOf(100)).toBeDefined();
    expect(cache.states.get(3)).toBe('requested');
  });

  it('keeps one tile per page over 3,000 seeded frames', () => {
    const cache = new TileCache(40);
    for (let t = 0; t < 5; t++) cache.pin(10_000 + t);
    const random = new Random(99);
    const pageOwner = new Map<number, number>();
    for (let t = 0; t < 5; t++) pageOwner.set(cache.pageOf(10_000 + t) as number, 10_000 + t);
    for (let frame = 0; frame < 3000; frame++) {
      const centre = random.below(200);
      const requested = Array.from({ length: 1 + random.below(30) }, () =>
        tile(centre + random.below(40), random.below(4)),
      );
      const plan = cache.update(requested, frame, 6);
      for (const { tile: t, page } of plan.unmap) {
        expect(pageOwner.get(page)).toBe(t);
        pageOwner.delete(page);
      }
      for (const { tile: t, page } of plan.map) {
        expect(pageOwner.has(page), `page ${page} given twice`).toBe(false);
        pageOwner.set(page, t);
      }
      expect(cache.residentCount).toBe(pageOwner.size);
      expect(cache.residentCount + cache.freePages).toBe(40);
      for (const info of requested)
        if (plan.unmap.some((u) => u.tile === info.tile)) expect.fail(`requested tile ${info.tile} evicted`);
    }
    for (let t = 0; t < 5; t++) expect(cache.pageOf(10_000 + t)).toBeDefined();
    expect(cache.evictions).toBeGreaterThan(100);
  });
});
