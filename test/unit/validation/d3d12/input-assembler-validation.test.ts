/**
 * The input assembler's list calls (src/validation/input-assembler.ts): iaSetPrimitiveTopology,
 * iaSetVertexBuffers, iaSetIndexBuffer and drawIndexedInstanced's arguments, recorded on CPU-only
 * devices (a draw itself needs a graphics pipeline, which a CPU-only device cannot make: an accepted
 * drawIndexedInstanced gets as far as asking for one). CTS style: one invalid argument at a time next
 * to a valid control; tables over every topology and both sides of every boundary. A refused call
 * leaves the list's input assembler state and its recorded commands as they were.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { createDevice, type Device, type GraphicsCommandList } from '../../../../src/index.js';
import { PRIMITIVE_TOPOLOGY_NAMES } from '../../../../src/api/binding-types.js';
import { expectD3D12Error, type ExpectedD3D12Error } from '../../../shared/expect-d3d12-error.js';
import { field } from '../../../shared/fuzz/snapshot.js';

const loose = (value: unknown): never => value as never;

let device: Device;
beforeAll(async () => {
  device = await createDevice({ gpuDevice: null });
});

const direct = (): GraphicsCommandList => device.createCommandList('DIRECT');
const draws = (list: GraphicsCommandList): Record<string, unknown> => field(list, 'draws');

/** The input assembler state and the commands recorded: what a refused call must leave as it was. */
function state(list: GraphicsCommandList) {
  const ia = draws(list);
  return {
    topology: ia.topology,
    vertexBuffers: structuredClone(ia.vertexBuffers),
    indexBuffer: structuredClone(ia.indexBuffer),
    commands: field<unknown[]>(list, 'commands').length,
  };
}

function refused(list: GraphicsCommandList, fn: () => unknown, expected: ExpectedD3D12Error): void {
  const before = state(list);
  expectD3D12Error(fn, expected);
  expect(state(list)).toEqual(before);
}

const VIEW = { bufferLocation: 0x10000n, sizeInBytes: 1024, strideInBytes: 16 };
const INDEX = { bufferLocation: 0x10000n, sizeInBytes: 1024, format: 'R16_UINT' } as const;

/** A list with a topology, two vertex buffers and an index buffer set: refusals must keep them. */
function prepared(): GraphicsCommandList {
  const list = direct();
  list.iaSetPrimitiveTopology('LINESTRIP');
  list.iaSetVertexBuffers(0, [VIEW, { ...VIEW, bufferLocation: 0x20000n }]);
  list.iaSetIndexBuffer(INDEX);
  return list;
}

describe('the lists that take input assembler calls', () => {
  const CALLS: [string, (list: GraphicsCommandList) => void][] = [
    ['iaSetPrimitiveTopology', (list) => list.iaSetPrimitiveTopology('TRIANGLELIST')],
    ['iaSetVertexBuffers', (list) => list.iaSetVertexBuffers(0, [VIEW])],
    ['iaSetIndexBuffer', (list) => list.iaSetIndexBuffer(INDEX)],
    ['drawIndexedInstanced', (list) => list.drawIndexedInstanced(3, 1, 0, 0, 0)],
  ];

  test.each(CALLS.flatMap(([name, call]) => (['COMPUTE', 'COPY'] as const).map((type) => [name, type, call] as const)))(
    '%s on a %s list is rejected: only DIRECT lists draw',
    (name, type, call) => {
      const list = device.createCommandList(type);
      refused(list, () => call(list), {
        call: name,
        argument: 'this',
        message: new RegExp(`is a ${type} list; only DIRECT lists draw`),
      });
    },
  );

  test.each(CALLS)('%s on a closed list is rejected', (name, call) => {
    const list = prepared();
    list.close();
    refused(list, () => call(list), {
      call: `GraphicsCommandList.${name}`,
      argument: 'this',
      message: /is closed; reset\(\) it before recording/,
    });
  });
});

