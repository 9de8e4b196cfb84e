/**
 * createGraphicsPipelineState's description (D3D12_GRAPHICS_PIPELINE_STATE_DESC as the emulator
 * takes it: src/validation/graphics-pipeline.ts) and the root signature a pipeline takes
 * (src/emulator/pipeline-creation.ts), through the public API on a CPU-only device: a description
 * the runtime refuses rejects with its error; one it accepts gets as far as the GPU step, which a
 * CPU-only device refuses naming `this`. What an accepted description resolves to (blend, culling,
 * topology) is read from the validator. CTS style: one invalid field at a time next to a valid
 * control; tables over every enum value and both sides of every boundary. (The input layout has its
 * own file, input-layout-validation.test.ts.)
 */
import { beforeAll, describe, expect, test } from 'vitest';
import {
  createDevice,
  type Device,
  type GraphicsPipelineStateDesc,
  type RootSignature,
} from '../../../../src/index.js';
import { orThrow } from '../../../../src/api/errors.js';
import { PRIMITIVE_TOPOLOGY_TYPES } from '../../../../src/api/binding-types.js';
import {
  BLEND_OPS,
  BLENDS,
  validateCreateGraphicsPipelineState,
  type CheckedGraphicsPipeline,
} from '../../../../src/validation/graphics-pipeline.js';
import { expectD3D12Error, expectD3D12Rejection, type ExpectedD3D12Error } from '../../../shared/expect-d3d12-error.js';

const loose = (value: unknown): never => value as never;
type Fields = Record<string, unknown>;

const CALL = 'createGraphicsPipelineState';
const CODE = [
  '@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0); }',
  '@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }',
].join('\n');
const PSO = {
  code: CODE,
  vertexEntryPoint: 'vs',
  fragmentEntryPoint: 'fs',
  rtvFormats: ['B8G8R8A8_UNORM'],
  numRenderTargets: 1,
};
const NO_GPU = /this device has no GPU/;

let device: Device;
let other: Device;
let signature: RootSignature;
beforeAll(async () => {
  device = await createDevice({ gpuDevice: null });
  other = await createDevice({ gpuDevice: null });
  signature = device.createRootSignature(0, {
    version: '1_1',
    desc_1_1: { flags: 'ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT' },
  });
});

const desc = (fields: Fields = {}): GraphicsPipelineStateDesc => loose({ ...PSO, ...fields });

/** A description the runtime accepts: the call gets to the GPU step; answers what it resolves to. */
async function accepted(fields: Fields): Promise<CheckedGraphicsPipeline> {
  await expectD3D12Rejection(device.createGraphicsPipelineState(desc(fields)), {
    call: CALL,
    argument: 'this',
    message: NO_GPU,
  });
  return orThrow(validateCreateGraphicsPipelineState(desc(fields)));
}

/** A description refused as `expected` (E_INVALIDARG unless `hresult`): by the call and by the validator. */
async function refused(fields: unknown, expected: ExpectedD3D12Error): Promise<void> {
  const value =
    typeof fields === 'object' && fields !== null && !Array.isArray(fields) ? desc(fields as Fields) : fields;
  await expectD3D12Rejection(device.createGraphicsPipelineState(loose(value)), { call: CALL, ...expected });
  expectD3D12Error(() => orThrow(validateCreateGraphicsPipelineState(value)), { call: CALL, ...expected });
}
const unsupported = (argument: string, message: RegExp): ExpectedD3D12Error => ({
  hresult: 'DXGI_ERROR_UNSUPPORTED',
  argument,
  message,
});

describe('control', () => {
  test('the smallest description: defaults filled in', async () => {
    expect(await accepted({})).toEqual({
      code: CODE,
      vertexEntryPoint: 'vs',
      fragmentEntryPoint: 'fs',
      rtvFormat: 'B8G8R8A8_UNORM',
      topologyType: 'TRIANGLE',
      primitiveTopology: 'TRIANGLELIST',
      blend: undefined,
      writeMask: 15,
      cullMode: 'NONE',
      frontCounterClockwise: false,
      inputLayout: { elements: [], slots: [] },
      label: undefined,
    });
  });

  test.each([null, undefined, 5, 'desc', []])('desc %j (not an object) is rejected', async (value) => {
    await refused(value, {
      argument: 'desc',
      message: /must be \{code, vertexEntryPoint, fragmentEntryPoint, rtvFormats\}/,
    });
  });

  test("the caller's description is not changed", async () => {
    const fields = {
      blendState: { renderTarget: [{ blendEnable: true, srcBlend: 'SRC_ALPHA' }] },
      rasterizerState: { cullMode: 'FRONT' },
      rtvFormats: ['R8G8B8A8_UNORM', 'UNKNOWN'],
    };
    const before = structuredClone(fields);
    await accepted(fields);
    expect(fields).toEqual(before);
  });
});

