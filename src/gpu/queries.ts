/**
 * Timestamp queries on WebGPU, for D3D12 query heaps: a query set per heap; EndQuery writes a
 * timestamp at the start of an empty compute pass (WebGPU writes timestamps only at pass
 * boundaries, so consecutive D3D12 commands around it land in separate passes, which WebGPU orders
 * anyway); ResolveQueryData resolves into a transient buffer and copies the results into the heap's
 * backing pages in the pool, from where a copy job moves them, through the page table, into the
 * destination buffer. WebGPU timestamps count nanoseconds: the queue's timestamp frequency is 1 GHz.
 */
import { forEachPhysicalSpan, type GpuMemory } from './gpu-memory.js';
import type { MemorySegment } from '../api/types.js';

/** WebGPU timestamps are in nanoseconds. */
export const TIMESTAMP_FREQUENCY = 1_000_000_000;
/** Bytes per resolved query (a UINT64, as in D3D12). */
const RESULT_BYTES = 8;

export function timestampsSupported(device: GPUDevice | undefined): boolean {
  return device?.features.has('timestamp-query') ?? false;
}

export function createTimestampQuerySet(device: GPUDevice, count: number, label: string): GPUQuerySet {
  return device.createQuerySet({ label, type: 'timestamp', count });
}

/** Writes query `index` of `querySet` now (between passes). */
export function encodeTimestamp(encoder: GPUCommandEncoder, querySet: GPUQuerySet, index: number): void {
  encoder
    .beginComputePass({
      label: 'd3d12 EndQuery(TIMESTAMP)',
      timestampWrites: { querySet, beginningOfPassWriteIndex: index },
    })
    .end();
}

/** Where a heap keeps its resolved results: pages of the pool (the backing resource's heap). */
export interface ResultPages {
  segment: MemorySegment;
  pages: Uint32Array;
  /** Byte offset of result 0 in those pages. */
  offset: number;
}

/**
 * Resolves queries [first, first + count) into the result pages (same positions), returning the
 * transient buffer to destroy after submission.
 */
export function encodeResolve(
  memory: GpuMemory,
  encoder: GPUCommandEncoder,
  querySet: GPUQuerySet,
  first: number,
  count: number,
  results: ResultPages,
): GPUBuffer {
  const bytes = count * RESULT_BYTES;
  const resolved = memory.createBuffer({
    label: 'd3d12 resolved queries',
    size: bytes,
    usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
  });
  encoder.resolveQuerySet(querySet, first, count, resolved, 0);
  forEachPhysicalSpan(
    results.pages,
    results.offset + first * RESULT_BYTES,
    bytes,
    (poolOffset, rangeOffset, length) => {
      encoder.copyBufferToBuffer(
        resolved,
        rangeOffset,
        memory.pool,
        memory.poolOffset(results.segment, poolOffset),
        length,
      );
    },
  );
  return resolved;
}
