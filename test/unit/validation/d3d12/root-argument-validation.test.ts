/**
 * Root arguments on command lists, against the root signature set (src/validation/root-arguments.ts)
 * or the emulator's fixed one (src/validation/command-list.ts): set{Compute,Graphics}RootSignature,
 * setDescriptorHeaps (src/commands/bound-heaps.ts), set*RootDescriptorTable, set*Root32BitConstant(s)
 * and set*Root{ConstantBuffer,ShaderResource,UnorderedAccess}View, recorded on CPU-only devices. CTS
 * style: one invalid argument at a time next to a valid control; a table over every method and every
 * kind of root parameter; both sides of every boundary. A refused call leaves the list as it was:
 * the root argument words of both kinds, the root signatures and heaps set, the commands recorded.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import {
  createDevice,
  ROOT_CONSTANT_COUNT,
  ROOT_DESCRIPTOR_COUNT,
  type DescriptorHeap,
  type Device,
  type GraphicsCommandList,
  type GpuDescriptorHandle,
  type RootSignature,
} from '../../../../src/index.js';
import { expectD3D12Error, type ExpectedD3D12Error } from '../../../shared/expect-d3d12-error.js';
import { field } from '../../../shared/fuzz/snapshot.js';

const loose = (value: unknown): never => value as never;

interface RootArgumentsView {
  snapshot(): Uint32Array;
  rootSignature: RootSignature | undefined;
}

let device: Device;
let other: Device;
/** Shader-visible: 16 CBV/SRV/UAV descriptors and 8 samplers; and heaps of other kinds. */
let views: DescriptorHeap;
let samplers: DescriptorHeap;
let secondViews: DescriptorHeap;
let secondSamplers: DescriptorHeap;
let cpuViews: DescriptorHeap;
let rtvs: DescriptorHeap;
let foreignViews: DescriptorHeap;
let viewIncrement: number;
/**
 * The root signature most tests set. Parameters (root argument words):
 *   0 table [SRV t0-t1, UAV u0]   (0-1)      4 root UAV u8      (10-11)
 *   1 4 constants at b0           (2-5)      5 SAMPLER table    (12-13)
 *   2 root CBV b1                 (6-7)      6 unbounded SRV table, space 1 (14-15)
 *   3 root SRV t8                 (8-9)      7 CBV table of 1 at offset 5   (16-17)
 */
let signature: RootSignature;
let twin: RootSignature;
let empty: RootSignature;
let foreignSignature: RootSignature;

beforeAll(async () => {
  device = await createDevice({ gpuDevice: null });
  other = await createDevice({ gpuDevice: null });
  views = device.createDescriptorHeap({ type: 'CBV_SRV_UAV', numDescriptors: 16, flags: 'SHADER_VISIBLE' });
  samplers = device.createDescriptorHeap({ type: 'SAMPLER', numDescriptors: 8, flags: 'SHADER_VISIBLE' });
  secondViews = device.createDescriptorHeap({ type: 'CBV_SRV_UAV', numDescriptors: 4, flags: 'SHADER_VISIBLE' });
  secondSamplers = device.createDescriptorHeap({ type: 'SAMPLER', numDescriptors: 4, flags: 'SHADER_VISIBLE' });
  cpuViews = device.createDescriptorHeap({ type: 'CBV_SRV_UAV', numDescriptors: 16 });
  rtvs = device.createDescriptorHeap({ type: 'RTV', numDescriptors: 4 });
  foreignViews = other.createDescriptorHeap({ type: 'CBV_SRV_UAV', numDescriptors: 16, flags: 'SHADER_VISIBLE' });
  viewIncrement = device.getDescriptorHandleIncrementSize('CBV_SRV_UAV');
  const desc = {
    version: '1_1',
    desc_1_1: {
      parameters: [
        {
          parameterType: 'DESCRIPTOR_TABLE',
          descriptorTable: {
            descriptorRanges: [
              { rangeType: 'SRV', numDescriptors: 2, baseShaderRegister: 0 },
              { rangeType: 'UAV', numDescriptors: 1, baseShaderRegister: 0 },
            ],
          },
        },
        { parameterType: '32BIT_CONSTANTS', constants: { shaderRegister: 0, num32BitValues: 4 } },
        { parameterType: 'CBV', descriptor: { shaderRegister: 1 } },
        { parameterType: 'SRV', descriptor: { shaderRegister: 8 } },
        { parameterType: 'UAV', descriptor: { shaderRegister: 8 } },
        {
          parameterType: 'DESCRIPTOR_TABLE',
          descriptorTable: { descriptorRanges: [{ rangeType: 'SAMPLER', numDescriptors: 2, baseShaderRegister: 0 }] },
        },
        {
          parameterType: 'DESCRIPTOR_TABLE',
          descriptorTable: {
            descriptorRanges: [
              { rangeType: 'SRV', numDescriptors: 0xffffffff, baseShaderRegister: 0, registerSpace: 1 },
            ],
          },
        },
        {
          parameterType: 'DESCRIPTOR_TABLE',
          descriptorTable: {
            descriptorRanges: [
              { rangeType: 'CBV', numDescriptors: 1, baseShaderRegister: 4, offsetInDescriptorsFromTableStart: 5 },
            ],
          },
        },
      ],
    },
  } as const;
  signature = device.createRootSignature(0, loose(desc));
  twin = device.createRootSignature(0, loose(desc));
  empty = device.createRootSignature(0, { version: '1_0', desc_1_0: {} });
  foreignSignature = other.createRootSignature(0, loose(desc));
});

