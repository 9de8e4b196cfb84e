/**
 * D3D12_RESOURCE_DESC validation, through the three calls that take a description:
 * createCommittedResource (DEFAULT heap), createReservedResource and getResourceAllocationInfo.
 * CTS style: per dimension, one field at a time is made invalid next to valid controls, over both
 * sides of every limit; then formats, sample descriptions, layouts, flags, alignment, and the
 * sizes and alignments getResourceAllocationInfo reports.
 */
import { describe, expect, test } from 'vitest';
import {
  createDevice,
  FORMAT_NAMES,
  Resource,
  type Device,
  type ResourceDesc,
  type ResourceDimension,
} from '../../../../src/index.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';
import { TILE } from '../../../shared/d3d12-helpers.js';

type Loose = Record<string, unknown>;
const loose = (value: unknown): never => value as never;

const KIB = 1024;
const TIB = 2 ** 40;

/** Tier 4, so that reserved texture arrays with packed mips are valid and only the desc is judged. */
const newDevice = (): Promise<Device> => createDevice({ tiledResourcesTier: 4 });

interface Via {
  call: 'createCommittedResource' | 'createReservedResource' | 'getResourceAllocationInfo';
  run(device: Device, desc: Loose): unknown;
}

const isTexture = (desc: Loose): boolean => typeof desc.dimension === 'string' && desc.dimension.startsWith('TEXTURE');

/** Reserved textures must use 64KB_UNDEFINED_SWIZZLE; given unless the case sets a layout itself. */
const asReserved = (desc: Loose): Loose =>
  isTexture(desc) && !('layout' in desc) ? { ...desc, layout: '64KB_UNDEFINED_SWIZZLE' } : desc;

const COMMITTED: Via = {
  call: 'createCommittedResource',
  run: (device, desc) => device.createCommittedResource({ type: 'DEFAULT' }, [], loose(desc), 'COMMON'),
};
const RESERVED: Via = {
  call: 'createReservedResource',
  run: (device, desc) => device.createReservedResource(loose(asReserved(desc)), 'COMMON'),
};
const INFO: Via = {
  call: 'getResourceAllocationInfo',
  run: (device, desc) => device.getResourceAllocationInfo(loose(desc)),
};
const ALL_VIAS = [COMMITTED, RESERVED, INFO];
const NOT_RESERVED = [COMMITTED, INFO];

/** Reserved 1D textures are refused whatever the description (tested in create-resource-validation). */
const viasFor = (dimension: string): Via[] => (dimension === 'TEXTURE1D' ? NOT_RESERVED : ALL_VIAS);

const BASE: Record<ResourceDimension, Loose> = {
  BUFFER: { dimension: 'BUFFER', width: 65536 },
  TEXTURE1D: { dimension: 'TEXTURE1D', width: 256, format: 'R8G8B8A8_UNORM' },
  TEXTURE2D: { dimension: 'TEXTURE2D', width: 256, height: 256, format: 'R8G8B8A8_UNORM' },
  TEXTURE3D: { dimension: 'TEXTURE3D', width: 64, height: 64, depthOrArraySize: 16, format: 'R8G8B8A8_UNORM' },
};
const DIMENSIONS = Object.keys(BASE) as ResourceDimension[];

function expectAccepted(via: Via, device: Device, desc: Loose): void {
  let result: unknown;
  try {
    result = via.run(device, desc);
  } catch (error) {
    expect.unreachable(`${via.call} refused the valid description ${JSON.stringify(desc)}: ${String(error)}`);
  }
  if (via === INFO) {
    const info = result as { sizeInBytes: number; alignment: number };
    expect(info.sizeInBytes).toBeGreaterThan(0);
    expect([4096, 65536]).toContain(info.alignment);
  } else {
    expect(result).toBeInstanceOf(Resource);
  }
}

interface Invalid {
  value: unknown;
  message: RegExp;
  /** Default: `desc.<field>`. */
  argument?: string;
}

interface FieldCase {
  field: string;
  valid: unknown[];
  invalid: Invalid[];
  /** Default: every call that takes this dimension. */
  vias?: Via[];
}

const bad = (value: unknown, message: RegExp, argument?: string): Invalid => ({ value, message, argument });

const SAMPLE_CASE: FieldCase = {
  field: 'sampleDesc',
  valid: [undefined, null, { count: 1, quality: 0 }, { count: 1 }],
  invalid: [
    bad({ count: 2, quality: 0 }, /multisampling \(2 samples\) is not emulated/, 'desc.sampleDesc.count'),
    bad({ count: 4, quality: 0 }, /multisampling \(4 samples\) is not emulated/, 'desc.sampleDesc.count'),
    bad({ count: 8, quality: 1 }, /multisampling/, 'desc.sampleDesc.count'),
    bad({ count: 0, quality: 0 }, /at least 1/, 'desc.sampleDesc.count'),
    bad({ count: 1.5, quality: 0 }, /integer/, 'desc.sampleDesc.count'),
    bad({ quality: 0 }, /integer/, 'desc.sampleDesc.count'),
    bad({ count: 1, quality: 1 }, /must be 0 for a single-sampled resource/, 'desc.sampleDesc.quality'),
    bad({ count: 1, quality: -1 }, /at least 0/, 'desc.sampleDesc.quality'),
    bad('1x', /must be \{count, quality\}/, 'desc.sampleDesc'),
    bad(0, /must be \{count, quality\}/, 'desc.sampleDesc'),
  ],
};

const UNSUPPORTED_FLAGS = [
  'ALLOW_CROSS_ADAPTER',
  'VIDEO_DECODE_REFERENCE_ONLY',
  'VIDEO_ENCODE_REFERENCE_ONLY',
  'RAYTRACING_ACCELERATION_STRUCTURE',
];

const COMMON_FLAG_INVALID: Invalid[] = [
  ...UNSUPPORTED_FLAGS.map((flag) => bad(['NONE', flag], new RegExp(`${flag}: .*not emulated`), 'desc.flags')),
  bad(['BOGUS'], /must be one of NONE, ALLOW_RENDER_TARGET/, 'desc.flags[0]'),
  bad(['NONE', 'allow_unordered_access'], /must be one of/, 'desc.flags[1]'),
  bad('ALLOW_UNORDERED_ACCESS', /must be an array of flag names/, 'desc.flags'),
];

const DIMENSION_CASE: FieldCase = {
  field: 'dimension',
  valid: ['BUFFER'],
  invalid: [
    bad('TEXTURE4D', /must be one of BUFFER, TEXTURE1D, TEXTURE2D, TEXTURE3D/),
    bad('buffer', /must be one of/),
    bad(3, /must be one of/),
    bad(undefined, /must be one of/),
    bad('UNKNOWN', /must be one of/),
  ],
};

