/**
 * CreateComputePipelineState / CreateGraphicsPipelineState: validation (src/validation/device.ts),
 * then compilation of the user's WGSL over the preludes (src/gpu/pipelines.ts). Compilation is
 * asynchronous; a compile error rejects with E_INVALIDARG quoting the compiler, with line numbers
 * counted in `desc.code`. The device gives each pipeline state its id and records it as its own.
 */
import { literalRegisterUses, unboundRegister, type ShaderStage } from '../validation/shader-registers.js';
import { invalidArg, orThrow, show } from '../api/errors.js';
import type { RootSignature } from '../d3d12/root-signature.js';
import { CANVAS_FORMAT_NAMES, canvasFormat } from '../gpu/canvas-surface.js';
import {
  createGraphicsPreludePipeline,
  createPreludePipeline,
  type GraphicsPipelines,
  type GraphicsValidation,
} from '../gpu/pipelines.js';
import { validateCreateComputePipelineState } from '../validation/device.js';
import {
  validateCreateGraphicsPipelineState,
  type Blend,
  type BlendOp,
  type CheckedBlend,
} from '../validation/graphics-pipeline.js';
import { inputLayoutWgsl } from '../gpu/input-layout-wgsl.js';
import { UNBOUND_REGISTERS_WGSL } from '../gpu/prelude.js';
import {
  PipelineState,
  type ComputePipelineStateDesc,
  type GraphicsPipelineStateDesc,
  type PrimitiveTopology,
} from '../d3d12/pipeline-state.js';

const TOPOLOGIES: Record<PrimitiveTopology, GPUPrimitiveTopology> = {
  TRIANGLELIST: 'triangle-list',
  TRIANGLESTRIP: 'triangle-strip',
  LINELIST: 'line-list',
  LINESTRIP: 'line-strip',
  POINTLIST: 'point-list',
};

const NO_GPU = 'this device has no GPU (created with gpuDevice: null, or where WebGPU is unavailable)';

/** desc.rootSignature: none, or a live root signature of this device (`own` answers undefined for others). */
function rootSignatureOf(
  call: string,
  value: unknown,
  own: (value: unknown) => RootSignature | undefined,
): RootSignature | undefined {
  if (value === undefined || value === null) return undefined;
  const signature = own(value);
  if (!signature)
    throw invalidArg(
      call,
      'desc.rootSignature',
      `must be a root signature of this device, or null, got ${show(value)}`,
    );
  if (signature.released) throw invalidArg(call, 'desc.rootSignature', `${signature.label} was released`);
  return signature;
}

function compileError(call: string, error: unknown): never {
  throw invalidArg(call, 'desc.code', `does not compile:\n${error instanceof Error ? error.message : String(error)}`);
}

const STAGE_NAMES: Record<ShaderStage, string> = { compute: 'compute', vertex: 'vertex', fragment: 'pixel' };

/** D3D12's check that the root signature binds every register the stage's shader uses (src/validation/shader-registers.ts). */
function checkRegisters(
  call: string,
  code: string,
  entryPoint: string,
  stage: ShaderStage,
  rootSignature: RootSignature | undefined,
): void {
  const unbound = unboundRegister(rootSignature?.layout, stage, literalRegisterUses(code, entryPoint));
  if (!unbound) return;
  const register = `${unbound.kind}${unbound.register} (space ${unbound.space})`;
  const shader = `the ${STAGE_NAMES[stage]} shader (${entryPoint})`;
  throw invalidArg(
    call,
    'desc.rootSignature',
    rootSignature
      ? `${rootSignature.label} does not bind ${register}, which ${shader} uses: a pipeline's root signature must bind every register its shaders use`
      : `is not set, so no register is bound, and ${shader} uses ${register}: pass the root signature that binds it`,
  );
}

/** A compute pipeline state, `id` given by the device, on `gpuDevice` (undefined: a CPU-only device, refused). */
export async function createComputePipelineState(
  gpuDevice: GPUDevice | undefined,
  desc: ComputePipelineStateDesc,
  unmappedAccess: boolean,
  id: () => number,
  ownRootSignature: (value: unknown) => RootSignature | undefined,
): Promise<PipelineState> {
  const call = 'createComputePipelineState';
  const checked = orThrow(validateCreateComputePipelineState(desc));
  const rootSignature = rootSignatureOf(call, (desc as { rootSignature?: unknown }).rootSignature, ownRootSignature);
  checkRegisters(call, checked.code, checked.entryPoint, 'compute', rootSignature);
  if (!gpuDevice) throw invalidArg(call, 'this', NO_GPU);
  let pipeline: GPUComputePipeline;
  try {
    pipeline = await createPreludePipeline(
      gpuDevice,
      checked.code,
      checked.entryPoint,
      checked.label ?? 'd3d12 pipeline state',
      [],
      unmappedAccess,
      rootSignature?.wgsl('compute'),
    );
  } catch (error) {
    compileError(call, error);
  }
  return new PipelineState(id(), 'compute', checked.label, pipeline, { rootSignature });
}

/**
 * A graphics pipeline state: a @vertex and a @fragment entry point over the graphics prelude (memory
 * read only), drawing into back buffers of `desc.rtvFormat`. With `gpuValidation` (faults or
 * unmapped accesses), the vertex stage also gets its recording replay (see src/gpu/entry-points.ts),
 * and with unmapped accesses the fragment stage records them.
 */
