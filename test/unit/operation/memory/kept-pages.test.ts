/**
 * KeptPages (src/memory/kept-pages.ts): which lazily evicted heaps give their pages up under
 * pressure: those of the short segment only, oldest eviction first, as few as cover the shortfall.
 */
import { describe, expect, test } from 'vitest';
import { KeptPages } from '../../../../src/memory/kept-pages.js';

function kept(...entries: [string, 'LOCAL' | 'NON_LOCAL', number][]): KeptPages<string> {
  const pages = new KeptPages<string>();
  for (const [key, segment, count] of entries) pages.keep(key, segment, count);
  return pages;
}

describe('KeptPages', () => {
  test('counts pages per segment as heaps are kept and released', () => {
    const pages = kept(['a', 'LOCAL', 4], ['b', 'NON_LOCAL', 2], ['c', 'LOCAL', 1]);
    expect([pages.pages('LOCAL'), pages.pages('NON_LOCAL')]).toEqual([5, 2]);
    expect(pages.release('a')).toBe(true);
    expect(pages.release('a')).toBe(false);
    expect([pages.pages('LOCAL'), pages.pages('NON_LOCAL')]).toEqual([1, 2]);
    expect(pages.has('b')).toBe(true);
    expect(pages.has('a')).toBe(false);
  });

  test('victims: oldest eviction first, only of the segment asked, stopping once the shortfall is covered', () => {
    const pages = kept(['a', 'LOCAL', 4], ['n', 'NON_LOCAL', 8], ['b', 'LOCAL', 2], ['c', 'LOCAL', 3]);
    expect(pages.victims('LOCAL', 1)).toEqual(['a']);
    expect(pages.victims('LOCAL', 4)).toEqual(['a']);
    expect(pages.victims('LOCAL', 5)).toEqual(['a', 'b']);
    expect(pages.victims('LOCAL', 7)).toEqual(['a', 'b', 'c']);
    expect(pages.victims('NON_LOCAL', 3)).toEqual(['n']);
  });

  test('victims: none for no shortfall, all of the segment when even they are not enough; nothing changes', () => {
    const pages = kept(['a', 'LOCAL', 4], ['b', 'LOCAL', 2]);
    expect(pages.victims('LOCAL', 0)).toEqual([]);
    expect(pages.victims('LOCAL', -3)).toEqual([]);
    expect(pages.victims('LOCAL', 100)).toEqual(['a', 'b']);
    expect(pages.victims('NON_LOCAL', 1)).toEqual([]);
    expect(pages.pages('LOCAL')).toBe(6);
  });

  test('keeping a heap again makes it the newest eviction', () => {
    const pages = kept(['a', 'LOCAL', 4], ['b', 'LOCAL', 4]);
    pages.keep('a', 'LOCAL', 4);
    expect(pages.victims('LOCAL', 1)).toEqual(['b']);
    expect(pages.pages('LOCAL')).toBe(8);
  });
});
