/**
 * Where a resource may live: createCommittedResource (heap properties and flags, initial states,
 * optimized clear values), createPlacedResource (the heap, the offset, the fit, the heap's flags,
 * tier-1 heaps) and createReservedResource (1D, layout, tiled-resources tiers). CTS style: one
 * invalid argument at a time next to a valid control; failed calls change nothing.
 */
import { describe, expect, test } from 'vitest';
import {
  createDevice,
  Heap,
  Resource,
  type ClearValue,
  type Device,
  type HeapFlag,
  type HeapProperties,
  type ResourceDesc,
  type ResourceStates,
  type TiledResourcesTier,
} from '../../../../src/index.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';
import { TILE } from '../../../shared/d3d12-helpers.js';
import { getTileMappingForTesting } from '../../../../src/testing/index.js';

const loose = (value: unknown): never => value as never;

const MIB = 1 << 20;

const BUFFER: ResourceDesc = { dimension: 'BUFFER', width: 65536 };
const UAV_BUFFER: ResourceDesc = { ...BUFFER, flags: ['ALLOW_UNORDERED_ACCESS'] };
const TEXTURE: ResourceDesc = { dimension: 'TEXTURE2D', width: 256, height: 256, format: 'R8G8B8A8_UNORM' };
const UAV_TEXTURE: ResourceDesc = { ...TEXTURE, flags: ['ALLOW_UNORDERED_ACCESS'] };
const RT_TEXTURE: ResourceDesc = { ...TEXTURE, flags: ['ALLOW_RENDER_TARGET'] };
const DS_TEXTURE: ResourceDesc = {
  dimension: 'TEXTURE2D',
  width: 256,
  height: 256,
  format: 'D32_FLOAT',
  flags: ['ALLOW_DEPTH_STENCIL'],
};
/** 32×32 RGBA8: 4 KiB, placeable at 4 KiB offsets. */
const SMALL_TEXTURE: ResourceDesc = {
  dimension: 'TEXTURE2D',
  width: 32,
  height: 32,
  format: 'R8G8B8A8_UNORM',
  alignment: 4096,
};

type Category = 'buffer' | 'non-rt-ds-texture' | 'rt-ds-texture';
const CATEGORY_TEXT: Record<Category, string> = {
  buffer: 'buffers',
  'non-rt-ds-texture': 'textures that are neither render targets nor depth-stencil',
  'rt-ds-texture': 'render-target and depth-stencil textures',
};
const RESOURCES: [string, ResourceDesc, Category][] = [
  ['buffer', BUFFER, 'buffer'],
  ['UAV buffer', UAV_BUFFER, 'buffer'],
  ['texture', TEXTURE, 'non-rt-ds-texture'],
  ['UAV texture', UAV_TEXTURE, 'non-rt-ds-texture'],
  ['render target', RT_TEXTURE, 'rt-ds-texture'],
  ['depth-stencil', DS_TEXTURE, 'rt-ds-texture'],
];
/** The categories each category-restricting flag denies. */
const DENIES: [HeapFlag, Category[]][] = [
  ['DENY_BUFFERS', ['buffer']],
  ['DENY_RT_DS_TEXTURES', ['rt-ds-texture']],
  ['DENY_NON_RT_DS_TEXTURES', ['non-rt-ds-texture']],
  ['ALLOW_ONLY_BUFFERS', ['rt-ds-texture', 'non-rt-ds-texture']],
  ['ALLOW_ONLY_NON_RT_DS_TEXTURES', ['buffer', 'rt-ds-texture']],
  ['ALLOW_ONLY_RT_DS_TEXTURES', ['buffer', 'non-rt-ds-texture']],
];
const ALLOW_ONLY: Record<Category, HeapFlag> = {
  buffer: 'ALLOW_ONLY_BUFFERS',
  'non-rt-ds-texture': 'ALLOW_ONLY_NON_RT_DS_TEXTURES',
  'rt-ds-texture': 'ALLOW_ONLY_RT_DS_TEXTURES',
};

const DEFAULT_HEAP: HeapProperties = { type: 'DEFAULT' };
const UPLOAD_HEAP: HeapProperties = { type: 'UPLOAD' };
const READBACK_HEAP: HeapProperties = { type: 'READBACK' };
const CUSTOM_WRITE_BACK: HeapProperties = { type: 'CUSTOM', cpuPageProperty: 'WRITE_BACK', memoryPoolPreference: 'L0' };
const CUSTOM_WRITE_COMBINE: HeapProperties = {
  type: 'CUSTOM',
  cpuPageProperty: 'WRITE_COMBINE',
  memoryPoolPreference: 'L0',
};
const CUSTOM_GPU_L1: HeapProperties = { type: 'CUSTOM', cpuPageProperty: 'NOT_AVAILABLE', memoryPoolPreference: 'L1' };
const CUSTOM_GPU_L0: HeapProperties = { type: 'CUSTOM', cpuPageProperty: 'NOT_AVAILABLE', memoryPoolPreference: 'L0' };

/** The state a resource in a heap of this type must (or may) start in. */
const startState = (properties: HeapProperties): ResourceStates =>
  properties.type === 'UPLOAD' ? 'GENERIC_READ' : properties.type === 'READBACK' ? 'COPY_DEST' : 'COMMON';

const newDevice = (tiledResourcesTier: TiledResourcesTier = 3): Promise<Device> => createDevice({ tiledResourcesTier });

function committed(
  device: Device,
  desc: unknown,
  overrides: { properties?: unknown; flags?: unknown; state?: unknown; clear?: unknown } = {},
): Resource {
  const properties = ('properties' in overrides ? overrides.properties : DEFAULT_HEAP) as HeapProperties;
  return device.createCommittedResource(
    loose(properties),
    loose(overrides.flags ?? []),
    loose(desc),
    loose('state' in overrides ? overrides.state : startState(properties ?? DEFAULT_HEAP)),
    loose(overrides.clear),
  );
}

// ---------------------------------------------------------------------------------------------
describe('createCommittedResource: heap properties', () => {
  test.each([
    ['DEFAULT', DEFAULT_HEAP, [BUFFER, UAV_BUFFER, TEXTURE, UAV_TEXTURE, RT_TEXTURE, DS_TEXTURE]],
    ['UPLOAD', UPLOAD_HEAP, [BUFFER]],
    ['READBACK', READBACK_HEAP, [BUFFER]],
    ['CUSTOM write-back L0', CUSTOM_WRITE_BACK, [BUFFER, UAV_BUFFER, TEXTURE, UAV_TEXTURE]],
    ['CUSTOM write-combine L0', CUSTOM_WRITE_COMBINE, [BUFFER, TEXTURE]],
    ['CUSTOM not-available L1', CUSTOM_GPU_L1, [BUFFER, UAV_BUFFER, TEXTURE, RT_TEXTURE, DS_TEXTURE]],
    ['CUSTOM not-available L0', CUSTOM_GPU_L0, [BUFFER, TEXTURE, RT_TEXTURE, DS_TEXTURE]],
  ] as const)('%s holds what it may', async (_name, properties, descs) => {
    const device = await newDevice();
    for (const desc of descs) expect(committed(device, desc, { properties })).toBeInstanceOf(Resource);
  });

  test.each([
    [null, 'heapProperties', /D3D12_HEAP_PROPERTIES/],
    ['DEFAULT', 'heapProperties', /D3D12_HEAP_PROPERTIES/],
    [{ type: 'GPU_UPLOAD' }, 'heapProperties.type', /must be one of DEFAULT, UPLOAD, READBACK, CUSTOM/],
    [{ type: 'CUSTOM' }, 'heapProperties.cpuPageProperty', /CUSTOM heap must name its CPU page property/],
    [
      { type: 'CUSTOM', cpuPageProperty: 'WRITE_BACK' },
      'heapProperties.memoryPoolPreference',
      /CUSTOM heap must name its memory pool/,
    ],
    [
      { type: 'CUSTOM', cpuPageProperty: 'WRITE_BACK', memoryPoolPreference: 'L1' },
      'heapProperties.cpuPageProperty',
      /must be NOT_AVAILABLE/,
    ],
    [
      { type: 'DEFAULT', cpuPageProperty: 'WRITE_BACK' },
      'heapProperties.cpuPageProperty',
      /must be UNKNOWN unless the heap type is CUSTOM/,
    ],
    [
      { type: 'DEFAULT', memoryPoolPreference: 'L1' },
      'heapProperties.memoryPoolPreference',
      /must be UNKNOWN unless the heap type is CUSTOM/,
    ],
    [{ type: 'DEFAULT', creationNodeMask: 2 }, 'heapProperties.creationNodeMask', /at most 1/],
    [{ type: 'DEFAULT', visibleNodeMask: -1 }, 'heapProperties.visibleNodeMask', /at least 0/],
  ] as const)('heap properties %j are rejected', async (properties, argument, message) => {
    const device = await newDevice();
    expect(committed(device, BUFFER)).toBeInstanceOf(Resource);
    expectD3D12Error(() => committed(device, BUFFER, { properties, state: 'COMMON' }), {
      call: 'createCommittedResource',
      argument,
      message,
    });
  });
});

