/**
 * A graphics pipeline's input layout (D3D12_INPUT_LAYOUT_DESC: src/validation/input-layout.ts),
 * through createGraphicsPipelineState on a CPU-only device: a layout the runtime refuses rejects
 * with its error, one it accepts gets as far as the GPU step (which a CPU-only device refuses, naming
 * `this`). What the layout resolves to (APPEND_ALIGNED_ELEMENT offsets, the slots in order) is read
 * from the validator itself. CTS style: one invalid field at a time next to a valid control; tables
 * over every vertex format, classification and both sides of every boundary.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import {
  APPEND_ALIGNED_ELEMENT,
  createDevice,
  VERTEX_FORMAT_NAMES,
  type Device,
  type GraphicsPipelineStateDesc,
} from '../../../../src/index.js';
import { orThrow } from '../../../../src/api/errors.js';
import { vertexFormat } from '../../../../src/memory/vertex-formats.js';
import { validateInputLayout, type CheckedInputLayout } from '../../../../src/validation/input-layout.js';
import { expectD3D12Error, expectD3D12Rejection } from '../../../shared/expect-d3d12-error.js';

const loose = (value: unknown): never => value as never;
type Fields = Record<string, unknown>;

const CALL = 'createGraphicsPipelineState';
const PSO = {
  code: [
    '@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0); }',
    '@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }',
  ].join('\n'),
  vertexEntryPoint: 'vs',
  fragmentEntryPoint: 'fs',
  rtvFormats: ['B8G8R8A8_UNORM'],
  numRenderTargets: 1,
} as const;

let device: Device;
beforeAll(async () => {
  device = await createDevice({ gpuDevice: null });
});

const element = (semanticName: string, format = 'R32G32B32_FLOAT', extra: Fields = {}): Fields => ({
  semanticName,
  format,
  ...extra,
});
const layoutOf = (...elements: unknown[]) => ({ inputElementDescs: elements });
const pso = (inputLayout: unknown): GraphicsPipelineStateDesc => loose({ ...PSO, inputLayout });

/** A layout the runtime accepts: the pipeline gets to the GPU step; answers what it resolves to. */
async function accepted(inputLayout: unknown): Promise<CheckedInputLayout> {
  await expectD3D12Rejection(device.createGraphicsPipelineState(pso(inputLayout)), {
    call: CALL,
    argument: 'this',
    message: /this device has no GPU/,
  });
  return orThrow(validateInputLayout(CALL, inputLayout));
}

/** A layout refused at `argument` (E_INVALIDARG unless `hresult`). */
async function refused(inputLayout: unknown, argument: string, message: RegExp, hresult?: string): Promise<void> {
  const expected = { call: CALL, argument, message, hresult };
  await expectD3D12Rejection(device.createGraphicsPipelineState(pso(inputLayout)), expected);
  expectD3D12Error(() => orThrow(validateInputLayout(CALL, inputLayout)), expected);
}

const at = (i: number) => `desc.inputLayout.inputElementDescs[${i}]`;

describe('the layout', () => {
  test.each([undefined, null])('%s: no input layout (vertices come from memory by address)', async (inputLayout) => {
    expect(await accepted(inputLayout)).toEqual({ elements: [], slots: [] });
  });

  test('control: no elements', async () => {
    expect(await accepted(layoutOf())).toEqual({ elements: [], slots: [] });
  });

  test.each([5, 'POSITION', [], {}, { inputElementDescs: 'x' }, { inputElementDescs: { 0: element('A') } }])(
    '%j is rejected',
    async (inputLayout) => {
      await refused(
        inputLayout,
        'desc.inputLayout',
        /must be \{ inputElementDescs: \[...\] \} \(D3D12_INPUT_LAYOUT_DESC\)/,
      );
    },
  );

  test('32 elements (D3D12_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT) are accepted; 33 are not', async () => {
    const elements = (n: number) =>
      Array.from({ length: n }, (_, i) => element('TEXCOORD', 'R32_FLOAT', { semanticIndex: i }));
    const layout = await accepted(layoutOf(...elements(32)));
    expect(layout.elements.map((e) => e.offset)).toEqual(Array.from({ length: 32 }, (_, i) => 4 * i));
    await refused(
      layoutOf(...elements(33)),
      'desc.inputLayout.inputElementDescs',
      /holds 33 elements, over D3D12's 32/,
    );
  });

  test.each([null, 'POSITION', 5, []])('an element %j (not an object) is rejected', async (value) => {
    await refused(layoutOf(element('A'), value), at(1), /must be a D3D12_INPUT_ELEMENT_DESC object/);
  });

  test("the caller's description is not changed", async () => {
    const layout = layoutOf(element('POSITION'), element('COLOR', 'R8G8B8A8_UNORM', { inputSlot: 1 }));
    const before = structuredClone(layout);
    await accepted(layout);
    expect(layout).toEqual(before);
  });
});

