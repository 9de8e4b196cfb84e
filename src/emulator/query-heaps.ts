/**
 * The query-heap lifecycle of a device (ID3D12Device::CreateQueryHeap and Release): TIMESTAMP
 * (direct and compute lists) and COPY_QUEUE_TIMESTAMP (copy lists) heaps on a WebGPU device with
 * 'timestamp-query'; other types are not emulated. Each heap is a WebGPU query set plus a committed
 * DEFAULT buffer in emulated memory where ResolveQueryData stages its results.
 *
 * Invariants: a released heap's query set and result memory stay until held queue work that may
 * resolve into them has been submitted and completed (see deferred-release.ts); destroyAll() frees
 * every query set the device still holds.
 */
import { DeviceChild } from '../d3d12/device-child.js';
import { D3D12Error } from '../api/errors.js';
import { TILE_SIZE } from '../memory/tiling.js';
import { createTimestampQuerySet, timestampsSupported } from '../gpu/queries.js';
import { QUERY_RESULT_BYTES, validateQueryHeapDesc, type QueryHeapDesc } from '../validation/query.js';
import type { DeferredRelease } from './deferred-release.js';
import type { GpuBackend } from './gpu-backend.js';
import { QueryHeap } from '../d3d12/query-heap.js';
import type { Resource } from '../d3d12/resource.js';

export interface QueryHeapOwner {
  backend(): GpuBackend | undefined;
  /** A DEFAULT buffer of `bytes` for a heap's results (it throws what createCommittedResource throws). */
  createResultBuffer(bytes: number): Resource;
  nextObjectId(): number;
}

export class QueryHeaps {
  /** Heaps not yet released, and released ones waiting for held queue work. */
  private readonly live = new Set<QueryHeap>();

  constructor(
    private readonly owner: QueryHeapOwner,
    private readonly releases: DeferredRelease,
  ) {}

  create(desc: QueryHeapDesc): QueryHeap {
    const call = 'createQueryHeap';
    const gpu = this.owner.backend();
    const problem = validateQueryHeapDesc(desc, timestampsSupported(gpu?.memory.device));
    if (problem) throw problem;
    // validateQueryHeapDesc refuses a device without timestamps, which a CPU-only device is.
    const memory = (gpu as GpuBackend).memory;
    const id = this.owner.nextObjectId();
    const full: Required<QueryHeapDesc> = { type: desc.type, count: desc.count, nodeMask: desc.nodeMask ?? 0 };
    const bytes = Math.ceil((desc.count * QUERY_RESULT_BYTES) / TILE_SIZE) * TILE_SIZE;
    let results: Resource;
    try {
      results = this.owner.createResultBuffer(bytes);
    } catch (error) {
      if (error instanceof D3D12Error)
        throw new D3D12Error(
          error.hresult,
          call,
          'desc.count',
          `${desc.count} queries need ${bytes} bytes of LOCAL memory for their results: ${error.rule}`,
        );
      throw error;
    }
    results.setName(`query heap #${id} results`);
    let querySet: GPUQuerySet;
    try {
      querySet = memory.guard(`createQueryHeap (a query set of ${desc.count})`, () =>
        createTimestampQuerySet(memory.device, desc.count, `d3d12 query heap #${id}`),
      );
    } catch (error) {
      results.release();
      throw new D3D12Error(
        'E_OUTOFMEMORY',
        call,
        'desc.count',
        `WebGPU could not create a query set of ${desc.count}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const heap = new QueryHeap(
      id,
      full,
      querySet,
      results,
      (released) => this.releases.release(released, () => this.free(released)),
      this,
    );
    this.live.add(heap);
    return heap;
  }

  /** The heap if this device created it. */
  own(value: unknown): QueryHeap | undefined {
    return value instanceof QueryHeap && DeviceChild.createdBy(value, this) ? value : undefined;
  }

  /** The device is destroyed: every query set goes now. */
  destroyAll(): void {
    for (const heap of this.live) heap.querySet.destroy();
    this.live.clear();
  }

  private free(heap: QueryHeap): void {
    this.live.delete(heap);
    heap.querySet.destroy();
    if (!heap.results.released) heap.results.release();
  }
}
