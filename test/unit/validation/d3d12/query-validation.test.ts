/**
 * Validation of timestamp query heaps, EndQuery and ResolveQueryData: a valid control, then one
 * invalid field at a time, each naming the call, the argument and the HRESULT.
 */
import { describe, expect, it } from 'vitest';
import type { ResourceView } from '../../../../src/validation/tile-mappings.js';
import {
  MAX_QUERY_COUNT,
  QUERY_HEAP_TYPES,
  validateEndQuery,
  validateQueryHeapDesc,
  validateResolveQueryData,
  type QueryHeapView,
} from '../../../../src/validation/query.js';

const heap = (
  type: 'TIMESTAMP' | 'COPY_QUEUE_TIMESTAMP' = 'TIMESTAMP',
  count = 4,
  released = false,
): QueryHeapView => ({ desc: { type, count, nodeMask: 0 }, label: 'query heap #1', released });
const buffer = (width = 64, dimension = 'BUFFER', released = false) =>
  ({ desc: { dimension, width }, label: 'resource #2', released }) as unknown as ResourceView;

function expectProblem(problem: unknown, hresult: string, argument: string): void {
  expect(problem, `expected ${hresult} on ${argument}`).toMatchObject({ hresult, argument });
}

describe('createQueryHeap validation', () => {
  it('accepts TIMESTAMP and COPY_QUEUE_TIMESTAMP heaps of 1 and of the maximum count', () => {
    for (const type of ['TIMESTAMP', 'COPY_QUEUE_TIMESTAMP']) {
      expect(validateQueryHeapDesc({ type, count: 1 }, true)).toBeUndefined();
      expect(validateQueryHeapDesc({ type, count: MAX_QUERY_COUNT, nodeMask: 0 }, true)).toBeUndefined();
    }
  });
  it.each([
    ['desc', null, 'E_INVALIDARG', 'desc'],
    ['type', { type: 'TIMESTAMPS', count: 1 }, 'E_INVALIDARG', 'desc.type'],
    ['count 0', { type: 'TIMESTAMP', count: 0 }, 'E_INVALIDARG', 'desc.count'],
    ['count over the maximum', { type: 'TIMESTAMP', count: MAX_QUERY_COUNT + 1 }, 'E_INVALIDARG', 'desc.count'],
    ['count not an integer', { type: 'TIMESTAMP', count: 1.5 }, 'E_INVALIDARG', 'desc.count'],
    ['nodeMask', { type: 'TIMESTAMP', count: 1, nodeMask: 2 }, 'E_INVALIDARG', 'desc.nodeMask'],
  ] as const)('rejects %s', (_, desc, hresult, argument) => {
    expectProblem(validateQueryHeapDesc(desc, true), hresult, argument);
  });
  it.each(QUERY_HEAP_TYPES.filter((t) => t !== 'TIMESTAMP' && t !== 'COPY_QUEUE_TIMESTAMP'))(
    'refuses %s heaps as not emulated (DXGI_ERROR_UNSUPPORTED)',
    (type) => {
      expectProblem(validateQueryHeapDesc({ type, count: 1 }, true), 'DXGI_ERROR_UNSUPPORTED', 'desc.type');
    },
  );
  it('refuses timestamps on a WebGPU device without timestamp-query', () => {
    expectProblem(validateQueryHeapDesc({ type: 'TIMESTAMP', count: 1 }, false), 'DXGI_ERROR_UNSUPPORTED', 'desc.type');
  });
});