describe('createCommittedResource: heap flags', () => {
  test.each([
    [[]],
    [['NONE']],
    [['CREATE_NOT_RESIDENT']],
    [['CREATE_NOT_ZEROED']],
    [['ALLOW_SHADER_ATOMICS']],
    [['ALLOW_ALL_BUFFERS_AND_TEXTURES']],
  ] as const)('flags %j are accepted for every kind of resource', async (flags) => {
    const device = await newDevice();
    for (const [, desc] of RESOURCES) expect(committed(device, desc, { flags })).toBeInstanceOf(Resource);
  });

  test.each([
    'SHARED',
    'SHARED_CROSS_ADAPTER',
    'ALLOW_DISPLAY',
    'HARDWARE_PROTECTED',
    'ALLOW_WRITE_WATCH',
    'TOOLS_USE_MANUAL_WRITE_TRACKING',
  ] as const)('unsupported flag %s is rejected', async (flag) => {
    const device = await newDevice();
    expectD3D12Error(() => committed(device, BUFFER, { flags: ['CREATE_NOT_ZEROED', flag] }), {
      call: 'createCommittedResource',
      argument: 'heapFlags[1]',
      message: new RegExp(`${flag}: .*not emulated`),
    });
  });

  test.each([
    [['ALLOW_ALL_BUFFERS_AND_TEXTURES', 'DENY_RT_DS_TEXTURES'], /ALLOW_ALL_BUFFERS_AND_TEXTURES cannot be combined/],
    [['DENY_BUFFERS', 'DENY_RT_DS_TEXTURES', 'DENY_NON_RT_DS_TEXTURES'], /could hold nothing/],
    ['DENY_BUFFERS', /must be an array of flag names/],
  ] as const)('flags %j are rejected', async (flags, message) => {
    const device = await newDevice();
    expectD3D12Error(() => committed(device, TEXTURE, { flags }), {
      call: 'createCommittedResource',
      argument: 'heapFlags',
      message,
    });
  });

  const matrix = RESOURCES.flatMap(([name, desc, category]) =>
    DENIES.map(([flag, denied]) => [name, flag, desc, category, denied.includes(category)] as const),
  );
  test.each(matrix)('%s with heap flag %s', async (_name, flag, desc, category, denied) => {
    const device = await newDevice();
    if (denied) {
      expectD3D12Error(() => committed(device, desc, { flags: [flag] }), {
        call: 'createCommittedResource',
        argument: 'heapFlags',
        message: new RegExp(`deny ${CATEGORY_TEXT[category]}, which this resource is`),
      });
      // Control: the flag that allows exactly this category.
      expect(committed(device, desc, { flags: [ALLOW_ONLY[category]] })).toBeInstanceOf(Resource);
    } else {
      expect(committed(device, desc, { flags: [flag] })).toBeInstanceOf(Resource);
    }
  });

  test('resource heap tier 1 places no category rule on committed resources (their heap is implicit)', async () => {
    const device = await createDevice({ resourceHeapTier: 1 });
    for (const [, desc] of RESOURCES) expect(committed(device, desc)).toBeInstanceOf(Resource);
  });
});

describe('createCommittedResource: what CPU-accessible heaps hold', () => {
  const TEXTURES: [string, ResourceDesc][] = [
    ['2D texture', TEXTURE],
    ['1D texture', { dimension: 'TEXTURE1D', width: 64, format: 'R8G8B8A8_UNORM' }],
    ['3D texture', { dimension: 'TEXTURE3D', width: 16, height: 16, depthOrArraySize: 4, format: 'R8G8B8A8_UNORM' }],
    ['render target', RT_TEXTURE],
    ['depth-stencil', DS_TEXTURE],
  ];

  test.each(
    [UPLOAD_HEAP, READBACK_HEAP].flatMap((properties) =>
      TEXTURES.map(([name, desc]) => [properties.type, name, properties, desc] as const),
    ),
  )('a %s heap refuses a %s', async (type, _name, properties, desc) => {
    const device = await newDevice();
    expect(committed(device, BUFFER, { properties })).toBeInstanceOf(Resource);
    expectD3D12Error(() => committed(device, desc, { properties }), {
      call: 'createCommittedResource',
      argument: 'heapProperties.type',
      message: new RegExp(`an ${type} heap holds only buffers`),
    });
  });

  test.each([UPLOAD_HEAP, READBACK_HEAP].map((properties) => [properties.type, properties] as const))(
    'a %s heap refuses ALLOW_UNORDERED_ACCESS',
    async (type, properties) => {
      const device = await newDevice();
      expect(committed(device, BUFFER, { properties })).toBeInstanceOf(Resource);
      expectD3D12Error(() => committed(device, UAV_BUFFER, { properties }), {
        call: 'createCommittedResource',
        argument: 'heapProperties.type',
        message: new RegExp(`ALLOW_UNORDERED_ACCESS cannot be used in an ${type} heap`),
      });
    },
  );

  test.each([
    ['write-back', CUSTOM_WRITE_BACK, RT_TEXTURE],
    ['write-back', CUSTOM_WRITE_BACK, DS_TEXTURE],
    ['write-combine', CUSTOM_WRITE_COMBINE, RT_TEXTURE],
    ['write-combine', CUSTOM_WRITE_COMBINE, DS_TEXTURE],
  ] as const)('a CPU-accessible (%s) CUSTOM heap refuses %j', async (_name, properties, desc) => {
    const device = await newDevice();
    expect(committed(device, TEXTURE, { properties })).toBeInstanceOf(Resource);
    expect(committed(device, desc, { properties: CUSTOM_GPU_L0 })).toBeInstanceOf(Resource);
    expectD3D12Error(() => committed(device, desc, { properties }), {
      call: 'createCommittedResource',
      argument: 'heapProperties.type',
      message: /render-target and depth-stencil resources cannot live in CPU-accessible memory/,
    });
  });
});