const gpu = (heap: DescriptorHeap, index = 0): GpuDescriptorHandle => ({
  ptr:
    heap.getGPUDescriptorHandleForHeapStart().ptr +
    BigInt(index * device.getDescriptorHandleIncrementSize(heap.getDesc().type)),
});

type Kind = 'Compute' | 'Graphics';
const KINDS: Kind[] = ['Compute', 'Graphics'];

/** What a refused call must leave as it was. */
function state(list: GraphicsCommandList) {
  const root = field<RootArgumentsView>(list, 'root');
  const graphics = field<RootArgumentsView>(list, 'graphicsRoot');
  return {
    compute: Array.from(root.snapshot()),
    graphics: Array.from(graphics.snapshot()),
    computeSignature: root.rootSignature,
    graphicsSignature: graphics.rootSignature,
    heaps: { ...field<object>(field<object>(list, 'heaps'), 'heaps') },
    commands: field<unknown[]>(list, 'commands').length,
  };
}

function refused(list: GraphicsCommandList, fn: () => unknown, expected: ExpectedD3D12Error): void {
  const before = state(list);
  expectD3D12Error(fn, expected);
  expect(state(list)).toEqual(before);
}

/** The root argument words of `kind` set on `list`. */
const words = (list: GraphicsCommandList, kind: Kind): number[] =>
  Array.from(field<RootArgumentsView>(list, kind === 'Compute' ? 'root' : 'graphicsRoot').snapshot());

/** A DIRECT list with the heaps and `rootSignature` (default: `signature`) set for `kind`. */
function prepared(kind: Kind, rootSignature: RootSignature | null = signature): GraphicsCommandList {
  const list = device.createCommandList('DIRECT');
  list.setDescriptorHeaps([views, samplers]);
  if (rootSignature) list[`set${kind}RootSignature`](rootSignature);
  return list;
}

