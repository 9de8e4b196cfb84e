/**
 * MemoryBacking: ties the CPU model to GPU memory on a GPU-backed device. Heaps get physical pages
 * from their segment's pool (zeroed unless CREATE_NOT_ZEROED, with a CPU copy when CPU-accessible);
 * resources get page-table entries for their address range, rewritten whenever their mapping
 * changes. It makes no WebGPU call itself: GpuMemory does.
 *
 * Invariants: a resource's page-table entries always say what the CPU model says: UNOWNED outside
 * live resources, NULL for unmapped reserved tiles, RESIDENT (segment, page) for memory, ABSENT
 * (heap id) for tiles whose heap has no memory (released). Entries are computed per run of tiles
 * (a range of consecutive heap tiles, or a run into one heap), with one heap lookup per run, and go
 * to the page-table mirror, which sends them merged before the next submission. A heap's page event
 * rewrites only the reserved tiles that map into it (reserved-tile-index.ts). Pages are taken before
 * anything else changes, so running out leaves no partial state. An evicted heap's old pages are held
 * (not free, but counted by freePages: old-pages.ts) while they are the only copy of its bytes: until
 * those reach CPU memory, or a GPU copy is made before the pages are handed to another heap; with
 * `eviction: 'lazy'` an evicted heap keeps them, uncopied, until an allocation needs them. A resident heap's
 * pages are in the segment it lives in now (HeapMemory.segment: NON_LOCAL for a demoted heap); a
 * move between segments (demotion, promotion) is one queue operation, after which its entries are
 * rewritten like those of any page event.
 */
import { RangeAllocator, pagesOf } from '../memory/range-allocator.js';
import { neverWritten, Pager, type Evicted, type RestoredHeap } from '../gpu/paging.js';
import { OldPages } from './old-pages.js';
import { movePages } from '../gpu/page-moves.js';
import { NULL_HEAP, type MappedSegment, type TileMappingTable, type TileSpan } from '../memory/tile-mappings.js';
import { ReservedTileIndex } from '../memory/reserved-tile-index.js';
import { ShiftedCopies } from '../memory/shifted-copies.js';
import { TILE_SIZE } from '../memory/tiling.js';
import type { GpuMemory } from '../gpu/gpu-memory.js';
import { cpuAccessible } from '../validation/heap.js';
import { D3D12Error } from '../api/errors.js';
import type { Heap, HeapMemory } from '../d3d12/heap.js';
import type { Resource } from '../d3d12/resource.js';
import type { EvictionMode, MemorySegment } from '../api/types.js';

const MIB = 2 ** 20;
export const mib = (bytes: number): string => `${(bytes / MIB).toFixed(bytes % MIB === 0 ? 0 : 2)} MiB`;

/** What paging has copied so far on one device, and the old pages it holds now (test hook). */
export interface PagingCopies {
  /** Bytes copied out of the pool into CPU memory by page-outs (immediate evictions, lazy heaps taken). */
  copiedOutBytes: number;
  /** Bytes written back into the pool by restores (from CPU memory or a staged copy; zero-fills not counted). */
  copiedInBytes: number;
  /** Bytes copied into GPU staging buffers because old pages were reused before their bytes reached CPU memory. */
  stagedBytes: number;
  /** Lazily evicted heaps whose pages an allocation took (paged out for real). */
  lazyHeapsTaken: number;
  /** Pages kept for lazily evicted heaps, per segment. */
  keptPages: Record<MemorySegment, number>;
  /** Pages in transit (bytes on their way to CPU memory), per segment. */
  heldPages: Record<MemorySegment, number>;
}

export class MemoryBacking {
  /** The physical pages of each pool. */
  readonly allocators: Record<MemorySegment, RangeAllocator>;
  /** Per heap, the resources whose pages point into it: its placed resources, a committed resource's own. */
  private readonly users = new Map<Heap, Set<Resource>>();
  private readonly pager: Pager;
  /** Evicted heaps' old pages not yet free: in transit to CPU memory, or kept (lazy eviction). */
  private readonly old: OldPages;
  /** Per placement of a heap's memory, its pages' RESIDENT entries (entriesOf). */
  private readonly residentEntries = new WeakMap<HeapMemory, ShiftedCopies>();
  /** Per heap, the reserved resources' tiles that map into it (kept as mappings change). */
  private readonly reservedTiles = new ReservedTileIndex<Resource>(
    (resource) => (resource.tileMappings as TileMappingTable).heapIds,
  );

