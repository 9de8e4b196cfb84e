/**
 * createHeap validation (D3D12_HEAP_DESC, D3D12_HEAP_PROPERTIES, D3D12_HEAP_FLAGS) and the
 * normalized description getDesc returns. CTS style: one invalid field at a time next to a valid
 * control; tables over every enum value and both sides of every boundary.
 */
import { describe, expect, test } from 'vitest';
import {
  createDevice,
  Heap,
  type CpuPageProperty,
  type Device,
  type HeapDesc,
  type HeapFlag,
  type HeapProperties,
  type HeapType,
  type MemoryPool,
} from '../../../../src/index.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';

const loose = (value: unknown): never => value as never;

const HEAP_TYPES: HeapType[] = ['DEFAULT', 'UPLOAD', 'READBACK', 'CUSTOM'];
const PAGES: CpuPageProperty[] = ['UNKNOWN', 'NOT_AVAILABLE', 'WRITE_COMBINE', 'WRITE_BACK'];
const POOLS: MemoryPool[] = ['UNKNOWN', 'L0', 'L1'];

/** A valid heap of each type (CUSTOM: system memory, CPU write-back). */
const validProperties = (type: HeapType): HeapProperties =>
  type === 'CUSTOM' ? { type, cpuPageProperty: 'WRITE_BACK', memoryPoolPreference: 'L0' } : { type };

const heapDesc = (overrides: Partial<Record<keyof HeapDesc, unknown>> = {}): HeapDesc =>
  loose({ sizeInBytes: 65536, properties: { type: 'DEFAULT' }, ...overrides });

const device2 = (): Promise<Device> => createDevice({ resourceHeapTier: 2 });
const device1 = (): Promise<Device> => createDevice({ resourceHeapTier: 1 });

const sorted = (flags: readonly string[] | undefined): string[] => [...(flags ?? [])].sort();

describe('createHeap: desc', () => {
  test.each([null, undefined, 65536, 'heap', []])('desc %j (not an object) is rejected', async (desc) => {
    const device = await device2();
    expectD3D12Error(() => device.createHeap(loose(desc)), {
      call: 'createHeap',
      argument: 'desc',
      message: /D3D12_HEAP_DESC/,
    });
  });
});

describe('createHeap: sizeInBytes', () => {
  test.each([1, 4096, 65535, 65536, 65537, 16 << 20, 2 ** 40])(
    '%i is accepted (any positive size; need not be aligned)',
    async (sizeInBytes) => {
      const device = await device2();
      const heap = device.createHeap(heapDesc({ sizeInBytes }));
      expect(heap).toBeInstanceOf(Heap);
      expect(heap.getDesc().sizeInBytes).toBe(sizeInBytes);
    },
  );

  test.each([
    [0, /at least 1/],
    [-1, /at least 1/],
    [-65536, /at least 1/],
    [65536.5, /integer/],
    [Number.NaN, /integer/],
    [Number.POSITIVE_INFINITY, /integer/],
    [2 ** 53, /integer/],
    ['65536', /integer/],
    [65536n, /integer/],
    [undefined, /integer/],
    [null, /integer/],
  ] as const)('%s is rejected', async (sizeInBytes, message) => {
    const device = await device2();
    expectD3D12Error(() => device.createHeap(heapDesc({ sizeInBytes })), {
      call: 'createHeap',
      argument: 'desc.sizeInBytes',
      message,
    });
  });
});

