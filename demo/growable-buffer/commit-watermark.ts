/**
 * UE5's CommitReservedResource policy for growable reserved buffers (FD3D12Buffer over a reserved
 * resource, ../shared/REFERENCE.md): the committed size is a watermark over the buffer's tiles.
 *
 * Invariants, after every commit():
 * - tiles [0, committedTiles) are mapped and nothing beyond: no holes;
 * - backing heaps are in tile order, each at most HEAP_TILES tiles; the mapped tiles of heap k are
 *   its tiles [0, used_k), and every heap but the last is full (used == tiles);
 * - only the last heap has slack (tiles - used), which the next growth maps first;
 * - the kept prefix never moves, so no data is ever copied.
 *
 * The algorithm knows nothing about the GPU: it drives a backend (create/release a heap, map/unmap
 * a run of tiles), which the scene implements with createHeap / updateTileMappings / release.
 */

/** 16 MiB backing heaps: UE's GRHIGlobals.ReservedResources.TileSizeInBytes × 256. */
export const HEAP_TILES = 256;

export interface WatermarkBackend<Heap> {
  createHeap(tiles: number): Heap;
  releaseHeap(heap: Heap): void;
  /** Maps buffer tiles [bufferTile, bufferTile + count) to heap tiles [heapTile, heapTile + count). */
  map(bufferTile: number, heap: Heap, heapTile: number, count: number): void;
  /** Unmaps buffer tiles [bufferTile, bufferTile + count). */
  unmap(bufferTile: number, count: number): void;
}

export interface BackingHeap<Heap> {
  heap: Heap;
  tiles: number;
  used: number;
}

export interface CommitStep {
  committedTiles: number;
  heaps: { tiles: number; used: number }[];
  /** What this commit did. */
  createdHeaps: number;
  releasedHeaps: number;
  /** Tiles mapped from the last heap's slack before any new heap was created. */
  slackReused: number;
}

export class CommitWatermark<Heap> {
  private readonly heaps: BackingHeap<Heap>[] = [];
  private committed = 0;

  constructor(
    private readonly backend: WatermarkBackend<Heap>,
    /** The reserved buffer's size in tiles: the most that can be committed. */
    readonly capacityTiles: number,
  ) {}

  get committedTiles(): number {
    return this.committed;
  }

  get heapCount(): number {
    return this.heaps.length;
  }

  /** Tiles of backing heaps, mapped or slack. */
  get heapTiles(): number {
    return this.heaps.reduce((sum, heap) => sum + heap.tiles, 0);
  }

  /** Moves the watermark to `tiles` (UE's CommitReservedResource(RequiredCommitSizeInBytes)). */
  commit(tiles: number): CommitStep {
    if (!Number.isInteger(tiles) || tiles < 0 || tiles > this.capacityTiles) {
      throw new RangeError(`commit: tiles must be an integer in [0, ${this.capacityTiles}], got ${tiles}`);
    }
    const step: CommitStep = { committedTiles: tiles, heaps: [], createdHeaps: 0, releasedHeaps: 0, slackReused: 0 };
    if (tiles > this.committed) this.grow(tiles, step);
    else if (tiles < this.committed) this.shrink(tiles, step);
    step.heaps = this.heaps.map(({ tiles: size, used }) => ({ tiles: size, used }));
    return step;
  }

  private grow(target: number, step: CommitStep): void {
    let need = target - this.committed;
    const last = this.heaps.at(-1);
    if (last && last.used < last.tiles) {
      const take = Math.min(last.tiles - last.used, need);
      this.backend.map(this.committed, last.heap, last.used, take);
      last.used += take;
      this.committed += take;
      need -= take;
      step.slackReused = take;
    }
    while (need > 0) {
      // New heaps are sized to what is needed, up to HEAP_TILES: no slack is created by growing.
      const size = Math.min(HEAP_TILES, need);
      const heap = this.backend.createHeap(size);
      this.heaps.push({ heap, tiles: size, used: size });
      this.backend.map(this.committed, heap, 0, size);
      this.committed += size;
      need -= size;
      step.createdHeaps++;
    }
  }

  private shrink(target: number, step: CommitStep): void {
    this.backend.unmap(target, this.committed - target);
    this.committed = target;
    let start = this.heaps.reduce((sum, heap) => sum + heap.used, 0);
    while (this.heaps.length > 0) {
      const last = this.heaps[this.heaps.length - 1] as BackingHeap<Heap>;
      start -= last.used;
      if (start >= target) {
        // No mapped tile left in this heap: release it (D3D12 frees it once the GPU is done).
        this.heaps.pop();
        this.backend.releaseHeap(last.heap);
        step.releasedHeaps++;
        continue;
      }
      last.used = target - start;
      break;
    }
  }
}