describe('iaSetPrimitiveTopology', () => {
  test.each(PRIMITIVE_TOPOLOGY_NAMES)('%s is accepted', (topology) => {
    const list = direct();
    list.iaSetPrimitiveTopology(topology);
    expect(draws(list).topology).toBe(topology);
    expect(field<unknown[]>(list, 'commands')).toHaveLength(1);
  });

  test.each([
    'TRIANGLEFAN',
    'LINELIST_ADJ',
    'TRIANGLESTRIP_ADJ',
    'CONTROL_POINT_PATCHLIST_3',
    'triangle-list',
    4,
    null,
    undefined,
  ])('%j is rejected', (topology) => {
    const list = prepared();
    refused(list, () => list.iaSetPrimitiveTopology(loose(topology)), {
      call: 'iaSetPrimitiveTopology',
      argument: 'primitiveTopology',
      message: /must be one of UNDEFINED, POINTLIST, LINELIST, LINESTRIP, TRIANGLELIST, TRIANGLESTRIP/,
    });
  });

  test('reset forgets the topology set', () => {
    const list = prepared();
    list.close();
    list.reset();
    expect(draws(list).topology).toBeUndefined();
  });
});

describe('iaSetVertexBuffers', () => {
  const call = 'iaSetVertexBuffers';

  test.each([
    [0, 1],
    [0, 32],
    [31, 1],
    [16, 16],
    [5, 0],
    [31, 0],
  ])('startSlot %i with %i views is accepted', (startSlot, n) => {
    const list = direct();
    const views = Array.from({ length: n }, (_, i) => ({ ...VIEW, bufferLocation: BigInt(0x10000 * (i + 1)) }));
    list.iaSetVertexBuffers(startSlot, views);
    const set = draws(list).vertexBuffers as unknown[];
    views.forEach((view, i) => expect(set[startSlot + i]).toEqual(view));
  });

  test("the views are copied: changing the caller's array later changes nothing", () => {
    const list = direct();
    const view = { ...VIEW };
    list.iaSetVertexBuffers(2, [view]);
    view.sizeInBytes = 4;
    expect((draws(list).vertexBuffers as unknown[])[2]).toEqual(VIEW);
  });

  test('null views unbind their slots; the other slots keep their views', () => {
    const list = prepared();
    list.iaSetVertexBuffers(1, [null]);
    const set = draws(list).vertexBuffers as unknown[];
    expect(set[0]).toEqual(VIEW);
    expect(set[1]).toBeUndefined();
  });

  test.each([
    [32, /at most 31/],
    [-1, /at least 0/],
    [1.5, /integer/],
    ['0', /integer/],
    [undefined, /integer/],
  ] as const)('startSlot %j is rejected', (startSlot, message) => {
    const list = prepared();
    refused(list, () => list.iaSetVertexBuffers(loose(startSlot), [VIEW]), { call, argument: 'startSlot', message });
  });

  test.each([null, undefined, VIEW, 'views', 3])('views %s (not an array) are rejected', (views) => {
    const list = prepared();
    refused(list, () => list.iaSetVertexBuffers(0, loose(views)), {
      call,
      argument: 'views',
      message: /must be an array of D3D12_VERTEX_BUFFER_VIEW \(or nulls\)/,
    });
  });

  test.each([
    [0, 33],
    [1, 32],
    [31, 2],
    [16, 17],
  ])('startSlot %i with %i views runs past the 32 slots', (startSlot, n) => {
    const list = prepared();
    refused(
      list,
      () =>
        list.iaSetVertexBuffers(
          startSlot,
          Array.from({ length: n }, () => VIEW),
        ),
      {
        call,
        argument: 'views',
        message: new RegExp(`${n} views from slot ${startSlot} run past the 32 slots`),
      },
    );
  });

  test.each([undefined, 5, 'view', [VIEW]])('a view %s (not an object or null) is rejected', (view) => {
    const list = prepared();
    refused(list, () => list.iaSetVertexBuffers(0, [VIEW, loose(view)]), {
      call,
      argument: 'views[1]',
      message: /must be a D3D12_VERTEX_BUFFER_VIEW or null/,
    });
  });

  test.each([
    ['bufferLocation', 0n, true],
    ['bufferLocation', 2n ** 64n - 1n, true],
    ['sizeInBytes', 0, true],
    ['sizeInBytes', 0xffffffff, true],
    ['strideInBytes', 0, true],
    ['strideInBytes', 2048, true],
    ['bufferLocation', -1n, false],
    ['bufferLocation', 2n ** 64n, false],
    ['bufferLocation', 0x10000, false],
    ['bufferLocation', undefined, false],
    ['sizeInBytes', -1, false],
    ['sizeInBytes', 2 ** 32, false],
    ['sizeInBytes', 1.5, false],
    ['sizeInBytes', undefined, false],
    ['strideInBytes', 2049, false],
    ['strideInBytes', -4, false],
    ['strideInBytes', '16', false],
  ] as const)('views[1].%s %s (accepted: %s)', (name, value, ok) => {
    const list = prepared();
    const views = [VIEW, { ...VIEW, [name]: value }];
    if (ok) {
      list.iaSetVertexBuffers(0, loose(views));
      expect((draws(list).vertexBuffers as Record<string, unknown>[])[1]?.[name]).toBe(value);
    } else
      refused(list, () => list.iaSetVertexBuffers(0, loose(views)), {
        call,
        argument: `views[1].${name}`,
        message:
          name === 'bufferLocation'
            ? /must be a GPU virtual address, a bigint from 0 to 2\^64 - 1/
            : /must be (an integer|at least|at most)/,
      });
  });

  test('a refused call sets none of its views, not even those before the bad one', () => {
    const list = prepared();
    refused(
      list,
      () =>
        list.iaSetVertexBuffers(0, [
          { ...VIEW, bufferLocation: 0x90000n },
          { ...VIEW, strideInBytes: 4096 },
        ]),
      {
        argument: 'views[1].strideInBytes',
        message: /at most 2048/,
      },
    );
    expect((draws(list).vertexBuffers as unknown[])[0]).toEqual(VIEW);
  });
});