describe('shaders: code, entry points, label', () => {
  test.each([
    ['code', undefined, 'desc.code', /must be WGSL source text/],
    ['code', '', 'desc.code', /must be WGSL source text/],
    ['code', '   \n', 'desc.code', /must be WGSL source text/],
    ['code', 5, 'desc.code', /must be WGSL source text/],
    ['code', `@group(0) @binding(0) var<uniform> u: vec4f;\n${CODE}`, 'desc.code', /declares bindings/],
    ['code', `@binding(1) var<uniform> u: vec4f;\n${CODE}`, 'desc.code', /declares bindings/],
    ['vertexEntryPoint', undefined, 'desc.vertexEntryPoint', /must be the name of a @compute function/],
    ['vertexEntryPoint', '1vs', 'desc.vertexEntryPoint', /must be the name of a/],
    ['vertexEntryPoint', 'vs-main', 'desc.vertexEntryPoint', /must be the name of a/],
    ['fragmentEntryPoint', undefined, 'desc.fragmentEntryPoint', /must be the name of a @fragment function/],
    ['fragmentEntryPoint', '', 'desc.fragmentEntryPoint', /must be the name of a @fragment function/],
    ['fragmentEntryPoint', 'fs()', 'desc.fragmentEntryPoint', /must be the name of a @fragment function/],
    ['fragmentEntryPoint', 7, 'desc.fragmentEntryPoint', /must be the name of a @fragment function/],
    ['label', 5, 'desc.label', /must be a string/],
    ['label', null, 'desc.label', /must be a string/],
  ])('%s %j is rejected', async (name, value, argument, message) => {
    await refused({ [name]: value }, { argument, message });
  });

  test.each([
    ['vertexEntryPoint', '_main'],
    ['fragmentEntryPoint', 'ps_Main2'],
    ['label', 'my pipeline'],
  ])('control: %s %j', async (name, value) => {
    expect((await accepted({ [name]: value }))[name as keyof CheckedGraphicsPipeline]).toBe(value);
  });
});

