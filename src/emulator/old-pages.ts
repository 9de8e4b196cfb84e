/**
 * OldPages: evicted heaps' pages that still hold their bytes, kept from other heaps (the memory
 * backing's helper). Both kinds count as free in MemoryBacking.freePages, because an allocation can
 * have them; each kind costs something different when it does:
 *   - in transit (every immediate eviction, and a lazily evicted heap once taken): the page-out's copy
 *     to CPU memory is queued, and until the bytes arrive the pages are the only copy that a restore can
 *     read in queue order. They are freed when the bytes arrive; a restore before then takes them
 *     back (no copy); an allocation that needs them first copies them into a GPU buffer
 *     (Pager.stage) and frees them, oldest eviction first.
 *   - kept (createDevice's `eviction: 'lazy'`): nothing was copied. The heap is evicted for the GPU
 *     (its page-table entries say ABSENT, so any access faults) and for the budget, but the pages stay
 *     its own, so a makeResident takes them back with no copy and no pagesWritten (their bytes never
 *     changed, so the texture cache keeps their tags). Only an allocation short of free pages takes
 *     them: the fewest lazily evicted heaps of that segment, oldest eviction first
 *     (src/memory/kept-pages.ts), are paged out as an immediate eviction pages (one submission for all),
 *     and are in transit from then on.
 *
 * Invariants: a pool page is in exactly one of: the allocator's free runs, a resident heap's memory,
 * in transit, kept. Entries are keyed by the heap's Evicted (heap.evicted), so a heap has at most one;
 * the per-segment counts are the sums of the entries' pages. Nothing here writes a pool page: every
 * copy reads pages (out to CPU memory or a staging buffer) before the allocator hands them out again.
 */
import { KeptPages } from '../memory/kept-pages.js';
import type { RangeAllocator } from '../memory/range-allocator.js';
import { TILE_SIZE } from '../memory/tiling.js';
import type { GpuMemory } from '../gpu/gpu-memory.js';
import type { Evicted, Pager } from '../gpu/paging.js';
import type { Heap, HeapMemory } from '../d3d12/heap.js';
import type { MemorySegment } from '../api/types.js';

/** An evicted heap's old pages, with what they hold. */
interface OldEntry {
  heap: Heap;
  evicted: Evicted;
  memory: HeapMemory;
}

/** Contents of a lazily evicted heap: still in its pages (no bytes, never staged until taken). */
function keptContents(byteLength: number): Evicted {
  return { byteLength, arrived: Promise.resolve(), kept: true };
}

export class OldPages {
  /** Pages in transit, oldest eviction first, and their count per segment. */
  private readonly transit = new Map<Evicted, OldEntry>();
  private readonly transitPages: Record<MemorySegment, number> = { LOCAL: 0, NON_LOCAL: 0 };
  /** Lazily evicted heaps' pages, and the order they are taken in. */
  private readonly kept = new Map<Evicted, OldEntry>();
  private readonly keptOrder = new KeptPages<Evicted>();
  /** Lazily evicted heaps whose pages an allocation took (paged out for real): tests and benchmarks. */
  taken = 0;

  constructor(
    private readonly gpu: GpuMemory,
    private readonly allocators: Record<MemorySegment, RangeAllocator>,
    private readonly pager: Pager,
  ) {}

  /** Pages of `segment` an allocation could have besides the free ones. */
  pages(segment: MemorySegment): number {
    return this.transitPages[segment] + this.keptOrder.pages(segment);
  }

  /** Test hooks: pages in transit, and pages kept for lazily evicted heaps. */
  transitPagesOf(segment: MemorySegment): number {
    return this.transitPages[segment];
  }
  keptPagesOf(segment: MemorySegment): number {
    return this.keptOrder.pages(segment);
  }

  /** Immediate eviction: `heap`'s bytes are on their way to CPU memory (`evicted`); its old pages wait for them. */
  inTransit(heap: Heap, evicted: Evicted, memory: HeapMemory): void {
    heap.holdEvicted(evicted);
    const entry: OldEntry = { heap, evicted, memory };
    this.transit.set(evicted, entry);
    this.transitPages[memory.segment] += memory.pages.length;
    // Arrived in CPU memory (not failed, not cancelled): the old pages are free for anyone.
    void evicted.arrived.then(() => {
      if (evicted.bytes) this.dropTransit(entry);
    });
  }