  constructor(
    readonly gpu: GpuMemory,
    private readonly heapById: (id: number) => Heap | undefined,
    /** Sends the CPU's pending writes into a heap to its pages (queue order), before they are copied out. */
    private readonly flushCpuWrites: (heap: Heap) => void = () => undefined,
    /** createDevice's `eviction`: copy an evicted heap out at once, or only when its pages are needed. */
    private readonly eviction: EvictionMode = 'immediate',
  ) {
    this.allocators = {
      LOCAL: new RangeAllocator(0, gpu.pageCounts.LOCAL),
      NON_LOCAL: new RangeAllocator(0, gpu.pageCounts.NON_LOCAL),
    };
    this.pager = new Pager(gpu);
    this.old = new OldPages(gpu, this.allocators, this.pager);
  }

  /** Takes pages of `segment` for a heap of `sizeInBytes`; throws E_OUTOFMEMORY (naming the numbers) when the pool is short. */
  allocate(call: string, argument: string, segment: MemorySegment, sizeInBytes: number): HeapMemory {
    const count = Math.max(1, Math.ceil(sizeInBytes / TILE_SIZE));
    const allocator = this.allocators[segment];
    if (allocator.freeUnits < count) this.old.makeRoom(segment, count);
    const runs = allocator.allocateRuns(count);
    if (!runs) {
      const free = allocator.freeUnits * TILE_SIZE;
      const total = allocator.unitCount * TILE_SIZE;
      throw new D3D12Error(
        'E_OUTOFMEMORY',
        call,
        argument,
        `needs ${mib(count * TILE_SIZE)} of ${segment} memory, and ${mib(free)} of the pool's ${mib(total)} are free`,
      );
    }
    return { segment, runs, pages: pagesOf(runs) };
  }

  /**
   * Gives a new heap its memory: the pages `allocate` took, cleared unless CREATE_NOT_ZEROED; a heap
   * created not resident gets none (its contents are "never written" until it is made resident).
   * CPU-accessible heaps also get their CPU copy.
   */
  attach(heap: Heap, taken: HeapMemory | undefined): void {
    if (cpuAccessible(heap.desc.properties)) heap.attachCpuCopy(new Uint8Array(heap.residentBytes));
    if (!taken) {
      heap.holdEvicted(neverWritten(heap.residentBytes));
      return;
    }
    if (!heap.desc.flags.includes('CREATE_NOT_ZEROED'))
      this.gpu.guardAllocations(
        () => `clearing ${heap.label}`,
        () => this.gpu.clearPages(taken.segment, taken.runs),
      );
    heap.holdPages(taken);
  }

  /**
   * Pages heaps out (see src/gpu/paging.ts): one submission for all of them; every page-table entry
   * into them becomes ABSENT. Their pages count as free at once; until their bytes reach CPU memory
   * they are handed out only when nothing else is free (allocate), after a GPU copy of them. Lazy
   * eviction copies nothing: the heaps keep their pages until an allocation takes them (old-pages.ts).
   */
  pageOut(heaps: readonly Heap[]): void {
    const out = heaps.filter((heap) => heap.memory);
    if (out.length === 0) return;
    const memories = out.map((heap) => heap.memory as HeapMemory);
    // CPU writes through map() not yet sent (no submission since) must be in the evicted copy (or,
    // lazily, in the kept pages: the heap has no memory to flush into afterwards). The staging
    // buffers are taken here: inside scopes of their own.
    const evicted = this.gpu.guardAllocations(
      () => `evicting ${out.length === 1 ? (out[0] as Heap).label : `${out.length} heaps`}`,
      () => {
        for (const heap of out) this.flushCpuWrites(heap);
        return this.eviction === 'lazy' ? undefined : this.pager.evict(memories);
      },
    );
    out.forEach((heap, i) => {
      const memory = memories[i] as HeapMemory;
      if (evicted) this.old.inTransit(heap, evicted[i] as Evicted, memory);
      else this.old.keep(heap, memory);
    });
    for (const heap of out) this.refresh(heap);
  }

