/**
 * createDescriptorHeap validation (D3D12_DESCRIPTOR_HEAP_DESC: src/validation/descriptor-heap.ts),
 * the normalized description getDesc returns, the handle queries, and the CPU descriptor handles
 * every descriptor write resolves (src/emulator/descriptor-heaps.ts). CTS style: one invalid field at
 * a time next to a valid control; tables over every enum value and both sides of every boundary; a
 * refused call consumes no object id and writes no descriptor.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import {
  createDevice,
  DescriptorHeap,
  type CpuDescriptorHandle,
  type DescriptorHeapDesc,
  type DescriptorHeapType,
  type Device,
} from '../../../../src/index.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';
import { field } from '../../../shared/fuzz/snapshot.js';

const loose = (value: unknown): never => value as never;

const TYPES: DescriptorHeapType[] = ['CBV_SRV_UAV', 'SAMPLER', 'RTV', 'DSV'];
const VISIBLE_TYPES: DescriptorHeapType[] = ['CBV_SRV_UAV', 'SAMPLER'];
/** MAX_DESCRIPTORS_PER_HEAP: 2^20 (the prelude's D3D12_MAX_HEAP_DESCRIPTORS). */
const MAX_DESCRIPTORS = 1 << 20;
/** D3D12_MAX_SHADER_VISIBLE_SAMPLER_HEAP_SIZE. */
const MAX_VISIBLE_SAMPLERS = 2048;

const heapDesc = (overrides: Partial<Record<keyof DescriptorHeapDesc, unknown>> = {}): DescriptorHeapDesc =>
  loose({ type: 'CBV_SRV_UAV', numDescriptors: 8, ...overrides });

const at = (handle: CpuDescriptorHandle, index: number, increment: number): CpuDescriptorHandle => ({
  ptr: handle.ptr + index * increment,
});

let device: Device;
beforeAll(async () => {
  device = await createDevice({ gpuDevice: null });
});

describe('createDescriptorHeap: desc', () => {
  test.each([null, undefined, 8, 'CBV_SRV_UAV', []])('desc %j (not an object) is rejected', (desc) => {
    expectD3D12Error(() => device.createDescriptorHeap(loose(desc)), {
      call: 'createDescriptorHeap',
      argument: 'desc',
      message: /must be a D3D12_DESCRIPTOR_HEAP_DESC object/,
    });
  });

  test('control: the smallest description is accepted', () => {
    expect(device.createDescriptorHeap(heapDesc())).toBeInstanceOf(DescriptorHeap);
  });
});

describe('createDescriptorHeap: type', () => {
  test.each(TYPES)('%s is accepted', (type) => {
    expect(device.createDescriptorHeap(heapDesc({ type })).getDesc().type).toBe(type);
  });

  test.each(['cbv_srv_uav', 'RTV ', '', 'SHADER_VISIBLE', 'CBV', 0, null, undefined])('%j is rejected', (type) => {
    expectD3D12Error(() => device.createDescriptorHeap(heapDesc({ type })), {
      call: 'createDescriptorHeap',
      argument: 'desc.type',
      message: /must be one of CBV_SRV_UAV, SAMPLER, RTV, DSV/,
    });
  });
});