describe('the render target format: rtvFormats and numRenderTargets, or rtvFormat', () => {
  test.each([
    [{ rtvFormats: ['R8G8B8A8_UNORM'] }, 'R8G8B8A8_UNORM'],
    [{ rtvFormats: ['R8G8B8A8_UNORM'], numRenderTargets: undefined }, 'R8G8B8A8_UNORM'],
    [{ rtvFormats: ['B8G8R8A8_UNORM', 'UNKNOWN', undefined, 'UNKNOWN'] }, 'B8G8R8A8_UNORM'],
    [{ rtvFormats: undefined, numRenderTargets: undefined, rtvFormat: 'R16G16B16A16_FLOAT' }, 'R16G16B16A16_FLOAT'],
  ])('%j gives %s', async (fields, format) => {
    expect((await accepted(fields)).rtvFormat).toBe(format);
  });

  test.each([
    [[], /must be an array of format names \(RTVFormats\)/],
    [[5], /must be an array of format names/],
    ['B8G8R8A8_UNORM', /must be an array of format names/],
    [null, /must be an array of format names/],
    [['B8G8R8A8_UNORM', 'R8G8B8A8_UNORM'], /names 2 formats; numRenderTargets 1 leaves the rest UNKNOWN/],
    [['B8G8R8A8_UNORM', 'UNKNOWN', 'R32_FLOAT'], /names 3 formats/],
  ])('rtvFormats %j are rejected', async (rtvFormats, message) => {
    await refused({ rtvFormats }, { argument: 'desc.rtvFormats', message });
  });

  test.each([0, 2, 8, '1', false])('numRenderTargets %j: one render target is emulated', async (numRenderTargets) => {
    await refused({ numRenderTargets }, unsupported('desc.numRenderTargets', /must be 1: one render target/));
  });

  test('neither rtvFormats nor rtvFormat is rejected', async () => {
    await refused(
      { rtvFormats: undefined, numRenderTargets: undefined },
      { argument: 'desc.rtvFormats', message: /must be given: the back buffer's format as RTVFormats\[0\]/ },
    );
  });

  test.each([5, null, ['B8G8R8A8_UNORM']])('rtvFormat %j is rejected', async (rtvFormat) => {
    await refused(
      { rtvFormats: undefined, numRenderTargets: undefined, rtvFormat },
      { argument: 'desc.rtvFormat', message: /must be the back buffer's format name/ },
    );
  });

  test('rtvFormats wins over rtvFormat', async () => {
    expect((await accepted({ rtvFormat: 'R8G8B8A8_UNORM' })).rtvFormat).toBe('B8G8R8A8_UNORM');
  });
});

describe('topology: primitiveTopologyType and the fixed primitiveTopology', () => {
  const FIXED = ['POINTLIST', 'LINELIST', 'LINESTRIP', 'TRIANGLELIST', 'TRIANGLESTRIP'] as const;
  const TYPE_OF: Record<string, string> = {
    POINTLIST: 'POINT',
    LINELIST: 'LINE',
    LINESTRIP: 'LINE',
    TRIANGLELIST: 'TRIANGLE',
    TRIANGLESTRIP: 'TRIANGLE',
  };

  test.each([
    ['POINT', 'POINTLIST'],
    ['LINE', 'LINELIST'],
    ['TRIANGLE', 'TRIANGLELIST'],
  ])('type %s alone: its first list topology', async (primitiveTopologyType, topology) => {
    expect(await accepted({ primitiveTopologyType })).toMatchObject({
      topologyType: primitiveTopologyType,
      primitiveTopology: topology,
    });
  });

  test.each(FIXED)('topology %s alone: its type', async (primitiveTopology) => {
    expect(await accepted({ primitiveTopology })).toMatchObject({
      topologyType: TYPE_OF[primitiveTopology],
      primitiveTopology,
    });
  });

  test.each(
    FIXED.flatMap((fixed) => PRIMITIVE_TOPOLOGY_TYPES.filter((t) => t !== 'UNDEFINED').map((type) => [fixed, type])),
  )('topology %s with type %s', async (primitiveTopology, primitiveTopologyType) => {
    const fields = { primitiveTopology, primitiveTopologyType };
    if (TYPE_OF[primitiveTopology] === primitiveTopologyType)
      expect(await accepted(fields)).toMatchObject({ topologyType: primitiveTopologyType, primitiveTopology });
    else
      await refused(fields, {
        argument: 'desc.primitiveTopology',
        message: new RegExp(`${primitiveTopology} is not of desc.primitiveTopologyType ${primitiveTopologyType}`),
      });
  });

  test('type UNDEFINED draws nothing: rejected', async () => {
    await refused(
      { primitiveTopologyType: 'UNDEFINED' },
      { argument: 'desc.primitiveTopologyType', message: /must be POINT, LINE or TRIANGLE for a pipeline that draws/ },
    );
  });

  test.each(['PATCH', 'TRIANGLES', 'triangle', 3, false])('type %j is rejected', async (primitiveTopologyType) => {
    await refused(
      { primitiveTopologyType },
      { argument: 'desc.primitiveTopologyType', message: /must be one of UNDEFINED, POINT, LINE, TRIANGLE/ },
    );
  });

  test.each(['TRIANGLEFAN', 'UNDEFINED', 'LINELIST_ADJ', 'triangle-list', 4, null])(
    'topology %j is rejected',
    async (primitiveTopology) => {
      await refused(
        { primitiveTopology },
        {
          argument: 'desc.primitiveTopology',
          message: /must be one of POINTLIST, LINELIST, LINESTRIP, TRIANGLELIST, TRIANGLESTRIP/,
        },
      );
    },
  );
});

describe('blending: blendState (render target 0) or the emulator blend', () => {
  const rt = (fields: Fields) => ({ blendState: { renderTarget: [fields] } });

  test.each([
    [{}, undefined],
    [{ blend: 'NONE' }, undefined],
    [{ blend: 'ALPHA_BLEND' }, { srcBlend: 'SRC_ALPHA', destBlend: 'INV_SRC_ALPHA', blendOp: 'ADD' }],
  ])('%j', async (fields, blend) => {
    const checked = await accepted(fields);
    if (blend) expect(checked.blend).toMatchObject(blend);
    else expect(checked.blend).toBeUndefined();
    expect(checked.writeMask).toBe(15);
  });

  test.each(['ADDITIVE', 'alpha_blend', true, false])('blend %j is rejected', async (blend) => {
    await refused({ blend }, { argument: 'desc.blend', message: /must be one of NONE, ALPHA_BLEND/ });
  });

  test.each([
    ['not an object', 5],
    ['null', null],
    ['a render target that is not an object', { renderTarget: [5] }],
    ['no render target in the array', { renderTarget: [] }],
  ])('blendState %s is rejected', async (_, blendState) => {
    await refused(
      { blendState },
      { argument: 'desc.blendState', message: /must be \{ renderTarget: \[D3D12_RENDER_TARGET_BLEND_DESC, ...\] \}/ },
    );
  });

  test('blendState {} (no render target described): no blending, every channel written', async () => {
    expect(await accepted({ blendState: {} })).toMatchObject({ blend: undefined, writeMask: 15 });
  });

  test('blendState is read over the emulator blend', async () => {
    expect((await accepted({ blend: 'ALPHA_BLEND', ...rt({ blendEnable: false }) })).blend).toBeUndefined();
  });

  test('logic operations are not emulated', async () => {
    await refused(
      rt({ logicOpEnable: true }),
      unsupported('desc.blendState.renderTarget[0].logicOpEnable', /logic operations are not emulated/),
    );
    await accepted(rt({ logicOpEnable: false }));
  });

  test.each(Array.from({ length: 16 }, (_, i) => i))('renderTargetWriteMask %i is accepted', async (mask) => {
    expect((await accepted(rt({ renderTargetWriteMask: mask }))).writeMask).toBe(mask);
  });

  test.each([16, 255, -1, 1.5, '15'])('renderTargetWriteMask %j is rejected', async (mask) => {
    await refused(rt({ renderTargetWriteMask: mask }), {
      argument: 'desc.blendState.renderTarget[0].renderTargetWriteMask',
      message: /must be D3D12_COLOR_WRITE_ENABLE bits \(0 to 15\)/,
    });
  });

  test('blendEnable true: D3D12_DEFAULT fields (ONE, ZERO, ADD)', async () => {
    expect((await accepted(rt({ blendEnable: true }))).blend).toEqual({
      srcBlend: 'ONE',
      destBlend: 'ZERO',
      blendOp: 'ADD',
      srcBlendAlpha: 'ONE',
      destBlendAlpha: 'ZERO',
      blendOpAlpha: 'ADD',
    });
  });

  const BLEND_FIELDS = ['srcBlend', 'destBlend', 'srcBlendAlpha', 'destBlendAlpha'] as const;
  const OP_FIELDS = ['blendOp', 'blendOpAlpha'] as const;

  test.each(BLEND_FIELDS.flatMap((name) => BLENDS.map((value) => [name, value])))(
    '%s %s is accepted',
    async (name, value) => {
      expect((await accepted(rt({ blendEnable: true, [name]: value }))).blend).toMatchObject({ [name]: value });
    },
  );

  test.each(OP_FIELDS.flatMap((name) => BLEND_OPS.map((value) => [name, value])))(
    '%s %s is accepted',
    async (name, value) => {
      expect((await accepted(rt({ blendEnable: true, [name]: value }))).blend).toMatchObject({ [name]: value });
    },
  );

  test.each([
    ...BLEND_FIELDS.flatMap((name) =>
      ['SRC1_COLOR', 'one', 1].map((value) => [name, value, /must be one of ZERO, ONE,/]),
    ),
    ...OP_FIELDS.flatMap((name) =>
      ['MULTIPLY', 'add', 0].map((value) => [name, value, /must be one of ADD, SUBTRACT/]),
    ),
  ] as [string, unknown, RegExp][])('%s %j is rejected', async (name, value, message) => {
    await refused(rt({ blendEnable: true, [name]: value }), {
      argument: `desc.blendState.renderTarget[0].${name}`,
      message,
    });
  });

  test('blend fields are not read while blendEnable is false', async () => {
    expect((await accepted(rt({ blendEnable: false, srcBlend: 'BOGUS', blendOp: 'BOGUS' }))).blend).toBeUndefined();
  });
});

describe('rasterizerState', () => {
  test('left out: nothing is culled; {}: D3D12_DEFAULT (BACK, clockwise front faces)', async () => {
    expect(await accepted({})).toMatchObject({ cullMode: 'NONE', frontCounterClockwise: false });
    expect(await accepted({ rasterizerState: {} })).toMatchObject({ cullMode: 'BACK', frontCounterClockwise: false });
  });

  test.each(['NONE', 'FRONT', 'BACK'].flatMap((cullMode) => [true, false].map((ccw) => [cullMode, ccw] as const)))(
    'cullMode %s, frontCounterClockwise %s',
    async (cullMode, frontCounterClockwise) => {
      expect(await accepted({ rasterizerState: { cullMode, frontCounterClockwise, fillMode: 'SOLID' } })).toMatchObject(
        {
          cullMode,
          frontCounterClockwise,
        },
      );
    },
  );

  test.each([5, null, 'BACK'])('rasterizerState %j is rejected', async (rasterizerState) => {
    await refused(
      { rasterizerState },
      { argument: 'desc.rasterizerState', message: /must be a D3D12_RASTERIZER_DESC object/ },
    );
  });

  test('fillMode WIREFRAME is not emulated', async () => {
    await refused(
      { rasterizerState: { fillMode: 'WIREFRAME' } },
      unsupported('desc.rasterizerState.fillMode', /WIREFRAME is not emulated/),
    );
  });

  test.each(['POINT', 'solid', 2])('fillMode %j is rejected', async (fillMode) => {
    await refused(
      { rasterizerState: { fillMode } },
      { argument: 'desc.rasterizerState.fillMode', message: /must be one of SOLID/ },
    );
  });

  test.each(['BOTH', 'back', 1, false])('cullMode %j is rejected', async (cullMode) => {
    await refused(
      { rasterizerState: { cullMode } },
      { argument: 'desc.rasterizerState.cullMode', message: /must be one of NONE, FRONT, BACK/ },
    );
  });

  test.each([1, 'true', 0])('frontCounterClockwise %j is rejected', async (frontCounterClockwise) => {
    await refused(
      { rasterizerState: { frontCounterClockwise } },
      { argument: 'desc.rasterizerState.frontCounterClockwise', message: /must be true or false/ },
    );
  });
});

describe('what is not emulated: depth, stencil, multisampling, strip cuts', () => {
  test.each([
    [{ depthStencilState: { depthEnable: false, stencilEnable: false } }],
    [{ depthStencilState: {} }],
    [{ dsvFormat: 'UNKNOWN' }],
    [{ sampleMask: 0xffffffff }],
    [{ sampleMask: -1 }],
    [{ sampleDesc: { count: 1, quality: 0 } }],
    [{ sampleDesc: {} }],
    [{ sampleDesc: 1 }],
    [{ ibStripCutValue: 'DISABLED' }],
  ])('control: %j', async (fields) => {
    await accepted(fields);
  });

  test.each([
    [{ depthStencilState: 5 }, 'E_INVALIDARG', 'desc.depthStencilState', /must be a D3D12_DEPTH_STENCIL_DESC object/],
    [{ depthStencilState: null }, 'E_INVALIDARG', 'desc.depthStencilState', /D3D12_DEPTH_STENCIL_DESC/],
    [
      { depthStencilState: { depthEnable: true } },
      'DXGI_ERROR_UNSUPPORTED',
      'desc.depthStencilState.depthEnable',
      /depth buffers are not emulated/,
    ],
    [
      { depthStencilState: { stencilEnable: true } },
      'DXGI_ERROR_UNSUPPORTED',
      'desc.depthStencilState.stencilEnable',
      /stencil buffers are not emulated/,
    ],
    [
      { dsvFormat: 'D32_FLOAT' },
      'DXGI_ERROR_UNSUPPORTED',
      'desc.dsvFormat',
      /depth buffers are not emulated: it must be UNKNOWN/,
    ],
    [{ dsvFormat: null }, 'DXGI_ERROR_UNSUPPORTED', 'desc.dsvFormat', /must be UNKNOWN/],
    [
      { sampleMask: 0 },
      'DXGI_ERROR_UNSUPPORTED',
      'desc.sampleMask',
      /must be 0xffffffff \(UINT_MAX\): sample masks are not emulated/,
    ],
    [{ sampleMask: 0xfffffffe }, 'DXGI_ERROR_UNSUPPORTED', 'desc.sampleMask', /sample masks are not emulated/],
    [
      { sampleDesc: { count: 4 } },
      'DXGI_ERROR_UNSUPPORTED',
      'desc.sampleDesc',
      /count must be 1: MSAA is not emulated/,
    ],
    [{ sampleDesc: 4 }, 'DXGI_ERROR_UNSUPPORTED', 'desc.sampleDesc', /MSAA is not emulated/],
    [{ sampleDesc: { count: 0 } }, 'DXGI_ERROR_UNSUPPORTED', 'desc.sampleDesc', /MSAA is not emulated/],
    [
      { ibStripCutValue: '0xFFFF' },
      'DXGI_ERROR_UNSUPPORTED',
      'desc.ibStripCutValue',
      /strip cuts \(primitive restart\) are not emulated/,
    ],
    [{ ibStripCutValue: '0xFFFFFFFF' }, 'DXGI_ERROR_UNSUPPORTED', 'desc.ibStripCutValue', /must be DISABLED/],
  ] as const)('%j is refused', async (fields, hresult, argument, message) => {
    await refused(fields, { hresult, argument, message });
  });
});

describe('the order of the checks', () => {
  test.each([
    [{ code: '', fragmentEntryPoint: 5 }, 'desc.code'],
    [{ fragmentEntryPoint: 5, rtvFormats: 5 }, 'desc.fragmentEntryPoint'],
    [{ rtvFormats: 5, primitiveTopologyType: 'X' }, 'desc.rtvFormats'],
    [{ primitiveTopologyType: 'X', blend: 'X' }, 'desc.primitiveTopologyType'],
    [{ blend: 'X', rasterizerState: 5 }, 'desc.blend'],
    [{ rasterizerState: 5, dsvFormat: 'D32_FLOAT' }, 'desc.rasterizerState'],
    [{ dsvFormat: 'D32_FLOAT', inputLayout: 5 }, 'desc.dsvFormat'],
  ] as const)('%j: %s first', async (fields, argument) => {
    await refused(fields, {
      hresult: argument === 'desc.dsvFormat' ? 'DXGI_ERROR_UNSUPPORTED' : 'E_INVALIDARG',
      argument,
    });
  });
});

describe.each(['graphics', 'compute'] as const)('%s pipelines: desc.rootSignature', (kind) => {
  const call = kind === 'graphics' ? CALL : 'createComputePipelineState';
  const create = (rootSignature: unknown, fields: Fields = {}) =>
    kind === 'graphics'
      ? device.createGraphicsPipelineState(desc({ rootSignature, ...fields }))
      : device.createComputePipelineState(
          loose({ code: '@compute @workgroup_size(1) fn main() {}', entryPoint: 'main', rootSignature, ...fields }),
        );

  test.each([
    ['none', () => undefined],
    ['null', () => null],
    ["the device's own", () => signature],
  ])('control: %s reaches the GPU step', async (_, rootSignature) => {
    await expectD3D12Rejection(create(rootSignature()), { call, argument: 'this', message: NO_GPU });
  });

  test.each([
    ["another device's", () => other.createRootSignature(0, { version: '1_0', desc_1_0: {} })],
    ['a plain object', () => ({ label: 'root signature #1' })],
    ['a blob', () => new Uint8Array(64)],
    ['a number', () => 1],
  ])('%s is rejected', async (_, rootSignature) => {
    await expectD3D12Rejection(create(rootSignature()), {
      call,
      argument: 'desc.rootSignature',
      message: /must be a root signature of this device, or null/,
    });
  });

  test('a released root signature is rejected', async () => {
    const released = device.createRootSignature(0, { version: '1_0', desc_1_0: {} });
    released.release();
    await expectD3D12Rejection(create(released), { call, argument: 'desc.rootSignature', message: /was released/ });
  });

  test('the description is checked before the root signature', async () => {
    await expectD3D12Rejection(create(5, kind === 'graphics' ? { fragmentEntryPoint: 5 } : { entryPoint: 5 }), {
      call,
      argument: kind === 'graphics' ? 'desc.fragmentEntryPoint' : 'desc.entryPoint',
    });
  });
});