  /**
   * Pages heaps back in, each into the segment `segmentOf` names (its own unless the heap lands
   * demoted; the pages must be free: see freePages); their entries become RESIDENT again. One submission.
   */
  pageIn(
    call: string,
    heaps: readonly Heap[],
    segmentOf: (heap: Heap) => MemorySegment = (heap) => heap.segment,
  ): void {
    const rising = heaps.filter((heap) => !heap.memory && heap.evicted);
    if (rising.length === 0) return;
    const restored: RestoredHeap[] = [];
    this.gpu.guardAllocations(
      () => `making ${rising.length === 1 ? (rising[0] as Heap).label : `${rising.length} heaps`} resident`,
      () => {
        // First the heaps whose old pages still hold their bytes: they take them back, no copy at all
        // (unless those pages are in the other segment: then the bytes are staged and the pages freed).
        const copied: Heap[] = [];
        for (const heap of rising) {
          const memory = this.old.takeBack(heap, segmentOf(heap));
          if (memory) heap.holdPages(memory);
          else copied.push(heap);
        }
        for (const heap of copied) {
          const evicted = heap.evicted as Evicted;
          const taken = this.allocate(call, 'objects', segmentOf(heap), heap.desc.sizeInBytes);
          restored.push({
            segment: taken.segment,
            pages: taken.pages,
            runs: taken.runs,
            evicted,
            zero: !heap.desc.flags.includes('CREATE_NOT_ZEROED'),
          });
          heap.holdPages(taken);
        }
        // Entries first, then the bytes: sent before the pool writes, a 1 MiB restore reached its fence
        // 18-23 us sooner on the H200 than with the entries sent at the fence (Node, 3 rounds of 300
        // in one process, a harness alternating blocks of each build).
        for (const heap of rising) this.refresh(heap);
        if (restored.length > 0) {
          this.gpu.flushPageTable();
          this.pager.restore(restored);
        }
      },
    );
  }

  /**
   * Moves resident heaps to new pages of the segment each move names (demotion, promotion: see
   * heap-placement.ts), as one queue operation (src/gpu/page-moves.ts): the old pages are free at
   * once, since every copy out of them is queued before any later use of them. Every page-table
   * entry into a moved heap is rewritten (its placed and committed resources, reserved tiles mapping
   * into it), so work submitted later finds the bytes at the same GPU virtual addresses. Throws
   * E_OUTOFMEMORY, moving nothing, when a segment cannot take what moves into it.
   */
  move(call: string, moves: readonly { heap: Heap; to: MemorySegment }[]): void {
    if (moves.length === 0) return;
    const old = moves.map(({ heap }) => heap.memory as HeapMemory);
    // The moved heaps' own pages count as free: all copies out of them come before any copy in.
    const needed: Record<MemorySegment, number> = { LOCAL: 0, NON_LOCAL: 0 };
    const freed: Record<MemorySegment, number> = { LOCAL: 0, NON_LOCAL: 0 };
    moves.forEach(({ to }, i) => {
      const memory = old[i] as HeapMemory;
      needed[to] += memory.pages.length;
      freed[memory.segment] += memory.pages.length;
    });
    for (const segment of ['LOCAL', 'NON_LOCAL'] as const) {
      const free = this.freePages(segment) + freed[segment];
      if (needed[segment] > free)
        throw new D3D12Error(
          'E_OUTOFMEMORY',
          call,
          'objects',
          `moving heaps into ${segment} memory needs ${mib(needed[segment] * TILE_SIZE)} and ${mib(free * TILE_SIZE)} are free`,
        );
    }
    for (const memory of old) this.allocators[memory.segment].releaseRuns(memory.runs);
    const taken = moves.map(({ heap, to }) => this.allocate(call, 'objects', to, heap.desc.sizeInBytes));
    this.gpu.guardAllocations(
      () =>
        `moving ${moves.length === 1 ? (moves[0] as { heap: Heap }).heap.label : `${moves.length} heaps`} between segments`,
      () => {
        for (const { heap } of moves) this.flushCpuWrites(heap);
        movePages(
          this.gpu,
          moves.map((_, i) => ({ from: old[i] as HeapMemory, to: taken[i] as HeapMemory })),
        );
      },
    );
    moves.forEach(({ heap }, i) => {
      heap.holdPages(taken[i] as HeapMemory);
      this.refresh(heap);
    });
  }