  /** Lazy eviction: `heap` keeps its pages, untouched, until an allocation needs them. */
  keep(heap: Heap, memory: HeapMemory): void {
    const evicted = keptContents(memory.pages.length * TILE_SIZE);
    heap.holdEvicted(evicted);
    this.kept.set(evicted, { heap, evicted, memory });
    this.keptOrder.keep(evicted, memory.segment, memory.pages.length);
  }

  /**
   * Makes `count` pages of `segment` free in its allocator, if the old pages can: first lazily evicted
   * heaps are taken (as few as the shortfall beyond the pages in transit needs), then pages in transit
   * are staged and freed, oldest first. Takes nothing when even all of them would not be enough (the
   * allocation fails, changing nothing).
   */
  makeRoom(segment: MemorySegment, count: number): void {
    const allocator = this.allocators[segment];
    if (allocator.freeUnits >= count || allocator.freeUnits + this.pages(segment) < count) return;
    this.take(this.keptOrder.victims(segment, count - allocator.freeUnits - this.transitPages[segment]));
    for (const entry of [...this.transit.values()]) {
      if (allocator.freeUnits >= count) return;
      if (entry.memory.segment !== segment) continue;
      this.gpu.guard(
        () => `staging the evicted ${entry.heap.label} before its pages are reused`,
        () => this.pager.stage(entry.evicted, entry.memory),
      );
      this.dropTransit(entry);
    }
  }

  /** Pages lazily evicted heaps out for real (one submission): their pages are in transit from then on. */
  private take(victims: readonly Evicted[]): void {
    if (victims.length === 0) return;
    const entries = victims.map((evicted) => this.kept.get(evicted) as OldEntry);
    const out = this.gpu.guard(
      () =>
        `paging out the lazily evicted ${entries.length === 1 ? (entries[0] as OldEntry).heap.label : `${entries.length} heaps`}`,
      () => this.pager.evict(entries.map((entry) => entry.memory)),
    );
    entries.forEach((entry, i) => {
      this.dropKept(entry);
      this.pager.release(entry.evicted);
      this.inTransit(entry.heap, out[i] as Evicted, entry.memory);
      this.taken++;
    });
  }

  /**
   * A restore of `heap` into `segment`: its old pages, when they still hold its bytes in that segment
   * (no copy at all); otherwise undefined, after staging bytes that are only in old pages of the other
   * segment (the restore copies them from there) and freeing those pages.
   */
  takeBack(heap: Heap, segment: MemorySegment): HeapMemory | undefined {
    const evicted = heap.evicted;
    const entry = evicted && (this.kept.get(evicted) ?? this.transit.get(evicted));
    if (!entry) return undefined;
    if (entry.memory.segment !== segment) {
      this.pager.stage(entry.evicted, entry.memory);
      this.forget(entry, true);
      return undefined;
    }
    this.forget(entry, false);
    this.pager.release(entry.evicted);
    return entry.memory;
  }

  /** `heap`'s memory is freed for good: its old pages, if any, go back to the pool. */
  freed(heap: Heap): void {
    const evicted = heap.evicted;
    const entry = evicted && (this.kept.get(evicted) ?? this.transit.get(evicted));
    if (entry) this.forget(entry, true);
  }

  private forget(entry: OldEntry, toPool: boolean): void {
    if (this.kept.has(entry.evicted)) this.dropKept(entry, toPool);
    else this.dropTransit(entry, toPool);
  }

  private dropKept(entry: OldEntry, toPool = false): void {
    this.kept.delete(entry.evicted);
    this.keptOrder.release(entry.evicted);
    if (toPool) this.allocators[entry.memory.segment].releaseRuns(entry.memory.runs);
  }

  /** Old pages in transit are no longer held: free (`toPool`), or taken back by their heap. */
  private dropTransit(entry: OldEntry, toPool = true): void {
    if (this.transit.get(entry.evicted) !== entry) return;
    this.transit.delete(entry.evicted);
    this.transitPages[entry.memory.segment] -= entry.memory.pages.length;
    if (toPool) this.allocators[entry.memory.segment].releaseRuns(entry.memory.runs);
  }
}