describe('createHeap: properties', () => {
  test.each(HEAP_TYPES)('type %s is accepted', async (type) => {
    const device = await device2();
    expect(device.createHeap(heapDesc({ properties: validProperties(type) })).getDesc().properties.type).toBe(type);
  });

  test.each(['GPU_UPLOAD', 'default', '', 0, undefined])('type %j is rejected', async (type) => {
    const device = await device2();
    expectD3D12Error(() => device.createHeap(heapDesc({ properties: { type } })), {
      call: 'createHeap',
      argument: 'desc.properties.type',
      message: /must be one of DEFAULT, UPLOAD, READBACK, CUSTOM/,
    });
  });

  test.each([null, 'DEFAULT', 3])('properties %j (not an object) are rejected', async (properties) => {
    const device = await device2();
    expectD3D12Error(() => device.createHeap(heapDesc({ properties })), {
      call: 'createHeap',
      argument: 'desc.properties',
      message: /D3D12_HEAP_PROPERTIES/,
    });
  });

  describe('CUSTOM: page property × memory pool', () => {
    const cases = PAGES.flatMap((page) => POOLS.map((pool) => [page, pool] as const));
    test.each(cases)('cpuPageProperty %s, memoryPoolPreference %s', async (page, pool) => {
      const device = await device2();
      const create = () =>
        device.createHeap(
          heapDesc({ properties: { type: 'CUSTOM', cpuPageProperty: page, memoryPoolPreference: pool } }),
        );
      if (page === 'UNKNOWN') {
        expectD3D12Error(create, {
          call: 'createHeap',
          argument: 'desc.properties.cpuPageProperty',
          message: /CUSTOM heap must name its CPU page property/,
        });
      } else if (pool === 'UNKNOWN') {
        expectD3D12Error(create, {
          call: 'createHeap',
          argument: 'desc.properties.memoryPoolPreference',
          message: /CUSTOM heap must name its memory pool/,
        });
      } else if (pool === 'L1' && page !== 'NOT_AVAILABLE') {
        // L1 is video memory on a discrete (NUMA) adapter: never CPU-accessible.
        expectD3D12Error(create, {
          call: 'createHeap',
          argument: 'desc.properties.cpuPageProperty',
          message: /L1 .*must be NOT_AVAILABLE/,
        });
      } else {
        const properties = create().getDesc().properties;
        expect(properties.cpuPageProperty).toBe(page);
        expect(properties.memoryPoolPreference).toBe(pool);
      }
    });

    test('omitted page property and pool are UNKNOWN, so rejected', async () => {
      const device = await device2();
      expectD3D12Error(() => device.createHeap(heapDesc({ properties: { type: 'CUSTOM' } })), {
        argument: 'desc.properties.cpuPageProperty',
      });
      expectD3D12Error(
        () => device.createHeap(heapDesc({ properties: { type: 'CUSTOM', cpuPageProperty: 'WRITE_COMBINE' } })),
        {
          argument: 'desc.properties.memoryPoolPreference',
        },
      );
    });
  });

  describe('non-CUSTOM types leave page property and pool UNKNOWN', () => {
    const types = HEAP_TYPES.filter((type) => type !== 'CUSTOM');
    test.each(types)('%s with explicit UNKNOWN values is accepted', async (type) => {
      const device = await device2();
      const heap = device.createHeap(
        heapDesc({ properties: { type, cpuPageProperty: 'UNKNOWN', memoryPoolPreference: 'UNKNOWN' } }),
      );
      expect(heap.getDesc().properties).toMatchObject({
        type,
        cpuPageProperty: 'UNKNOWN',
        memoryPoolPreference: 'UNKNOWN',
      });
    });

    const pageCases = types.flatMap((type) =>
      PAGES.filter((page) => page !== 'UNKNOWN').map((page) => [type, page] as const),
    );
    test.each(pageCases)('%s with cpuPageProperty %s is rejected', async (type, cpuPageProperty) => {
      const device = await device2();
      expectD3D12Error(() => device.createHeap(heapDesc({ properties: { type, cpuPageProperty } })), {
        call: 'createHeap',
        argument: 'desc.properties.cpuPageProperty',
        message: /must be UNKNOWN unless the heap type is CUSTOM/,
      });
    });

    const poolCases = types.flatMap((type) =>
      POOLS.filter((pool) => pool !== 'UNKNOWN').map((pool) => [type, pool] as const),
    );
    test.each(poolCases)('%s with memoryPoolPreference %s is rejected', async (type, memoryPoolPreference) => {
      const device = await device2();
      expectD3D12Error(() => device.createHeap(heapDesc({ properties: { type, memoryPoolPreference } })), {
        call: 'createHeap',
        argument: 'desc.properties.memoryPoolPreference',
        message: /must be UNKNOWN unless the heap type is CUSTOM/,
      });
    });
  });

  test.each([
    ['WRITE_BACK_X', 'L0', 'cpuPageProperty'],
    ['WRITE_BACK', 'L2', 'memoryPoolPreference'],
    [1, 'L0', 'cpuPageProperty'],
  ] as const)(
    'CUSTOM with unknown names (%j, %j) is rejected',
    async (cpuPageProperty, memoryPoolPreference, field) => {
      const device = await device2();
      expectD3D12Error(
        () => device.createHeap(heapDesc({ properties: { type: 'CUSTOM', cpuPageProperty, memoryPoolPreference } })),
        {
          call: 'createHeap',
          argument: `desc.properties.${field}`,
          message: /must be one of/,
        },
      );
    },
  );

  describe.each(['creationNodeMask', 'visibleNodeMask'] as const)('%s', (field) => {
    test.each(HEAP_TYPES.flatMap((type) => [0, 1].map((mask) => [type, mask] as const)))(
      '%s heap with mask %i is accepted (one node)',
      async (type, mask) => {
        const device = await device2();
        expect(device.createHeap(heapDesc({ properties: { ...validProperties(type), [field]: mask } }))).toBeInstanceOf(
          Heap,
        );
      },
    );

    test('mask 1 is kept in the description', async () => {
      const device = await device2();
      expect(
        device.createHeap(heapDesc({ properties: { type: 'DEFAULT', [field]: 1 } })).getDesc().properties[field],
      ).toBe(1);
    });

    test.each([
      [2, /at most 1/],
      [3, /at most 1/],
      [0xffffffff, /at most 1/],
      [-1, /at least 0/],
      [0.5, /integer/],
      ['1', /integer/],
    ] as const)('mask %s is rejected', async (mask, message) => {
      const device = await device2();
      expectD3D12Error(() => device.createHeap(heapDesc({ properties: { type: 'DEFAULT', [field]: mask } })), {
        call: 'createHeap',
        argument: `desc.properties.${field}`,
        message,
      });
    });
  });
});