describe('semanticName and semanticIndex', () => {
  test.each(['POSITION', 'TEXCOORD', 'Color', '_private', 'a', 'NORMAL_1', 'SVPOSITION', 'SV', 'S_V_X'])(
    '%s is accepted',
    async (name) => {
      expect((await accepted(layoutOf(element(name)))).elements[0]?.semanticName).toBe(name);
    },
  );

  test.each(['', '0POS', 'POS ITION', 'a-b', 'TEX.COORD', 'POSITION\n', 'Ä', 5, undefined, null])(
    '%j (not an identifier) is rejected',
    async (name) => {
      await refused(
        layoutOf(element(loose(name))),
        `${at(0)}.semanticName`,
        /must be an identifier \(a letter or _ first\)/,
      );
    },
  );

  test.each(['SV_Position', 'SV_POSITION', 'sv_vertexid', 'SV_InstanceID', 'Sv_Target', 'SV_'])(
    '%s (a system value) is rejected',
    async (name) => {
      await refused(
        layoutOf(element(name)),
        `${at(0)}.semanticName`,
        new RegExp(`${name} is a system value, not a vertex input`),
      );
    },
  );

  test.each([0, 1, 7, 0xffffffff])('semanticIndex %i is accepted', async (semanticIndex) => {
    expect(
      (await accepted(layoutOf(element('TEXCOORD', 'R32_FLOAT', { semanticIndex })))).elements[0]?.semanticIndex,
    ).toBe(semanticIndex);
  });

  test.each([
    [-1, /at least 0/],
    [2 ** 32, /at most 4294967295/],
    [1.5, /integer/],
    ['0', /integer/],
  ] as const)('semanticIndex %s is rejected', async (semanticIndex, message) => {
    await refused(layoutOf(element('TEXCOORD', 'R32_FLOAT', { semanticIndex })), `${at(0)}.semanticIndex`, message);
  });

  test.each([
    ['POSITION', 0, 'POSITION', 0],
    ['POSITION', 0, 'position', 0],
    ['Normal', 3, 'NORMAL', 3],
    ['TEXCOORD', undefined, 'TEXCOORD', 0],
  ])('%s%s then %s%s: the same semantic twice is rejected', async (a, ia, b, ib) => {
    await refused(
      layoutOf(
        element(a, 'R32_FLOAT', { semanticIndex: ia }),
        element(b, 'R32_FLOAT', { semanticIndex: ib, inputSlot: 1 }),
      ),
      `${at(1)}.semanticName`,
      new RegExp(`${b}${ib} appears twice \\(semantics compare without case\\)`),
    );
  });

  test('control: one name with two indices, and two names with one index', async () => {
    await accepted(
      layoutOf(
        element('TEXCOORD', 'R32_FLOAT', { semanticIndex: 0 }),
        element('TEXCOORD', 'R32_FLOAT', { semanticIndex: 1 }),
        element('COLOR', 'R32_FLOAT', { semanticIndex: 0 }),
      ),
    );
  });
});

describe('format', () => {
  test.each(VERTEX_FORMAT_NAMES)('%s is accepted', async (format) => {
    const layout = await accepted(layoutOf(element('A', format), element('B', 'R32_FLOAT')));
    expect(layout.elements[0]).toMatchObject({ format, fetch: vertexFormat(format) });
    // The element after it is appended at its size.
    expect(layout.elements[1]?.offset).toBe(vertexFormat(format)?.bytes);
  });

  test.each([
    'R8G8B8A8_TYPELESS',
    'UNKNOWN',
    'BC1_UNORM',
    'R16_FLOAT',
    'R8_UNORM',
    'D32_FLOAT',
    'R32G32B32A32',
    5,
    null,
  ])('%j is not fetched: DXGI_ERROR_UNSUPPORTED', async (format) => {
    await refused(
      layoutOf(element('A', loose(format))),
      `${at(0)}.format`,
      /the input assembler fetches R32G32B32A32_FLOAT, .*R10G10B10A2_UINT; got/,
      'DXGI_ERROR_UNSUPPORTED',
    );
  });
});