describe('iaSetIndexBuffer', () => {
  const call = 'iaSetIndexBuffer';

  test.each([
    ['R16_UINT', 0x10002n],
    ['R32_UINT', 0x10004n],
    ['R16_UINT', 0n],
    ['R32_UINT', 2n ** 64n - 4n],
  ] as const)('%s at %s is accepted', (format, bufferLocation) => {
    const list = direct();
    list.iaSetIndexBuffer({ bufferLocation, sizeInBytes: 6, format });
    expect(draws(list).indexBuffer).toEqual({ bufferLocation, sizeInBytes: 6, format });
  });

  test.each([null, undefined])('%s: no index buffer', (view) => {
    const list = prepared();
    list.iaSetIndexBuffer(loose(view));
    expect(draws(list).indexBuffer).toBeUndefined();
  });

  test.each([0, 0xffffffff])('sizeInBytes %i is accepted', (sizeInBytes) => {
    const list = direct();
    list.iaSetIndexBuffer({ ...INDEX, sizeInBytes });
    expect(draws(list).indexBuffer).toMatchObject({ sizeInBytes });
  });

  test.each([5, 'R16_UINT', [INDEX], true])('view %s (not an object or null) is rejected', (view) => {
    const list = prepared();
    refused(list, () => list.iaSetIndexBuffer(loose(view)), {
      call,
      argument: 'view',
      message: /must be a D3D12_INDEX_BUFFER_VIEW or null/,
    });
  });

  test.each([
    ['bufferLocation', -2n, /must be a GPU virtual address/],
    ['bufferLocation', 2n ** 64n, /must be a GPU virtual address/],
    ['bufferLocation', 65536, /must be a GPU virtual address/],
    ['sizeInBytes', -1, /at least 0/],
    ['sizeInBytes', 2 ** 32, /at most 4294967295/],
    ['sizeInBytes', 2.5, /integer/],
    ['format', 'R8_UINT', /must be one of R16_UINT, R32_UINT/],
    ['format', 'R32_SINT', /must be one of R16_UINT, R32_UINT/],
    ['format', 'UNKNOWN', /must be one of R16_UINT, R32_UINT/],
    ['format', undefined, /must be one of R16_UINT, R32_UINT/],
  ] as const)('%s %s is rejected', (name, value, message) => {
    const list = prepared();
    refused(list, () => list.iaSetIndexBuffer(loose({ ...INDEX, [name]: value })), {
      call,
      argument: `view.${name}`,
      message,
    });
  });

  test.each([
    ['R16_UINT', 0x10001n, 2],
    ['R32_UINT', 0x10002n, 4],
    ['R32_UINT', 0x10001n, 4],
    ['R32_UINT', 0x10006n, 4],
  ] as const)('%s at 0x%s (not a multiple of %i) is rejected', (format, bufferLocation, bytes) => {
    const list = prepared();
    refused(list, () => list.iaSetIndexBuffer({ bufferLocation, sizeInBytes: 8, format }), {
      call,
      argument: 'view.bufferLocation',
      message: new RegExp(
        `must be a multiple of ${bytes} \\(the size of an ${format} index\\), got 0x${bufferLocation.toString(16)}`,
      ),
    });
  });
});

