/**
 * createGraphicsPipelineState(desc): D3D12_GRAPHICS_PIPELINE_STATE_DESC's fields the emulator draws
 * with, checked as the runtime checks them.
 *
 * What it takes: WGSL with a @vertex and a @fragment entry point (`code`, `vertexEntryPoint`,
 * `fragmentEntryPoint`: the VS and PS); the render target's format (`rtvFormats` with
 * `numRenderTargets` 1, as D3D12 writes it, or `rtvFormat`); the input layout (validateInputLayout);
 * `primitiveTopologyType` (POINT, LINE, TRIANGLE: the draw's topology comes from
 * iaSetPrimitiveTopology and must be of the type) or the emulator's fixed `primitiveTopology`;
 * `rasterizerState` (FillMode SOLID, CullMode, FrontCounterClockwise: D3D12's defaults are BACK and
 * clockwise, which CD3DX12_RASTERIZER_DESC(D3D12_DEFAULT) gives; left out, nothing is culled);
 * `blendState` (render target 0's blend, D3D12_BLEND and D3D12_BLEND_OP by name, and its write mask)
 * or the emulator's `blend`; `depthStencilState` with depth and stencil disabled, `sampleMask`
 * 0xffffffff and `sampleDesc` count 1 (depth buffers and MSAA are not emulated:
 * DXGI_ERROR_UNSUPPORTED otherwise); `ibStripCutValue` DISABLED (likewise).
 */
import { D3D12Error, invalidArg, show, type Checked } from '../api/errors.js';
import { PRIMITIVE_TOPOLOGY_TYPES, type PrimitiveTopologyType } from '../api/binding-types.js';
import { checkName, isObject, type Problem } from './common.js';
import { validateCreateComputePipelineState } from './device.js';
import { validateInputLayout, type CheckedInputLayout } from './input-layout.js';

export type FixedTopology = 'TRIANGLELIST' | 'TRIANGLESTRIP' | 'LINELIST' | 'LINESTRIP' | 'POINTLIST';

export const BLENDS = [
  'ZERO',
  'ONE',
  'SRC_COLOR',
  'INV_SRC_COLOR',
  'SRC_ALPHA',
  'INV_SRC_ALPHA',
  'DEST_ALPHA',
  'INV_DEST_ALPHA',
  'DEST_COLOR',
  'INV_DEST_COLOR',
  'SRC_ALPHA_SAT',
  'BLEND_FACTOR',
  'INV_BLEND_FACTOR',
] as const;
export type Blend = (typeof BLENDS)[number];
export const BLEND_OPS = ['ADD', 'SUBTRACT', 'REV_SUBTRACT', 'MIN', 'MAX'] as const;
export type BlendOp = (typeof BLEND_OPS)[number];

export interface CheckedBlend {
  srcBlend: Blend;
  destBlend: Blend;
  blendOp: BlendOp;
  srcBlendAlpha: Blend;
  destBlendAlpha: Blend;
  blendOpAlpha: BlendOp;
}

export interface CheckedGraphicsPipeline {
  code: string;
  vertexEntryPoint: string;
  fragmentEntryPoint: string;
  rtvFormat: string;
  topologyType: Exclude<PrimitiveTopologyType, 'UNDEFINED'>;
  /** The topology a draw uses when the list set none (iaSetPrimitiveTopology). */
  primitiveTopology: FixedTopology;
  /** Undefined: no blending. */
  blend: CheckedBlend | undefined;
  /** D3D12_COLOR_WRITE_ENABLE bits (red 1, green 2, blue 4, alpha 8). */
  writeMask: number;
  cullMode: 'NONE' | 'FRONT' | 'BACK';
  frontCounterClockwise: boolean;
  inputLayout: CheckedInputLayout;
  label?: string;
}

const TYPE_OF: Record<FixedTopology, 'POINT' | 'LINE' | 'TRIANGLE'> = {
  POINTLIST: 'POINT',
  LINELIST: 'LINE',
  LINESTRIP: 'LINE',
  TRIANGLELIST: 'TRIANGLE',
  TRIANGLESTRIP: 'TRIANGLE',
};
const FIRST_OF: Record<'POINT' | 'LINE' | 'TRIANGLE', FixedTopology> = {
  POINT: 'POINTLIST',
  LINE: 'LINELIST',
  TRIANGLE: 'TRIANGLELIST',
};

const unsupported = (call: string, argument: string, rule: string): D3D12Error =>
  new D3D12Error('DXGI_ERROR_UNSUPPORTED', call, argument, rule);