describe('inputSlot and the slots a layout reads', () => {
  test.each([0, 1, 15, 31])('slot %i is accepted', async (inputSlot) => {
    const layout = await accepted(layoutOf(element('A', 'R32_FLOAT', { inputSlot })));
    expect(layout.slots).toEqual([inputSlot]);
  });

  test.each([
    [32, /at most 31/],
    [-1, /at least 0/],
    [1.5, /integer/],
    ['0', /integer/],
  ] as const)('slot %s is rejected', async (inputSlot, message) => {
    await refused(layoutOf(element('A', 'R32_FLOAT', { inputSlot })), `${at(0)}.inputSlot`, message);
  });

  test('the slots read, ascending and once each', async () => {
    const layout = await accepted(
      layoutOf(
        element('A', 'R32_FLOAT', { inputSlot: 3 }),
        element('B', 'R32_FLOAT', { inputSlot: 0 }),
        element('C', 'R32_FLOAT', { inputSlot: 3 }),
        element('D', 'R32_FLOAT', { inputSlot: 31 }),
      ),
    );
    expect(layout.slots).toEqual([0, 3, 31]);
  });
});

describe('inputSlotClass and instanceDataStepRate', () => {
  test.each([
    ['PER_VERTEX_DATA', false],
    ['PER_INSTANCE_DATA', true],
    [undefined, false],
  ] as const)('%s is accepted (per instance: %s)', async (inputSlotClass, perInstance) => {
    expect((await accepted(layoutOf(element('A', 'R32_FLOAT', { inputSlotClass })))).elements[0]?.perInstance).toBe(
      perInstance,
    );
  });

  test.each(['PER_VERTEX', 'per_instance_data', 'INSTANCE', 0, false])('%j is rejected', async (inputSlotClass) => {
    await refused(
      layoutOf(element('A', 'R32_FLOAT', { inputSlotClass })),
      `${at(0)}.inputSlotClass`,
      /must be one of PER_VERTEX_DATA, PER_INSTANCE_DATA/,
    );
  });

  test.each([
    ['PER_VERTEX_DATA', 'PER_INSTANCE_DATA'],
    ['PER_INSTANCE_DATA', 'PER_VERTEX_DATA'],
  ])('one slot holding %s then %s is rejected', async (a, b) => {
    await refused(
      layoutOf(
        element('A', 'R32_FLOAT', { inputSlot: 2, inputSlotClass: a }),
        element('B', 'R32_FLOAT', { inputSlot: 2, inputSlotClass: b }),
      ),
      `${at(1)}.inputSlotClass`,
      /slot 2 holds elements of both classifications; one slot steps per vertex or per instance/,
    );
  });

  test('control: the two classifications in two slots', async () => {
    const layout = await accepted(
      layoutOf(
        element('A', 'R32_FLOAT', { inputSlot: 0 }),
        element('B', 'R32_FLOAT', { inputSlot: 1, inputSlotClass: 'PER_INSTANCE_DATA', instanceDataStepRate: 1 }),
      ),
    );
    expect(layout.elements.map((e) => e.perInstance)).toEqual([false, true]);
  });

  test.each([0, 1, 4, 0xffffffff])('per instance: step rate %i is accepted', async (instanceDataStepRate) => {
    const layout = await accepted(
      layoutOf(element('A', 'R32_FLOAT', { inputSlotClass: 'PER_INSTANCE_DATA', instanceDataStepRate })),
    );
    expect(layout.elements[0]?.stepRate).toBe(instanceDataStepRate);
  });

  test.each([
    [-1, /at least 0/],
    [2 ** 32, /at most 4294967295/],
    [0.5, /integer/],
  ] as const)('per instance: step rate %s is rejected', async (instanceDataStepRate, message) => {
    await refused(
      layoutOf(element('A', 'R32_FLOAT', { inputSlotClass: 'PER_INSTANCE_DATA', instanceDataStepRate })),
      `${at(0)}.instanceDataStepRate`,
      message,
    );
  });

  test.each([1, 2, -1, 0.5, '0'])(
    'per vertex: step rate %j is rejected (it must be 0)',
    async (instanceDataStepRate) => {
      await refused(
        layoutOf(element('A', 'R32_FLOAT', { instanceDataStepRate })),
        `${at(0)}.instanceDataStepRate`,
        /must be 0 for PER_VERTEX_DATA/,
      );
    },
  );

  test('per vertex: step rate 0 is accepted', async () => {
    await accepted(layoutOf(element('A', 'R32_FLOAT', { instanceDataStepRate: 0 })));
  });
});