describe('endQuery validation', () => {
  it('accepts the first and last index, on direct and compute lists (TIMESTAMP) and copy lists (COPY_QUEUE_TIMESTAMP)', () => {
    expect(validateEndQuery(heap(), 'TIMESTAMP', 0, 'DIRECT')).toBeUndefined();
    expect(validateEndQuery(heap(), 'TIMESTAMP', 3, 'COMPUTE')).toBeUndefined();
    expect(validateEndQuery(heap('COPY_QUEUE_TIMESTAMP'), 'TIMESTAMP', 3, 'COPY')).toBeUndefined();
  });
  it.each([
    ['a heap of another device', undefined, 'TIMESTAMP', 0, 'DIRECT', 'queryHeap'],
    ['a released heap', heap('TIMESTAMP', 4, true), 'TIMESTAMP', 0, 'DIRECT', 'queryHeap'],
    ['an unknown query type', heap(), 'TIME', 0, 'DIRECT', 'type'],
    ['a query type the heap does not hold', heap(), 'OCCLUSION', 0, 'DIRECT', 'type'],
    ['an index past the heap', heap(), 'TIMESTAMP', 4, 'DIRECT', 'index'],
    ['a negative index', heap(), 'TIMESTAMP', -1, 'DIRECT', 'index'],
    ['a TIMESTAMP heap on a copy list', heap(), 'TIMESTAMP', 0, 'COPY', 'queryHeap'],
    [
      'a COPY_QUEUE_TIMESTAMP heap on a direct list',
      heap('COPY_QUEUE_TIMESTAMP'),
      'TIMESTAMP',
      0,
      'DIRECT',
      'queryHeap',
    ],
  ] as const)('rejects %s', (_, h, type, index, listType, argument) => {
    expectProblem(validateEndQuery(h, type, index, listType), 'E_INVALIDARG', argument);
  });
});

describe('resolveQueryData validation', () => {
  it('accepts a resolve that ends exactly at the buffer end, and one of zero queries', () => {
    expect(validateResolveQueryData(heap(), 'TIMESTAMP', 0, 4, buffer(64), 32)).toBeUndefined();
    expect(validateResolveQueryData(heap(), 'TIMESTAMP', 3, 0, buffer(64), 64)).toBeUndefined();
    // startIndex + numQueries <= count: an empty resolve may start at count.
    expect(validateResolveQueryData(heap(), 'TIMESTAMP', 4, 0, buffer(64), 0)).toBeUndefined();
    // A resolve is a copy: a copy-queue heap resolves on any list.
    expect(validateResolveQueryData(heap('COPY_QUEUE_TIMESTAMP'), 'TIMESTAMP', 0, 1, buffer(64), 0)).toBeUndefined();
  });
  it.each([
    ['a heap of another device', undefined, 'TIMESTAMP', 0, 1, buffer(), 0, 'queryHeap'],
    ['a query type the heap does not hold', heap(), 'PIPELINE_STATISTICS', 0, 1, buffer(), 0, 'type'],
    ['a start index past the heap', heap(), 'TIMESTAMP', 5, 0, buffer(), 0, 'startIndex'],
    ['one query from the end of the heap', heap(), 'TIMESTAMP', 4, 1, buffer(), 0, 'numQueries'],
    ['queries past the heap', heap(), 'TIMESTAMP', 2, 3, buffer(), 0, 'numQueries'],
    ['a negative count', heap(), 'TIMESTAMP', 0, -1, buffer(), 0, 'numQueries'],
    ['a resource of another device', heap(), 'TIMESTAMP', 0, 1, undefined, 0, 'destinationBuffer'],
    ['a released destination', heap(), 'TIMESTAMP', 0, 1, buffer(64, 'BUFFER', true), 0, 'destinationBuffer'],
    ['a texture destination', heap(), 'TIMESTAMP', 0, 1, buffer(64, 'TEXTURE2D'), 0, 'destinationBuffer'],
    ['an offset not a multiple of 8', heap(), 'TIMESTAMP', 0, 1, buffer(), 4, 'alignedDestinationBufferOffset'],
    ['a negative offset', heap(), 'TIMESTAMP', 0, 1, buffer(), -8, 'alignedDestinationBufferOffset'],
    ['results past the buffer end', heap(), 'TIMESTAMP', 0, 4, buffer(64), 40, 'numQueries'],
  ] as const)('rejects %s', (_, h, type, start, count, destination, offset, argument) => {
    expectProblem(validateResolveQueryData(h, type, start, count, destination, offset), 'E_INVALIDARG', argument);
  });
  it('names the call in every message', () => {
    expect(validateResolveQueryData(heap(), 'TIMESTAMP', 0, 1, buffer(), 4)?.message).toMatch(
      /^resolveQueryData: alignedDestinationBufferOffset: 4 is not a multiple of 8 \(E_INVALIDARG\)$/,
    );
  });
});