describe('createCommittedResource: initial states', () => {
  test.each([
    [
      'UPLOAD',
      UPLOAD_HEAP,
      ['GENERIC_READ', ['GENERIC_READ'], ['GENERIC_READ', 'COPY_SOURCE']],
      [
        'COMMON',
        'COPY_SOURCE',
        'VERTEX_AND_CONSTANT_BUFFER',
        ['VERTEX_AND_CONSTANT_BUFFER', 'INDEX_BUFFER', 'COPY_SOURCE'],
      ],
      /a resource in an UPLOAD heap must start in GENERIC_READ/,
    ],
    [
      'READBACK',
      READBACK_HEAP,
      ['COPY_DEST', ['COPY_DEST']],
      ['COMMON', 'GENERIC_READ', 'COPY_SOURCE', 'PRESENT'],
      /a resource in a READBACK heap must start in COPY_DEST/,
    ],
  ] as const)('%s heap', async (_type, properties, valid, invalid, message) => {
    const device = await newDevice();
    for (const state of valid) expect(committed(device, BUFFER, { properties, state })).toBeInstanceOf(Resource);
    for (const state of invalid) {
      expectD3D12Error(() => committed(device, BUFFER, { properties, state }), {
        call: 'createCommittedResource',
        argument: 'initialState',
        message,
      });
    }
  });

  test('COPY_DEST (a write state) in an UPLOAD heap and GENERIC_READ in a READBACK heap are rejected', async () => {
    const device = await newDevice();
    expectD3D12Error(() => committed(device, BUFFER, { properties: UPLOAD_HEAP, state: 'COPY_DEST' }), {
      argument: 'initialState',
      message: /GENERIC_READ/,
    });
    expectD3D12Error(() => committed(device, BUFFER, { properties: READBACK_HEAP, state: 'GENERIC_READ' }), {
      argument: 'initialState',
      message: /COPY_DEST/,
    });
  });

  const WRITES = [
    'RENDER_TARGET',
    'UNORDERED_ACCESS',
    'DEPTH_WRITE',
    'STREAM_OUT',
    'COPY_DEST',
    'RESOLVE_DEST',
  ] as const;
  const READS = [
    'VERTEX_AND_CONSTANT_BUFFER',
    'INDEX_BUFFER',
    'NON_PIXEL_SHADER_RESOURCE',
    'PIXEL_SHADER_RESOURCE',
    'INDIRECT_ARGUMENT',
    'COPY_SOURCE',
    'GENERIC_READ',
    'DEPTH_READ',
  ] as const;

  test.each(WRITES.flatMap((a, i) => WRITES.slice(i + 1).map((b) => [a, b] as const)))(
    'write states %s and %s cannot combine',
    async (a, b) => {
      const device = await newDevice();
      expectD3D12Error(() => committed(device, TEXTURE, { state: [a, b] }), {
        call: 'createCommittedResource',
        argument: 'initialState',
        message: /write states cannot be combined/,
      });
    },
  );

  test.each(WRITES.flatMap((write) => READS.map((read) => [write, read] as const)))(
    'write state %s cannot combine with %s',
    async (write, read) => {
      const device = await newDevice();
      expectD3D12Error(() => committed(device, TEXTURE, { state: [read, write] }), {
        call: 'createCommittedResource',
        argument: 'initialState',
        message: /a write state cannot be combined with other states/,
      });
    },
  );

  test.each([
    [TEXTURE, 'COMMON'],
    [TEXTURE, 'PRESENT'],
    [TEXTURE, 'COPY_DEST'],
    [TEXTURE, 'COPY_SOURCE'],
    [TEXTURE, 'GENERIC_READ'],
    [TEXTURE, 'ALL_SHADER_RESOURCE'],
    [TEXTURE, ['PIXEL_SHADER_RESOURCE', 'NON_PIXEL_SHADER_RESOURCE', 'COPY_SOURCE']],
    [TEXTURE, ['COPY_DEST', 'COPY_DEST']],
    [TEXTURE, 'RESOLVE_DEST'],
    [DS_TEXTURE, ['DEPTH_READ', 'PIXEL_SHADER_RESOURCE']],
  ] as const)('%j in state %j is accepted', async (desc, state) => {
    const device = await newDevice();
    expect(committed(device, desc, { state })).toBeInstanceOf(Resource);
  });

  test.each([
    ['RENDER_TARGET', TEXTURE, RT_TEXTURE, /RENDER_TARGET needs a resource created with ALLOW_RENDER_TARGET/],
    ['UNORDERED_ACCESS', TEXTURE, UAV_TEXTURE, /UNORDERED_ACCESS needs a resource created with ALLOW_UNORDERED_ACCESS/],
    [
      'UNORDERED_ACCESS',
      RT_TEXTURE,
      { ...TEXTURE, flags: ['ALLOW_RENDER_TARGET', 'ALLOW_UNORDERED_ACCESS'] },
      /UNORDERED_ACCESS needs .*ALLOW_UNORDERED_ACCESS/,
    ],
    [
      'DEPTH_WRITE',
      { ...TEXTURE, format: 'D32_FLOAT' },
      DS_TEXTURE,
      /DEPTH_WRITE needs a resource created with ALLOW_DEPTH_STENCIL/,
    ],
    [
      'DEPTH_READ',
      { ...TEXTURE, format: 'D32_FLOAT' },
      DS_TEXTURE,
      /DEPTH_READ needs a resource created with ALLOW_DEPTH_STENCIL/,
    ],
    ['DEPTH_WRITE', RT_TEXTURE, DS_TEXTURE, /DEPTH_WRITE needs .*ALLOW_DEPTH_STENCIL/],
  ] as const)('state %s needs its resource flag', async (state, without, withFlag, message) => {
    const device = await newDevice();
    expect(committed(device, withFlag, { state })).toBeInstanceOf(Resource);
    expectD3D12Error(() => committed(device, without, { state }), {
      call: 'createCommittedResource',
      argument: 'initialState',
      message,
    });
  });

  test.each([
    ['GENERIC', 'initialState', /must be one of COMMON/],
    ['copy_dest', 'initialState', /must be one of/],
    ['D3D12_RESOURCE_STATE_COMMON', 'initialState', /must be one of/],
    [0, 'initialState', /must be one of/],
    [null, 'initialState', /must be one of/],
    [undefined, 'initialState', /must be one of/],
    [['COPY_SOURCE', 'BOGUS'], 'initialState[1]', /must be one of/],
    [['PIXEL_SHADER_RESOURCE', 0x80], 'initialState[1]', /must be one of/],
    [[], 'initialState', /must name at least one state/],
  ] as const)('unknown state %j is rejected', async (state, argument, message) => {
    const device = await newDevice();
    expectD3D12Error(() => committed(device, TEXTURE, { state }), {
      call: 'createCommittedResource',
      argument,
      message,
    });
  });
});