/** The render target's format: rtvFormats[0] with numRenderTargets 1, or rtvFormat. */
function renderTargetFormat(call: string, desc: Record<string, unknown>): Checked<string> {
  if (desc.rtvFormats !== undefined) {
    const formats = desc.rtvFormats;
    if (!Array.isArray(formats) || typeof formats[0] !== 'string')
      return invalidArg(call, 'desc.rtvFormats', `must be an array of format names (RTVFormats), got ${show(formats)}`);
    const count = desc.numRenderTargets ?? 1;
    if (count !== 1)
      return unsupported(
        call,
        'desc.numRenderTargets',
        `must be 1: one render target (a swap chain's back buffer) is emulated, got ${show(count)}`,
      );
    if (formats.slice(1).some((f) => f !== undefined && f !== 'UNKNOWN'))
      return invalidArg(
        call,
        'desc.rtvFormats',
        `names ${formats.length} formats; numRenderTargets 1 leaves the rest UNKNOWN`,
      );
    return formats[0];
  }
  if (desc.rtvFormat === undefined)
    return invalidArg(call, 'desc.rtvFormats', "must be given: the back buffer's format as RTVFormats[0]");
  if (typeof desc.rtvFormat !== 'string')
    return invalidArg(call, 'desc.rtvFormat', `must be the back buffer's format name, got ${show(desc.rtvFormat)}`);
  return desc.rtvFormat;
}

function topology(
  call: string,
  desc: Record<string, unknown>,
): Checked<[CheckedGraphicsPipeline['topologyType'], FixedTopology]> {
  const fixed = desc.primitiveTopology;
  if (fixed !== undefined) {
    const problem = checkName(call, 'desc.primitiveTopology', fixed, Object.keys(TYPE_OF) as FixedTopology[]);
    if (problem) return problem;
  }
  const type = desc.primitiveTopologyType ?? TYPE_OF[(fixed ?? 'TRIANGLELIST') as FixedTopology];
  const typeProblem = checkName(call, 'desc.primitiveTopologyType', type, PRIMITIVE_TOPOLOGY_TYPES);
  if (typeProblem) return typeProblem;
  if (type === 'UNDEFINED')
    return invalidArg(call, 'desc.primitiveTopologyType', 'must be POINT, LINE or TRIANGLE for a pipeline that draws');
  if (fixed !== undefined && TYPE_OF[fixed as FixedTopology] !== type)
    return invalidArg(
      call,
      'desc.primitiveTopology',
      `${fixed as string} is not of desc.primitiveTopologyType ${type as string}`,
    );
  const kind = type as CheckedGraphicsPipeline['topologyType'];
  return [kind, (fixed as FixedTopology | undefined) ?? FIRST_OF[kind]];
}

function blendOf(
  call: string,
  desc: Record<string, unknown>,
): Checked<{ blend: CheckedBlend | undefined; writeMask: number }> {
  if (desc.blendState === undefined) {
    const legacy = desc.blend ?? 'NONE';
    const problem = checkName(call, 'desc.blend', legacy, ['NONE', 'ALPHA_BLEND'] as const);
    if (problem) return problem;
    const alpha: CheckedBlend = {
      srcBlend: 'SRC_ALPHA',
      destBlend: 'INV_SRC_ALPHA',
      blendOp: 'ADD',
      srcBlendAlpha: 'ONE',
      destBlendAlpha: 'INV_SRC_ALPHA',
      blendOpAlpha: 'ADD',
    };
    return { blend: legacy === 'ALPHA_BLEND' ? alpha : undefined, writeMask: 15 };
  }
  const state = desc.blendState;
  const target = isObject(state) && Array.isArray(state.renderTarget) ? (state.renderTarget[0] as unknown) : undefined;
  if (!isObject(state) || (state.renderTarget !== undefined && !isObject(target)))
    return invalidArg(
      call,
      'desc.blendState',
      `must be { renderTarget: [D3D12_RENDER_TARGET_BLEND_DESC, ...] }, got ${show(state)}`,
    );
  const rt = (target ?? {}) as Record<string, unknown>;
  const at = 'desc.blendState.renderTarget[0]';
  if (rt.logicOpEnable === true) return unsupported(call, `${at}.logicOpEnable`, 'logic operations are not emulated');
  const writeMask = rt.renderTargetWriteMask ?? 15;
  if (typeof writeMask !== 'number' || !Number.isInteger(writeMask) || writeMask < 0 || writeMask > 15)
    return invalidArg(
      call,
      `${at}.renderTargetWriteMask`,
      `must be D3D12_COLOR_WRITE_ENABLE bits (0 to 15), got ${show(writeMask)}`,
    );
  if (rt.blendEnable !== true) return { blend: undefined, writeMask };
  const fields: [keyof CheckedBlend, Blend | BlendOp, readonly string[]][] = [
    ['srcBlend', 'ONE', BLENDS],
    ['destBlend', 'ZERO', BLENDS],
    ['blendOp', 'ADD', BLEND_OPS],
    ['srcBlendAlpha', 'ONE', BLENDS],
    ['destBlendAlpha', 'ZERO', BLENDS],
    ['blendOpAlpha', 'ADD', BLEND_OPS],
  ];
  const blend: Record<string, unknown> = {};
  for (const [field, fallback, allowed] of fields) {
    const value = rt[field] ?? fallback;
    const problem = checkName(call, `${at}.${field}`, value, allowed);
    if (problem) return problem;
    blend[field] = value;
  }
  return { blend: blend as unknown as CheckedBlend, writeMask };
}

