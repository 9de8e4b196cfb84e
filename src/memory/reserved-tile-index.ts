/**
 * ReservedTileIndex: per heap, the tiles of reserved resources that map into it, so that a heap's
 * page event (page-out, page-in, free) rewrites the entries it touches and no others. GPU-free; keyed
 * by whatever stands for a reserved resource (K), whose tile table's heap ids `heapIdsOf` gives.
 *
 * Lists are kept loosely, so a mapping change costs O(1) here: add() appends the tiles a change
 * pointed into a heap (growing the last run when they touch it); tiles later remapped elsewhere stay
 * listed until the list is compacted, which keeps only the tiles whose table entry still names the
 * heap. forEachTile() compacts before it visits.
 *
 * Invariants: every tile whose table entry names heap H is listed under H for its resource (lists
 * are supersets); forEachTile(H) visits exactly the tiles that map into H now, as sorted disjoint
 * runs. A list is compacted once the tiles it lists (overlaps counted) exceed twice what its last
 * compaction kept plus COMPACT_SLACK, so appends cost amortized O(1) and a list stays within about
 * twice its resource's tile count.
 */

/** Tiles a list may list beyond twice its last compaction's: a nearly empty list is not compacted at every add. */
const COMPACT_SLACK = 256;

interface TileList {
  /** Pairs [first, end) of resource tiles, in the order added. */
  runs: number[];
  /** Tiles the runs list, overlaps counted. */
  listed: number;
  /** Compact once `listed` exceeds this. */
  compactAbove: number;
}

export class ReservedTileIndex<K> {
  private readonly byHeap = new Map<number, Map<K, TileList>>();
  /** Per resource, the heaps it has lists under (so that forgetting it touches only those). */
  private readonly heapsOf = new Map<K, Set<number>>();
  /** The list the last add() used: consecutive mapping calls usually target the same one. */
  private last: { heapId: number; key: K; list: TileList } | undefined;

  constructor(private readonly heapIdsOf: (key: K) => Int32Array) {}

  /** Tiles [first, first + count) of `key` now map into heap `heapId`. */
  add(heapId: number, key: K, first: number, count: number): void {
    if (count <= 0) return;
    // The last list's check inline: a streamer's 1-tile calls hit it every time.
    const last = this.last;
    const list =
      last !== undefined && last.heapId === heapId && last.key === key ? last.list : this.listFor(heapId, key);
    const runs = list.runs;
    const n = runs.length;
    const end = first + count;
    // The common case, neighbouring tiles mapped in turn, grows the last run.
    if (n > 0 && first <= (runs[n - 1] as number) && end >= (runs[n - 2] as number)) {
      const lastFirst = runs[n - 2] as number;
      const lastEnd = runs[n - 1] as number;
      const joinedFirst = Math.min(first, lastFirst);
      const joinedEnd = Math.max(end, lastEnd);
      list.listed += joinedEnd - joinedFirst - (lastEnd - lastFirst);
      runs[n - 2] = joinedFirst;
      runs[n - 1] = joinedEnd;
    } else {
      runs.push(first, end);
      list.listed += count;
    }
    if (list.listed > list.compactAbove) this.compact(list, heapId, this.heapIdsOf(key));
  }

  /** Visits each run of tiles that maps into `heapId` now, per resource (see the header). */
  forEachTile(heapId: number, visit: (key: K, first: number, count: number) => void): void {
    const lists = this.byHeap.get(heapId);
    if (!lists) return;
    for (const [key, list] of [...lists]) {
      this.compact(list, heapId, this.heapIdsOf(key));
      if (list.runs.length === 0) {
        this.dropList(heapId, key);
        continue;
      }
      for (let i = 0; i < list.runs.length; i += 2)
        visit(key, list.runs[i] as number, (list.runs[i + 1] as number) - (list.runs[i] as number));
    }
  }

  /** Forgets a resource (its memory and addresses are gone). */
  forget(key: K): void {
    for (const heapId of this.heapsOf.get(key) ?? []) {
      const lists = this.byHeap.get(heapId);
      lists?.delete(key);
      if (lists?.size === 0) this.byHeap.delete(heapId);
    }
    this.heapsOf.delete(key);
    if (this.last?.key === key) this.last = undefined;
  }

  /** Tiles listed under `heapId` for `key`, overlaps and stale tiles counted (for tests). */
  listedForTesting(heapId: number, key: K): number {
    return this.byHeap.get(heapId)?.get(key)?.listed ?? 0;
  }

  private listFor(heapId: number, key: K): TileList {
    const last = this.last;
    if (last && last.heapId === heapId && last.key === key) return last.list;
    let lists = this.byHeap.get(heapId);
    if (!lists) this.byHeap.set(heapId, (lists = new Map<K, TileList>()));
    let list = lists.get(key);
    if (!list) {
      lists.set(key, (list = { runs: [], listed: 0, compactAbove: COMPACT_SLACK }));
      let heaps = this.heapsOf.get(key);
      if (!heaps) this.heapsOf.set(key, (heaps = new Set()));
      heaps.add(heapId);
    }
    this.last = { heapId, key, list };
    return list;
  }

  private dropList(heapId: number, key: K): void {
    const lists = this.byHeap.get(heapId);
    lists?.delete(key);
    if (lists?.size === 0) this.byHeap.delete(heapId);
    const heaps = this.heapsOf.get(key);
    heaps?.delete(heapId);
    if (heaps?.size === 0) this.heapsOf.delete(key);
    if (this.last?.heapId === heapId && this.last.key === key) this.last = undefined;
  }

  /** Keeps exactly the listed tiles whose entry names `heapId`, as sorted disjoint runs. */
  private compact(list: TileList, heapId: number, heapIds: Int32Array): void {
    const runs = list.runs;
    const count = runs.length / 2;
    const order = Array.from({ length: count }, (_, i) => i);
    if (count > 1) order.sort((a, b) => (runs[a * 2] as number) - (runs[b * 2] as number));
    const kept: number[] = [];
    let listed = 0;
    // Walk the union of the runs once, in order: a tile listed twice is looked at once.
    let scanned = 0;
    for (const i of order) {
      const first = Math.max(runs[i * 2] as number, scanned);
      const end = runs[i * 2 + 1] as number;
      for (let tile = first; tile < end;) {
        if (heapIds[tile] !== heapId) {
          tile++;
          continue;
        }
        const start = tile;
        while (tile < end && heapIds[tile] === heapId) tile++;
        const lastKept = kept.length;
        // A run that continues the previous one (their listed runs touched) joins it.
        if (lastKept > 0 && kept[lastKept - 1] === start) kept[lastKept - 1] = tile;
        else kept.push(start, tile);
        listed += tile - start;
      }
      scanned = Math.max(scanned, end);
    }
    list.runs = kept;
    list.listed = listed;
    list.compactAbove = 2 * listed + COMPACT_SLACK;
  }
}
