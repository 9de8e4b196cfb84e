/**
 * CommandQueue (ID3D12CommandQueue): for now the queue operations on memory, updateTileMappings and
 * copyTileMappings. Each validates completely before it changes any mapping; a failing call leaves
 * every table as it was.
 */
import { applyTileMappings, copyTileMappings } from '../memory/tile-mappings.js';
import { validateCopyTileMappings, validateUpdateTileMappings } from '../validation/tile-mappings.js';
import { orThrow } from './errors.js';
import type { Heap } from './heap.js';
import type { Resource } from './resource.js';
import type { CommandQueueDesc, TileMappingFlag, TileRangeFlag, TiledResourceCoordinate, TileRegionSize } from './types.js';

/** What a queue needs of its device: to recognise the device's own heaps and resources. */
export interface QueueOwner {
  ownHeap(value: unknown): Heap | undefined;
  ownResource(value: unknown): Resource | undefined;
  heapById(id: number): Heap | undefined;
}

export class CommandQueue {
  /** @internal Created by Device.createCommandQueue. */
  constructor(
    private readonly owner: QueueOwner,
    private readonly desc: Required<CommandQueueDesc>,
  ) {}

  getDesc(): Required<CommandQueueDesc> {
    return structuredClone(this.desc);
  }

  /**
   * ID3D12CommandQueue::UpdateTileMappings. Null arrays take D3D12's defaults (see
   * src/validation/tile-mappings.ts); `heap` may be null when every range is NULL or SKIP.
   */
  updateTileMappings(
    resource: Resource,
    regionStartCoordinates: TiledResourceCoordinate[] | null,
    regionSizes: TileRegionSize[] | null,
    heap: Heap | null,
    rangeFlags: TileRangeFlag[] | null,
    heapRangeStartOffsets: number[] | null,
    rangeTileCounts: number[] | null,
    flags: TileMappingFlag | TileMappingFlag[] = 'NONE',
  ): void {
    const heapGiven = heap !== null && heap !== undefined;
    const heapView = heapGiven ? this.owner.ownHeap(heap) : undefined;
    const plan = orThrow(
      validateUpdateTileMappings(
        this.owner.ownResource(resource),
        regionStartCoordinates,
        regionSizes,
        heapView,
        heapGiven,
        rangeFlags,
        heapRangeStartOffsets,
        rangeTileCounts,
        flags,
      ),
    );
    applyTileMappings(plan.table, plan.regions, plan.ranges, heapView?.id ?? -1);
  }

  /** ID3D12CommandQueue::CopyTileMappings: as if the source mappings were copied through a temporary. */
  copyTileMappings(
    dstResource: Resource,
    dstRegionStartCoordinate: TiledResourceCoordinate,
    srcResource: Resource,
    srcRegionStartCoordinate: TiledResourceCoordinate,
    regionSize: TileRegionSize,
    flags: TileMappingFlag | TileMappingFlag[] = 'NONE',
  ): void {
    const plan = orThrow(
      validateCopyTileMappings(
        this.owner.ownResource(dstResource),
        dstRegionStartCoordinate,
        this.owner.ownResource(srcResource),
        srcRegionStartCoordinate,
        regionSize,
        flags,
        (id) => this.owner.heapById(id),
      ),
    );
    copyTileMappings(plan.dst, plan.dstRegion, plan.src, plan.srcRegion);
  }
}