describe('createCommittedResource: optimized clear values', () => {
  const RT_CLEAR: ClearValue = { format: 'R8G8B8A8_UNORM', color: [0, 0, 0, 1] };
  const DS_CLEAR: ClearValue = { format: 'D32_FLOAT', depthStencil: { depth: 1, stencil: 0 } };

  test.each([null, undefined])('%s is accepted for every kind of resource', async (clear) => {
    const device = await newDevice();
    for (const [, desc] of RESOURCES) expect(committed(device, desc, { clear })).toBeInstanceOf(Resource);
  });

  test.each([RT_CLEAR, DS_CLEAR, {}])('a buffer takes no clear value (%j)', async (clear) => {
    const device = await newDevice();
    for (const desc of [BUFFER, UAV_BUFFER]) {
      expectD3D12Error(() => committed(device, desc, { clear }), {
        call: 'createCommittedResource',
        argument: 'optimizedClearValue',
        message: /a buffer cannot have an optimized clear value/,
      });
    }
  });

  test.each([TEXTURE, UAV_TEXTURE, { ...TEXTURE, flags: ['ALLOW_SIMULTANEOUS_ACCESS'] }] as const)(
    'a texture that is neither RT nor DS takes none (%j)',
    async (desc) => {
      const device = await newDevice();
      expect(
        committed(device, { ...desc, flags: [...(desc.flags ?? []), 'ALLOW_RENDER_TARGET'] }, { clear: RT_CLEAR }),
      ).toBeInstanceOf(Resource);
      expectD3D12Error(() => committed(device, desc, { clear: RT_CLEAR }), {
        call: 'createCommittedResource',
        argument: 'optimizedClearValue',
        message: /only render targets and depth-stencil textures take an optimized clear value/,
      });
    },
  );

  test.each(['R8G8B8A8_UNORM', 'R8G8B8A8_UNORM_SRGB', 'R8G8B8A8_UINT', 'R8G8B8A8_SNORM', 'R8G8B8A8_SINT'])(
    'render target: clear format %s (same family) is accepted',
    async (format) => {
      const device = await newDevice();
      expect(committed(device, RT_TEXTURE, { clear: { format, color: [0.25, 0.5, 0.75, 1] } })).toBeInstanceOf(
        Resource,
      );
    },
  );

  test.each(['B8G8R8A8_UNORM', 'R16G16B16A16_FLOAT', 'R32_FLOAT', 'D32_FLOAT', 'NOT_A_FORMAT', undefined, 7])(
    'render target: clear format %j is rejected',
    async (format) => {
      const device = await newDevice();
      expectD3D12Error(() => committed(device, RT_TEXTURE, { clear: { format, color: [0, 0, 0, 1] } }), {
        call: 'createCommittedResource',
        argument: 'optimizedClearValue.format',
        message: /must be R8G8B8A8_UNORM or a format of its family/,
      });
    },
  );

  test.each([[[0, 0, 0, 0]], [[1, 1, 1, 1]], [[-1, 2, 1e9, -0]]] as const)(
    'render target: color %j is accepted (any four finite numbers)',
    async (color) => {
      const device = await newDevice();
      expect(committed(device, RT_TEXTURE, { clear: { format: 'R8G8B8A8_UNORM', color: [...color] } })).toBeInstanceOf(
        Resource,
      );
    },
  );

  test.each([
    [[0, 0, 0]],
    [[0, 0, 0, 0, 0]],
    [[]],
    [[0, 0, Number.NaN, 1]],
    [[0, Number.POSITIVE_INFINITY, 0, 1]],
    [[0, 0, 0, '1']],
    ['black'],
    [undefined],
  ])('render target: color %j is rejected', async (color) => {
    const device = await newDevice();
    expectD3D12Error(() => committed(device, RT_TEXTURE, { clear: { format: 'R8G8B8A8_UNORM', color } }), {
      call: 'createCommittedResource',
      argument: 'optimizedClearValue.color',
      message: /a render target's clear value needs four finite numbers/,
    });
  });

  test.each(['black', 0, [0, 0, 0, 1]])('a clear value that is not an object (%j) is rejected', async (clear) => {
    const device = await newDevice();
    expectD3D12Error(() => committed(device, RT_TEXTURE, { clear }), {
      call: 'createCommittedResource',
      argument: 'optimizedClearValue',
      message: /must be a D3D12_CLEAR_VALUE object/,
    });
  });

  test.each([{ depth: 0, stencil: 0 }, { depth: 1, stencil: 255 }, { depth: 0.5, stencil: 128 }, { depth: 1 }])(
    'depth-stencil: %j is accepted',
    async (depthStencil) => {
      const device = await newDevice();
      expect(committed(device, DS_TEXTURE, { clear: { format: 'D32_FLOAT', depthStencil } })).toBeInstanceOf(Resource);
    },
  );

  test.each([
    [{ depth: -0.0001, stencil: 0 }, 'depth', /a depth clear value must be in \[0, 1\]/],
    [{ depth: 1.0001, stencil: 0 }, 'depth', /a depth clear value must be in \[0, 1\]/],
    [{ depth: Number.NaN, stencil: 0 }, 'depth', /a depth clear value must be in \[0, 1\]/],
    [{ depth: '1', stencil: 0 }, 'depth', /a depth clear value must be in \[0, 1\]/],
    [{ stencil: 0 }, 'depth', /a depth clear value must be in \[0, 1\]/],
    [undefined, 'depth', /a depth clear value must be in \[0, 1\]/],
    [{ depth: 1, stencil: -1 }, 'stencil', /a stencil clear value must be an integer in \[0, 255\]/],
    [{ depth: 1, stencil: 256 }, 'stencil', /a stencil clear value must be an integer in \[0, 255\]/],
    [{ depth: 1, stencil: 1.5 }, 'stencil', /a stencil clear value must be an integer in \[0, 255\]/],
    [{ depth: 1, stencil: '0' }, 'stencil', /a stencil clear value must be an integer in \[0, 255\]/],
  ] as const)('depth-stencil: %j is rejected', async (depthStencil, field, message) => {
    const device = await newDevice();
    expectD3D12Error(() => committed(device, DS_TEXTURE, { clear: { format: 'D32_FLOAT', depthStencil } }), {
      call: 'createCommittedResource',
      argument:
        field === 'depth' ? 'optimizedClearValue.depthStencil.depth' : 'optimizedClearValue.depthStencil.stencil',
      message,
    });
  });

  test.each(['D16_UNORM', 'R8G8B8A8_UNORM', 'D24_UNORM_S8_UINT'])(
    'depth-stencil: clear format %s of another family is rejected',
    async (format) => {
      const device = await newDevice();
      expect(committed(device, DS_TEXTURE, { clear: DS_CLEAR })).toBeInstanceOf(Resource);
      expectD3D12Error(
        () => committed(device, DS_TEXTURE, { clear: { format, depthStencil: { depth: 1, stencil: 0 } } }),
        {
          call: 'createCommittedResource',
          argument: 'optimizedClearValue.format',
          message: /must be D32_FLOAT or a format of its family/,
        },
      );
    },
  );

  test.each([
    ['R8G8B8A8_TYPELESS', RT_TEXTURE, /typeless/i],
    ['R32_TYPELESS', DS_TEXTURE, /typeless|depth/i],
    ['R32_FLOAT', DS_TEXTURE, /depth/i],
  ] as const)(
    'clear format %s follows the view rules: typed, and a depth format for depth-stencil',
    async (format, desc, message) => {
      // D3D12_CLEAR_VALUE: "The format of the commonly cleared color follows the same validation rules
      // as a view/descriptor creation": no TYPELESS format, and a DSV needs a depth format.
      const device = await newDevice();
      const clear =
        desc === RT_TEXTURE ? { format, color: [0, 0, 0, 1] } : { format, depthStencil: { depth: 1, stencil: 0 } };
      // Controls: typeless resources with a typed clear format of their family.
      expect(committed(device, { ...RT_TEXTURE, format: 'R8G8B8A8_TYPELESS' }, { clear: RT_CLEAR })).toBeInstanceOf(
        Resource,
      );
      expect(committed(device, { ...DS_TEXTURE, format: 'R32_TYPELESS' }, { clear: DS_CLEAR })).toBeInstanceOf(
        Resource,
      );
      expectD3D12Error(() => committed(device, desc, { clear }), {
        call: 'createCommittedResource',
        argument: 'optimizedClearValue.format',
        message,
      });
    },
  );

  test('clear values are checked by createPlacedResource and createReservedResource too', async () => {
    const device = await newDevice();
    const heap = device.createHeap({ sizeInBytes: 4 * MIB, properties: DEFAULT_HEAP });
    const reservedRT: ResourceDesc = { ...RT_TEXTURE, layout: '64KB_UNDEFINED_SWIZZLE' };
    expect(device.createPlacedResource(heap, 0, RT_TEXTURE, 'RENDER_TARGET', RT_CLEAR)).toBeInstanceOf(Resource);
    expect(device.createReservedResource(reservedRT, 'RENDER_TARGET', RT_CLEAR)).toBeInstanceOf(Resource);
    expectD3D12Error(() => device.createPlacedResource(heap, 0, BUFFER, 'COMMON', RT_CLEAR), {
      call: 'createPlacedResource',
      argument: 'optimizedClearValue',
      message: /buffer/,
    });
    expectD3D12Error(() => device.createReservedResource(BUFFER, 'COMMON', RT_CLEAR), {
      call: 'createReservedResource',
      argument: 'optimizedClearValue',
      message: /buffer/,
    });
    expectD3D12Error(
      () =>
        device.createReservedResource(
          reservedRT,
          'RENDER_TARGET',
          loose({ format: 'R8G8B8A8_UNORM', color: [0, 0, 0] }),
        ),
      {
        call: 'createReservedResource',
        argument: 'optimizedClearValue.color',
        message: /four finite numbers/,
      },
    );
  });
});