describe('createHeap: alignment', () => {
  test.each([
    [undefined, 65536],
    [0, 65536],
    [65536, 65536],
    [4194304, 4194304],
  ] as const)('%s is accepted (getDesc reports %i)', async (alignment, reported) => {
    const device = await device2();
    expect(device.createHeap(heapDesc({ alignment })).getDesc().alignment).toBe(reported);
  });

  test.each([
    1,
    4096,
    32768,
    65535,
    65537,
    131072,
    2097152,
    4194303,
    4194305,
    8388608,
    -65536,
    65536.5,
    '65536',
    Number.NaN,
  ])('%s is rejected', async (alignment) => {
    const device = await device2();
    expectD3D12Error(() => device.createHeap(heapDesc({ alignment })), {
      call: 'createHeap',
      argument: 'desc.alignment',
      message: /must be 0, 65536 \(64 KiB\) or 4194304 \(4 MiB\)/,
    });
  });
});

describe('createHeap: flags', () => {
  const SUPPORTED: HeapFlag[] = [
    'NONE',
    'DENY_BUFFERS',
    'DENY_RT_DS_TEXTURES',
    'DENY_NON_RT_DS_TEXTURES',
    'ALLOW_SHADER_ATOMICS',
    'CREATE_NOT_RESIDENT',
    'CREATE_NOT_ZEROED',
    'ALLOW_ALL_BUFFERS_AND_TEXTURES',
    'ALLOW_ONLY_BUFFERS',
    'ALLOW_ONLY_NON_RT_DS_TEXTURES',
    'ALLOW_ONLY_RT_DS_TEXTURES',
  ];
  const UNSUPPORTED: [HeapFlag, RegExp][] = [
    ['SHARED', /SHARED: sharing heaps .* not emulated/],
    ['SHARED_CROSS_ADAPTER', /SHARED_CROSS_ADAPTER: cross-adapter heaps are not emulated/],
    ['ALLOW_DISPLAY', /ALLOW_DISPLAY: heaps for display .* not emulated/],
    ['HARDWARE_PROTECTED', /HARDWARE_PROTECTED: protected content is not emulated/],
    ['ALLOW_WRITE_WATCH', /ALLOW_WRITE_WATCH: write watch .* not emulated/],
    ['TOOLS_USE_MANUAL_WRITE_TRACKING', /TOOLS_USE_MANUAL_WRITE_TRACKING: tools write tracking is not emulated/],
  ];

  test.each(SUPPORTED)('%s alone is accepted on resource heap tier 2', async (flag) => {
    const device = await device2();
    expect(device.createHeap(heapDesc({ flags: [flag] }))).toBeInstanceOf(Heap);
  });

  test('every supported non-category flag together is accepted', async () => {
    const device = await device2();
    const heap = device.createHeap(
      heapDesc({ flags: ['ALLOW_SHADER_ATOMICS', 'CREATE_NOT_RESIDENT', 'CREATE_NOT_ZEROED', 'NONE'] }),
    );
    expect(sorted(heap.getDesc().flags)).toEqual(['ALLOW_SHADER_ATOMICS', 'CREATE_NOT_RESIDENT', 'CREATE_NOT_ZEROED']);
  });

  test.each(UNSUPPORTED)('%s is rejected with E_INVALIDARG, at its index', async (flag, message) => {
    const device = await device2();
    expectD3D12Error(() => device.createHeap(heapDesc({ flags: [flag] })), {
      hresult: 'E_INVALIDARG',
      call: 'createHeap',
      argument: 'desc.flags[0]',
      message,
    });
    expectD3D12Error(() => device.createHeap(heapDesc({ flags: ['CREATE_NOT_ZEROED', 'NONE', flag] })), {
      call: 'createHeap',
      argument: 'desc.flags[2]',
      message,
    });
    // Control: the same list without the unsupported flag.
    expect(device.createHeap(heapDesc({ flags: ['CREATE_NOT_ZEROED', 'NONE'] }))).toBeInstanceOf(Heap);
  });

  test.each([
    [['DENY_EVERYTHING'], 'desc.flags[0]', /must be one of/],
    [['NONE', 'deny_buffers'], 'desc.flags[1]', /must be one of/],
    [['NONE', 0x4], 'desc.flags[1]', /must be one of/],
    ['DENY_BUFFERS', 'desc.flags', /must be an array of flag names/],
    [0, 'desc.flags', /must be an array of flag names/],
  ] as const)('flags %j are rejected', async (flags, argument, message) => {
    const device = await device2();
    expectD3D12Error(() => device.createHeap(heapDesc({ flags })), { call: 'createHeap', argument, message });
  });

  test.each([
    'DENY_BUFFERS',
    'DENY_RT_DS_TEXTURES',
    'DENY_NON_RT_DS_TEXTURES',
    'ALLOW_ONLY_BUFFERS',
    'ALLOW_ONLY_NON_RT_DS_TEXTURES',
    'ALLOW_ONLY_RT_DS_TEXTURES',
  ] as const)('ALLOW_ALL_BUFFERS_AND_TEXTURES with %s is rejected', async (flag) => {
    const device = await device2();
    for (const flags of [
      ['ALLOW_ALL_BUFFERS_AND_TEXTURES', flag],
      [flag, 'ALLOW_ALL_BUFFERS_AND_TEXTURES'],
    ]) {
      expectD3D12Error(() => device.createHeap(heapDesc({ flags })), {
        call: 'createHeap',
        argument: 'desc.flags',
        message: /ALLOW_ALL_BUFFERS_AND_TEXTURES cannot be combined with DENY_\* or ALLOW_ONLY_\*/,
      });
    }
    // Controls: each alone.
    expect(device.createHeap(heapDesc({ flags: [flag] }))).toBeInstanceOf(Heap);
    expect(
      device.createHeap(heapDesc({ flags: ['ALLOW_ALL_BUFFERS_AND_TEXTURES', 'CREATE_NOT_ZEROED'] })),
    ).toBeInstanceOf(Heap);
  });

  test.each([
    [['DENY_BUFFERS', 'DENY_RT_DS_TEXTURES', 'DENY_NON_RT_DS_TEXTURES']],
    [['ALLOW_ONLY_BUFFERS', 'DENY_BUFFERS']],
    [['ALLOW_ONLY_NON_RT_DS_TEXTURES', 'DENY_NON_RT_DS_TEXTURES']],
    [['ALLOW_ONLY_RT_DS_TEXTURES', 'DENY_RT_DS_TEXTURES']],
    [['ALLOW_ONLY_BUFFERS', 'ALLOW_ONLY_RT_DS_TEXTURES']],
    [['ALLOW_ONLY_NON_RT_DS_TEXTURES', 'ALLOW_ONLY_RT_DS_TEXTURES', 'CREATE_NOT_ZEROED']],
  ] as const)('all three DENY bits (%j) are rejected: the heap could hold nothing', async (flags) => {
    for (const tier of [1, 2] as const) {
      const device = await createDevice({ resourceHeapTier: tier });
      expectD3D12Error(() => device.createHeap(heapDesc({ flags: [...flags] })), {
        call: 'createHeap',
        argument: 'desc.flags',
        message: /could hold nothing/,
      });
    }
  });

  test.each([
    [['DENY_BUFFERS', 'DENY_RT_DS_TEXTURES']],
    [['DENY_BUFFERS', 'DENY_NON_RT_DS_TEXTURES']],
    [['DENY_RT_DS_TEXTURES', 'DENY_NON_RT_DS_TEXTURES']],
  ] as const)('two DENY bits (%j) are accepted: one category is left', async (flags) => {
    const device = await device2();
    expect(device.createHeap(heapDesc({ flags: [...flags] }))).toBeInstanceOf(Heap);
  });
});