describe('createDescriptorHeap: flags', () => {
  const NOT_VISIBLE = [undefined, 'NONE', [], ['NONE']];
  const VISIBLE = [
    'SHADER_VISIBLE',
    ['SHADER_VISIBLE'],
    ['NONE', 'SHADER_VISIBLE'],
    ['SHADER_VISIBLE', 'SHADER_VISIBLE'],
  ];

  test.each(TYPES.flatMap((type) => NOT_VISIBLE.map((flags) => [type, flags] as const)))(
    '%s with flags %j: not shader-visible, accepted',
    (type, flags) => {
      const heap = device.createDescriptorHeap(heapDesc({ type, flags }));
      expect(heap.getDesc().flags).toEqual([]);
    },
  );

  test.each(TYPES.flatMap((type) => VISIBLE.map((flags) => [type, flags] as const)))(
    '%s with flags %j',
    (type, flags) => {
      const create = () => device.createDescriptorHeap(heapDesc({ type, flags }));
      if (VISIBLE_TYPES.includes(type)) {
        const heap = create();
        expect(heap.getDesc().flags).toEqual(['SHADER_VISIBLE']);
        expect(typeof heap.getGPUDescriptorHandleForHeapStart().ptr).toBe('bigint');
      } else {
        expectD3D12Error(create, {
          call: 'createDescriptorHeap',
          argument: 'desc.flags',
          message: new RegExp(`SHADER_VISIBLE applies to CBV_SRV_UAV and SAMPLER heaps only; a ${type} heap`),
        });
      }
    },
  );

  test.each([
    ['VISIBLE', 'desc.flags'],
    ['shader_visible', 'desc.flags'],
    [null, 'desc.flags'],
    [1, 'desc.flags'],
    [['X'], 'desc.flags[0]'],
    [['SHADER_VISIBLE', 'DENY_BUFFERS'], 'desc.flags[1]'],
    [[null], 'desc.flags[0]'],
  ] as const)('flags %j are rejected at %s', (flags, argument) => {
    expectD3D12Error(() => device.createDescriptorHeap(heapDesc({ flags })), {
      call: 'createDescriptorHeap',
      argument,
      message: /must be one of NONE, SHADER_VISIBLE/,
    });
  });
});

describe('createDescriptorHeap: numDescriptors', () => {
  test.each(
    TYPES.filter((type) => type !== 'CBV_SRV_UAV').flatMap((type) => [1, MAX_DESCRIPTORS].map((n) => [type, n])),
  )('%s heap of %i descriptors (not shader-visible) is accepted', (type, numDescriptors) => {
    expect(device.createDescriptorHeap(heapDesc({ type, numDescriptors })).getDesc().numDescriptors).toBe(
      numDescriptors,
    );
  });

  test('CBV_SRV_UAV: 1 and 4096 descriptors are accepted', () => {
    for (const numDescriptors of [1, 4096])
      expect(device.createDescriptorHeap(heapDesc({ numDescriptors })).getDesc().numDescriptors).toBe(numDescriptors);
  });

  test.each(TYPES.flatMap((type) => [MAX_DESCRIPTORS + 1, 2 ** 31].map((n) => [type, n] as const)))(
    '%s heap of %i descriptors is rejected (over 2^20)',
    (type, numDescriptors) => {
      expectD3D12Error(() => device.createDescriptorHeap(heapDesc({ type, numDescriptors })), {
        call: 'createDescriptorHeap',
        argument: 'desc.numDescriptors',
        message: /must be at most 1048576/,
      });
    },
  );

  test.each([
    [0, /at least 1/],
    [-1, /at least 1/],
    [1.5, /integer/],
    [Number.NaN, /integer/],
    [Number.POSITIVE_INFINITY, /integer/],
    ['8', /integer/],
    [8n, /integer/],
    [undefined, /integer/],
    [null, /integer/],
  ] as const)('%s is rejected', (numDescriptors, message) => {
    expectD3D12Error(() => device.createDescriptorHeap(heapDesc({ numDescriptors })), {
      call: 'createDescriptorHeap',
      argument: 'desc.numDescriptors',
      message,
    });
  });

  describe('a shader-visible SAMPLER heap holds at most 2048 (D3D12_MAX_SHADER_VISIBLE_SAMPLER_HEAP_SIZE)', () => {
    const visibleSampler = (numDescriptors: unknown) =>
      heapDesc({ type: 'SAMPLER', flags: ['SHADER_VISIBLE'], numDescriptors });

    test.each([1, MAX_VISIBLE_SAMPLERS])('%i is accepted', (numDescriptors) => {
      expect(device.createDescriptorHeap(visibleSampler(numDescriptors)).getDesc().numDescriptors).toBe(numDescriptors);
    });

    test.each([MAX_VISIBLE_SAMPLERS + 1, MAX_DESCRIPTORS])('%i is rejected, naming the sampler limit', (n) => {
      expectD3D12Error(() => device.createDescriptorHeap(visibleSampler(n)), {
        call: 'createDescriptorHeap',
        argument: 'desc.numDescriptors',
        message: new RegExp(
          `a shader-visible sampler heap holds at most 2048 descriptors \\(D3D12_MAX_SHADER_VISIBLE_SAMPLER_HEAP_SIZE\\), got ${n}`,
        ),
      });
    });

    test.each([
      [0, /at least 1/],
      [1.5, /integer/],
      ['4096', /integer/],
    ] as const)('%s is rejected by the general rule', (numDescriptors, message) => {
      expectD3D12Error(() => device.createDescriptorHeap(visibleSampler(numDescriptors)), {
        argument: 'desc.numDescriptors',
        message,
      });
    });

    test('control: a SAMPLER heap that is not shader-visible may hold 2049 and more', () => {
      expect(
        device.createDescriptorHeap(heapDesc({ type: 'SAMPLER', numDescriptors: MAX_VISIBLE_SAMPLERS + 1 })),
      ).toBeInstanceOf(DescriptorHeap);
    });

    test('control: a shader-visible CBV_SRV_UAV heap may hold 2049', () => {
      expect(
        device.createDescriptorHeap(heapDesc({ flags: ['SHADER_VISIBLE'], numDescriptors: MAX_VISIBLE_SAMPLERS + 1 })),
      ).toBeInstanceOf(DescriptorHeap);
    });
  });
});