// ---------------------------------------------------------------------------------------------
describe('createPlacedResource: the heap', () => {
  test("a heap of another device, a non-heap, and a committed resource's implicit heap are rejected", async () => {
    const device = await newDevice();
    const other = await newDevice();
    const own = device.createHeap({ sizeInBytes: MIB, properties: DEFAULT_HEAP });
    const foreign = other.createHeap({ sizeInBytes: MIB, properties: DEFAULT_HEAP });
    expect(foreign.id).toBe(own.id);
    const implicit = committed(device, BUFFER).heap;
    expect(implicit).toBeInstanceOf(Heap);
    for (const heap of [
      foreign,
      implicit,
      {},
      null,
      undefined,
      'heap',
      { id: own.id, desc: own.getDesc(), flagBits: 0, released: false, label: 'fake' },
    ]) {
      expectD3D12Error(() => device.createPlacedResource(loose(heap), 0, BUFFER, 'COMMON'), {
        call: 'createPlacedResource',
        argument: 'heap',
        message: /must be a heap created by this device/,
      });
    }
    // Control: each device's own heap works.
    expect(device.createPlacedResource(own, 0, BUFFER, 'COMMON')).toBeInstanceOf(Resource);
    expect(other.createPlacedResource(foreign, 0, BUFFER, 'COMMON')).toBeInstanceOf(Resource);
  });

  test('a released heap is rejected, even while a placed resource keeps its memory', async () => {
    const device = await newDevice();
    const heap = device.createHeap({ sizeInBytes: MIB, properties: DEFAULT_HEAP });
    const first = device.createPlacedResource(heap, 0, BUFFER, 'COMMON');
    heap.release();
    expectD3D12Error(() => device.createPlacedResource(heap, TILE, BUFFER, 'COMMON'), {
      call: 'createPlacedResource',
      argument: 'heap',
      message: /heap #\d+ was released/,
    });
    first.release();
    expectD3D12Error(() => device.createPlacedResource(heap, 0, BUFFER, 'COMMON'), {
      call: 'createPlacedResource',
      argument: 'heap',
      message: /was released/,
    });
  });

  const matrix = RESOURCES.flatMap(([name, desc, category]) =>
    DENIES.map(([flag, denied]) => [name, flag, desc, category, denied.includes(category)] as const),
  );
  test.each(matrix)('%s in a heap with %s', async (_name, flag, desc, category, denied) => {
    const device = await newDevice();
    const heap = device.createHeap({ sizeInBytes: MIB, properties: DEFAULT_HEAP, flags: [flag] });
    const state = desc === RT_TEXTURE ? 'RENDER_TARGET' : 'COMMON';
    if (denied) {
      expectD3D12Error(() => device.createPlacedResource(heap, 0, desc, state), {
        call: 'createPlacedResource',
        argument: 'heap',
        message: new RegExp(`heap #\\d+ was created with flags \\[.*\\], which deny ${CATEGORY_TEXT[category]}`),
      });
    } else {
      expect(device.createPlacedResource(heap, 0, desc, state)).toBeInstanceOf(Resource);
    }
  });

  test.each(
    (['buffer', 'non-rt-ds-texture', 'rt-ds-texture'] as const).flatMap((heapCategory) =>
      RESOURCES.map(([name, desc, category]) => [heapCategory, name, desc, category] as const),
    ),
  )('resource heap tier 1: a %s heap and a %s', async (heapCategory, _name, desc, category) => {
    const device = await createDevice({ resourceHeapTier: 1 });
    const heap = device.createHeap({ sizeInBytes: MIB, properties: DEFAULT_HEAP, flags: [ALLOW_ONLY[heapCategory]] });
    if (heapCategory === category) {
      expect(device.createPlacedResource(heap, 0, desc, 'COMMON')).toBeInstanceOf(Resource);
    } else {
      expectD3D12Error(() => device.createPlacedResource(heap, 0, desc, 'COMMON'), {
        call: 'createPlacedResource',
        argument: 'heap',
        message: new RegExp(`which deny ${CATEGORY_TEXT[category]}`),
      });
    }
  });

  test.each([UPLOAD_HEAP, READBACK_HEAP].map((properties) => [properties.type, properties] as const))(
    'a %s heap holds buffers only, in its start state, without UAV',
    async (type, properties) => {
      const device = await newDevice();
      const heap = device.createHeap({ sizeInBytes: MIB, properties });
      const state = startState(properties);
      expect(device.createPlacedResource(heap, 0, BUFFER, state)).toBeInstanceOf(Resource);
      for (const desc of [TEXTURE, RT_TEXTURE, SMALL_TEXTURE]) {
        expectD3D12Error(() => device.createPlacedResource(heap, 0, desc, state), {
          call: 'createPlacedResource',
          argument: 'heap',
          message: new RegExp(`an ${type} heap holds only buffers`),
        });
      }
      expectD3D12Error(() => device.createPlacedResource(heap, 0, UAV_BUFFER, state), {
        call: 'createPlacedResource',
        argument: 'heap',
        message: new RegExp(`ALLOW_UNORDERED_ACCESS cannot be used in an ${type} heap`),
      });
      expectD3D12Error(() => device.createPlacedResource(heap, 0, BUFFER, 'COMMON'), {
        call: 'createPlacedResource',
        argument: 'initialState',
        message: type === 'UPLOAD' ? /must start in GENERIC_READ/ : /must start in COPY_DEST/,
      });
    },
  );

  test('a CPU-accessible CUSTOM heap refuses render targets and depth-stencil textures', async () => {
    const device = await newDevice();
    const heap = device.createHeap({ sizeInBytes: MIB, properties: CUSTOM_WRITE_BACK });
    expect(device.createPlacedResource(heap, 0, TEXTURE, 'COMMON')).toBeInstanceOf(Resource);
    expect(device.createPlacedResource(heap, 0, UAV_BUFFER, 'COMMON')).toBeInstanceOf(Resource);
    for (const desc of [RT_TEXTURE, DS_TEXTURE]) {
      expectD3D12Error(() => device.createPlacedResource(heap, 0, desc, 'COMMON'), {
        call: 'createPlacedResource',
        argument: 'heap',
        message: /cannot live in CPU-accessible memory/,
      });
    }
  });

  test('the description and state are validated as for committed resources', async () => {
    const device = await newDevice();
    const heap = device.createHeap({ sizeInBytes: MIB, properties: DEFAULT_HEAP });
    expectD3D12Error(() => device.createPlacedResource(heap, 0, { ...TEXTURE, width: 16385 }, 'COMMON'), {
      call: 'createPlacedResource',
      argument: 'desc.width',
      message: /at most 16384/,
    });
    expectD3D12Error(() => device.createPlacedResource(heap, 0, TEXTURE, 'RENDER_TARGET'), {
      call: 'createPlacedResource',
      argument: 'initialState',
      message: /needs a resource created with ALLOW_RENDER_TARGET/,
    });
    expectD3D12Error(() => device.createPlacedResource(heap, 0, loose(null), 'COMMON'), {
      call: 'createPlacedResource',
      argument: 'desc',
      message: /D3D12_RESOURCE_DESC/,
    });
  });
});