describe('createHeap: resource heap tiers', () => {
  const ONE_CATEGORY: HeapFlag[][] = [
    ['ALLOW_ONLY_BUFFERS'],
    ['ALLOW_ONLY_NON_RT_DS_TEXTURES'],
    ['ALLOW_ONLY_RT_DS_TEXTURES'],
    ['DENY_RT_DS_TEXTURES', 'DENY_NON_RT_DS_TEXTURES'],
    ['DENY_BUFFERS', 'DENY_RT_DS_TEXTURES'],
    ['DENY_BUFFERS', 'DENY_NON_RT_DS_TEXTURES'],
    ['ALLOW_ONLY_BUFFERS', 'CREATE_NOT_RESIDENT', 'ALLOW_SHADER_ATOMICS'],
  ];
  const SEVERAL_CATEGORIES: HeapFlag[][] = [
    [],
    ['NONE'],
    ['ALLOW_ALL_BUFFERS_AND_TEXTURES'],
    ['DENY_BUFFERS'],
    ['DENY_RT_DS_TEXTURES'],
    ['DENY_NON_RT_DS_TEXTURES'],
    ['CREATE_NOT_ZEROED'],
  ];

  test.each(ONE_CATEGORY)('tier 1 accepts a heap of one category: %j', async (...flags) => {
    const device = await device1();
    expect(
      device
        .createHeap(heapDesc({ flags }))
        .getDesc()
        .flags?.some((flag) => flag.startsWith('ALLOW_ONLY_')),
    ).toBe(true);
  });

  test.each(SEVERAL_CATEGORIES)('tier 1 rejects a heap of several categories: %j', async (...flags) => {
    const device = await device1();
    expectD3D12Error(() => device.createHeap(heapDesc({ flags })), {
      call: 'createHeap',
      argument: 'desc.flags',
      message: /resource heap tier 1 needs a heap of one category/,
    });
  });

  test.each([...SEVERAL_CATEGORIES, ...ONE_CATEGORY])('tier 2 accepts %j', async (...flags) => {
    const device = await device2();
    expect(device.createHeap(heapDesc({ flags }))).toBeInstanceOf(Heap);
  });

  test('tier 1 names the categories the flags allow', async () => {
    const device = await device1();
    expectD3D12Error(() => device.createHeap(heapDesc({ flags: ['DENY_BUFFERS'] })), {
      argument: 'desc.flags',
      message: /allow render-target and depth-stencil textures and textures that are neither/,
    });
  });

  test.each(HEAP_TYPES)('tier 1, %s heap: ALLOW_ONLY_BUFFERS is accepted, ALLOW_ALL is not', async (type) => {
    const device = await device1();
    expect(
      device.createHeap(heapDesc({ properties: validProperties(type), flags: ['ALLOW_ONLY_BUFFERS'] })),
    ).toBeInstanceOf(Heap);
    expectD3D12Error(
      () =>
        device.createHeap(heapDesc({ properties: validProperties(type), flags: ['ALLOW_ALL_BUFFERS_AND_TEXTURES'] })),
      {
        argument: 'desc.flags',
        message: /tier 1/,
      },
    );
  });
});