describe('createDescriptorHeap: nodeMask', () => {
  test.each([undefined, null, 0, 1])('%s is accepted (one node; left out is 0)', (nodeMask) => {
    expect(device.createDescriptorHeap(heapDesc({ nodeMask })).getDesc().nodeMask).toBe(nodeMask ?? 0);
  });

  test.each([
    [2, /at most 1/],
    [0xffffffff, /at most 1/],
    [-1, /at least 0/],
    [0.5, /integer/],
    ['1', /integer/],
  ] as const)('%s is rejected', (nodeMask, message) => {
    expectD3D12Error(() => device.createDescriptorHeap(heapDesc({ nodeMask })), {
      call: 'createDescriptorHeap',
      argument: 'desc.nodeMask',
      message,
    });
  });
});

describe('DescriptorHeap.getDesc: the normalized description', () => {
  test('defaults are filled in', () => {
    expect(device.createDescriptorHeap({ type: 'RTV', numDescriptors: 3 }).getDesc()).toEqual({
      type: 'RTV',
      numDescriptors: 3,
      flags: [],
      nodeMask: 0,
    });
  });

  test('getDesc returns a copy', () => {
    const heap = device.createDescriptorHeap({ type: 'SAMPLER', numDescriptors: 4, flags: 'SHADER_VISIBLE' });
    const desc = heap.getDesc();
    desc.numDescriptors = 1;
    desc.flags.pop();
    expect(heap.getDesc()).toEqual({ type: 'SAMPLER', numDescriptors: 4, flags: ['SHADER_VISIBLE'], nodeMask: 0 });
  });

  test("the caller's description is not changed", () => {
    const desc: DescriptorHeapDesc = { type: 'CBV_SRV_UAV', numDescriptors: 4, flags: ['NONE', 'SHADER_VISIBLE'] };
    const before = structuredClone(desc);
    device.createDescriptorHeap(desc);
    expect(desc).toEqual(before);
  });

  test('a released heap refuses getDesc and its handle queries', () => {
    const heap = device.createDescriptorHeap(heapDesc({ flags: ['SHADER_VISIBLE'] }));
    heap.release();
    for (const method of [
      'getDesc',
      'getCPUDescriptorHandleForHeapStart',
      'getGPUDescriptorHandleForHeapStart',
    ] as const)
      expectD3D12Error(() => heap[method](), {
        call: `DescriptorHeap.${method}`,
        argument: 'this',
        message: /was released/,
      });
  });
});