export async function createGraphicsPipelineState(
  gpuDevice: GPUDevice | undefined,
  desc: GraphicsPipelineStateDesc,
  gpuValidation: GraphicsValidation,
  id: () => number,
  ownRootSignature: (value: unknown) => RootSignature | undefined,
): Promise<PipelineState> {
  const call = 'createGraphicsPipelineState';
  const checked = orThrow(validateCreateGraphicsPipelineState(desc));
  const rootSignature = rootSignatureOf(call, (desc as { rootSignature?: unknown }).rootSignature, ownRootSignature);
  checkRegisters(call, checked.code, checked.vertexEntryPoint, 'vertex', rootSignature);
  checkRegisters(call, checked.code, checked.fragmentEntryPoint, 'fragment', rootSignature);
  const targetFormat = canvasFormat(checked.rtvFormat);
  if (!targetFormat) {
    // Named as the caller gave it: D3D12's RTVFormats[0], or the emulator's shorter rtvFormat.
    const [argument, which] = desc.rtvFormats !== undefined ? ['desc.rtvFormats', '[0] '] : ['desc.rtvFormat', ''];
    throw invalidArg(
      call,
      argument,
      `${which}must be a back-buffer format (${CANVAS_FORMAT_NAMES.join(', ')}), got ${checked.rtvFormat}`,
    );
  }
  if (!gpuDevice) throw invalidArg(call, 'this', NO_GPU);
  // Without a root signature, every register is unbound (the prelude's default bindings).
  // The fragment module holds the vertex function too (demoted): both see the input layout's code.
  const inputLayout = inputLayoutWgsl(checked.inputLayout);
  const vertexBindings = `${rootSignature?.wgsl('vertex') ?? UNBOUND_REGISTERS_WGSL}\n${inputLayout}`;
  const fragmentBindings = `${rootSignature?.wgsl('fragment') ?? UNBOUND_REGISTERS_WGSL}\n${inputLayout}`;
  let pipelines: GraphicsPipelines;
  try {
    pipelines = await createGraphicsPreludePipeline(
      gpuDevice,
      {
        code: checked.code,
        vertexEntryPoint: checked.vertexEntryPoint,
        fragmentEntryPoint: checked.fragmentEntryPoint,
        targetFormat,
        topology: TOPOLOGIES[checked.primitiveTopology],
        blend: checked.blend && gpuBlend(checked.blend),
        writeMask: checked.writeMask,
        cullMode: checked.cullMode === 'NONE' ? 'none' : checked.cullMode === 'FRONT' ? 'front' : 'back',
        frontFace: checked.frontCounterClockwise ? 'ccw' : 'cw',
        label: checked.label ?? 'd3d12 graphics pipeline state',
        bindings: { vertex: vertexBindings, fragment: fragmentBindings },
      },
      gpuValidation,
    );
  } catch (error) {
    compileError(call, error);
  }
  return new PipelineState(id(), 'graphics', checked.label, pipelines.render, {
    rtvFormat: checked.rtvFormat,
    vertexReplay: pipelines.vertexReplay,
    rootSignature,
    topologyType: checked.topologyType,
    fixedTopology: checked.primitiveTopology,
    inputSlots: checked.inputLayout.slots,
    variant: (topology) => pipelines.variant(TOPOLOGIES[topology]),
  });
}

const BLEND_FACTORS: Record<Blend, GPUBlendFactor> = {
  ZERO: 'zero',
  ONE: 'one',
  SRC_COLOR: 'src',
  INV_SRC_COLOR: 'one-minus-src',
  SRC_ALPHA: 'src-alpha',
  INV_SRC_ALPHA: 'one-minus-src-alpha',
  DEST_ALPHA: 'dst-alpha',
  INV_DEST_ALPHA: 'one-minus-dst-alpha',
  DEST_COLOR: 'dst',
  INV_DEST_COLOR: 'one-minus-dst',
  SRC_ALPHA_SAT: 'src-alpha-saturated',
  BLEND_FACTOR: 'constant',
  INV_BLEND_FACTOR: 'one-minus-constant',
};
const BLEND_OPERATIONS: Record<BlendOp, GPUBlendOperation> = {
  ADD: 'add',
  SUBTRACT: 'subtract',
  REV_SUBTRACT: 'reverse-subtract',
  MIN: 'min',
  MAX: 'max',
};

/** D3D12_RENDER_TARGET_BLEND_DESC as WebGPU's blend state (MIN and MAX take factors ONE, as D3D12 ignores them). */
function gpuBlend(blend: CheckedBlend): GPUBlendState {
  const component = (src: Blend, dst: Blend, op: BlendOp): GPUBlendComponent =>
    op === 'MIN' || op === 'MAX'
      ? { operation: BLEND_OPERATIONS[op], srcFactor: 'one', dstFactor: 'one' }
      : { operation: BLEND_OPERATIONS[op], srcFactor: BLEND_FACTORS[src], dstFactor: BLEND_FACTORS[dst] };
  return {
    color: component(blend.srcBlend, blend.destBlend, blend.blendOp),
    alpha: component(blend.srcBlendAlpha, blend.destBlendAlpha, blend.blendOpAlpha),
  };
}