describe('createHeap: UPLOAD and READBACK heaps hold buffers', () => {
  const DENYING_BUFFERS: HeapFlag[][] = [
    ['DENY_BUFFERS'],
    ['ALLOW_ONLY_NON_RT_DS_TEXTURES'],
    ['ALLOW_ONLY_RT_DS_TEXTURES'],
    ['DENY_BUFFERS', 'DENY_RT_DS_TEXTURES'],
  ];
  const KEEPING_BUFFERS: HeapFlag[][] = [
    [],
    ['ALLOW_ONLY_BUFFERS'],
    ['DENY_RT_DS_TEXTURES'],
    ['DENY_NON_RT_DS_TEXTURES'],
    ['CREATE_NOT_ZEROED'],
  ];

  describe.each(['UPLOAD', 'READBACK'] as const)('%s', (type) => {
    test.each(DENYING_BUFFERS)('flags %j deny buffers: rejected', async (...flags) => {
      const device = await device2();
      expectD3D12Error(() => device.createHeap(heapDesc({ properties: { type }, flags })), {
        call: 'createHeap',
        argument: 'desc.flags',
        message: new RegExp(`${type} heap holds only buffers, so it cannot deny them`),
      });
    });

    test.each(KEEPING_BUFFERS)('flags %j allow buffers: accepted', async (...flags) => {
      const device = await device2();
      expect(device.createHeap(heapDesc({ properties: { type }, flags })).getDesc().properties.type).toBe(type);
    });

    test('tier 1: ALLOW_ONLY_NON_RT_DS_TEXTURES passes the tier rule but not the buffer rule', async () => {
      const device = await device1();
      expectD3D12Error(
        () => device.createHeap(heapDesc({ properties: { type }, flags: ['ALLOW_ONLY_NON_RT_DS_TEXTURES'] })),
        {
          argument: 'desc.flags',
          message: /holds only buffers/,
        },
      );
    });
  });

  test.each(DENYING_BUFFERS)('control: a DEFAULT heap may deny buffers (%j)', async (...flags) => {
    const device = await device2();
    expect(device.createHeap(heapDesc({ properties: { type: 'DEFAULT' }, flags }))).toBeInstanceOf(Heap);
  });

  test.each(['WRITE_COMBINE', 'WRITE_BACK'] as const)(
    'a CPU-accessible CUSTOM heap (%s, L0) that allows only render-target/depth-stencil textures could hold nothing: rejected',
    async (cpuPageProperty) => {
      // Such a heap admits neither buffers nor non-RT/DS textures, and RT/DS resources may not live in
      // CPU-accessible memory (createCommittedResource/createPlacedResource refuse them there).
      const device = await device2();
      const properties: HeapProperties = { type: 'CUSTOM', cpuPageProperty, memoryPoolPreference: 'L0' };
      expect(device.createHeap(heapDesc({ properties, flags: ['ALLOW_ONLY_NON_RT_DS_TEXTURES'] }))).toBeInstanceOf(
        Heap,
      );
      expect(
        device.createHeap(
          heapDesc({
            properties: { type: 'CUSTOM', cpuPageProperty: 'NOT_AVAILABLE', memoryPoolPreference: 'L0' },
            flags: ['ALLOW_ONLY_RT_DS_TEXTURES'],
          }),
        ),
      ).toBeInstanceOf(Heap);
      expectD3D12Error(() => device.createHeap(heapDesc({ properties, flags: ['ALLOW_ONLY_RT_DS_TEXTURES'] })), {
        call: 'createHeap',
        argument: 'desc.flags',
      });
    },
  );
});

