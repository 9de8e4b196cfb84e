/**
 * The virtual texture's physical page pool: which tiles of the texture are resident, on which page
 * of the heap, and which to page in or out next. No GPU here: the scene turns the plans into
 * updateTileMappings calls and generation dispatches.
 *
 * Invariants:
 * - every page holds at most one tile, every resident tile one page; pinned tiles never leave;
 * - a tile requested by the latest feedback is never evicted to make room for another;
 * - eviction takes the least recently requested resident tile (an LRU list, O(1) per touch);
 * - at most `maxNewPerFrame` tiles are paged in per update, coarse mips first, so a view fills in
 *   from blurry to sharp instead of leaving holes.
 */

export type TileState = 'mapped' | 'requested' | 'evicted';

export interface TileInfo {
  /** The texture's tile index (D3D12's tile order: mip 0 first, row-major within a mip). */
  tile: number;
  mip: number;
}

export interface CachePlan {
  /** Tiles to unmap, with the page they free. */
  unmap: { tile: number; page: number }[];
  /** Tiles to map, each onto its page (possibly one just freed). */
  map: { tile: number; page: number }[];
}

interface Entry {
  page: number;
  pinned: boolean;
  lastUse: number;
  prev: Entry | null;
  next: Entry | null;
  tile: number;
}

export class TileCache {
  private readonly resident = new Map<number, Entry>();
  private readonly free: number[] = [];
  /** LRU list of unpinned resident tiles: head is the least recently used. */
  private head: Entry | null = null;
  private tail: Entry | null = null;
  /** For the overlay: tiles requested and not yet resident, and tiles paged out. */
  readonly states = new Map<number, TileState>();
  evictions = 0;
  mapped = 0;

  constructor(readonly pages: number) {
    for (let page = pages - 1; page >= 0; page--) this.free.push(page);
  }

  get residentCount(): number {
    return this.resident.size;
  }

  get freePages(): number {
    return this.free.length;
  }

  pageOf(tile: number): number | undefined {
    return this.resident.get(tile)?.page;
  }

  /** Maps `tile` for good (the coarse mips and the packed tail). Returns its page. */
  pin(tile: number): number {
    const page = this.free.pop();
    if (page === undefined) throw new RangeError('TileCache.pin: no free page');
    this.resident.set(tile, { page, pinned: true, lastUse: Infinity, prev: null, next: null, tile });
    this.states.set(tile, 'mapped');
    return page;
  }

  /**
   * Takes one frame's feedback (the tiles it needs, finest first or in any order) and plans the
   * paging: touches what is resident, pages in up to `maxNewPerFrame` missing tiles.
   */
  update(requested: readonly TileInfo[], frame: number, maxNewPerFrame: number): CachePlan {
    const plan: CachePlan = { unmap: [], map: [] };
    const wanted = new Set<number>();
    const missing: TileInfo[] = [];
    for (const info of requested) {
      if (wanted.has(info.tile)) continue;
      wanted.add(info.tile);
      const entry = this.resident.get(info.tile);
      if (entry) {
        if (!entry.pinned) this.touch(entry, frame);
      } else {
        missing.push(info);
        this.states.set(info.tile, 'requested');
      }
    }
    missing.sort((a, b) => b.mip - a.mip || a.tile - b.tile);
    for (const info of missing.slice(0, maxNewPerFrame)) {
      let page = this.free.pop();
      if (page === undefined) {
        const victim = this.head;
        // Everything resident is wanted this frame: the view needs more pages than the pool has.
        if (!victim || victim.lastUse === frame) break;
        this.unlink(victim);
        this.resident.delete(victim.tile);
        this.states.set(victim.tile, 'evicted');
        plan.unmap.push({ tile: victim.tile, page: victim.page });
        this.evictions++;
        page = victim.page;
      }
      const entry: Entry = { page, pinned: false, lastUse: frame, prev: null, next: null, tile: info.tile };
      this.resident.set(info.tile, entry);
      this.append(entry);
      this.states.set(info.tile, 'mapped');
      plan.map.push({ tile: info.tile, page });
      this.mapped++;
    }
    return plan;
  }

  private touch(entry: Entry, frame: number): void {
    entry.lastUse = frame;
    this.unlink(entry);
    this.append(entry);
  }

  private append(entry: Entry): void {
    entry.prev = this.tail;
    entry.next = null;
    if (this.tail) this.tail.next = entry;
    else this.head = entry;
    this.tail = entry;
  }

  private unlink(entry: Entry): void {
    if (entry.prev) entry.prev.next = entry.next;
    else this.head = entry.next;
    if (entry.next) entry.next.prev = entry.prev;
    else this.tail = entry.prev;
    entry.prev = entry.next = null;
  }
}
