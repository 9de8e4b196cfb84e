/**
 * KeptPages: which lazily evicted heaps give their pages up when a segment runs short (the
 * `eviction: 'lazy'` device option). A lazy Evict only marks a heap, as Windows' video memory manager
 * does (the D3D12 Residency Starter Library's README: "when you call Evict, the heap is only marked
 * for eviction"; VidMM "will try really hard not to evict it if it doesn't need to"): its pages stay
 * its own until an allocation needs them. Then the fewest kept heaps of that segment are taken, oldest
 * eviction first: the heap evicted longest ago is the one least likely to be made resident next, and
 * taking as few as needed keeps every other MakeResident free.
 *
 * GPU-free: keys are opaque (the memory backing uses a heap's evicted contents), sizes are pages.
 *
 * Invariants: entries are in eviction order (Map insertion order; keeping a key again moves it to the
 * newest); `pages(segment)` is the sum of that segment's entries; a key has at most one entry.
 */
import type { MemorySegment } from '../api/types.js';

interface Kept {
  segment: MemorySegment;
  pages: number;
}

export class KeptPages<K> {
  private readonly entries = new Map<K, Kept>();
  private readonly counts: Record<MemorySegment, number> = { LOCAL: 0, NON_LOCAL: 0 };

  /** `key`'s `pages` pages of `segment` are kept for it from now on (the newest eviction). */
  keep(key: K, segment: MemorySegment, pages: number): void {
    this.release(key);
    this.entries.set(key, { segment, pages });
    this.counts[segment] += pages;
  }

  /** Forgets `key` (made resident again, taken, or freed); whether it had an entry. */
  release(key: K): boolean {
    const kept = this.entries.get(key);
    if (!kept) return false;
    this.entries.delete(key);
    this.counts[kept.segment] -= kept.pages;
    return true;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Pages of `segment` kept for lazily evicted heaps. */
  pages(segment: MemorySegment): number {
    return this.counts[segment];
  }

  /**
   * The keys of `segment` to take so that at least `shortfall` pages come free: oldest eviction first,
   * stopping as soon as enough are taken (all of them when even that is not enough; none for a
   * shortfall of 0 or less). Changes nothing: the caller releases what it takes.
   */
  victims(segment: MemorySegment, shortfall: number): K[] {
    const taken: K[] = [];
    let freed = 0;
    for (const [key, kept] of this.entries) {
      if (freed >= shortfall) break;
      if (kept.segment !== segment) continue;
      taken.push(key);
      freed += kept.pages;
    }
    return taken;
  }
}