describe('Heap.getDesc: the normalized description', () => {
  test('defaults are filled in', async () => {
    const device = await device2();
    const desc = device.createHeap({ sizeInBytes: 100000, properties: { type: 'DEFAULT' } }).getDesc();
    expect(desc).toMatchObject({ sizeInBytes: 100000, alignment: 65536, flags: [] });
    expect(desc.properties).toMatchObject({
      type: 'DEFAULT',
      cpuPageProperty: 'UNKNOWN',
      memoryPoolPreference: 'UNKNOWN',
    });
  });

  test('CUSTOM properties and node masks are kept', async () => {
    const device = await device2();
    const properties: HeapProperties = {
      type: 'CUSTOM',
      cpuPageProperty: 'NOT_AVAILABLE',
      memoryPoolPreference: 'L1',
      creationNodeMask: 1,
      visibleNodeMask: 1,
    };
    const desc = device.createHeap({ sizeInBytes: 65536, properties, alignment: 4194304 }).getDesc();
    expect(desc).toEqual({ sizeInBytes: 65536, properties, alignment: 4194304, flags: [] });
  });

  test.each([
    [[], []],
    [['NONE'], []],
    [['ALLOW_ALL_BUFFERS_AND_TEXTURES'], []],
    [['DENY_BUFFERS'], ['DENY_BUFFERS']],
    [['DENY_RT_DS_TEXTURES'], ['DENY_RT_DS_TEXTURES']],
    [['DENY_NON_RT_DS_TEXTURES'], ['DENY_NON_RT_DS_TEXTURES']],
    [['DENY_RT_DS_TEXTURES', 'DENY_NON_RT_DS_TEXTURES'], ['ALLOW_ONLY_BUFFERS']],
    [['DENY_BUFFERS', 'DENY_RT_DS_TEXTURES'], ['ALLOW_ONLY_NON_RT_DS_TEXTURES']],
    [['DENY_BUFFERS', 'DENY_NON_RT_DS_TEXTURES'], ['ALLOW_ONLY_RT_DS_TEXTURES']],
    [['ALLOW_ONLY_BUFFERS'], ['ALLOW_ONLY_BUFFERS']],
    [['ALLOW_ONLY_BUFFERS', 'DENY_RT_DS_TEXTURES'], ['ALLOW_ONLY_BUFFERS']],
    [['ALLOW_ONLY_NON_RT_DS_TEXTURES', 'ALLOW_ONLY_NON_RT_DS_TEXTURES'], ['ALLOW_ONLY_NON_RT_DS_TEXTURES']],
    [
      ['CREATE_NOT_ZEROED', 'ALLOW_ONLY_RT_DS_TEXTURES', 'CREATE_NOT_RESIDENT'],
      ['ALLOW_ONLY_RT_DS_TEXTURES', 'CREATE_NOT_RESIDENT', 'CREATE_NOT_ZEROED'],
    ],
    [
      ['DENY_BUFFERS', 'ALLOW_SHADER_ATOMICS'],
      ['ALLOW_SHADER_ATOMICS', 'DENY_BUFFERS'],
    ],
  ] as const)('flags %j are described as %j', async (flags, described) => {
    const device = await device2();
    expect(sorted(device.createHeap(heapDesc({ flags: [...flags] })).getDesc().flags)).toEqual(sorted(described));
  });

  test('getDesc returns a copy', async () => {
    const device = await device2();
    const heap = device.createHeap(heapDesc({ flags: ['ALLOW_ONLY_BUFFERS'] }));
    const desc = heap.getDesc();
    desc.sizeInBytes = 1;
    desc.flags?.push('CREATE_NOT_RESIDENT');
    desc.properties.type = 'UPLOAD';
    expect(heap.getDesc()).toMatchObject({
      sizeInBytes: 65536,
      flags: ['ALLOW_ONLY_BUFFERS'],
      properties: { type: 'DEFAULT' },
    });
  });

  test("the caller's description is not changed by createHeap", async () => {
    const device = await device2();
    const desc: HeapDesc = {
      sizeInBytes: 65536,
      properties: { type: 'DEFAULT' },
      flags: ['DENY_RT_DS_TEXTURES', 'DENY_NON_RT_DS_TEXTURES'],
    };
    const before = structuredClone(desc);
    device.createHeap(desc);
    expect(desc).toEqual(before);
  });

  test('a released heap refuses getDesc', async () => {
    const device = await device2();
    const heap = device.createHeap(heapDesc());
    heap.release();
    expectD3D12Error(() => heap.getDesc(), { call: 'Heap.getDesc', argument: 'this', message: /was released/ });
  });
});