describe('getDescriptorHandleIncrementSize and the handles of a heap', () => {
  test.each(TYPES)('%s: a positive multiple of 4 bytes', (type) => {
    const size = device.getDescriptorHandleIncrementSize(type);
    expect(size).toBeGreaterThan(0);
    expect(size % 4).toBe(0);
  });

  test.each(['cbv', 'SHADER_VISIBLE', 0, undefined])('type %j is rejected', (type) => {
    expectD3D12Error(() => device.getDescriptorHandleIncrementSize(loose(type)), {
      call: 'getDescriptorHandleIncrementSize',
      argument: 'descriptorHeapType',
      message: /must be one of CBV_SRV_UAV, SAMPLER, RTV, DSV/,
    });
  });

  test.each(TYPES)('%s: a heap that is not shader-visible has no GPU handle', (type) => {
    const heap = device.createDescriptorHeap(heapDesc({ type }));
    expect(typeof heap.getCPUDescriptorHandleForHeapStart().ptr).toBe('number');
    expectD3D12Error(() => heap.getGPUDescriptorHandleForHeapStart(), {
      call: 'DescriptorHeap.getGPUDescriptorHandleForHeapStart',
      argument: 'this',
      message: /is not shader-visible: it has no GPU handles/,
    });
  });

  test('heaps have CPU handle ranges of their own', () => {
    const a = device.createDescriptorHeap(heapDesc({ numDescriptors: 4 }));
    const b = device.createDescriptorHeap(heapDesc({ numDescriptors: 4 }));
    const increment = device.getDescriptorHandleIncrementSize('CBV_SRV_UAV');
    const endOfA = a.getCPUDescriptorHandleForHeapStart().ptr + 4 * increment;
    expect(
      Math.abs(b.getCPUDescriptorHandleForHeapStart().ptr - a.getCPUDescriptorHandleForHeapStart().ptr),
    ).toBeGreaterThanOrEqual(4 * increment);
    expect(b.getCPUDescriptorHandleForHeapStart().ptr).not.toBe(endOfA);
  });
});

/**
 * The handle rules every descriptor write shares (descriptor-heaps.ts resolve): createSampler and
 * createConstantBufferView(null) stand for them all (view-validation.test.ts checks each call's type).
 */