/** Each method that sets one root parameter, with valid arguments for a parameter of its kind. */
const METHODS = (kind: Kind) =>
  ({
    [`set${kind}RootDescriptorTable`]: {
      sets: 'DESCRIPTOR_TABLE',
      what: 'a descriptor table',
      call: (list: GraphicsCommandList, index: unknown) =>
        list[`set${kind}RootDescriptorTable`](loose(index), index === 5 ? gpu(samplers) : gpu(views)),
    },
    [`set${kind}Root32BitConstants`]: {
      sets: '32BIT_CONSTANTS',
      what: '32-bit root constants',
      call: (list: GraphicsCommandList, index: unknown) => list[`set${kind}Root32BitConstants`](loose(index), [1], 0),
    },
    [`set${kind}Root32BitConstant`]: {
      sets: '32BIT_CONSTANTS',
      what: '32-bit root constants',
      call: (list: GraphicsCommandList, index: unknown) => list[`set${kind}Root32BitConstant`](loose(index), 1, 0),
    },
    [`set${kind}RootConstantBufferView`]: {
      sets: 'CBV',
      what: 'a root CBV',
      call: (list: GraphicsCommandList, index: unknown) =>
        list[`set${kind}RootConstantBufferView`](loose(index), 0x10000n),
    },
    [`set${kind}RootShaderResourceView`]: {
      sets: 'SRV',
      what: 'a root SRV',
      call: (list: GraphicsCommandList, index: unknown) =>
        list[`set${kind}RootShaderResourceView`](loose(index), 0x10000n),
    },
    [`set${kind}RootUnorderedAccessView`]: {
      sets: 'UAV',
      what: 'a root UAV',
      call: (list: GraphicsCommandList, index: unknown) =>
        list[`set${kind}RootUnorderedAccessView`](loose(index), 0x10000n),
    },
  }) as const;

const PARAMETER_TYPES = [
  'DESCRIPTOR_TABLE',
  '32BIT_CONSTANTS',
  'CBV',
  'SRV',
  'UAV',
  'DESCRIPTOR_TABLE',
  'DESCRIPTOR_TABLE',
  'DESCRIPTOR_TABLE',
];

describe.each(KINDS)('set%sRootSignature', (kind) => {
  const method = `set${kind}RootSignature` as const;

  test('control: the root signature is set, with every argument 0', () => {
    const list = prepared(kind);
    expect(field<RootArgumentsView>(list, kind === 'Compute' ? 'root' : 'graphicsRoot').rootSignature).toBe(signature);
    expect(words(list, kind)).toEqual(new Array(18).fill(0));
  });

  test('another root signature clears the arguments; the same one again keeps them', () => {
    const list = prepared(kind);
    list[`set${kind}Root32BitConstants`](1, [7, 8, 9, 10], 0);
    list[method](signature);
    expect(words(list, kind).slice(2, 6)).toEqual([7, 8, 9, 10]);
    list[method](twin);
    expect(words(list, kind)).toEqual(new Array(18).fill(0));
    list[method](empty);
    expect(words(list, kind)).toEqual([]);
  });

  test('compute and graphics root arguments are kept apart', () => {
    const list = prepared(kind);
    const otherKind = kind === 'Compute' ? 'Graphics' : 'Compute';
    expect(
      field<RootArgumentsView>(list, otherKind === 'Compute' ? 'root' : 'graphicsRoot').rootSignature,
    ).toBeUndefined();
  });

  test.each([
    ["another device's", () => foreignSignature],
    ['a plain object', () => ({ label: 'root signature #1' })],
    ['a serialized root signature', () => new Uint8Array(64)],
    ['undefined', () => undefined],
    ['null', () => null],
  ])('%s is rejected', (_, value) => {
    const list = prepared(kind);
    refused(list, () => list[method](loose(value())), {
      call: method,
      argument: 'rootSignature',
      message: /must be a root signature of this device/,
    });
  });

  test('a released root signature is rejected', () => {
    const released = device.createRootSignature(0, { version: '1_0', desc_1_0: {} });
    released.release();
    const list = prepared(kind);
    refused(list, () => list[method](released), { call: method, argument: 'rootSignature', message: /was released/ });
  });
});

describe.each(KINDS)('%s: rootParameterIndex, for every method and every kind of parameter', (kind) => {
  const methods = Object.entries(METHODS(kind));

  test.each(methods.flatMap(([name, m]) => PARAMETER_TYPES.map((type, index) => [name, index, type, m] as const)))(
    '%s on parameter %i (%s)',
    (name, index, type, m) => {
      const list = prepared(kind);
      if (type === m.sets) {
        m.call(list, index);
        expect(field<unknown[]>(list, 'commands').length).toBeGreaterThan(0);
      } else
        refused(list, () => m.call(list, index), {
          call: name,
          argument: 'rootParameterIndex',
          message: new RegExp(`parameter ${index} is a ${type} parameter; ${name} sets ${m.what}`),
        });
    },
  );

  test.each(
    methods.flatMap(([name, m]) =>
      [8, 100, -1, 1.5, '0', Number.NaN, undefined, null].map((i) => [name, i, m] as const),
    ),
  )('%s: index %j is not a parameter', (name, index, m) => {
    const list = prepared(kind);
    refused(list, () => m.call(list, index), {
      call: name,
      argument: 'rootParameterIndex',
      message: /must be a parameter of the root signature set \(0 to 7\)/,
    });
  });

  test.each(methods)('%s: a root signature of no parameters has none', (name, m) => {
    const list = prepared(kind, empty);
    refused(list, () => m.call(list, 0), {
      call: name,
      argument: 'rootParameterIndex',
      message: /must be a parameter of the root signature set \(0 to -1\), got 0/,
    });
  });
});