describe('createHeap: a failed call changes nothing', () => {
  const FAILING: HeapDesc[] = [
    heapDesc({ sizeInBytes: 0 }),
    heapDesc({ properties: { type: 'CUSTOM' } }),
    heapDesc({ alignment: 4096 }),
    heapDesc({ flags: ['SHARED'] }),
    heapDesc({ flags: ['DENY_BUFFERS', 'DENY_RT_DS_TEXTURES', 'DENY_NON_RT_DS_TEXTURES'] }),
    heapDesc({ properties: { type: 'UPLOAD' }, flags: ['DENY_BUFFERS'] }),
  ];

  test('heap ids are not consumed by failed calls, and the device keeps working', async () => {
    const control = await device2();
    const probe = await device2();
    const a = control.createHeap(heapDesc());
    const b = probe.createHeap(heapDesc());
    expect(b.label).toBe(a.label);
    for (const desc of FAILING) expect(() => probe.createHeap(desc)).toThrow();
    const c = control.createHeap(heapDesc({ sizeInBytes: 131072 }));
    const d = probe.createHeap(heapDesc({ sizeInBytes: 131072 }));
    expect(d.label).toBe(c.label);
    expect(d.getDesc()).toEqual(c.getDesc());
    // And the heaps of both devices hold resources at the same addresses.
    const buffer = { dimension: 'BUFFER', width: 65536 } as const;
    expect(probe.createPlacedResource(d, 65536, buffer, 'COMMON').getGPUVirtualAddress()).toBe(
      control.createPlacedResource(c, 65536, buffer, 'COMMON').getGPUVirtualAddress(),
    );
  });
});
