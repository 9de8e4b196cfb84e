/**
 * Validation of D3D12's queries as the emulator provides them: timestamp query heaps
 * (D3D12_QUERY_HEAP_TYPE_TIMESTAMP, and COPY_QUEUE_TIMESTAMP for copy lists), EndQuery and
 * ResolveQueryData. Timestamps need WebGPU's 'timestamp-query' feature; the other heap types
 * (occlusion, pipeline and stream-output statistics, video) are not emulated.
 */
import { D3D12Error, invalidArg } from '../api/errors.js';
import type { CommandListType } from '../api/types.js';
import { checkInteger, checkName, firstProblem, isObject, type Problem } from './common.js';
import type { ResourceView } from './tile-mappings.js';

export const QUERY_HEAP_TYPES = [
  'OCCLUSION',
  'TIMESTAMP',
  'PIPELINE_STATISTICS',
  'SO_STATISTICS',
  'VIDEO_DECODE_STATISTICS',
  'COPY_QUEUE_TIMESTAMP',
  'PIPELINE_STATISTICS1',
] as const;
export type QueryHeapType = (typeof QUERY_HEAP_TYPES)[number];
export const QUERY_TYPES = [
  'OCCLUSION',
  'BINARY_OCCLUSION',
  'TIMESTAMP',
  'PIPELINE_STATISTICS',
  'SO_STATISTICS_STREAM0',
  'SO_STATISTICS_STREAM1',
  'SO_STATISTICS_STREAM2',
  'SO_STATISTICS_STREAM3',
  'VIDEO_DECODE_STATISTICS',
  'PIPELINE_STATISTICS1',
] as const;
export type QueryType = (typeof QUERY_TYPES)[number];

/** The heap types the emulator provides: both are timestamps. */
const EMULATED_HEAP_TYPES: readonly QueryHeapType[] = ['TIMESTAMP', 'COPY_QUEUE_TIMESTAMP'];
/** WebGPU's limit on queries in one query set (GPUQuerySetDescriptor.count). */
export const MAX_QUERY_COUNT = 4096;
/** D3D12: ResolveQueryData's destination offset is a multiple of 8 (each result is a UINT64). */
export const QUERY_RESULT_BYTES = 8;

export interface QueryHeapDesc {
  type: QueryHeapType;
  count: number;
  nodeMask?: number;
}

/** What validation needs of a query heap. */
export interface QueryHeapView {
  readonly desc: Required<QueryHeapDesc>;
  readonly label: string;
  readonly released: boolean;
}

export function validateQueryHeapDesc(desc: unknown, timestampsSupported: boolean): Problem {
  const call = 'createQueryHeap';
  if (!isObject(desc)) return invalidArg(call, 'desc', 'must be a D3D12_QUERY_HEAP_DESC object');
  return firstProblem(
    () => checkName(call, 'desc.type', desc.type, QUERY_HEAP_TYPES),
    () => checkInteger(call, 'desc.count', desc.count, 1, MAX_QUERY_COUNT),
    () => (desc.nodeMask === undefined ? undefined : checkInteger(call, 'desc.nodeMask', desc.nodeMask, 0, 1)),
    () =>
      EMULATED_HEAP_TYPES.includes(desc.type as QueryHeapType)
        ? undefined
        : new D3D12Error(
            'DXGI_ERROR_UNSUPPORTED',
            call,
            'desc.type',
            `${String(desc.type)} query heaps are not emulated (only TIMESTAMP and COPY_QUEUE_TIMESTAMP)`,
          ),
    () =>
      timestampsSupported
        ? undefined
        : new D3D12Error(
            'DXGI_ERROR_UNSUPPORTED',
            call,
            'desc.type',
            "timestamp queries need a WebGPU device with the 'timestamp-query' feature, which this one lacks",
          ),
  );
}

function checkHeap(call: string, heap: QueryHeapView | undefined): Problem {
  if (!heap) return invalidArg(call, 'queryHeap', 'must be a query heap created by this device');
  if (heap.released) return invalidArg(call, 'queryHeap', `${heap.label} was released`);
  return undefined;
}