describe.each(KINDS)('set%sRoot32BitConstant(s) against a root signature', (kind) => {
  const many = `set${kind}Root32BitConstants` as const;
  const one = `set${kind}Root32BitConstant` as const;

  test("control: the values land in the parameter's words (2-5), signed ones as their two's complement", () => {
    const list = prepared(kind);
    list[many](1, [1, -1, 0xffffffff, -(2 ** 31)], 0);
    expect(words(list, kind).slice(2, 6)).toEqual([1, 0xffffffff, 0xffffffff, 0x80000000]);
    list[one](1, 42, 3);
    expect(words(list, kind).slice(2, 6)).toEqual([1, 0xffffffff, 0xffffffff, 42]);
    list[many](1, new Int32Array([-2, 5]), 1);
    expect(words(list, kind).slice(2, 6)).toEqual([1, 0xfffffffe, 5, 42]);
    list[many](1, []);
    expect(words(list, kind).slice(0, 2)).toEqual([0, 0]);
  });

  test.each([
    [0, 4],
    [1, 3],
    [3, 1],
    [4, 0],
  ])('offset %i with %i values fits the 4 values', (offset, n) => {
    const list = prepared(kind);
    list[many](1, new Array(n).fill(9), offset);
    expect(words(list, kind).slice(2 + offset, 2 + offset + n)).toEqual(new Array(n).fill(9));
  });

  test.each([
    [0, 5],
    [1, 4],
    [2, 3],
    [4, 1],
  ])('offset %i with %i values runs past the 4 values', (offset, n) => {
    const list = prepared(kind);
    refused(list, () => list[many](1, new Array(n).fill(9), offset), {
      call: many,
      argument: 'srcData',
      message: new RegExp(`${n} values from offset ${offset} run past parameter 1's 4`),
    });
  });

  test.each([
    [5, /at most 4/],
    [-1, /at least 0/],
    [1.5, /integer/],
    ['0', /integer/],
    [null, /integer/],
  ] as const)('destOffsetIn32BitValues %j is rejected', (offset, message) => {
    const list = prepared(kind);
    refused(list, () => list[many](1, [1], loose(offset)), {
      call: many,
      argument: 'destOffsetIn32BitValues',
      message,
    });
    refused(list, () => list[one](1, 1, loose(offset)), { call: one, argument: 'destOffsetIn32BitValues', message });
  });

  test.each([2 ** 32, -(2 ** 31) - 1, 1.5, '1', Number.NaN, Number.POSITIVE_INFINITY, null, 1n])(
    'a value %s is rejected, naming its index',
    (value) => {
      const list = prepared(kind);
      refused(list, () => list[many](1, loose([0, 1, value]), 0), {
        call: many,
        argument: 'srcData[2]',
        message: /must be a 32-bit integer \(signed or unsigned\)/,
      });
      refused(list, () => list[one](1, loose(value), 0), {
        call: one,
        argument: 'srcData',
        message: /must be a 32-bit integer/,
      });
    },
  );

  test('a Float32Array of integers is accepted; one of fractions is not', () => {
    const list = prepared(kind);
    list[many](1, new Float32Array([3, 4]), 0);
    expect(words(list, kind).slice(2, 4)).toEqual([3, 4]);
    refused(list, () => list[many](1, new Float32Array([0.5]), 0), { call: many, argument: 'srcData[0]' });
  });

  test.each([null, undefined, 5, 'abc', { length: 1, 0: 1 }])('srcData %j (not an array) is rejected', (srcData) => {
    const list = prepared(kind);
    refused(list, () => list[many](1, loose(srcData), 0), {
      call: many,
      argument: 'srcData',
      message: /must be an array of 32-bit values/,
    });
  });
});