describe('alignedByteOffset', () => {
  test('APPEND_ALIGNED_ELEMENT (left out or written) follows the element before it in its slot', async () => {
    const layout = await accepted(
      layoutOf(
        element('POSITION', 'R32G32B32_FLOAT'),
        element('NORMAL', 'R32G32B32_FLOAT', { alignedByteOffset: APPEND_ALIGNED_ELEMENT }),
        element('TEXCOORD', 'R32G32_FLOAT'),
        element('COLOR', 'R8G8B8A8_UNORM', { inputSlot: 1 }),
        element('TANGENT', 'R16G16B16A16_FLOAT', { inputSlot: 1 }),
      ),
    );
    expect(layout.elements.map((e) => [e.slot, e.offset])).toEqual([
      [0, 0],
      [0, 12],
      [0, 24],
      [1, 0],
      [1, 4],
    ]);
  });

  test('APPEND after explicit offsets follows the furthest end in the slot', async () => {
    const layout = await accepted(
      layoutOf(
        element('A', 'R32_FLOAT', { alignedByteOffset: 32 }),
        element('B', 'R32_FLOAT'),
        element('C', 'R32G32_FLOAT', { alignedByteOffset: 0 }),
        element('D', 'R32_FLOAT'),
      ),
    );
    expect(layout.elements.map((e) => e.offset)).toEqual([32, 36, 0, 40]);
  });

  test.each([0, 4, 8, 100, 2032])('offset %i is accepted (a 16-byte element)', async (alignedByteOffset) => {
    expect(
      (await accepted(layoutOf(element('A', 'R32G32B32A32_FLOAT', { alignedByteOffset })))).elements[0]?.offset,
    ).toBe(alignedByteOffset);
  });

  test.each([
    ['R32G32B32A32_FLOAT', 2032, true],
    ['R32G32B32A32_FLOAT', 2036, false],
    ['R32_FLOAT', 2044, true],
    ['R32_FLOAT', 2048, false],
    ['R32G32B32_FLOAT', 2036, true],
    ['R32G32B32_FLOAT', 2040, false],
  ] as const)('%s at %i: inside the 2048-byte vertex? %s', async (format, alignedByteOffset, ok) => {
    const layout = layoutOf(element('A', format, { alignedByteOffset }));
    if (ok) await accepted(layout);
    else
      await refused(
        layout,
        `${at(0)}.alignedByteOffset`,
        new RegExp(`${alignedByteOffset} \\+ ${vertexFormat(format)?.bytes} bytes runs past the 2048-byte vertex`),
      );
  });

  test('an APPENDed element past the vertex is rejected', async () => {
    await refused(
      layoutOf(element('A', 'R32G32B32A32_FLOAT', { alignedByteOffset: 2032 }), element('B', 'R32_FLOAT')),
      `${at(1)}.alignedByteOffset`,
      /2048 \+ 4 bytes runs past the 2048-byte vertex/,
    );
  });

  test.each([1, 2, 6, 2046])('offset %i (not a multiple of 4) is rejected', async (alignedByteOffset) => {
    await refused(
      layoutOf(element('A', 'R32_FLOAT', { alignedByteOffset })),
      `${at(0)}.alignedByteOffset`,
      new RegExp(`must be a multiple of 4, got ${alignedByteOffset}`),
    );
  });

  test.each([
    [-1, /at least 0/],
    [2 ** 32, /at most 4294967295/],
    [4.5, /integer/],
    ['4', /integer/],
  ] as const)('offset %s is rejected', async (alignedByteOffset, message) => {
    await refused(layoutOf(element('A', 'R32_FLOAT', { alignedByteOffset })), `${at(0)}.alignedByteOffset`, message);
  });
});

describe('the order of the checks: the first invalid element, and its first invalid field', () => {
  test('element 0 before element 1', async () => {
    await refused(layoutOf(element('SV_Position'), element('B', 'BOGUS')), `${at(0)}.semanticName`, /system value/);
  });

  test('the input layout is checked after the rest of the description', async () => {
    await expectD3D12Rejection(
      device.createGraphicsPipelineState(loose({ ...PSO, fragmentEntryPoint: 5, inputLayout: 7 })),
      { call: CALL, argument: 'desc.fragmentEntryPoint' },
    );
  });
});