/** The query type a heap holds. */
function checkType(call: string, heap: QueryHeapView, type: unknown): Problem {
  const problem = checkName(call, 'type', type, QUERY_TYPES);
  if (problem) return problem;
  return type === 'TIMESTAMP'
    ? undefined
    : invalidArg(
        call,
        'type',
        `${String(type)} does not match ${heap.label}, a ${heap.desc.type} heap (it holds TIMESTAMP queries)`,
      );
}

/** EndQuery: the query type, and the command-list types a heap's timestamps may be taken on. */
function checkTypeAndList(call: string, heap: QueryHeapView, type: unknown, listType: CommandListType): Problem {
  const problem = checkType(call, heap, type);
  if (problem) return problem;
  if (listType === 'COPY' && heap.desc.type !== 'COPY_QUEUE_TIMESTAMP')
    return invalidArg(
      call,
      'queryHeap',
      `${heap.label} is a TIMESTAMP heap; copy command lists take COPY_QUEUE_TIMESTAMP heaps`,
    );
  if (listType !== 'COPY' && heap.desc.type === 'COPY_QUEUE_TIMESTAMP')
    return invalidArg(
      call,
      'queryHeap',
      `${heap.label} is a COPY_QUEUE_TIMESTAMP heap, for copy command lists only (this is a ${listType} list)`,
    );
  return undefined;
}

/** EndQuery(queryHeap, type, index). (BeginQuery does not apply to timestamps.) */
export function validateEndQuery(
  heap: QueryHeapView | undefined,
  type: unknown,
  index: unknown,
  listType: CommandListType,
): Problem {
  const call = 'endQuery';
  return firstProblem(
    () => checkHeap(call, heap),
    () => checkTypeAndList(call, heap as QueryHeapView, type, listType),
    () => checkInteger(call, 'index', index, 0, (heap as QueryHeapView).desc.count - 1),
  );
}

/**
 * ResolveQueryData(queryHeap, type, startIndex, numQueries, destinationBuffer,
 * alignedDestinationBufferOffset): startIndex + numQueries <= count. **Chosen**: a resolve is a copy,
 * so any list type may resolve either kind of timestamp heap (only EndQuery is tied to the queue).
 */
export function validateResolveQueryData(
  heap: QueryHeapView | undefined,
  type: unknown,
  startIndex: unknown,
  numQueries: unknown,
  destination: ResourceView | undefined,
  offset: unknown,
): Problem {
  const call = 'resolveQueryData';
  return firstProblem(
    () => checkHeap(call, heap),
    () => checkType(call, heap as QueryHeapView, type),
    () => checkInteger(call, 'startIndex', startIndex, 0, (heap as QueryHeapView).desc.count),
    () => checkInteger(call, 'numQueries', numQueries, 0, (heap as QueryHeapView).desc.count - (startIndex as number)),
    () => {
      if (!destination) return invalidArg(call, 'destinationBuffer', 'must be a resource created by this device');
      if (destination.released) return invalidArg(call, 'destinationBuffer', `${destination.label} was released`);
      return destination.desc.dimension === 'BUFFER'
        ? undefined
        : invalidArg(
            call,
            'destinationBuffer',
            `${destination.label} is a ${destination.desc.dimension}, not a buffer`,
          );
    },
    () => checkInteger(call, 'alignedDestinationBufferOffset', offset, 0),
    () =>
      (offset as number) % QUERY_RESULT_BYTES === 0
        ? undefined
        : invalidArg(
            call,
            'alignedDestinationBufferOffset',
            `${String(offset)} is not a multiple of ${QUERY_RESULT_BYTES}`,
          ),
    () => {
      const end = (offset as number) + (numQueries as number) * QUERY_RESULT_BYTES;
      const width = (destination as ResourceView).desc.width;
      return end <= width
        ? undefined
        : invalidArg(
            call,
            'numQueries',
            `${String(numQueries)} results of 8 bytes from offset ${String(offset)} run past the end of ${(destination as ResourceView).label} (${width} bytes)`,
          );
    },
  );
}