describe.each(KINDS)(
  'set%sRoot{ConstantBuffer,ShaderResource,UnorderedAccess}View against a root signature',
  (kind) => {
    const cases = [
      [`set${kind}RootConstantBufferView`, 2],
      [`set${kind}RootShaderResourceView`, 3],
      [`set${kind}RootUnorderedAccessView`, 4],
    ] as const;

    test.each(
      cases.flatMap(([method, index]) =>
        [0n, 0x10000n, 0x123456789abcdef0n, 2n ** 64n - 1n].map((a) => [method, index, a] as const),
      ),
    )('%s(%i, %s) writes the address, low word first', (method, index, address) => {
      const list = prepared(kind);
      list[method](index, address);
      const at = 6 + 2 * (index - 2);
      expect(words(list, kind).slice(at, at + 2)).toEqual([Number(address & 0xffffffffn), Number(address >> 32n)]);
    });

    test.each(
      cases.flatMap(([method, index]) =>
        [-1n, 2n ** 64n, 0x10000, '0x10000', undefined, null].map((a) => [method, index, a] as const),
      ),
    )('%s(%i, %s) is rejected', (method, index, address) => {
      const list = prepared(kind);
      refused(list, () => list[method](index, loose(address)), {
        call: method,
        argument: 'bufferLocation',
        message: /must be a GPU virtual address, a bigint from 0 to 2\^64 - 1/,
      });
    });
  },
);