  /** Returns a heap's pages for good; tiles of reserved resources that map into it become ABSENT. */
  free(heap: Heap): void {
    const memory = heap.memory;
    const evicted = heap.evicted;
    if (evicted) {
      this.old.freed(heap);
      this.pager.release(evicted);
    }
    heap.dropMemory();
    if (!memory) return;
    this.allocators[memory.segment].releaseRuns(memory.runs);
    this.refresh(heap);
  }

  /**
   * Pages of a segment that allocate can hand out: free ones, evicted heaps' pages whose bytes are
   * still on their way, and lazily evicted heaps' pages (an allocation short of free pages takes them).
   */
  freePages(segment: MemorySegment): number {
    return this.allocators[segment].freeUnits + this.old.pages(segment);
  }

  /** Test hook: bytes copied on the GPU because an evicted heap's pages were reused before its bytes reached CPU memory. */
  get stagedBytesForTesting(): number {
    return this.pager.stagedBytes;
  }

  /** Test hook: pages of `segment` held for evicted heaps whose bytes are on their way. */
  heldPagesForTesting(segment: MemorySegment): number {
    return this.old.transitPagesOf(segment);
  }

  /** Test hook (getPagingCopiesForTesting): what paging copied, and what lazy eviction kept and took. */
  pagingCopiesForTesting(): PagingCopies {
    return {
      copiedOutBytes: this.pager.copiedOutBytes,
      copiedInBytes: this.pager.copiedInBytes,
      stagedBytes: this.pager.stagedBytes,
      lazyHeapsTaken: this.old.taken,
      keptPages: { LOCAL: this.old.keptPagesOf('LOCAL'), NON_LOCAL: this.old.keptPagesOf('NON_LOCAL') },
      heldPages: { LOCAL: this.old.transitPagesOf('LOCAL'), NON_LOCAL: this.old.transitPagesOf('NON_LOCAL') },
    };
  }

  destroy(): void {
    this.pager.destroy();
  }

  /**
   * Rewrites every page-table entry that points into `heap`: its users' ranges and the reserved
   * tiles the index lists under it.
   */
  private refresh(heap: Heap): void {
    // Released resources stay among the users (and in the index) until their memory is freed: work
    // that may still use them must see their pages move (see deferred-release.ts).
    for (const user of this.users.get(heap) ?? []) this.mapResource(user);
    if (heap.implicitFor) return; // reserved tiles map only into explicit heaps
    this.reservedTiles.forEachTile(heap.id, (resource, first, count) =>
      this.writeHeapRun(resource, heap, heap.id, first, count),
    );
  }

  /** Writes every page-table entry of a new resource (and of one whose heap's pages moved). */
  mapResource(resource: Resource): void {
    const range = resource.virtualRange;
    const encoding = this.gpu.pageTable.encoding;
    const entries = this.gpu.pageTable.entriesAt(range.firstPage, range.pageCount);
    if (resource.tileMappings) {
      entries.fill(encoding.null);
      return;
    }
    const heap = resource.heap as Heap;
    let users = this.users.get(heap);
    if (!users) this.users.set(heap, (users = new Set()));
    users.add(resource);
    const memory = heap.memory;
    // Encoded straight into the table: the heap's cached entries (entriesOf) serve tile mappings.
    const firstHeapPage = Math.floor(resource.heapOffset / TILE_SIZE);
    const resident = memory ? Math.max(0, Math.min(entries.length, memory.pages.length - firstHeapPage)) : 0;
    if (memory)
      encoding.residentRun(
        resident === entries.length ? entries : entries.subarray(0, resident),
        memory.segment,
        memory.pages,
        firstHeapPage,
      );
    // Pages the heap has no memory for (evicted or released): ABSENT, naming the heap.
    if (resident < entries.length) entries.fill(encoding.absent(heap.id), resident);
  }

  /** A released resource's pages become UNOWNED: any later access is a fault. */
  unmapResource(resource: Resource): void {
    if (resource.heap) {
      const users = this.users.get(resource.heap);
      users?.delete(resource);
      if (users?.size === 0) this.users.delete(resource.heap);
    }
    if (resource.tileMappings) this.reservedTiles.forget(resource);
    this.gpu.pageTable.fill(
      resource.virtualRange.firstPage,
      resource.virtualRange.pageCount,
      this.gpu.pageTable.encoding.unowned,
    );
  }