const FIELD_CASES: Record<ResourceDimension, FieldCase[]> = {
  BUFFER: [
    DIMENSION_CASE,
    {
      field: 'width',
      valid: [1, 65535, 65536, 65537, 2 ** 32],
      invalid: [
        bad(0, /at least 1/),
        bad(-1, /at least 1/),
        bad(1.5, /integer/),
        bad('65536', /integer/),
        bad(undefined, /integer/),
        bad(Number.NaN, /integer/),
      ],
    },
    {
      field: 'height',
      valid: [undefined, 1],
      invalid: [bad(2, /must be 1 for a buffer, got 2/), bad(0, /at least 1/), bad(1.5, /integer/)],
    },
    {
      field: 'depthOrArraySize',
      valid: [undefined, 1],
      invalid: [bad(2, /must be 1 for a buffer, got 2/), bad(0, /at least 1/), bad(65536, /at most 65535/)],
    },
    {
      field: 'mipLevels',
      valid: [undefined, 1],
      invalid: [
        bad(0, /must be 1 for a buffer, got 0/),
        bad(2, /must be 1 for a buffer, got 2/),
        bad(-1, /at least 0/),
      ],
    },
    {
      field: 'format',
      valid: [undefined, 'UNKNOWN'],
      invalid: [
        bad('R8G8B8A8_UNORM', /must be UNKNOWN for a buffer/),
        bad('R32_TYPELESS', /must be UNKNOWN for a buffer/),
        bad('NOT_A_FORMAT', /must be UNKNOWN for a buffer/),
        bad(7, /must be a DXGI format name/),
      ],
    },
    {
      field: 'layout',
      valid: [undefined, 'ROW_MAJOR'],
      invalid: [
        bad('UNKNOWN', /a buffer's layout must be ROW_MAJOR, got 'UNKNOWN'/),
        bad('64KB_UNDEFINED_SWIZZLE', /a buffer's layout must be ROW_MAJOR/),
        bad('64KB_STANDARD_SWIZZLE', /a buffer's layout must be ROW_MAJOR/),
        bad('LINEAR', /must be one of UNKNOWN, ROW_MAJOR, 64KB_UNDEFINED_SWIZZLE, 64KB_STANDARD_SWIZZLE/),
      ],
    },
    {
      field: 'alignment',
      valid: [undefined, 0, 65536],
      invalid: [
        bad(4096, /a buffer's alignment must be 0 or 65536, got 4096/),
        bad(4194304, /a buffer's alignment must be 0 or 65536/),
        bad(1, /a buffer's alignment must be 0 or 65536/),
        bad(65535, /a buffer's alignment must be 0 or 65536/),
        bad(131072, /a buffer's alignment must be 0 or 65536/),
        bad(-65536, /at least 0/),
        bad(65536.5, /integer/),
      ],
    },
    SAMPLE_CASE,
    {
      field: 'flags',
      valid: [
        undefined,
        [],
        ['NONE'],
        ['ALLOW_UNORDERED_ACCESS'],
        ['NONE', 'ALLOW_UNORDERED_ACCESS', 'ALLOW_UNORDERED_ACCESS'],
      ],
      invalid: [
        ...['ALLOW_RENDER_TARGET', 'ALLOW_DEPTH_STENCIL', 'DENY_SHADER_RESOURCE', 'ALLOW_SIMULTANEOUS_ACCESS'].map(
          (flag) =>
            bad(['ALLOW_UNORDERED_ACCESS', flag], new RegExp(`${flag} cannot be used with a buffer`), 'desc.flags'),
        ),
        ...COMMON_FLAG_INVALID,
      ],
    },
  ],
  TEXTURE1D: [
    {
      field: 'width',
      valid: [1, 2, 16383, 16384],
      invalid: [
        bad(16385, /a 1D texture's width must be at most 16384, got 16385/),
        bad(0, /at least 1/),
        bad(2.5, /integer/),
      ],
    },
    {
      field: 'height',
      valid: [undefined, 1],
      invalid: [
        bad(2, /must be 1 for a 1D texture, got 2/),
        bad(16384, /must be 1 for a 1D texture/),
        bad(0, /at least 1/),
      ],
    },
    {
      field: 'depthOrArraySize',
      valid: [undefined, 1, 2, 2048],
      invalid: [bad(2049, /a 1D texture's array size must be at most 2048, got 2049/), bad(0, /at least 1/)],
    },
    {
      field: 'mipLevels',
      valid: [undefined, 0, 1, 9],
      invalid: [bad(10, /has at most 9 mips, got 10/), bad(-1, /at least 0/)],
    },
    {
      field: 'format',
      valid: ['R8G8B8A8_UNORM', 'R32G32B32A32_FLOAT', 'R8_UNORM', 'D32_FLOAT'],
      invalid: [
        bad('UNKNOWN', /a texture needs a format \(UNKNOWN is for buffers\)/),
        bad(undefined, /a texture needs a format/),
        bad('BC1_UNORM', /block-compressed BC1_UNORM cannot be used by a 1D texture/),
        bad('BC7_UNORM_SRGB', /block-compressed BC7_UNORM_SRGB cannot be used by a 1D texture/),
      ],
    },
    {
      field: 'alignment',
      valid: [undefined, 0, 65536],
      invalid: [
        bad(4194304, /4 MiB is the alignment of multisampled textures/),
        bad(8192, /must be 0, 4096, 65536 or 4194304, got 8192/),
      ],
    },
    SAMPLE_CASE,
  ],
  TEXTURE2D: [
    {
      field: 'width',
      valid: [1, 255, 16383, 16384],
      invalid: [
        bad(16385, /a 2D texture's width must be at most 16384, got 16385/),
        bad(0, /at least 1/),
        bad(-256, /at least 1/),
      ],
    },
    {
      field: 'height',
      valid: [undefined, 1, 16384],
      invalid: [
        bad(16385, /a 2D texture's height must be at most 16384, got 16385/),
        bad(0, /at least 1/),
        bad(2 ** 32, /at most 4294967295/),
      ],
    },
    {
      field: 'depthOrArraySize',
      valid: [undefined, 1, 6, 2048],
      invalid: [
        bad(2049, /a 2D texture's array size must be at most 2048, got 2049/),
        bad(0, /at least 1/),
        bad(65536, /at most 65535/),
      ],
    },
    {
      field: 'mipLevels',
      valid: [undefined, 0, 1, 8, 9],
      invalid: [
        bad(10, /a 256×256 texture has at most 9 mips, got 10/),
        bad(15, /at most 9 mips/),
        bad(-1, /at least 0/),
        bad(65536, /at most 65535/),
        bad(1.5, /integer/),
      ],
    },
    {
      field: 'format',
      valid: ['R8G8B8A8_UNORM', 'R8G8B8A8_TYPELESS', 'BC7_UNORM', 'D16_UNORM'],
      invalid: [
        bad('UNKNOWN', /a texture needs a format \(UNKNOWN is for buffers\)/),
        bad(undefined, /a texture needs a format/),
        bad('NOT_A_FORMAT', /'NOT_A_FORMAT' is not a DXGI format this emulator knows/),
        bad(42, /must be a DXGI format name/),
      ],
    },
    {
      field: 'alignment',
      valid: [undefined, 0, 65536],
      invalid: [
        bad(4194304, /4 MiB is the alignment of multisampled textures, and multisampling is not emulated/),
        bad(1, /must be 0, 4096, 65536 or 4194304, got 1/),
        bad(2048, /must be 0, 4096, 65536 or 4194304/),
        bad(8192, /must be 0, 4096, 65536 or 4194304/),
        bad(131072, /must be 0, 4096, 65536 or 4194304/),
        bad(-4096, /at least 0/),
      ],
    },
    SAMPLE_CASE,
    { field: 'flags', valid: [undefined, [], ['NONE'], ['ALLOW_RENDER_TARGET']], invalid: COMMON_FLAG_INVALID },
  ],
  TEXTURE3D: [
    {
      field: 'width',
      valid: [1, 2048],
      invalid: [
        bad(2049, /a 3D texture's width must be at most 2048, got 2049/),
        bad(16384, /a 3D texture's width must be at most 2048/),
        bad(0, /at least 1/),
      ],
    },
    {
      field: 'height',
      valid: [1, 2048],
      invalid: [bad(2049, /a 3D texture's height must be at most 2048, got 2049/), bad(0, /at least 1/)],
    },
    {
      field: 'depthOrArraySize',
      valid: [1, 2048],
      invalid: [bad(2049, /a 3D texture's depth must be at most 2048, got 2049/), bad(0, /at least 1/)],
    },
    {
      field: 'mipLevels',
      valid: [undefined, 0, 1, 7],
      invalid: [bad(8, /a 64×64×16 texture has at most 7 mips, got 8/)],
    },
    {
      field: 'format',
      valid: ['R8G8B8A8_UNORM', 'BC1_UNORM', 'R16_FLOAT'],
      invalid: [bad('UNKNOWN', /a texture needs a format/), bad('R8G8B8A8', /not a DXGI format this emulator knows/)],
    },
    {
      field: 'alignment',
      valid: [undefined, 0, 65536],
      invalid: [
        bad(4194304, /4 MiB is the alignment of multisampled textures/),
        bad(32768, /must be 0, 4096, 65536 or 4194304/),
      ],
    },
    SAMPLE_CASE,
  ],
};

describe.each(DIMENSIONS)('%s: one field at a time', (dimension) => {
  const cases = FIELD_CASES[dimension];
  const vias = (fieldCase: FieldCase): Via[] => fieldCase.vias ?? viasFor(dimension);

  describe.each(cases.map((fieldCase) => [fieldCase.field, fieldCase] as const))('%s', (field, fieldCase) => {
    test.each(vias(fieldCase).flatMap((via) => fieldCase.valid.map((value) => [via.call, value, via] as const)))(
      '%s accepts %j',
      async (_call, value, via) => {
        const device = await newDevice();
        expectAccepted(via, device, { ...BASE[dimension], [field]: value });
      },
    );

    test.each(
      vias(fieldCase).flatMap((via) =>
        fieldCase.invalid.map((invalid) => [via.call, invalid.value, via, invalid] as const),
      ),
    )('%s rejects %j', async (_call, value, via, invalid) => {
      const device = await newDevice();
      // Control: the base description passes through the same call.
      expectAccepted(via, device, BASE[dimension]);
      expectD3D12Error(() => via.run(device, { ...BASE[dimension], [field]: value }), {
        call: via.call,
        argument: invalid.argument ?? `desc.${field}`,
        message: invalid.message,
      });
    });
  });
});

describe('the description must be an object', () => {
  test.each(
    ALL_VIAS.flatMap((via) => [null, undefined, 'BUFFER', 65536].map((value) => [via.call, value, via] as const)),
  )('%s rejects %j', async (_call, value, via) => {
    const device = await newDevice();
    const run =
      via === RESERVED
        ? () => device.createReservedResource(loose(value), 'COMMON')
        : () => via.run(device, loose(value));
    expectD3D12Error(run, { call: via.call, argument: 'desc', message: /must be a D3D12_RESOURCE_DESC object/ });
  });
});

describe('mipLevels: 0 is the full chain, floor(log2(largest dimension)) + 1 is the most', () => {
  const SHAPES: [ResourceDimension, number, number, number, number, string][] = [
    ['TEXTURE1D', 1, 1, 1, 1, 'R8G8B8A8_UNORM'],
    ['TEXTURE1D', 2, 1, 1, 2, 'R8G8B8A8_UNORM'],
    ['TEXTURE1D', 257, 1, 1, 9, 'R8G8B8A8_UNORM'],
    ['TEXTURE1D', 1000, 1, 1, 10, 'R8G8B8A8_UNORM'],
    ['TEXTURE1D', 1024, 1, 4, 11, 'R8G8B8A8_UNORM'],
    ['TEXTURE1D', 16384, 1, 1, 15, 'R8_UNORM'],
    ['TEXTURE2D', 1, 1, 1, 1, 'R8G8B8A8_UNORM'],
    ['TEXTURE2D', 300, 17, 1, 9, 'R8G8B8A8_UNORM'],
    ['TEXTURE2D', 17, 300, 1, 9, 'R8G8B8A8_UNORM'],
    ['TEXTURE2D', 16384, 1, 1, 15, 'R8_UNORM'],
    ['TEXTURE2D', 1, 16384, 1, 15, 'R8_UNORM'],
    ['TEXTURE2D', 4096, 4095, 1, 13, 'R8_UNORM'],
    ['TEXTURE2D', 16384, 16384, 1, 15, 'R8_UNORM'],
    ['TEXTURE2D', 256, 256, 6, 9, 'R8G8B8A8_UNORM'],
    ['TEXTURE2D', 64, 64, 1, 7, 'BC1_UNORM'],
    ['TEXTURE3D', 7, 9, 40, 6, 'R8G8B8A8_UNORM'],
    ['TEXTURE3D', 1, 1, 2048, 12, 'R8_UNORM'],
    ['TEXTURE3D', 2048, 1, 1, 12, 'R8_UNORM'],
    ['TEXTURE3D', 64, 64, 16, 7, 'R8G8B8A8_UNORM'],
  ];
  const cases = SHAPES.flatMap((shape) => viasFor(shape[0]).map((via) => [...shape, via.call, via] as const));

  test.each(cases)(
    '%s %i×%i×%i, max %i mips, %s, through %s',
    async (dimension, width, height, depthOrArraySize, max, format, _call, via) => {
      const device = await newDevice();
      const desc = { dimension, width, height, depthOrArraySize, format };
      expectAccepted(via, device, { ...desc, mipLevels: max });
      expectAccepted(via, device, { ...desc, mipLevels: 0 });
      expectD3D12Error(() => via.run(device, { ...desc, mipLevels: max + 1 }), {
        call: via.call,
        argument: 'desc.mipLevels',
        message: new RegExp(`has at most ${max} mips, got ${max + 1}`),
      });
      if (via === COMMITTED || via === RESERVED) {
        const resource = via.run(device, { ...desc, mipLevels: 0 }) as Resource;
        expect(resource.getDesc().mipLevels).toBe(max);
      } else {
        expect(device.getResourceAllocationInfo(loose({ ...desc, mipLevels: 0 }))).toEqual(
          device.getResourceAllocationInfo(loose({ ...desc, mipLevels: max })),
        );
      }
    },
  );
});

describe('formats', () => {
  const PLANAR = [
    'R32G8X24_TYPELESS',
    'D32_FLOAT_S8X24_UINT',
    'R32_FLOAT_X8X24_TYPELESS',
    'X32_TYPELESS_G8X24_UINT',
    'R24G8_TYPELESS',
    'D24_UNORM_S8_UINT',
    'R24_UNORM_X8_TYPELESS',
    'X24_TYPELESS_G8_UINT',
  ];
  const BPP96 = ['R32G32B32_TYPELESS', 'R32G32B32_FLOAT', 'R32G32B32_UINT', 'R32G32B32_SINT'];
  const SHAPE: Record<'TEXTURE1D' | 'TEXTURE2D' | 'TEXTURE3D', Loose> = {
    TEXTURE1D: { dimension: 'TEXTURE1D', width: 64 },
    TEXTURE2D: { dimension: 'TEXTURE2D', width: 64, height: 64 },
    TEXTURE3D: { dimension: 'TEXTURE3D', width: 16, height: 16, depthOrArraySize: 4 },
  };

  test('the format list holds the formats these tests single out', () => {
    for (const name of [...PLANAR, ...BPP96, 'UNKNOWN', 'R8G8B8A8_UNORM', 'BC1_UNORM', 'BC7_UNORM'])
      expect(FORMAT_NAMES).toContain(name);
    expect(FORMAT_NAMES.filter((name) => name.startsWith('BC')).length).toBe(21);
  });

  const cases = FORMAT_NAMES.filter((name) => name !== 'UNKNOWN').flatMap((format) =>
    (['TEXTURE1D', 'TEXTURE2D', 'TEXTURE3D'] as const).flatMap((dimension) =>
      viasFor(dimension).map((via) => [format, dimension, via.call, via] as const),
    ),
  );

  test.each(cases)('%s as %s through %s', async (format, dimension, _call, via) => {
    const device = await newDevice();
    const desc = { ...SHAPE[dimension], format };
    const expected = { call: via.call, argument: 'desc.format' };
    if (PLANAR.includes(format)) {
      expectD3D12Error(() => via.run(device, desc), {
        ...expected,
        message: new RegExp(`${format} is a planar depth-stencil format`),
      });
    } else if (BPP96.includes(format)) {
      expectD3D12Error(() => via.run(device, desc), {
        ...expected,
        message: new RegExp(`${format} has 96 bits per texel, for which D3D12 defines no tile shape`),
      });
    } else if (format.startsWith('BC') && dimension === 'TEXTURE1D') {
      expectD3D12Error(() => via.run(device, desc), { ...expected, message: /cannot be used by a 1D texture/ });
    } else {
      expectAccepted(via, device, desc);
    }
  });

  test.each(
    [
      'R8G8B8A8_unorm',
      'DXGI_FORMAT_R8G8B8A8_UNORM',
      'NV12',
      'YUY2',
      'P010',
      'R1_UNORM',
      'R8G8_B8G8_UNORM',
      'G8R8_G8B8_UNORM',
      '',
      'toString',
      'constructor',
      '__proto__',
    ].flatMap((format) => ALL_VIAS.map((via) => [format, via.call, via] as const)),
  )('unknown name %j through %s is rejected', async (format, _call, via) => {
    const device = await newDevice();
    expectD3D12Error(() => via.run(device, { ...BASE.TEXTURE2D, format }), {
      call: via.call,
      argument: 'desc.format',
      message: /is not a DXGI format this emulator knows/,
    });
  });

  describe('block-compressed formats need width and height in whole 4×4 blocks', () => {
    const BC_FORMATS = FORMAT_NAMES.filter((name) => name.startsWith('BC'));
    const VALID: [number, number, number][] = [
      [4, 4, 1],
      [8, 12, 1],
      [64, 64, 1],
      [16384, 4, 1],
    ];
    const INVALID: [number, number, 'width' | 'height'][] = [
      [62, 64, 'width'],
      [64, 62, 'height'],
      [1, 1, 'width'],
      [2, 4, 'width'],
      [4, 2, 'height'],
      [6, 6, 'width'],
      [16383, 4, 'width'],
    ];

    test.each(BC_FORMATS.flatMap((format) => ALL_VIAS.map((via) => [format, via.call, via] as const)))(
      '%s through %s',
      async (format, _call, via) => {
        const device = await newDevice();
        for (const [width, height, depthOrArraySize] of VALID)
          expectAccepted(via, device, { dimension: 'TEXTURE2D', width, height, depthOrArraySize, format });
        // A 3D texture's depth is not in blocks.
        expectAccepted(via, device, { dimension: 'TEXTURE3D', width: 64, height: 64, depthOrArraySize: 3, format });
        for (const [width, height, field] of INVALID) {
          expectD3D12Error(() => via.run(device, { dimension: 'TEXTURE2D', width, height, format }), {
            call: via.call,
            argument: `desc.${field}`,
            message: new RegExp(
              `block-compressed texture's ${field} must be a multiple of 4, got ${field === 'width' ? width : height}`,
            ),
          });
        }
        expectD3D12Error(
          () => via.run(device, { dimension: 'TEXTURE3D', width: 63, height: 64, depthOrArraySize: 4, format }),
          {
            call: via.call,
            argument: 'desc.width',
            message: /multiple of 4/,
          },
        );
      },
    );
  });
});

describe('sampleDesc: MSAA is not emulated', () => {
  test.each(ALL_VIAS.flatMap((via) => [2, 4, 8, 16, 32].map((count) => [count, via.call, via] as const)))(
    'count %i through %s is rejected',
    async (count, _call, via) => {
      const device = await newDevice();
      expectAccepted(via, device, { ...BASE.TEXTURE2D, sampleDesc: { count: 1, quality: 0 } });
      expectD3D12Error(
        () => via.run(device, { ...BASE.TEXTURE2D, flags: ['ALLOW_RENDER_TARGET'], sampleDesc: { count, quality: 0 } }),
        {
          call: via.call,
          argument: 'desc.sampleDesc.count',
          message: /multisampling .* is not emulated/,
        },
      );
    },
  );
});

describe('layouts', () => {
  const LAYOUTS = ['UNKNOWN', 'ROW_MAJOR', '64KB_UNDEFINED_SWIZZLE', '64KB_STANDARD_SWIZZLE'] as const;
  const cases = DIMENSIONS.flatMap((dimension) =>
    LAYOUTS.flatMap((layout) => NOT_RESERVED.map((via) => [dimension, layout, via.call, via] as const)),
  );

  test.each(cases)('%s with layout %s through %s', async (dimension, layout, _call, via) => {
    const device = await newDevice();
    const desc = { ...BASE[dimension], layout };
    const expected = { call: via.call, argument: 'desc.layout' };
    if (dimension === 'BUFFER') {
      if (layout === 'ROW_MAJOR') expectAccepted(via, device, desc);
      else
        expectD3D12Error(() => via.run(device, desc), { ...expected, message: /a buffer's layout must be ROW_MAJOR/ });
    } else if (layout === 'ROW_MAJOR') {
      expectD3D12Error(() => via.run(device, desc), {
        ...expected,
        message: /ROW_MAJOR textures need ALLOW_CROSS_ADAPTER/,
      });
    } else if (layout === '64KB_STANDARD_SWIZZLE') {
      expectD3D12Error(() => via.run(device, desc), {
        ...expected,
        message: /64KB_STANDARD_SWIZZLE is not supported \(StandardSwizzle64KBSupported is false\)/,
      });
    } else {
      expectAccepted(via, device, desc);
    }
  });

  test('texture layouts ROW_MAJOR and 64KB_STANDARD_SWIZZLE are refused by createReservedResource too', async () => {
    const device = await newDevice();
    for (const layout of ['ROW_MAJOR', '64KB_STANDARD_SWIZZLE']) {
      expectD3D12Error(() => RESERVED.run(device, { ...BASE.TEXTURE2D, layout }), {
        call: 'createReservedResource',
        argument: 'desc.layout',
        message: new RegExp(layout),
      });
    }
  });

  test('defaults: ROW_MAJOR for buffers, UNKNOWN for textures', async () => {
    const device = await newDevice();
    expect((COMMITTED.run(device, BASE.BUFFER) as Resource).getDesc().layout).toBe('ROW_MAJOR');
    expect((COMMITTED.run(device, BASE.TEXTURE2D) as Resource).getDesc().layout).toBe('UNKNOWN');
  });
});

describe('texture flags', () => {
  type FlagCase = [string, ResourceDimension, string[], RegExp | null];
  const ACCEPTED: FlagCase[] = [
    ['R8G8B8A8_UNORM', 'TEXTURE2D', [], null],
    ['R8G8B8A8_UNORM', 'TEXTURE2D', ['NONE'], null],
    ['R8G8B8A8_UNORM', 'TEXTURE2D', ['ALLOW_RENDER_TARGET'], null],
    ['R8G8B8A8_UNORM', 'TEXTURE2D', ['ALLOW_UNORDERED_ACCESS'], null],
    ['R8G8B8A8_UNORM', 'TEXTURE2D', ['ALLOW_SIMULTANEOUS_ACCESS'], null],
    [
      'R8G8B8A8_UNORM',
      'TEXTURE2D',
      ['ALLOW_RENDER_TARGET', 'ALLOW_UNORDERED_ACCESS', 'ALLOW_SIMULTANEOUS_ACCESS'],
      null,
    ],
    ['R8G8B8A8_UNORM', 'TEXTURE2D', ['NONE', 'ALLOW_RENDER_TARGET', 'ALLOW_RENDER_TARGET'], null],
    ['R8G8B8A8_UNORM', 'TEXTURE3D', ['ALLOW_RENDER_TARGET', 'ALLOW_UNORDERED_ACCESS'], null],
    ['R8G8B8A8_UNORM', 'TEXTURE1D', ['ALLOW_RENDER_TARGET', 'ALLOW_UNORDERED_ACCESS'], null],
    ['D32_FLOAT', 'TEXTURE2D', ['ALLOW_DEPTH_STENCIL'], null],
    ['D32_FLOAT', 'TEXTURE2D', ['ALLOW_DEPTH_STENCIL', 'DENY_SHADER_RESOURCE'], null],
    ['D16_UNORM', 'TEXTURE2D', ['ALLOW_DEPTH_STENCIL'], null],
    ['D32_FLOAT', 'TEXTURE1D', ['ALLOW_DEPTH_STENCIL'], null],
    ['R32_TYPELESS', 'TEXTURE2D', ['ALLOW_DEPTH_STENCIL'], null],
    ['R16_TYPELESS', 'TEXTURE2D', ['ALLOW_DEPTH_STENCIL', 'DENY_SHADER_RESOURCE'], null],
    ['R32_TYPELESS', 'TEXTURE2D', ['ALLOW_RENDER_TARGET'], null],
    ['R32_TYPELESS', 'TEXTURE2D', ['ALLOW_UNORDERED_ACCESS'], null],
    ['R32_FLOAT', 'TEXTURE2D', ['ALLOW_RENDER_TARGET', 'ALLOW_UNORDERED_ACCESS'], null],
    ['BC1_UNORM', 'TEXTURE2D', ['ALLOW_SIMULTANEOUS_ACCESS'], null],
  ];
  const REJECTED: FlagCase[] = [
    [
      'R8G8B8A8_UNORM',
      'TEXTURE2D',
      ['ALLOW_RENDER_TARGET', 'ALLOW_DEPTH_STENCIL'],
      /ALLOW_RENDER_TARGET and ALLOW_DEPTH_STENCIL cannot be combined/,
    ],
    [
      'D32_FLOAT',
      'TEXTURE2D',
      ['ALLOW_DEPTH_STENCIL', 'ALLOW_RENDER_TARGET'],
      /ALLOW_RENDER_TARGET and ALLOW_DEPTH_STENCIL cannot be combined/,
    ],
    [
      'R8G8B8A8_UNORM',
      'TEXTURE2D',
      ['ALLOW_DEPTH_STENCIL'],
      /ALLOW_DEPTH_STENCIL needs a depth format, and R8G8B8A8_UNORM is not one/,
    ],
    ['BC1_UNORM', 'TEXTURE2D', ['ALLOW_DEPTH_STENCIL'], /ALLOW_DEPTH_STENCIL needs a depth format/],
    ['D32_FLOAT', 'TEXTURE3D', ['ALLOW_DEPTH_STENCIL'], /ALLOW_DEPTH_STENCIL cannot be used with a 3D texture/],
    ['R32_TYPELESS', 'TEXTURE3D', ['ALLOW_DEPTH_STENCIL'], /ALLOW_DEPTH_STENCIL cannot be used with a 3D texture/],
    [
      'D32_FLOAT',
      'TEXTURE2D',
      ['ALLOW_DEPTH_STENCIL', 'ALLOW_UNORDERED_ACCESS'],
      /ALLOW_DEPTH_STENCIL cannot be combined with ALLOW_UNORDERED_ACCESS/,
    ],
    [
      'R32_TYPELESS',
      'TEXTURE2D',
      ['ALLOW_DEPTH_STENCIL', 'ALLOW_UNORDERED_ACCESS'],
      /ALLOW_DEPTH_STENCIL cannot be combined with ALLOW_UNORDERED_ACCESS/,
    ],
    [
      'D16_UNORM',
      'TEXTURE2D',
      ['ALLOW_DEPTH_STENCIL', 'ALLOW_SIMULTANEOUS_ACCESS'],
      /ALLOW_DEPTH_STENCIL cannot be combined with ALLOW_SIMULTANEOUS_ACCESS/,
    ],
    ['R8G8B8A8_UNORM', 'TEXTURE2D', ['DENY_SHADER_RESOURCE'], /DENY_SHADER_RESOURCE requires ALLOW_DEPTH_STENCIL/],
    [
      'R8G8B8A8_UNORM',
      'TEXTURE2D',
      ['ALLOW_RENDER_TARGET', 'DENY_SHADER_RESOURCE'],
      /DENY_SHADER_RESOURCE requires ALLOW_DEPTH_STENCIL/,
    ],
    ['D32_FLOAT', 'TEXTURE2D', ['DENY_SHADER_RESOURCE'], /DENY_SHADER_RESOURCE requires ALLOW_DEPTH_STENCIL/],
    [
      'BC1_UNORM',
      'TEXTURE2D',
      ['ALLOW_RENDER_TARGET'],
      /ALLOW_RENDER_TARGET cannot be used with block-compressed format BC1_UNORM/,
    ],
    [
      'BC7_UNORM',
      'TEXTURE2D',
      ['ALLOW_UNORDERED_ACCESS'],
      /ALLOW_UNORDERED_ACCESS cannot be used with block-compressed format BC7_UNORM/,
    ],
    [
      'BC3_UNORM',
      'TEXTURE3D',
      ['ALLOW_UNORDERED_ACCESS'],
      /ALLOW_UNORDERED_ACCESS cannot be used with block-compressed/,
    ],
    [
      'D32_FLOAT',
      'TEXTURE2D',
      ['ALLOW_RENDER_TARGET'],
      /ALLOW_RENDER_TARGET cannot be used with depth format D32_FLOAT/,
    ],
    [
      'D16_UNORM',
      'TEXTURE2D',
      ['ALLOW_UNORDERED_ACCESS'],
      /ALLOW_UNORDERED_ACCESS cannot be used with depth format D16_UNORM/,
    ],
    ['D32_FLOAT', 'TEXTURE1D', ['ALLOW_UNORDERED_ACCESS'], /ALLOW_UNORDERED_ACCESS cannot be used with depth format/],
    // A depth-stencil view needs a depth format or the TYPELESS format of its family; the family's
    // other typed members (color formats) cannot be depth-stencil targets.
    ...(['R32_FLOAT', 'R32_UINT', 'R32_SINT', 'R16_FLOAT', 'R16_UNORM', 'R16_UINT', 'R16_SNORM', 'R16_SINT'].map(
      (format) => [
        format,
        'TEXTURE2D',
        ['ALLOW_DEPTH_STENCIL'],
        new RegExp(`ALLOW_DEPTH_STENCIL needs a depth format, and ${format} is not one`),
      ],
    ) as FlagCase[]),
  ];
  const SHAPE: Record<ResourceDimension, Loose> = {
    BUFFER: BASE.BUFFER,
    TEXTURE1D: { dimension: 'TEXTURE1D', width: 64 },
    TEXTURE2D: { dimension: 'TEXTURE2D', width: 64, height: 64 },
    TEXTURE3D: { dimension: 'TEXTURE3D', width: 64, height: 64, depthOrArraySize: 4 },
  };
  const withVias = (cases: FlagCase[]) =>
    cases.flatMap((flagCase) => viasFor(flagCase[1]).map((via) => [...flagCase, via.call, via] as const));

  test.each(withVias(ACCEPTED))(
    '%s %s with %j is accepted (%s)',
    async (format, dimension, flags, _message, _call, via) => {
      const device = await newDevice();
      expectAccepted(via, device, { ...SHAPE[dimension], format, flags });
    },
  );

  test.each(withVias(REJECTED))(
    '%s %s with %j is rejected (%s, %s)',
    async (format, dimension, flags, message, _call, via) => {
      const device = await newDevice();
      // Control: the same texture without flags.
      expectAccepted(via, device, { ...SHAPE[dimension], format });
      expectD3D12Error(() => via.run(device, { ...SHAPE[dimension], format, flags }), {
        call: via.call,
        argument: 'desc.flags',
        message: message ?? /./,
      });
    },
  );

  test('flags are normalized: NONE dropped, duplicates merged', async () => {
    const device = await newDevice();
    const resource = COMMITTED.run(device, {
      ...BASE.TEXTURE2D,
      flags: ['NONE', 'ALLOW_RENDER_TARGET', 'ALLOW_RENDER_TARGET'],
    }) as Resource;
    expect(resource.getDesc().flags).toEqual(['ALLOW_RENDER_TARGET']);
  });
});

describe('alignment', () => {
  const SMALL: Loose[] = [
    { dimension: 'TEXTURE2D', width: 32, height: 32, format: 'R8G8B8A8_UNORM' },
    { dimension: 'TEXTURE2D', width: 128, height: 128, format: 'R8G8B8A8_UNORM' },
    { dimension: 'TEXTURE2D', width: 32, height: 32, depthOrArraySize: 16, mipLevels: 0, format: 'R8G8B8A8_UNORM' },
    { dimension: 'TEXTURE2D', width: 256, height: 256, format: 'BC1_UNORM' },
    { dimension: 'TEXTURE2D', width: 64, height: 64, format: 'R8G8B8A8_UNORM', flags: ['ALLOW_UNORDERED_ACCESS'] },
    { dimension: 'TEXTURE1D', width: 16384, format: 'R8G8B8A8_UNORM' },
    { dimension: 'TEXTURE3D', width: 16, height: 16, depthOrArraySize: 64, format: 'R8G8B8A8_UNORM' },
  ];
  const NOT_SMALL: [string, Loose][] = [
    ['mip 0 larger than 64 KiB', { dimension: 'TEXTURE2D', width: 256, height: 256, format: 'R8G8B8A8_UNORM' }],
    ['mip 0 one row over 64 KiB', { dimension: 'TEXTURE2D', width: 128, height: 129, format: 'R8G8B8A8_UNORM' }],
    [
      'a 3D texture over 64 KiB',
      { dimension: 'TEXTURE3D', width: 16, height: 16, depthOrArraySize: 65, format: 'R8G8B8A8_UNORM' },
    ],
    ['a 1D texture over 64 KiB', { dimension: 'TEXTURE1D', width: 16384, format: 'R16G16B16A16_FLOAT' }],
    [
      'a render target',
      { dimension: 'TEXTURE2D', width: 32, height: 32, format: 'R8G8B8A8_UNORM', flags: ['ALLOW_RENDER_TARGET'] },
    ],
    [
      'a depth-stencil target',
      { dimension: 'TEXTURE2D', width: 32, height: 32, format: 'D32_FLOAT', flags: ['ALLOW_DEPTH_STENCIL'] },
    ],
    [
      '64KB_UNDEFINED_SWIZZLE layout',
      { dimension: 'TEXTURE2D', width: 32, height: 32, format: 'R8G8B8A8_UNORM', layout: '64KB_UNDEFINED_SWIZZLE' },
    ],
  ];

  test.each(SMALL.map((desc) => [JSON.stringify(desc), desc] as const))(
    'small texture %s: 4096 is honoured',
    async (_name, desc) => {
      const device = await newDevice();
      const info = device.getResourceAllocationInfo(loose({ ...desc, alignment: 4096 }));
      expect(info.alignment).toBe(4096);
      expect(info.sizeInBytes % 4096).toBe(0);
      const resource = device.createCommittedResource(
        { type: 'DEFAULT' },
        [],
        loose({ ...desc, alignment: 4096 }),
        'COMMON',
      );
      expect(resource.getDesc().alignment).toBe(4096);
      // Without asking, a small texture is 64 KiB aligned and its size whole tiles.
      const plain = device.getResourceAllocationInfo(loose(desc));
      expect(plain.alignment).toBe(65536);
      expect(plain.sizeInBytes % 65536).toBe(0);
      expect(plain.sizeInBytes).toBeGreaterThanOrEqual(info.sizeInBytes);
    },
  );

  test.each(NOT_SMALL)(
    'not small (%s): getResourceAllocationInfo answers 65536 for 4096, creation fails',
    async (_name, desc) => {
      const device = await newDevice();
      const asked = { ...desc, alignment: 4096 };
      const info = device.getResourceAllocationInfo(loose(asked));
      expect(info.alignment).toBe(65536);
      expect(info).toEqual(device.getResourceAllocationInfo(loose(desc)));
      expectD3D12Error(() => COMMITTED.run(device, asked), {
        call: 'createCommittedResource',
        argument: 'desc.alignment',
        message: /4096 is only for small textures/,
      });
      if (desc.dimension !== 'TEXTURE1D') {
        expectD3D12Error(() => RESERVED.run(device, asked), {
          call: 'createReservedResource',
          argument: 'desc.alignment',
          message: /4096 is only for small textures/,
        });
      }
      // Control: the same description with alignment 0 or 65536 is created.
      expectAccepted(COMMITTED, device, desc);
      expectAccepted(COMMITTED, device, { ...desc, alignment: 65536 });
    },
  );

  test.each(ALL_VIAS.map((via) => [via.call, via] as const))(
    '4 MiB is refused for textures and buffers (%s)',
    async (_call, via) => {
      const device = await newDevice();
      for (const dimension of ['TEXTURE2D', 'TEXTURE3D', 'BUFFER'] as const) {
        expectD3D12Error(() => via.run(device, { ...BASE[dimension], alignment: 4194304 }), {
          call: via.call,
          argument: 'desc.alignment',
          message:
            dimension === 'BUFFER'
              ? /a buffer's alignment must be 0 or 65536/
              : /4 MiB is the alignment of multisampled textures/,
        });
      }
    },
  );

  test('buffers: 0 and 65536 are accepted, 4096 is not, even for tiny buffers', async () => {
    const device = await newDevice();
    for (const via of ALL_VIAS) {
      expectAccepted(via, device, { dimension: 'BUFFER', width: 16, alignment: 0 });
      expectAccepted(via, device, { dimension: 'BUFFER', width: 16, alignment: 65536 });
      expectD3D12Error(() => via.run(device, { dimension: 'BUFFER', width: 16, alignment: 4096 }), {
        call: via.call,
        argument: 'desc.alignment',
        message: /a buffer's alignment must be 0 or 65536/,
      });
    }
  });

  test('getDesc reports the alignment in effect', async () => {
    const device = await newDevice();
    expect((COMMITTED.run(device, BASE.BUFFER) as Resource).getDesc().alignment).toBe(65536);
    expect((COMMITTED.run(device, BASE.TEXTURE2D) as Resource).getDesc().alignment).toBe(65536);
    expect(
      (COMMITTED.run(device, { ...BASE.TEXTURE2D, width: 32, height: 32, alignment: 4096 }) as Resource).getDesc()
        .alignment,
    ).toBe(4096);
  });
});

describe('getResourceAllocationInfo: sizes and alignments', () => {
  test.each([
    [1, 65536],
    [256, 65536],
    [65535, 65536],
    [65536, 65536],
    [65537, 131072],
    [10 * 65536, 10 * 65536],
    [10 * 65536 + 1, 11 * 65536],
    [2 ** 32, 2 ** 32],
    [TIB, TIB],
  ])('a buffer of %i bytes takes %i, 64 KiB aligned', async (width, size) => {
    const device = await newDevice();
    expect(device.getResourceAllocationInfo({ dimension: 'BUFFER', width })).toEqual({
      sizeInBytes: size,
      alignment: 65536,
    });
    expect(device.getResourceAllocationInfo({ dimension: 'BUFFER', width, alignment: 65536 })).toEqual({
      sizeInBytes: size,
      alignment: 65536,
    });
  });

  test('a buffer may span at most 2^40 bytes (MaxGPUVirtualAddressBitsPerResource)', async () => {
    const device = await newDevice();
    expect(device.getResourceAllocationInfo({ dimension: 'BUFFER', width: TIB }).sizeInBytes).toBe(TIB);
    for (const via of ALL_VIAS) {
      expectD3D12Error(() => via.run(device, { dimension: 'BUFFER', width: TIB + 1 }), {
        call: via.call,
        argument: 'desc.width',
        message: /must be at most 1099511627776 bytes/,
      });
    }
  });

  test('a texture may span at most 2^40 bytes', async () => {
    const device = await newDevice();
    // 16384 × 16384 × 16 bytes × 2048 slices = 2^43 bytes; 256 slices = 2^40 exactly.
    const huge = { dimension: 'TEXTURE2D', width: 16384, height: 16384, format: 'R32G32B32A32_FLOAT' };
    expect(device.getResourceAllocationInfo(loose({ ...huge, depthOrArraySize: 256 })).sizeInBytes).toBe(TIB);
    for (const via of ALL_VIAS) {
      expectD3D12Error(() => via.run(device, { ...huge, depthOrArraySize: 2048 }), {
        call: via.call,
        argument: 'desc',
        message: /more than the 1099511627776 a resource may span/,
      });
      expectD3D12Error(() => via.run(device, { ...huge, depthOrArraySize: 257 }), {
        call: via.call,
        argument: 'desc',
        message: /a resource may span/,
      });
    }
  });

  const TEXTURES: [string, Loose, number][] = [
    [
      '512×512 RGBA8, 10 mips: 16 + 4 + 1 standard tiles and a one-tile tail',
      { dimension: 'TEXTURE2D', width: 512, height: 512, mipLevels: 10, format: 'R8G8B8A8_UNORM' },
      22,
    ],
    [
      '512×512 RGBA8, full chain',
      { dimension: 'TEXTURE2D', width: 512, height: 512, mipLevels: 0, format: 'R8G8B8A8_UNORM' },
      22,
    ],
    ['512×512 RGBA8, 1 mip', { dimension: 'TEXTURE2D', width: 512, height: 512, format: 'R8G8B8A8_UNORM' }, 16],
    [
      '512×512 RGBA8, 10 mips, 3 slices',
      { dimension: 'TEXTURE2D', width: 512, height: 512, depthOrArraySize: 3, mipLevels: 10, format: 'R8G8B8A8_UNORM' },
      66,
    ],
    ['256×256 RGBA8', { dimension: 'TEXTURE2D', width: 256, height: 256, format: 'R8G8B8A8_UNORM' }, 4],
    ['256×256 R8', { dimension: 'TEXTURE2D', width: 256, height: 256, format: 'R8_UNORM' }, 1],
    ['256×256 R16', { dimension: 'TEXTURE2D', width: 256, height: 256, format: 'R16_FLOAT' }, 2],
    ['256×256 RGBA16F', { dimension: 'TEXTURE2D', width: 256, height: 256, format: 'R16G16B16A16_FLOAT' }, 8],
    ['256×256 RGBA32F', { dimension: 'TEXTURE2D', width: 256, height: 256, format: 'R32G32B32A32_FLOAT' }, 16],
    ['1024×1024 BC1', { dimension: 'TEXTURE2D', width: 1024, height: 1024, format: 'BC1_UNORM' }, 8],
    ['1024×1024 BC7', { dimension: 'TEXTURE2D', width: 1024, height: 1024, format: 'BC7_UNORM' }, 16],
    [
      '64×64×32 RGBA8 volume',
      { dimension: 'TEXTURE3D', width: 64, height: 64, depthOrArraySize: 32, format: 'R8G8B8A8_UNORM' },
      8,
    ],
    [
      '1D 16384 RGBA8 × 4 slices',
      { dimension: 'TEXTURE1D', width: 16384, depthOrArraySize: 4, format: 'R8G8B8A8_UNORM' },
      4,
    ],
    ['1×1 RGBA8', { dimension: 'TEXTURE2D', width: 1, height: 1, format: 'R8G8B8A8_UNORM' }, 1],
  ];

  test.each(
    TEXTURES.flatMap(([name, desc, tiles]) =>
      ([1, 2, 3, 4] as const).map((tier) => [name, tier, desc, tiles] as const),
    ),
  )('%s (tier %i)', async (_name, tiledResourcesTier, desc, tiles) => {
    const device = await createDevice({ tiledResourcesTier });
    expect(device.getResourceAllocationInfo(loose(desc))).toEqual({ sizeInBytes: tiles * TILE, alignment: 65536 });
  });

  test.each([
    ['32×32 RGBA8', 4 * KIB, TILE, { dimension: 'TEXTURE2D', width: 32, height: 32, format: 'R8G8B8A8_UNORM' }],
    ['32×32 R8', 4 * KIB, TILE, { dimension: 'TEXTURE2D', width: 32, height: 32, format: 'R8_UNORM' }],
    [
      '32×32 RGBA8 × 4 slices',
      16 * KIB,
      4 * TILE,
      { dimension: 'TEXTURE2D', width: 32, height: 32, depthOrArraySize: 4, format: 'R8G8B8A8_UNORM' },
    ],
    [
      '128×128 RGBA8 (mip 0 exactly 64 KiB)',
      64 * KIB,
      TILE,
      { dimension: 'TEXTURE2D', width: 128, height: 128, format: 'R8G8B8A8_UNORM' },
    ],
    ['256×256 BC1', 32 * KIB, TILE, { dimension: 'TEXTURE2D', width: 256, height: 256, format: 'BC1_UNORM' }],
  ] as const)(
    'small %s with alignment 4096 takes %i bytes, 4 KiB aligned (%i bytes at 64 KiB)',
    async (_name, size, plainSize, desc) => {
      const device = await newDevice();
      expect(device.getResourceAllocationInfo(loose({ ...desc, alignment: 4096 }))).toEqual({
        sizeInBytes: size,
        alignment: 4096,
      });
      expect(device.getResourceAllocationInfo(loose(desc))).toEqual({ sizeInBytes: plainSize, alignment: 65536 });
    },
  );

  describe('arrays of descriptions: back to back, each aligned, the largest alignment', () => {
    const buffer = (width: number): Loose => ({ dimension: 'BUFFER', width });
    const small: Loose = { dimension: 'TEXTURE2D', width: 32, height: 32, format: 'R8G8B8A8_UNORM', alignment: 4096 };
    const big: Loose = { dimension: 'TEXTURE2D', width: 512, height: 512, mipLevels: 10, format: 'R8G8B8A8_UNORM' };
    const notSmallAsked4K: Loose = {
      dimension: 'TEXTURE2D',
      width: 256,
      height: 256,
      format: 'R8G8B8A8_UNORM',
      alignment: 4096,
    };

    test.each([
      ['[buffer]', 65536, 65536, [buffer(1)]],
      ['[small]', 4096, 4096, [small]],
      ['[small, small]', 8192, 4096, [small, small]],
      ['[small, small, small]', 12288, 4096, [small, small, small]],
      ['[buffer 1 B, small]', 65536 + 4096, 65536, [buffer(1), small]],
      ['[small, buffer 1 B]', 65536 + 65536, 65536, [small, buffer(1)]],
      ['[small, small, buffer 65537 B]', 65536 + 131072, 65536, [small, small, buffer(65537)]],
      ['[512² texture, buffer 65537 B]', 22 * TILE + 131072, 65536, [big, buffer(65537)]],
      ['[buffer, 512² texture, small]', TILE + 22 * TILE + 4096, 65536, [buffer(65536), big, small]],
      ['[not small asked 4 KiB, small]', 4 * TILE + 4096, 65536, [notSmallAsked4K, small]],
    ] as const)('%s → %i bytes, alignment %i', async (_name, size, alignment, descs) => {
      const device = await newDevice();
      expect(device.getResourceAllocationInfo(loose(descs))).toEqual({ sizeInBytes: size, alignment });
    });

    test('one description in an array equals the description alone', async () => {
      const device = await newDevice();
      for (const desc of [buffer(100), small, big])
        expect(device.getResourceAllocationInfo(loose([desc]))).toEqual(device.getResourceAllocationInfo(loose(desc)));
    });

    test('an empty array is rejected', async () => {
      const device = await newDevice();
      expectD3D12Error(() => device.getResourceAllocationInfo([]), {
        call: 'getResourceAllocationInfo',
        argument: 'descs',
        message: /must hold at least one resource description/,
      });
    });

    test.each([
      [[buffer(1), buffer(0)], 'descs[1].width', /at least 1/],
      [[buffer(1), small, { ...small, format: 'UNKNOWN' }], 'descs[2].format', /needs a format/],
      [[buffer(1), null], 'descs[1]', /must be a D3D12_RESOURCE_DESC object/],
      [['BUFFER'], 'descs[0]', /must be a D3D12_RESOURCE_DESC object/],
      [[{ ...big, alignment: 4194304 }, small], 'descs[0].alignment', /4 MiB/],
    ] as const)('an invalid element is named by its index: %j', async (descs, argument, message) => {
      const device = await newDevice();
      expectD3D12Error(() => device.getResourceAllocationInfo(loose(descs)), {
        call: 'getResourceAllocationInfo',
        argument,
        message,
      });
    });
  });
});

describe('getDesc: the normalized description', () => {
  test('a buffer with every default', async () => {
    const device = await newDevice();
    const resource = device.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: 100 },
      'COMMON',
    );
    expect(resource.getDesc()).toEqual({
      dimension: 'BUFFER',
      alignment: 65536,
      width: 100,
      height: 1,
      depthOrArraySize: 1,
      mipLevels: 1,
      format: 'UNKNOWN',
      sampleDesc: { count: 1, quality: 0 },
      layout: 'ROW_MAJOR',
      flags: [],
    });
  });

  test('a texture with a full mip chain', async () => {
    const device = await newDevice();
    const desc: ResourceDesc = {
      dimension: 'TEXTURE2D',
      width: 300,
      height: 17,
      mipLevels: 0,
      format: 'R8G8B8A8_UNORM',
      flags: ['NONE'],
    };
    const before = structuredClone(desc);
    const resource = device.createCommittedResource({ type: 'DEFAULT' }, [], desc, 'COMMON');
    expect(resource.getDesc()).toEqual({
      dimension: 'TEXTURE2D',
      alignment: 65536,
      width: 300,
      height: 17,
      depthOrArraySize: 1,
      mipLevels: 9,
      format: 'R8G8B8A8_UNORM',
      sampleDesc: { count: 1, quality: 0 },
      layout: 'UNKNOWN',
      flags: [],
    });
    // The caller's description is left as it was.
    expect(desc).toEqual(before);
  });
});

describe('the resource keeps its own copy of the description', () => {
  test.each([COMMITTED, RESERVED].map((via) => [via.call, via] as const))(
    "%s: changing the caller's object or getDesc's result changes nothing",
    async (_call, via) => {
      const device = await newDevice();
      const desc = {
        ...BASE.TEXTURE2D,
        width: 256,
        flags: ['ALLOW_RENDER_TARGET'],
        sampleDesc: { count: 1, quality: 0 },
      };
      const resource = via.run(device, desc) as Resource;
      const before = resource.getDesc();
      desc.flags.push('ALLOW_UNORDERED_ACCESS');
      desc.sampleDesc.count = 4;
      desc.width = 1;
      const copy = resource.getDesc();
      copy.flags.push('DENY_SHADER_RESOURCE');
      copy.height = 7;
      expect(resource.getDesc()).toEqual(before);
      expect(before.flags).toEqual(['ALLOW_RENDER_TARGET']);
    },
  );
});

describe('a failed call changes nothing', () => {
  const FAILING: Loose[] = [
    { ...BASE.TEXTURE2D, width: 16385 },
    { ...BASE.TEXTURE2D, mipLevels: 10 },
    { ...BASE.TEXTURE2D, format: 'D24_UNORM_S8_UINT' },
    { ...BASE.TEXTURE2D, sampleDesc: { count: 4, quality: 0 } },
    { ...BASE.TEXTURE2D, alignment: 4096 },
    { ...BASE.BUFFER, flags: ['ALLOW_RENDER_TARGET'] },
    { ...BASE.BUFFER, width: TIB + 1 },
  ];

  test.each([COMMITTED, RESERVED].map((via) => [via.call, via] as const))(
    '%s: the next resource gets the address and id it would have had',
    async (_call, via) => {
      const control = await newDevice();
      const probe = await newDevice();
      const controlFirst = via.run(control, BASE.TEXTURE2D) as Resource;
      const probeFirst = via.run(probe, BASE.TEXTURE2D) as Resource;
      expect(probeFirst.getGPUVirtualAddress()).toBe(controlFirst.getGPUVirtualAddress());
      for (const desc of FAILING) expectD3D12Error(() => via.run(probe, desc), { call: via.call });
      // (getResourceAllocationInfo answers 65536 for an alignment of 4096 it cannot honour.)
      for (const desc of FAILING.filter((failing) => failing.alignment !== 4096))
        expectD3D12Error(() => INFO.run(probe, desc), { call: 'getResourceAllocationInfo' });
      for (const desc of [BASE.BUFFER, BASE.TEXTURE3D]) {
        const expected = via.run(control, desc) as Resource;
        const actual = via.run(probe, desc) as Resource;
        expect(actual.getGPUVirtualAddress()).toBe(expected.getGPUVirtualAddress());
        expect(actual.label).toBe(expected.label);
        expect(actual.getDesc()).toEqual(expected.getDesc());
      }
      // The resource created before the failures is untouched.
      expect(probeFirst.getDesc()).toEqual(controlFirst.getDesc());
      expect(probeFirst.getGPUVirtualAddress()).toBe(controlFirst.getGPUVirtualAddress());
    },
  );
});