describe.each(KINDS)('set%sRootDescriptorTable', (kind) => {
  const method = `set${kind}RootDescriptorTable` as const;

  test.each([
    ['parameter 0 (3 descriptors) at descriptor 0', 0, () => gpu(views, 0)],
    ['parameter 0 at descriptor 13 (its last three)', 0, () => gpu(views, 13)],
    ['parameter 5 (2 samplers) at sampler 6', 5, () => gpu(samplers, 6)],
    ['parameter 6 (unbounded) at the last descriptor', 6, () => gpu(views, 15)],
    ['parameter 7 (one at offset 5) at descriptor 10', 7, () => gpu(views, 10)],
  ] as const)('control: %s', (_, index, handle) => {
    const list = prepared(kind);
    list[method](index, handle());
    const address = handle().ptr;
    const at = [0, 0, 0, 0, 0, 12, 14, 16][index] ?? 0;
    expect(words(list, kind).slice(at, at + 2)).toEqual([Number(address & 0xffffffffn), Number(address >> 32n)]);
  });

  test.each([
    ['null', null],
    ['undefined', undefined],
    ['a number ptr', { ptr: 65536 }],
    ['no ptr', {}],
    ['a bigint', 65536n],
    ['a CPU handle', 'cpu'],
  ])('baseDescriptor %s is rejected', (_, value) => {
    const list = prepared(kind);
    const handle = value === 'cpu' ? views.getCPUDescriptorHandleForHeapStart() : value;
    refused(list, () => list[method](0, loose(handle)), {
      call: method,
      argument: 'baseDescriptor',
      message: /must be a D3D12_GPU_DESCRIPTOR_HANDLE \(\{ ptr: bigint \}\)/,
    });
  });

  test.each([
    [0, 'CBV_SRV_UAV'],
    [5, 'SAMPLER'],
  ] as const)('parameter %i with no %s heap set is rejected', (index, type) => {
    const list = device.createCommandList('DIRECT');
    list[`set${kind}RootSignature`](signature);
    if (type === 'SAMPLER') list.setDescriptorHeaps([views]);
    else list.setDescriptorHeaps([samplers]);
    refused(list, () => list[method](index, gpu(index === 5 ? samplers : views)), {
      call: method,
      argument: 'baseDescriptor',
      message: new RegExp(
        `parameter ${index} is a ${type} table, and no ${type} descriptor heap is set \\(setDescriptorHeaps\\)`,
      ),
    });
  });

  test.each([
    ['one descriptor before the heap', 0, () => ({ ptr: gpu(views).ptr - BigInt(viewIncrement) })],
    ['the end of the heap', 0, () => gpu(views, 16)],
    ['the middle of a descriptor', 0, () => ({ ptr: gpu(views).ptr + 4n })],
    ['a descriptor of another CBV_SRV_UAV heap', 0, () => gpu(secondViews)],
    ['a descriptor of the sampler heap, for a CBV_SRV_UAV table', 0, () => gpu(samplers)],
    ['a descriptor of the CBV_SRV_UAV heap, for a SAMPLER table', 5, () => gpu(views)],
    [
      "a descriptor of another device's heap",
      0,
      () => ({ ptr: foreignViews.getGPUDescriptorHandleForHeapStart().ptr + 2n ** 40n }),
    ],
    ['address 0', 0, () => ({ ptr: 0n })],
  ] as const)('%s is rejected', (_, index, handle) => {
    const list = prepared(kind);
    const type = index === 5 ? 'SAMPLER' : 'CBV_SRV_UAV';
    refused(list, () => list[method](index, handle()), {
      call: method,
      argument: 'baseDescriptor',
      message: new RegExp(
        `0x[0-9a-f]+ is not a descriptor of descriptor heap #\\d+ \\(${type}, shader-visible\\), the ${type} heap set`,
      ),
    });
  });

  test.each([
    [0, 14, 17],
    [0, 15, 17],
    [5, 7, 9],
    [7, 11, 17],
  ] as const)('parameter %i at descriptor %i runs past the heap (a range ends at %i)', (index, first, end) => {
    const list = prepared(kind);
    const heap = index === 5 ? samplers : views;
    refused(list, () => list[method](index, gpu(heap, first)), {
      call: method,
      argument: 'baseDescriptor',
      message: new RegExp(
        `the table from descriptor ${first} of descriptor heap #\\d+ .* runs past its ${index === 5 ? 8 : 16} descriptors \\(a range ends at ${end}\\)`,
      ),
    });
  });

  test('without a root signature there are no tables', () => {
    const list = prepared(kind, null);
    refused(list, () => list[method](0, gpu(views)), {
      call: method,
      argument: 'this',
      message: /no root signature is set \(descriptor tables are a root signature's parameters\)/,
    });
  });

  test('a heap released after it was set: its descriptors are gone', () => {
    const heap = device.createDescriptorHeap({ type: 'CBV_SRV_UAV', numDescriptors: 16, flags: 'SHADER_VISIBLE' });
    const handle = gpu(heap);
    const list = device.createCommandList('DIRECT');
    list.setDescriptorHeaps([heap]);
    list[`set${kind}RootSignature`](signature);
    list[method](0, handle);
    heap.release();
    refused(list, () => list[method](0, handle), {
      call: method,
      argument: 'baseDescriptor',
      message:
        /descriptor heap #\d+ \(CBV_SRV_UAV, shader-visible\), the CBV_SRV_UAV heap set \(setDescriptorHeaps\), was released/,
    });
  });
});

describe('setDescriptorHeaps', () => {
  const method = 'setDescriptorHeaps';

  test.each([
    ['a CBV_SRV_UAV heap and a SAMPLER heap', () => [views, samplers]],
    ['a SAMPLER heap and a CBV_SRV_UAV heap', () => [samplers, views]],
    ['a CBV_SRV_UAV heap', () => [views]],
    ['a SAMPLER heap', () => [samplers]],
    ['no heap', () => []],
  ])('control: %s', (_, heaps) => {
    const list = device.createCommandList('DIRECT');
    list.setDescriptorHeaps(heaps());
    const set = field<Record<string, DescriptorHeap>>(field<object>(list, 'heaps'), 'heaps');
    expect(Object.values(set).sort()).toEqual(heaps().sort());
  });

  test('a COMPUTE list sets heaps too', () => {
    device.createCommandList('COMPUTE').setDescriptorHeaps([views, samplers]);
  });

  test.each([
    ['null', () => null],
    ['a heap, not an array', () => views],
    ['three heaps', () => [views, samplers, secondViews]],
    ['a number', () => 2],
  ])('%s is rejected', (_, heaps) => {
    const list = prepared('Graphics');
    refused(list, () => list.setDescriptorHeaps(loose(heaps())), {
      call: method,
      argument: 'descriptorHeaps',
      message: /must be an array of at most 2 descriptor heaps \(one CBV_SRV_UAV, one SAMPLER\)/,
    });
  });

  test.each([
    ["another device's heap", () => [foreignViews], 0, /must be a descriptor heap of this device/],
    ['a plain object', () => [views, { label: 'heap' }], 1, /must be a descriptor heap of this device/],
    ['undefined', () => [undefined], 0, /must be a descriptor heap of this device/],
    [
      'a heap that is not shader-visible',
      () => [cpuViews],
      0,
      /is not shader-visible \(create it with flags SHADER_VISIBLE\)/,
    ],
    ['an RTV heap', () => [samplers, rtvs], 1, /is not shader-visible/],
    [
      'two CBV_SRV_UAV heaps',
      () => [views, secondViews],
      1,
      /is a second CBV_SRV_UAV heap; one heap of each type may be set/,
    ],
    ['two SAMPLER heaps', () => [samplers, secondSamplers], 1, /is a second SAMPLER heap/],
    ['the same heap twice', () => [views, views], 1, /is a second CBV_SRV_UAV heap/],
  ] as const)('%s is rejected', (_, heaps, index, message) => {
    const list = prepared('Graphics');
    refused(list, () => list.setDescriptorHeaps(loose(heaps())), {
      call: method,
      argument: `descriptorHeaps[${index}]`,
      message,
    });
  });

  test('a released heap is rejected', () => {
    const heap = device.createDescriptorHeap({ type: 'SAMPLER', numDescriptors: 2, flags: 'SHADER_VISIBLE' });
    heap.release();
    const list = prepared('Graphics');
    refused(list, () => list.setDescriptorHeaps([views, heap]), {
      call: method,
      argument: 'descriptorHeaps[1]',
      message: /was released/,
    });
  });

  test('a refused call keeps the heaps set before: tables still resolve in them', () => {
    const list = prepared('Compute');
    expect(() => list.setDescriptorHeaps([secondViews, cpuViews])).toThrow();
    list.setComputeRootDescriptorTable(0, gpu(views, 13));
    expectD3D12Error(() => list.setComputeRootDescriptorTable(0, gpu(secondViews)), { argument: 'baseDescriptor' });
  });

  test('a COPY list binds no descriptors', () => {
    const list = device.createCommandList('COPY');
    refused(list, () => list.setDescriptorHeaps([views]), {
      call: method,
      argument: 'this',
      message: /is a COPY list, which binds no descriptors/,
    });
  });
});

describe('which lists take root arguments', () => {
  const GRAPHICS = Object.entries(METHODS('Graphics'));
  const COMPUTE = Object.entries(METHODS('Compute'));

  test.each(GRAPHICS)('%s on a COMPUTE list is rejected: only DIRECT lists draw', (name, m) => {
    const list = device.createCommandList('COMPUTE');
    list.setDescriptorHeaps([views, samplers]);
    refused(list, () => m.call(list, 0), {
      call: name,
      argument: 'this',
      message: /is a COMPUTE list; only DIRECT lists draw/,
    });
  });

  test.each(GRAPHICS)('%s on a COPY list is rejected', (name, m) => {
    const list = device.createCommandList('COPY');
    refused(list, () => m.call(list, 0), {
      call: name,
      argument: 'this',
      message: /is a COPY list; only DIRECT lists draw/,
    });
  });

  test.each(COMPUTE)('%s on a COPY list is rejected', (name, m) => {
    const list = device.createCommandList('COPY');
    refused(list, () => m.call(list, 0), {
      call: name,
      argument: 'this',
      message: /is a COPY list, which has no root/,
    });
  });

  test.each(['setComputeRootSignature', 'setGraphicsRootSignature'] as const)(
    '%s on a COPY list is rejected',
    (name) => {
      const list = device.createCommandList('COPY');
      refused(list, () => list[name](signature), { call: name, argument: 'this', message: /is a COPY list/ });
    },
  );

  test.each([...GRAPHICS, ...COMPUTE])('%s on a closed list is rejected', (name, m) => {
    const list = prepared(name.includes('Compute') ? 'Compute' : 'Graphics');
    list.close();
    refused(list, () => m.call(list, 0), {
      call: `GraphicsCommandList.${name}`,
      argument: 'this',
      message: /is closed; reset\(\) it before recording/,
    });
  });

  test.each(COMPUTE)('control: %s on a COMPUTE list', (_, m) => {
    const list = device.createCommandList('COMPUTE');
    list.setDescriptorHeaps([views, samplers]);
    list.setComputeRootSignature(signature);
    const index = { DESCRIPTOR_TABLE: 0, '32BIT_CONSTANTS': 1, CBV: 2, SRV: 3, UAV: 4 }[m.sets];
    m.call(list, index);
  });
});

describe.each(KINDS)('%s: the fixed root signature (none set)', (kind) => {
  const many = `set${kind}Root32BitConstants` as const;
  const one = `set${kind}Root32BitConstant` as const;
  const fixed = () => prepared(kind, null);

  test(`control: parameter 0 holds ${ROOT_CONSTANT_COUNT} constants, then the root descriptors`, () => {
    const list = fixed();
    list[many](0, new Array(ROOT_CONSTANT_COUNT).fill(3), 0);
    list[one](0, -1, ROOT_CONSTANT_COUNT - 1);
    list[`set${kind}RootUnorderedAccessView`](ROOT_DESCRIPTOR_COUNT, 0x100000000n);
    const w = words(list, kind);
    expect(w.slice(0, ROOT_CONSTANT_COUNT - 1)).toEqual(new Array(ROOT_CONSTANT_COUNT - 1).fill(3));
    expect(w[ROOT_CONSTANT_COUNT - 1]).toBe(0xffffffff);
    expect(w.slice(-2)).toEqual([0, 1]);
  });

  test.each([1, -1, 0.5, '0'])('constants at parameter %j are rejected', (index) => {
    const list = fixed();
    refused(list, () => list[many](loose(index), [1], 0), {
      call: many,
      argument: 'rootParameterIndex',
      message: new RegExp(`must be 0: the emulator's one root parameter is ${ROOT_CONSTANT_COUNT} 32-bit constants`),
    });
  });

  test('constants past the last one are rejected', () => {
    const list = fixed();
    refused(list, () => list[many](0, [1, 2], ROOT_CONSTANT_COUNT - 1), {
      call: many,
      argument: 'srcData',
      message: new RegExp(
        `2 values from offset ${ROOT_CONSTANT_COUNT - 1} run past the ${ROOT_CONSTANT_COUNT} root constants`,
      ),
    });
    refused(list, () => list[many](0, [], ROOT_CONSTANT_COUNT + 1), {
      call: many,
      argument: 'destOffsetIn32BitValues',
      message: new RegExp(`at most ${ROOT_CONSTANT_COUNT}`),
    });
    refused(list, () => list[many](0, [1, 2 ** 32], 0), {
      call: many,
      argument: 'srcData[1]',
      message: /32-bit integer/,
    });
  });

  test.each(['ConstantBuffer', 'ShaderResource', 'UnorderedAccess'] as const)(
    `root %sViews are parameters 1 to ${ROOT_DESCRIPTOR_COUNT}`,
    (view) => {
      const method = `set${kind}Root${view}View` as const;
      const list = fixed();
      list[method](1, 0x10000n);
      list[method](ROOT_DESCRIPTOR_COUNT, 0x10000n);
      refused(list, () => list[method](0, 0x10000n), {
        call: method,
        argument: 'rootParameterIndex',
        message: new RegExp(`root parameter 0 is the ${ROOT_CONSTANT_COUNT} 32-bit root constants`),
      });
      refused(list, () => list[method](ROOT_DESCRIPTOR_COUNT + 1, 0x10000n), {
        call: method,
        argument: 'rootParameterIndex',
        message: new RegExp(`must be a root descriptor's parameter, 1 to ${ROOT_DESCRIPTOR_COUNT}`),
      });
      refused(list, () => list[method](1, loose(-5n)), {
        call: method,
        argument: 'bufferLocation',
        message: /must be a GPU virtual address/,
      });
    },
  );
});