  /**
   * Rewrites the entries of a reserved resource's tiles in `spans` from its tile table (after
   * copyTileMappings): per run of tiles into one heap, one heap lookup.
   */
  writeTiles(resource: Resource, spans: readonly TileSpan[]): void {
    const table = resource.tileMappings;
    if (!table) return;
    const { heapIds } = table;
    for (const span of spans) {
      const end = span.first + span.count;
      for (let tile = span.first; tile < end;) {
        const heapId = heapIds[tile] as number;
        const first = tile;
        while (tile < end && heapIds[tile] === heapId) tile++;
        if (heapId === NULL_HEAP)
          this.gpu.pageTable.fill(
            resource.virtualRange.firstPage + first,
            tile - first,
            this.gpu.pageTable.encoding.null,
          );
        else {
          this.reservedTiles.add(heapId, resource, first, tile - first);
          this.writeHeapRun(resource, this.heapById(heapId), heapId, first, tile - first);
        }
      }
    }
  }

  /**
   * Rewrites the entries of the segments updateTileMappings just applied to `resource`'s table, all
   * into heap `heapId` (or NULL): entries computed per segment, one heap lookup per call.
   */
  writeSegments(resource: Resource, heapId: number, segments: readonly MappedSegment[]): void {
    if (segments.length === 0) return;
    const memory = heapId === NULL_HEAP ? undefined : this.heapById(heapId)?.memory;
    for (const { first, count, flag, heapTile } of segments)
      this.writeSegment(resource, heapId, memory, first, count, flag, heapTile);
  }

  /** writeSegments for one segment, `memory` being heap `heapId`'s (undefined: NULL, or no memory). */
  writeSegment(
    resource: Resource,
    heapId: number,
    memory: HeapMemory | undefined,
    first: number,
    count: number,
    flag: MappedSegment['flag'],
    heapTile: number,
  ): void {
    const pageTable = this.gpu.pageTable;
    const page = resource.virtualRange.firstPage + first;
    if (flag === 'NULL') {
      pageTable.fill(page, count, pageTable.encoding.null);
      return;
    }
    this.reservedTiles.add(heapId, resource, first, count);
    if (!memory) pageTable.fill(page, count, pageTable.encoding.absent(heapId));
    else if (flag === 'REUSE_SINGLE_TILE')
      pageTable.fill(page, count, pageTable.encoding.residentPage(memory.segment, memory.pages[heapTile] as number));
    else if (count === 1)
      pageTable.writeOne(page, pageTable.encoding.residentPage(memory.segment, memory.pages[heapTile] as number));
    else pageTable.copyFrom(page, this.entriesOf(memory), heapTile, count);
  }

  /**
   * The RESIDENT entry of each page of a heap's memory, made once per placement: a range of
   * consecutive heap tiles then copies its entries (one memcpy) instead of encoding them tile by
   * tile, which was most of a bulk updateTileMappings call (32,768 tiles).
   */
  private entriesOf(memory: HeapMemory): ShiftedCopies {
    let entries = this.residentEntries.get(memory);
    if (!entries) {
      const values = new Uint32Array(memory.pages.length);
      this.gpu.pageTable.encoding.residentRun(values, memory.segment, memory.pages, 0);
      entries = new ShiftedCopies(values);
      this.residentEntries.set(memory, entries);
    }
    return entries;
  }

  /**
   * Rewrites tiles [first, first + count) of `resource`, which all map into heap `heapId` (`heap`, if
   * it still exists). Changes nothing in the index: refresh calls it while visiting the index.
   */
  private writeHeapRun(resource: Resource, heap: Heap | undefined, heapId: number, first: number, count: number): void {
    const table = resource.tileMappings as TileMappingTable;
    const pageTable = this.gpu.pageTable;
    const memory = heap?.memory;
    const page = resource.virtualRange.firstPage + first;
    if (!memory) pageTable.fill(page, count, pageTable.encoding.absent(heapId));
    else
      pageTable.encoding.residentGather(
        pageTable.entriesAt(page, count),
        memory.segment,
        memory.pages,
        table.heapTiles,
        first,
      );
  }
}