describe('CPU descriptor handles', () => {
  let samplers: DescriptorHeap;
  let increment: number;
  let start: CpuDescriptorHandle;
  const SAMPLER = { filter: 'MIN_MAG_MIP_POINT' } as const;
  const write = (handle: unknown) => device.createSampler(SAMPLER, loose(handle));

  beforeAll(() => {
    samplers = device.createDescriptorHeap({ type: 'SAMPLER', numDescriptors: 4 });
    increment = device.getDescriptorHandleIncrementSize('SAMPLER');
    start = samplers.getCPUDescriptorHandleForHeapStart();
  });

  test.each([0, 1, 2, 3])('control: descriptor %i of the heap', (index) => {
    write(at(start, index, increment));
    expect(field<unknown[]>(samplers, 'records')[index]).toMatchObject({ kind: 'SAMPLER' });
  });

  test.each([
    ['null', null],
    ['undefined', undefined],
    ['a number', 4096],
    ['a bigint ptr', { ptr: 4096n }],
    ['a string ptr', { ptr: '4096' }],
    ['a negative ptr', { ptr: -32 }],
    ['a fractional ptr', { ptr: 0.5 }],
    ['no ptr', {}],
  ])('%s is not a handle', (_, handle) => {
    expectD3D12Error(() => write(handle), {
      call: 'createSampler',
      argument: 'destDescriptor',
      message: /must be a D3D12_CPU_DESCRIPTOR_HANDLE \(\{ ptr \}\) from one of this device's descriptor heaps/,
    });
  });

  test('one past the last descriptor is rejected', () => {
    expectD3D12Error(() => write(at(start, 4, increment)), {
      call: 'createSampler',
      argument: 'destDescriptor',
      message: /descriptor 4 is past the end of descriptor heap #\d+ \(SAMPLER\) \(4 descriptors\)/,
    });
  });

  test.each([
    ['1 byte', () => 1],
    ['4 bytes', () => 4],
    ['half an increment', () => increment / 2],
    ['an increment less 1 byte', () => increment - 1],
    ['an increment and 4 bytes', () => increment + 4],
  ])('a handle %s past a descriptor is rejected', (_, bytes) => {
    expectD3D12Error(() => write({ ptr: start.ptr + bytes() }), {
      argument: 'destDescriptor',
      message: /not a multiple of its increment/,
    });
  });

  test('a handle before any heap is in no live heap', () => {
    expectD3D12Error(() => write({ ptr: 0 }), {
      argument: 'destDescriptor',
      message: /0x0 is in no live descriptor heap of this device/,
    });
  });

  test("another device's heap is in no live heap of this device", async () => {
    const other = await createDevice({ gpuDevice: null });
    const foreign = other.createDescriptorHeap({ type: 'SAMPLER', numDescriptors: 4 });
    expectD3D12Error(() => write(foreign.getCPUDescriptorHandleForHeapStart()), {
      argument: 'destDescriptor',
      message: /is in no live descriptor heap of this device/,
    });
    // Control: the heap's own device writes there.
    other.createSampler(SAMPLER, foreign.getCPUDescriptorHandleForHeapStart());
  });

  test('a released heap: its handles resolve no more', () => {
    const heap = device.createDescriptorHeap({ type: 'SAMPLER', numDescriptors: 4 });
    const handle = heap.getCPUDescriptorHandleForHeapStart();
    write(handle);
    heap.release();
    expectD3D12Error(() => write(handle), {
      argument: 'destDescriptor',
      message: /is in no live descriptor heap of this device/,
    });
  });

  test.each(TYPES.filter((type) => type !== 'SAMPLER'))('a descriptor of a %s heap is rejected', (type) => {
    const heap = device.createDescriptorHeap(heapDesc({ type }));
    expectD3D12Error(() => write(heap.getCPUDescriptorHandleForHeapStart()), {
      call: 'createSampler',
      argument: 'destDescriptor',
      message: new RegExp(
        `names a descriptor of descriptor heap #\\d+ \\(${type}\\); this call writes SAMPLER descriptors`,
      ),
    });
  });

  test('a refused write changes no descriptor of the heap', () => {
    const heap = device.createDescriptorHeap({ type: 'SAMPLER', numDescriptors: 2 });
    const first = heap.getCPUDescriptorHandleForHeapStart();
    write(first);
    const words = field<Uint32Array>(heap, 'words').slice();
    const records = [...field<unknown[]>(heap, 'records')];
    expect(() => write(at(first, 2, increment))).toThrow();
    expect(() => device.createSampler(loose({ filter: 'BOGUS' }), first)).toThrow();
    expect(() => device.createConstantBufferView(null, first)).toThrow();
    expect(field<Uint32Array>(heap, 'words')).toEqual(words);
    expect(field<unknown[]>(heap, 'records')).toEqual(records);
    expect(field<unknown[]>(heap, 'records')[1]).toBeUndefined();
  });
});

describe('createDescriptorHeap: a failed call changes nothing', () => {
  const FAILING: unknown[] = [
    null,
    heapDesc({ type: 'UAV' }),
    heapDesc({ type: 'RTV', flags: ['SHADER_VISIBLE'] }),
    heapDesc({ flags: ['VISIBLE'] }),
    heapDesc({ numDescriptors: 0 }),
    heapDesc({ type: 'SAMPLER', flags: 'SHADER_VISIBLE', numDescriptors: 4096 }),
    heapDesc({ nodeMask: 2 }),
  ];

  test('object ids are not consumed by failed calls, and the device keeps working', async () => {
    const control = await createDevice({ gpuDevice: null });
    const probe = await createDevice({ gpuDevice: null });
    expect(probe.createDescriptorHeap(heapDesc()).label).toBe(control.createDescriptorHeap(heapDesc()).label);
    for (const desc of FAILING) expect(() => probe.createDescriptorHeap(loose(desc))).toThrow();
    const c = control.createDescriptorHeap(heapDesc({ type: 'SAMPLER', flags: 'SHADER_VISIBLE' }));
    const d = probe.createDescriptorHeap(heapDesc({ type: 'SAMPLER', flags: 'SHADER_VISIBLE' }));
    expect(d.label).toBe(c.label);
    expect(d.getDesc()).toEqual(c.getDesc());
    expect(d.getGPUDescriptorHandleForHeapStart()).toEqual(c.getGPUDescriptorHandleForHeapStart());
  });
});