describe('drawIndexedInstanced: the arguments', () => {
  const call = 'drawIndexedInstanced';
  const ARGS = [
    'indexCountPerInstance',
    'instanceCount',
    'startIndexLocation',
    'baseVertexLocation',
    'startInstanceLocation',
  ];
  const draw = (list: GraphicsCommandList, args: unknown[]) =>
    list.drawIndexedInstanced(loose(args[0]), loose(args[1]), loose(args[2]), loose(args[3]), loose(args[4]));
  /** An accepted draw asks for the graphics pipeline a CPU-only device cannot make. */
  const passes = (list: GraphicsCommandList, args: unknown[]) =>
    refused(list, () => draw(list, args), { call, argument: 'this', message: /no graphics pipeline state is set/ });

  test.each([
    [[3, 1, 0, 0, 0]],
    [[0, 0, 0, 0, 0]],
    [[0xffffffff, 0xffffffff, 0xffffffff, 2 ** 31 - 1, 0xffffffff]],
    [[6, 2, 12, -(2 ** 31), 1]],
    [[6, 2, 12, -1, 1]],
  ])('control: %j passes the argument checks', (args) => {
    passes(prepared(), args);
  });

  const unsigned = [-1, 2 ** 32, 1.5, '1', Number.NaN, undefined, null];
  test.each([0, 1, 2, 4].flatMap((index) => unsigned.map((value) => [ARGS[index] as string, index, value] as const)))(
    '%s %j is rejected',
    (name, index, value) => {
      const args: unknown[] = [3, 1, 0, 0, 0];
      args[index] = value;
      const list = prepared();
      refused(list, () => draw(list, args), {
        call,
        argument: name,
        message: /must be (an integer|at least 0|at most 4294967295)/,
      });
    },
  );

  test.each([
    [-(2 ** 31) - 1, /at least -2147483648/],
    [2 ** 31, /at most 2147483647/],
    [0xffffffff, /at most 2147483647/],
    [0.5, /integer/],
    ['0', /integer/],
  ] as const)('baseVertexLocation %s is rejected (an INT)', (value, message) => {
    const list = prepared();
    refused(list, () => draw(list, [3, 1, 0, value, 0]), { call, argument: 'baseVertexLocation', message });
  });

  test('the arguments are checked in order', () => {
    const list = prepared();
    refused(list, () => draw(list, [-1, -1, -1, 2 ** 31, -1]), { argument: 'indexCountPerInstance' });
    refused(list, () => draw(list, [3, -1, -1, 2 ** 31, -1]), { argument: 'instanceCount' });
    refused(list, () => draw(list, [3, 1, -1, 2 ** 31, -1]), { argument: 'startIndexLocation' });
    refused(list, () => draw(list, [3, 1, 0, 2 ** 31, -1]), { argument: 'baseVertexLocation' });
    refused(list, () => draw(list, [3, 1, 0, 0, -1]), { argument: 'startInstanceLocation' });
  });
});
