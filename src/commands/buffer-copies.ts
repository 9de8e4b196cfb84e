/**
 * copyBufferRegion, copyResource, copyTiles and resolveQueryData as a command list records them:
 * the checked call (validation/command-list.ts, validation/query.ts) turned into copy jobs between
 * GPU virtual addresses, with the states the list must track and the destination bytes written
 * (read back when they are CPU-accessible). copyTextureRegion's counterpart is texture-copies.ts.
 *
 * Invariant: the jobs are made only after validation passed.
 */
import { orThrow, type D3D12Error } from '../api/errors.js';
import { RESOURCE_STATE_BITS, type TiledResourceCoordinate, type TileRegionSize } from '../api/types.js';
import { chunkCopy, tileCopyJobs, type CopyJob } from '../gpu/copy-jobs.js';
import { TILE_SIZE } from '../memory/tiling.js';
import {
  sliceBytes,
  subresourcesOfTiles,
  validateCopyBufferRegion,
  validateCopyResource,
  validateCopyTiles,
  type TileCopyFlag,
} from '../validation/command-list.js';
import { QUERY_RESULT_BYTES, validateResolveQueryData, type QueryType } from '../validation/query.js';
import type { QueryHeap } from '../d3d12/query-heap.js';
import { ALL_SUBRESOURCES } from './resource-states.js';
import type { Resource } from '../d3d12/resource.js';

const { COPY_SOURCE, COPY_DEST } = RESOURCE_STATE_BITS;

type Own = (value: unknown) => Resource | undefined;

function throwIf(problem: D3D12Error | undefined): void {
  if (problem) throw problem;
}

export interface CopyCommand {
  jobs: CopyJob[];
  phases: number;
  /** [argument, resource, subresource(s), access], as the list's state tracker takes them. */
  uses: [string, Resource, number[] | number, number][];
  /** The destination bytes the jobs write, from the resource's start; null when none are read back. */
  written: { resource: Resource; offset: number; length: number } | null;
}

export function bufferRegionCopy(
  own: Own,
  dstBuffer: Resource,
  dstOffset: number,
  srcBuffer: Resource,
  srcOffset: number,
  numBytes: number,
): CopyCommand {
  throwIf(validateCopyBufferRegion(own(dstBuffer), dstOffset, own(srcBuffer), srcOffset, numBytes));
  const jobs = chunkCopy(
    dstBuffer.virtualRange.address + BigInt(dstOffset),
    srcBuffer.virtualRange.address + BigInt(srcOffset),
    numBytes,
  );
  // **Chosen**: a copy between two regions of one buffer needs that buffer in COPY_DEST (it is
  // written; COPY_DEST and COPY_SOURCE cannot be held together).
  const uses: CopyCommand['uses'] = [['dstBuffer', dstBuffer, 0, COPY_DEST]];
  if (dstBuffer !== srcBuffer) uses.push(['srcBuffer', srcBuffer, 0, COPY_SOURCE]);
  return { jobs, phases: 1, uses, written: { resource: dstBuffer, offset: dstOffset, length: numBytes } };
}

export function resourceCopy(own: Own, dstResource: Resource, srcResource: Resource): CopyCommand {
  throwIf(validateCopyResource(own(dstResource), own(srcResource)));
  const jobs: CopyJob[] = [];
  const bytes = dstResource.desc.dimension === 'BUFFER' ? dstResource.desc.width : sliceBytes(dstResource.layout);
  for (let slice = 0; slice < dstResource.layout.arraySize; slice++) {
    chunkCopy(
      dstResource.virtualRange.address + BigInt(slice * dstResource.layout.slicePitch),
      srcResource.virtualRange.address + BigInt(slice * srcResource.layout.slicePitch),
      bytes,
      jobs,
    );
  }
  return {
    jobs,
    phases: 1,
    uses: [
      ['dstResource', dstResource, ALL_SUBRESOURCES, COPY_DEST],
      ['srcResource', srcResource, ALL_SUBRESOURCES, COPY_SOURCE],
    ],
    written: { resource: dstResource, offset: 0, length: dstResource.layout.sizeInBytes },
  };
}

/** CopyTiles, between a reserved resource's tiles and a buffer laid out tile after tile. */
export function tileCopy(
  own: Own,
  tiledResource: Resource,
  tileRegionStartCoordinate: TiledResourceCoordinate,
  tileRegionSize: TileRegionSize,
  buffer: Resource,
  bufferStartOffsetInBytes: number,
  flags: TileCopyFlag | TileCopyFlag[],
): CopyCommand {
  const plan = orThrow(
    validateCopyTiles(
      own(tiledResource),
      tileRegionStartCoordinate,
      tileRegionSize,
      own(buffer),
      bufferStartOffsetInBytes,
      flags,
    ),
  );
  const jobs = tileCopyJobs(
    tiledResource.layout,
    tiledResource.virtualRange.address,
    plan.spans,
    plan.toTiles,
    buffer.virtualRange.address + BigInt(bufferStartOffsetInBytes),
  );
  const tiles = subresourcesOfTiles(tiledResource.layout, plan.spans);
  return {
    jobs,
    // Tile jobs into a buffer at an unaligned offset share a word at each tile boundary.
    phases: !plan.toTiles && bufferStartOffsetInBytes % 4 !== 0 ? 2 : 1,
    uses: [
      ['tiledResource', tiledResource, tiles, plan.toTiles ? COPY_DEST : COPY_SOURCE],
      ['buffer', buffer, 0, plan.toTiles ? COPY_SOURCE : COPY_DEST],
    ],
    written: plan.toTiles
      ? null
      : { resource: buffer, offset: bufferStartOffsetInBytes, length: jobs.length * TILE_SIZE },
  };
}

/**
 * ResolveQueryData's copy: the heap's results (resolved into its result resource first, at
 * execution) into the destination buffer. No jobs when no queries are resolved.
 */
export function queryResolveCopy(
  ownHeap: (value: unknown) => QueryHeap | undefined,
  own: Own,
  queryHeap: QueryHeap,
  type: QueryType,
  startIndex: number,
  numQueries: number,
  destinationBuffer: Resource,
  alignedDestinationBufferOffset: number,
): CopyCommand {
  const [heap, destination] = [ownHeap(queryHeap), own(destinationBuffer)];
  throwIf(validateResolveQueryData(heap, type, startIndex, numQueries, destination, alignedDestinationBufferOffset));
  const bytes = numQueries * QUERY_RESULT_BYTES;
  const jobs =
    numQueries === 0
      ? []
      : chunkCopy(
          destinationBuffer.virtualRange.address + BigInt(alignedDestinationBufferOffset),
          queryHeap.results.virtualRange.address + BigInt(startIndex * QUERY_RESULT_BYTES),
          bytes,
        );
  return {
    jobs,
    phases: 1,
    uses: [['destinationBuffer', destinationBuffer, 0, COPY_DEST]],
    written: { resource: destinationBuffer, offset: alignedDestinationBufferOffset, length: bytes },
  };
}