function rasterizer(
  call: string,
  desc: Record<string, unknown>,
): Checked<{ cullMode: CheckedGraphicsPipeline['cullMode']; frontCounterClockwise: boolean }> {
  const state = desc.rasterizerState;
  if (state === undefined) return { cullMode: 'NONE', frontCounterClockwise: false };
  if (!isObject(state))
    return invalidArg(call, 'desc.rasterizerState', `must be a D3D12_RASTERIZER_DESC object, got ${show(state)}`);
  const fill = state.fillMode ?? 'SOLID';
  if (fill === 'WIREFRAME')
    return unsupported(call, 'desc.rasterizerState.fillMode', 'WIREFRAME is not emulated (WebGPU fills triangles)');
  const problem =
    checkName(call, 'desc.rasterizerState.fillMode', fill, ['SOLID'] as const) ??
    checkName(call, 'desc.rasterizerState.cullMode', state.cullMode ?? 'BACK', ['NONE', 'FRONT', 'BACK'] as const);
  if (problem) return problem;
  const ccw = state.frontCounterClockwise ?? false;
  if (typeof ccw !== 'boolean')
    return invalidArg(call, 'desc.rasterizerState.frontCounterClockwise', `must be true or false, got ${show(ccw)}`);
  return { cullMode: (state.cullMode ?? 'BACK') as 'BACK', frontCounterClockwise: ccw };
}

/** What depth, stencil, multisampling and strip cuts must be here (none of them is emulated). */
function unemulated(call: string, desc: Record<string, unknown>): Problem {
  const depth = desc.depthStencilState;
  if (depth !== undefined) {
    if (!isObject(depth))
      return invalidArg(
        call,
        'desc.depthStencilState',
        `must be a D3D12_DEPTH_STENCIL_DESC object, got ${show(depth)}`,
      );
    if (depth.depthEnable === true)
      return unsupported(
        call,
        'desc.depthStencilState.depthEnable',
        'depth buffers are not emulated: it must be false',
      );
    if (depth.stencilEnable === true)
      return unsupported(
        call,
        'desc.depthStencilState.stencilEnable',
        'stencil buffers are not emulated: it must be false',
      );
  }
  if (desc.dsvFormat !== undefined && desc.dsvFormat !== 'UNKNOWN')
    return unsupported(
      call,
      'desc.dsvFormat',
      `depth buffers are not emulated: it must be UNKNOWN, got ${show(desc.dsvFormat)}`,
    );
  const mask = desc.sampleMask ?? 0xffffffff;
  if (mask !== 0xffffffff && mask !== -1)
    return unsupported(
      call,
      'desc.sampleMask',
      `must be 0xffffffff (UINT_MAX): sample masks are not emulated, got ${show(mask)}`,
    );
  const samples = isObject(desc.sampleDesc) ? (desc.sampleDesc.count ?? 1) : (desc.sampleDesc ?? 1);
  if (desc.sampleDesc !== undefined && samples !== 1)
    return unsupported(call, 'desc.sampleDesc', `count must be 1: MSAA is not emulated, got ${show(desc.sampleDesc)}`);
  const cut = desc.ibStripCutValue ?? 'DISABLED';
  if (cut !== 'DISABLED')
    return unsupported(
      call,
      'desc.ibStripCutValue',
      `must be DISABLED: strip cuts (primitive restart) are not emulated, got ${show(cut)}`,
    );
  return undefined;
}

export function validateCreateGraphicsPipelineState(desc: unknown): Checked<CheckedGraphicsPipeline> {
  const call = 'createGraphicsPipelineState';
  if (!isObject(desc))
    return invalidArg(
      call,
      'desc',
      `must be {code, vertexEntryPoint, fragmentEntryPoint, rtvFormats}, got ${show(desc)}`,
    );
  const compute = validateCreateComputePipelineState({
    code: desc.code,
    entryPoint: desc.vertexEntryPoint,
    label: desc.label,
  });
  if (compute instanceof D3D12Error)
    return invalidArg(
      call,
      compute.argument === 'desc.entryPoint' ? 'desc.vertexEntryPoint' : compute.argument,
      compute.rule,
    );
  if (typeof desc.fragmentEntryPoint !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(desc.fragmentEntryPoint))
    return invalidArg(
      call,
      'desc.fragmentEntryPoint',
      `must be the name of a @fragment function, got ${show(desc.fragmentEntryPoint)}`,
    );
  const rtvFormat = renderTargetFormat(call, desc);
  if (rtvFormat instanceof D3D12Error) return rtvFormat;
  const topologies = topology(call, desc);
  if (topologies instanceof D3D12Error) return topologies;
  const blending = blendOf(call, desc);
  if (blending instanceof D3D12Error) return blending;
  const raster = rasterizer(call, desc);
  if (raster instanceof D3D12Error) return raster;
  const problem = unemulated(call, desc);
  if (problem) return problem;
  const inputLayout = validateInputLayout(call, desc.inputLayout);
  if (inputLayout instanceof D3D12Error) return inputLayout;
  return {
    code: compute.code,
    vertexEntryPoint: compute.entryPoint,
    fragmentEntryPoint: desc.fragmentEntryPoint,
    rtvFormat,
    topologyType: topologies[0],
    primitiveTopology: topologies[1],
    ...blending,
    ...raster,
    inputLayout,
    label: compute.label,
  };
}