describe('createPlacedResource: heapOffset', () => {
  test.each([0, TILE, 2 * TILE, MIB - TILE])('%i is accepted for a buffer (64 KiB aligned)', async (offset) => {
    const device = await newDevice();
    const heap = device.createHeap({ sizeInBytes: MIB, properties: DEFAULT_HEAP });
    expect(device.createPlacedResource(heap, offset, BUFFER, 'COMMON')).toBeInstanceOf(Resource);
  });

  test.each([
    [1, /must be a multiple of the resource's alignment \(65536\), got 1/],
    [4096, /must be a multiple of the resource's alignment \(65536\), got 4096/],
    [32768, /multiple of the resource's alignment \(65536\)/],
    [TILE - 1, /multiple of the resource's alignment \(65536\)/],
    [TILE + 1, /multiple of the resource's alignment \(65536\)/],
    [-TILE, /at least 0/],
    [1.5, /integer/],
    [Number.NaN, /integer/],
    ['0', /integer/],
    [undefined, /integer/],
    [0n, /integer/],
  ] as const)('%s is rejected', async (offset, message) => {
    const device = await newDevice();
    const heap = device.createHeap({ sizeInBytes: MIB, properties: DEFAULT_HEAP });
    for (const desc of [BUFFER, TEXTURE]) {
      expectD3D12Error(() => device.createPlacedResource(heap, loose(offset), desc, 'COMMON'), {
        call: 'createPlacedResource',
        argument: 'heapOffset',
        message,
      });
    }
  });

  test('a small texture asked at 4 KiB alignment may sit at any 4 KiB offset, keeping it in its address', async () => {
    const device = await newDevice();
    const heap = device.createHeap({ sizeInBytes: TILE, properties: DEFAULT_HEAP });
    for (const offset of [0, 4096, 8192, TILE - 4096]) {
      const resource = device.createPlacedResource(heap, offset, SMALL_TEXTURE, 'COMMON');
      expect(resource.getGPUVirtualAddress() % BigInt(TILE)).toBe(BigInt(offset));
    }
    for (const offset of [1, 2048, 4095, 4097, 6144]) {
      expectD3D12Error(() => device.createPlacedResource(heap, offset, SMALL_TEXTURE, 'COMMON'), {
        call: 'createPlacedResource',
        argument: 'heapOffset',
        message: /must be a multiple of the resource's alignment \(4096\)/,
      });
    }
    // Without alignment 4096 the same texture is 64 KiB aligned.
    expectD3D12Error(() => device.createPlacedResource(heap, 4096, { ...SMALL_TEXTURE, alignment: 0 }, 'COMMON'), {
      call: 'createPlacedResource',
      argument: 'heapOffset',
      message: /\(65536\), got 4096/,
    });
    // And a texture that is not small cannot ask for 4 KiB.
    expectD3D12Error(() => device.createPlacedResource(heap, 0, { ...TEXTURE, alignment: 4096 }, 'COMMON'), {
      call: 'createPlacedResource',
      argument: 'desc.alignment',
      message: /only for small textures/,
    });
  });

  test.each([
    ['buffer of 64 KiB at 64 KiB', BUFFER, TILE, 2 * TILE],
    ['buffer of 1 byte at 64 KiB (takes a whole tile)', { dimension: 'BUFFER', width: 1 }, TILE, 2 * TILE],
    ['buffer of 3 tiles at 0', { dimension: 'BUFFER', width: 3 * TILE }, 0, 3 * TILE],
    ['small texture at 60 KiB', SMALL_TEXTURE, TILE - 4096, TILE],
    ['small texture at 64 KiB', SMALL_TEXTURE, TILE, TILE + 4096],
    [
      '512×512 texture, 10 mips (22 tiles), at 0',
      { dimension: 'TEXTURE2D', width: 512, height: 512, mipLevels: 10, format: 'R8G8B8A8_UNORM' },
      0,
      22 * TILE,
    ],
    [
      '512×512 texture, 10 mips (22 tiles), at 64 KiB',
      { dimension: 'TEXTURE2D', width: 512, height: 512, mipLevels: 10, format: 'R8G8B8A8_UNORM' },
      TILE,
      23 * TILE,
    ],
  ] as const)('%s fits a heap of exactly the end; one byte less does not', async (_name, desc, offset, end) => {
    const device = await newDevice();
    expect(device.getResourceAllocationInfo(loose(desc)).sizeInBytes).toBe(end - offset);
    const exact = device.createHeap({ sizeInBytes: end, properties: DEFAULT_HEAP });
    const short = device.createHeap({ sizeInBytes: end - 1, properties: DEFAULT_HEAP });
    expect(device.createPlacedResource(exact, offset, loose(desc), 'COMMON')).toBeInstanceOf(Resource);
    expectD3D12Error(() => device.createPlacedResource(short, offset, loose(desc), 'COMMON'), {
      call: 'createPlacedResource',
      argument: 'heapOffset',
      message: new RegExp(
        `the resource needs ${end - offset} bytes at offset ${offset}, past the end of heap #\\d+ \\(${end - 1} bytes\\)`,
      ),
    });
  });

  test('a resource one byte larger than the room left does not fit', async () => {
    const device = await newDevice();
    const heap = device.createHeap({ sizeInBytes: 2 * TILE, properties: DEFAULT_HEAP });
    expect(device.createPlacedResource(heap, TILE, { dimension: 'BUFFER', width: TILE }, 'COMMON')).toBeInstanceOf(
      Resource,
    );
    expectD3D12Error(
      () => device.createPlacedResource(heap, TILE, { dimension: 'BUFFER', width: TILE + 1 }, 'COMMON'),
      { argument: 'heapOffset', message: /past the end/ },
    );
    expectD3D12Error(() => device.createPlacedResource(heap, 2 * TILE, { dimension: 'BUFFER', width: 1 }, 'COMMON'), {
      argument: 'heapOffset',
      message: /past the end/,
    });
  });

  test('a heap whose size is not whole tiles holds what fits in it', async () => {
    const device = await newDevice();
    const heap = device.createHeap({ sizeInBytes: 100000, properties: DEFAULT_HEAP });
    expect(device.createPlacedResource(heap, 0, BUFFER, 'COMMON')).toBeInstanceOf(Resource);
    expect(device.createPlacedResource(heap, TILE, SMALL_TEXTURE, 'COMMON')).toBeInstanceOf(Resource);
    expectD3D12Error(() => device.createPlacedResource(heap, TILE, BUFFER, 'COMMON'), {
      argument: 'heapOffset',
      message: /past the end/,
    });
  });

  test('placed resources may overlap (aliasing is legal in D3D12)', async () => {
    const device = await newDevice();
    const heap = device.createHeap({ sizeInBytes: 5 * TILE, properties: DEFAULT_HEAP });
    const a = device.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: 2 * TILE }, 'COMMON');
    const b = device.createPlacedResource(heap, TILE, TEXTURE, 'COMMON');
    expect(a.getGPUVirtualAddress()).not.toBe(b.getGPUVirtualAddress());
  });
});

describe('createPlacedResource: a failed call changes nothing', () => {
  test('the heap stays usable and the next resource gets the address and id it would have had', async () => {
    const control = await newDevice();
    const probe = await newDevice();
    const controlHeap = control.createHeap({
      sizeInBytes: 2 * TILE,
      properties: DEFAULT_HEAP,
      flags: ['DENY_RT_DS_TEXTURES'],
    });
    const probeHeap = probe.createHeap({
      sizeInBytes: 2 * TILE,
      properties: DEFAULT_HEAP,
      flags: ['DENY_RT_DS_TEXTURES'],
    });
    const failures: (() => unknown)[] = [
      () => probe.createPlacedResource(probeHeap, 4096, BUFFER, 'COMMON'),
      () => probe.createPlacedResource(probeHeap, 2 * TILE, BUFFER, 'COMMON'),
      () => probe.createPlacedResource(probeHeap, 0, { dimension: 'BUFFER', width: 2 * TILE + 1 }, 'COMMON'),
      () => probe.createPlacedResource(probeHeap, 0, RT_TEXTURE, 'COMMON'),
      () => probe.createPlacedResource(probeHeap, 0, BUFFER, 'RENDER_TARGET'),
      () =>
        probe.createPlacedResource(probeHeap, 0, BUFFER, 'COMMON', { format: 'R8G8B8A8_UNORM', color: [0, 0, 0, 1] }),
      () => probe.createPlacedResource(probeHeap, 0, { ...TEXTURE, sampleDesc: { count: 4, quality: 0 } }, 'COMMON'),
    ];
    for (const fail of failures) expectD3D12Error(fail, { call: 'createPlacedResource' });
    for (const offset of [0, TILE]) {
      const expected = control.createPlacedResource(controlHeap, offset, BUFFER, 'COMMON');
      const actual = probe.createPlacedResource(probeHeap, offset, BUFFER, 'COMMON');
      expect(actual.getGPUVirtualAddress()).toBe(expected.getGPUVirtualAddress());
      expect(actual.label).toBe(expected.label);
      expect(getTileMappingForTesting(actual, 0)?.heap).toBe(probeHeap);
      expect(getTileMappingForTesting(actual, 0)?.heapTileOffset).toBe(offset / TILE);
    }
    expect(probeHeap.getDesc()).toEqual(controlHeap.getDesc());
    expect(probe.createReservedResource(BUFFER, 'COMMON').getGPUVirtualAddress()).toBe(
      control.createReservedResource(BUFFER, 'COMMON').getGPUVirtualAddress(),
    );
  });
});

// ---------------------------------------------------------------------------------------------
describe('createReservedResource', () => {
  const TIERS = [1, 2, 3, 4] as const;
  const tiled = (desc: object): ResourceDesc => loose({ layout: '64KB_UNDEFINED_SWIZZLE', ...desc });

  test.each(TIERS)('buffers are accepted on tier %i', async (tier) => {
    const device = await newDevice(tier);
    for (const width of [1, TILE, TILE + 1, 2 ** 30]) {
      const resource = device.createReservedResource({ dimension: 'BUFFER', width }, 'COMMON');
      expect(resource.getDesc().width).toBe(width);
      expect(device.getResourceTiling(resource).numTilesForEntireResource).toBe(Math.ceil(width / TILE));
    }
  });

  test.each(
    TIERS.flatMap((tier) => [undefined, 'UNKNOWN', '64KB_UNDEFINED_SWIZZLE'].map((layout) => [tier, layout] as const)),
  )('1D textures are refused on tier %i (layout %s)', async (tier, layout) => {
    const device = await newDevice(tier);
    expectD3D12Error(
      () =>
        device.createReservedResource(
          loose({ dimension: 'TEXTURE1D', width: 16384, format: 'R8G8B8A8_UNORM', layout }),
          'COMMON',
        ),
      {
        call: 'createReservedResource',
        argument: 'desc.dimension',
        message: /1D textures cannot be reserved \(tiled\)/,
      },
    );
    expect(
      device.createReservedResource(
        tiled({ dimension: 'TEXTURE2D', width: 16384, height: 1, format: 'R8G8B8A8_UNORM' }),
        'COMMON',
      ),
    ).toBeInstanceOf(Resource);
  });

  test.each([
    ['TEXTURE2D', undefined],
    ['TEXTURE2D', 'UNKNOWN'],
    ['TEXTURE3D', undefined],
    ['TEXTURE3D', 'UNKNOWN'],
  ] as const)(
    'a %s with layout %s is refused: reserved textures are 64KB_UNDEFINED_SWIZZLE',
    async (dimension, layout) => {
      const device = await newDevice(4);
      const desc = { dimension, width: 256, height: 256, depthOrArraySize: 4, format: 'R8G8B8A8_UNORM' };
      expect(device.createReservedResource(tiled(desc), 'COMMON').getDesc().layout).toBe('64KB_UNDEFINED_SWIZZLE');
      expectD3D12Error(() => device.createReservedResource(loose({ ...desc, layout }), 'COMMON'), {
        call: 'createReservedResource',
        argument: 'desc.layout',
        message: /a reserved texture's layout must be 64KB_UNDEFINED_SWIZZLE, got 'UNKNOWN'/,
      });
    },
  );

  test.each([
    ['ROW_MAJOR', /ROW_MAJOR textures need ALLOW_CROSS_ADAPTER/],
    ['64KB_STANDARD_SWIZZLE', /64KB_STANDARD_SWIZZLE is not supported/],
  ] as const)('layout %s is refused', async (layout, message) => {
    const device = await newDevice(4);
    expectD3D12Error(() => device.createReservedResource(tiled({ ...TEXTURE, layout }), 'COMMON'), {
      call: 'createReservedResource',
      argument: 'desc.layout',
      message,
    });
  });

  test.each(TIERS)('3D textures on tier %i', async (tier) => {
    const device = await newDevice(tier);
    const desc = tiled({
      dimension: 'TEXTURE3D',
      width: 64,
      height: 64,
      depthOrArraySize: 32,
      format: 'R8G8B8A8_UNORM',
    });
    if (tier >= 3) {
      expect(device.createReservedResource(desc, 'COMMON')).toBeInstanceOf(Resource);
    } else {
      expectD3D12Error(() => device.createReservedResource(desc, 'COMMON'), {
        call: 'createReservedResource',
        argument: 'desc.dimension',
        message: new RegExp(`reserved 3D textures need tiled resources tier 3, and this device is tier ${tier}`),
      });
      // Control: a 2D texture on the same device.
      expect(device.createReservedResource(tiled(TEXTURE), 'COMMON')).toBeInstanceOf(Resource);
    }
  });

  describe('texture arrays with packed mips need tier 4', () => {
    /** 256² RGBA8 × 4 slices, full chain: mips 64² and smaller are packed on every tier. */
    const PACKED_ARRAY = tiled({
      dimension: 'TEXTURE2D',
      width: 256,
      height: 256,
      depthOrArraySize: 4,
      mipLevels: 0,
      format: 'R8G8B8A8_UNORM',
    });
    /** Mips 256² and 128²: whole 128×128 tiles on every tier, nothing packed. */
    const UNPACKED_ARRAY = tiled({
      dimension: 'TEXTURE2D',
      width: 256,
      height: 256,
      depthOrArraySize: 4,
      mipLevels: 2,
      format: 'R8G8B8A8_UNORM',
    });
    /** 200² RGBA8 × 2: not whole tiles, so packed on tier 1 only (tier 2+ packs only mips smaller than a tile). */
    const PACKED_ON_TIER1 = tiled({
      dimension: 'TEXTURE2D',
      width: 200,
      height: 200,
      depthOrArraySize: 2,
      format: 'R8G8B8A8_UNORM',
    });
    const SINGLE_SLICE_PACKED = tiled({
      dimension: 'TEXTURE2D',
      width: 256,
      height: 256,
      mipLevels: 0,
      format: 'R8G8B8A8_UNORM',
    });

    test.each(TIERS)('an array with packed mips on tier %i', async (tier) => {
      const device = await newDevice(tier);
      if (tier === 4) {
        const resource = device.createReservedResource(PACKED_ARRAY, 'COMMON');
        expect(device.getResourceTiling(resource).packedMipDesc.numPackedMips).toBeGreaterThan(0);
      } else {
        expectD3D12Error(() => device.createReservedResource(PACKED_ARRAY, 'COMMON'), {
          call: 'createReservedResource',
          argument: 'desc',
          message: new RegExp(
            `a reserved texture array whose mips .* are packed needs tiled resources tier 4, and this device is tier ${tier}`,
          ),
        });
      }
    });

    test.each(TIERS)('an array without packed mips is accepted on tier %i', async (tier) => {
      const device = await newDevice(tier);
      const resource = device.createReservedResource(UNPACKED_ARRAY, 'COMMON');
      expect(device.getResourceTiling(resource).packedMipDesc.numPackedMips).toBe(0);
    });

    test.each(TIERS)('one slice with packed mips is accepted on tier %i', async (tier) => {
      const device = await newDevice(tier);
      const resource = device.createReservedResource(SINGLE_SLICE_PACKED, 'COMMON');
      expect(device.getResourceTiling(resource).packedMipDesc.numPackedMips).toBeGreaterThan(0);
    });

    test.each(TIERS)('a 200×200 array (packed only under the tier-1 rule) on tier %i', async (tier) => {
      const device = await newDevice(tier);
      if (tier === 1 || tier === 4) {
        // Tier 1 packs it (and refuses the array); tier 4 does not pack it. Tier 4 accepts either way.
        if (tier === 1) {
          expectD3D12Error(() => device.createReservedResource(PACKED_ON_TIER1, 'COMMON'), {
            call: 'createReservedResource',
            argument: 'desc',
            message: /tier 4, and this device is tier 1/,
          });
        } else {
          expect(device.createReservedResource(PACKED_ON_TIER1, 'COMMON')).toBeInstanceOf(Resource);
        }
      } else {
        expect(device.createReservedResource(PACKED_ON_TIER1, 'COMMON')).toBeInstanceOf(Resource);
      }
    });
  });

  test('initial states are checked (no heap type applies)', async () => {
    const device = await newDevice(4);
    const rt = tiled(RT_TEXTURE);
    for (const state of ['COMMON', 'COPY_DEST', 'RENDER_TARGET', ['PIXEL_SHADER_RESOURCE', 'COPY_SOURCE']] as const) {
      expect(device.createReservedResource(rt, loose(state))).toBeInstanceOf(Resource);
    }
    expectD3D12Error(() => device.createReservedResource(tiled(TEXTURE), 'RENDER_TARGET'), {
      call: 'createReservedResource',
      argument: 'initialState',
      message: /ALLOW_RENDER_TARGET/,
    });
    expectD3D12Error(() => device.createReservedResource(rt, ['RENDER_TARGET', 'COPY_DEST']), {
      call: 'createReservedResource',
      argument: 'initialState',
      message: /write states cannot be combined/,
    });
    expectD3D12Error(() => device.createReservedResource(rt, loose('BOGUS')), {
      call: 'createReservedResource',
      argument: 'initialState',
      message: /must be one of/,
    });
  });

  test('a failed call leaks no virtual addresses and no ids', async () => {
    const control = await newDevice(2);
    const probe = await newDevice(2);
    const failing: [object, unknown][] = [
      [{ dimension: 'TEXTURE1D', width: 64, format: 'R8G8B8A8_UNORM' }, 'COMMON'],
      [{ ...TEXTURE, layout: 'UNKNOWN' }, 'COMMON'],
      [
        tiled({ dimension: 'TEXTURE3D', width: 64, height: 64, depthOrArraySize: 32, format: 'R8G8B8A8_UNORM' }),
        'COMMON',
      ],
      [tiled({ ...TEXTURE, depthOrArraySize: 2, mipLevels: 0 }), 'COMMON'],
      [tiled(TEXTURE), 'RENDER_TARGET'],
      [{ dimension: 'BUFFER', width: 2 ** 40 + 1 }, 'COMMON'],
    ];
    const first = [
      control.createReservedResource(BUFFER, 'COMMON'),
      probe.createReservedResource(BUFFER, 'COMMON'),
    ] as const;
    for (const [desc, state] of failing)
      expectD3D12Error(() => probe.createReservedResource(loose(desc), loose(state)), {
        call: 'createReservedResource',
      });
    for (const desc of [BUFFER, tiled(TEXTURE), { dimension: 'BUFFER', width: 5 * TILE } as const]) {
      const expected = control.createReservedResource(desc, 'COMMON');
      const actual = probe.createReservedResource(desc, 'COMMON');
      expect(actual.getGPUVirtualAddress()).toBe(expected.getGPUVirtualAddress());
      expect(actual.label).toBe(expected.label);
      expect(getTileMappingForTesting(actual, 0)).toBeNull();
    }
    expect(first[1].getGPUVirtualAddress()).toBe(first[0].getGPUVirtualAddress());
    expect(first[1].getDesc()).toEqual(first[0].getDesc());
  });
});

describe('createCommittedResource: a failed call changes nothing', () => {
  test('the next resource gets the address and id it would have had', async () => {
    const control = await newDevice();
    const probe = await newDevice();
    const failures: (() => unknown)[] = [
      () => committed(probe, TEXTURE, { properties: UPLOAD_HEAP }),
      () => committed(probe, BUFFER, { flags: ['DENY_BUFFERS'] }),
      () => committed(probe, BUFFER, { properties: UPLOAD_HEAP, state: 'COMMON' }),
      () => committed(probe, RT_TEXTURE, { clear: { format: 'B8G8R8A8_UNORM', color: [0, 0, 0, 1] } }),
      () => committed(probe, { ...BUFFER, flags: ['ALLOW_RENDER_TARGET'] }),
      () => committed(probe, BUFFER, { flags: ['SHARED'] }),
    ];
    for (const fail of failures) expectD3D12Error(fail, { call: 'createCommittedResource' });
    for (const desc of [BUFFER, TEXTURE]) {
      const expected = committed(control, desc);
      const actual = committed(probe, desc);
      expect(actual.getGPUVirtualAddress()).toBe(expected.getGPUVirtualAddress());
      expect(actual.label).toBe(expected.label);
      expect(actual.heap?.label).toBe(expected.heap?.label);
    }
    expect(probe.createHeap({ sizeInBytes: TILE, properties: DEFAULT_HEAP }).label).toBe(
      control.createHeap({ sizeInBytes: TILE, properties: DEFAULT_HEAP }).label,
    );
  });
});
