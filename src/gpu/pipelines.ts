/**
 * Compute pipelines over the prelude: the bind group layout every pipeline shares (group 0: page
 * table, the pool, per-dispatch constants, fault log, unmapped-access log), user pipelines
 * (prelude + user WGSL) and the emulator's own kernels, cached per GPUDevice in a WeakMap.
 */
import vertexReplayWgsl from '../../shaders/vertex_replay.wgsl?raw';
import fragmentEntryWgsl from '../../shaders/fragment_entry.wgsl?raw';
import computeEntryWgsl from '../../shaders/compute_entry.wgsl?raw';
import { demoteEntryPoint, entryPointAttributes, entryPointSignature, vertexCall } from './entry-points.js';
import {
  COMPUTE_UNMAPPED_ACCESS_PRELUDE_WGSL,
  computePrelude,
  FRAGMENT_UNMAPPED_ACCESS_PRELUDE_WGSL,
  fragmentPrelude,
  makesPageHandles,
  poolViewFor,
  PRELUDE_WGSL,
  requireConstant,
  requireWorkgroupSize,
  VERTEX_PRELUDE_WGSL,
  vertexPrelude,
} from './prelude.js';
import { ResourceType, type WgslReflect } from './wgsl-reflect.js';
import { reflectDeclarations } from './wgsl-declarations.js';

interface DeviceCache {
  group0: GPUBindGroupLayout;
  graphicsGroup0: GPUBindGroupLayout;
  kernels: Map<string, Promise<GPUComputePipeline>>;
  /** Kernels created synchronously (kernelPipelineNow). */
  immediateKernels: Map<string, GPUComputePipeline>;
}

const caches = new WeakMap<GPUDevice, DeviceCache>();

/**
 * Group 0's layout entries, from the preludes' declarations (wgsl_reflect): per binding, the buffer
 * type its `var` declares (read → read-only storage, read_write → storage, uniform) and every stage
 * whose prelude declares it. The one uniform, the per-dispatch constants, is bound at a dynamic offset.
 */
export function preludeBindGroupEntries(
  stages: readonly { code: string; visibility: number }[],
): GPUBindGroupLayoutEntry[] {
  const entries = new Map<number, GPUBindGroupLayoutEntry>();
  for (const { code, visibility } of stages) {
    for (const variable of reflectDeclarations(code).getBindGroups()[0] ?? []) {
      // The list is indexed by binding: a binding a variant leaves out is a hole.
      if (!variable) continue;
      const resource = bindingResource(variable);
      const seen = entries.get(variable.binding);
      if (seen && JSON.stringify({ ...seen, visibility: 0 }) !== JSON.stringify({ ...resource, visibility: 0 }))
        throw new Error(
          `the prelude declares binding ${variable.binding} (${variable.name}) differently in two stages`,
        );
      entries.set(variable.binding, { ...resource, visibility: (seen?.visibility ?? 0) | visibility });
    }
  }
  return [...entries.values()].sort((a, b) => a.binding - b.binding);
}

type ReflectedVariable = NonNullable<ReturnType<WgslReflect['getBindGroups']>[number]>[number];

/**
 * The layout entry of one prelude binding: buffers by their address space and access; the texture
 * cache's atlas (a float 2D array), texture mirrors (float 2D textures) and the filtering sampler
 * (shaders/prelude/texture-cache.wgsl, texture-mirrors.wgsl).
 */
function bindingResource(variable: ReflectedVariable): GPUBindGroupLayoutEntry {
  const { binding } = variable;
  switch (variable.resourceType) {
    case ResourceType.Uniform:
      return {
        binding,
        visibility: 0,
        buffer: { type: 'uniform', hasDynamicOffset: true, minBindingSize: variable.size },
      };
    case ResourceType.Storage:
      return {
        binding,
        visibility: 0,
        buffer: { type: variable.access === 'read_write' ? 'storage' : 'read-only-storage' },
      };
    case ResourceType.Texture:
      // The atlas is a 2D array; texture mirrors (texture-mirrors.wgsl) are 2D textures.
      return {
        binding,
        visibility: 0,
        texture: { sampleType: 'float', viewDimension: variable.type.name === 'texture_2d' ? '2d' : '2d-array' },
      };
    case ResourceType.Sampler:
      return { binding, visibility: 0, sampler: { type: 'filtering' } };
    default:
      throw new Error(`the prelude's binding ${binding} (${variable.name}) is of a kind group 0 does not hold`);
  }
}

function cacheFor(device: GPUDevice): DeviceCache {
  let cache = caches.get(device);
  if (!cache) {
    const group0 = device.createBindGroupLayout({
      label: 'd3d12 prelude (group 0)',
      // The recording variant declares every binding (the plain one leaves the unmapped-access log out).
      entries: preludeBindGroupEntries([
        { code: COMPUTE_UNMAPPED_ACCESS_PRELUDE_WGSL, visibility: GPUShaderStage.COMPUTE },
      ]),
    });
    // The fault log is the fragment stage's only: vertex shaders cannot write storage. The layout
    // has the unmapped-access log too (the fragment prelude of devices that record them declares it).
    const graphicsGroup0 = device.createBindGroupLayout({
      label: 'd3d12 graphics prelude (group 0)',
      entries: preludeBindGroupEntries([
        { code: VERTEX_PRELUDE_WGSL, visibility: GPUShaderStage.VERTEX },
        { code: FRAGMENT_UNMAPPED_ACCESS_PRELUDE_WGSL, visibility: GPUShaderStage.FRAGMENT },
      ]),
    });
    cache = { group0, graphicsGroup0, kernels: new Map(), immediateKernels: new Map() };
    caches.set(device, cache);
  }
  return cache;
}

/** The layout of group 0, which every emulator compute pipeline binds. */
export function preludeBindGroupLayout(device: GPUDevice): GPUBindGroupLayout {
  return cacheFor(device).group0;
}

/** The layout of group 0 of graphics pipelines (read-only memory; the fault log for fragment shaders). */
export function graphicsPreludeBindGroupLayout(device: GPUDevice): GPUBindGroupLayout {
  return cacheFor(device).graphicsGroup0;
}

/** A compile error, with line numbers counted from the start of the code the caller gave. */
export class ShaderCompileError extends Error {
  override name = 'ShaderCompileError';
}

/**
 * Compiles `code` after the prelude into a compute pipeline whose group 0 is the prelude's, plus the
 * given extra groups. Rejects with a ShaderCompileError listing the compiler's messages.
 */
/**
 * Compiles `code` after `prelude`; rejects with a ShaderCompileError whose line numbers count from
 * the start of `code`.
 */
async function compile(device: GPUDevice, prelude: string, code: string, label: string): Promise<GPUShaderModule> {
  // The compiler's messages are reported below, with the caller's line numbers; the WebGPU
  // validation error a bad module raises is caught here so it does not reach the caller's device.
  // The scope is popped at once (not after an await), so it holds only this call's error and none
  // of what the caller does meanwhile.
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ label, code: `${prelude}\n${code}` });
  const moduleError = device.popErrorScope();
  const [info] = await Promise.all([module.getCompilationInfo(), moduleError]);
  const errors = info.messages.filter((message) => message.type === 'error');
  if (errors.length > 0) {
    const preludeLines = prelude.split('\n').length;
    const lines = errors.map((message) => {
      const line = message.lineNum - preludeLines;
      return line > 0
        ? `line ${line}:${message.linePos}: ${message.message}`
        : `in the prelude (line ${message.lineNum}): ${message.message}`;
    });
    throw new ShaderCompileError(lines.join('\n'));
  }
  return module;
}

export async function createPreludePipeline(
  device: GPUDevice,
  code: string,
  entryPoint: string,
  label: string,
  extraGroups: GPUBindGroupLayout[] = [],
  /** gpuValidation.unmappedAccess: compile over the prelude that records accesses to NULL tiles. */
  unmappedAccess = false,
  /** The registers' functions of the pipeline's root signature (none bound when left out). */
  bindings?: string,
): Promise<GPUComputePipeline> {
  // The pool's view follows the code: vectors where it makes 16-byte accesses (see prelude.ts).
  const stage = computeStage(code, entryPoint);
  const module = await compile(
    device,
    computePrelude({ unmappedAccess, poolView: poolViewFor(code), bindings }),
    stage.code,
    label,
  );
  const layout = device.createPipelineLayout({
    label,
    bindGroupLayouts: [preludeBindGroupLayout(device), ...extraGroups],
  });
  try {
    return await device.createComputePipelineAsync({
      label,
      layout,
      compute: { module, entryPoint: stage.entryPoint },
    });
  } catch (error) {
    // A GPUPipelineError (e.g. no such entry point); createComputePipelineAsync reports it here only.
    throw new ShaderCompileError(error instanceof Error ? error.message : String(error));
  }
}

/** One of the emulator's own kernels, compiled once per device (and prelude variant). */
export function kernelPipeline(
  device: GPUDevice,
  name: string,
  code: string,
  entryPoint: string,
  extraGroups: GPUBindGroupLayout[],
  unmappedAccess = false,
): Promise<GPUComputePipeline> {
  const cache = cacheFor(device);
  const key = unmappedAccess ? `${name} (unmapped access)` : name;
  let pipeline = cache.kernels.get(key);
  if (!pipeline) {
    pipeline = createPreludePipeline(device, code, entryPoint, `d3d12 ${key}`, extraGroups, unmappedAccess);
    cache.kernels.set(key, pipeline);
  }
  return pipeline;
}

/**
 * One of the emulator's own kernels, created at once (createComputePipeline), once per device and
 * prelude variant: for commands encoded at executeCommandLists, which cannot wait for an asynchronous
 * compile. Only for the emulator's tested kernels: a compile error would surface as a WebGPU error.
 */
export function kernelPipelineNow(
  device: GPUDevice,
  name: string,
  code: string,
  entryPoint: string,
  unmappedAccess = false,
): GPUComputePipeline {
  const cache = cacheFor(device);
  const key = unmappedAccess ? `${name} (unmapped access)` : name;
  let pipeline = cache.immediateKernels.get(key);
  if (!pipeline) {
    const label = `d3d12 ${key}`;
    const module = device.createShaderModule({
      label,
      code: `${computePrelude({ unmappedAccess, poolView: poolViewFor(code) })}\n${code}`,
    });
    const layout = device.createPipelineLayout({ label, bindGroupLayouts: [preludeBindGroupLayout(device)] });
    pipeline = device.createComputePipeline({ label, layout, compute: { module, entryPoint } });
    cache.immediateKernels.set(key, pipeline);
  }
  return pipeline;
}

export interface GraphicsPipelineOptions {
  code: string;
  vertexEntryPoint: string;
  fragmentEntryPoint: string;
  targetFormat: GPUTextureFormat;
  /** The topology the pipeline is made with first (others of its type are made when a draw needs them). */
  topology: GPUPrimitiveTopology;
  blend: GPUBlendState | undefined;
  /** GPUColorWrite bits (D3D12_COLOR_WRITE_ENABLE's, which are the same). */
  writeMask: number;
  cullMode: GPUCullMode;
  frontFace: GPUFrontFace;
  label: string;
  /** The registers' functions of the pipeline's root signature, per stage (none bound when left out). */
  bindings?: { vertex: string; fragment: string };
}

/** A graphics pipeline state's GPU side: the render pipeline, and the vertex-stage replay when validating. */
export interface GraphicsPipelines {
  render: GPURenderPipeline;
  /** The same pipeline with another topology, made at once (a draw that sets another topology of the type). */
  variant(topology: GPUPrimitiveTopology): GPURenderPipeline;
  /** The vertex shader as a compute dispatch that records its faults and unmapped accesses (shaders/vertex_replay.wgsl). */
  vertexReplay?: GPUComputePipeline;
}

/** What a graphics pipeline records: faults (gpuValidation), unmapped accesses (gpuValidation.unmappedAccess). */
export interface GraphicsValidation {
  faults: boolean;
  unmappedAccess: boolean;
}

/**
 * A render pipeline of user WGSL over the graphics preludes (vertices come from memory, not
 * buffers): the vertex stage over the read-only vertex prelude, the fragment stage over the fragment
 * prelude, which records faults (and, with `validation.unmappedAccess`, unmapped accesses). With
 * either kind of validation, also the vertex-stage replay, which records both for the vertex stage.
 */
export async function createGraphicsPreludePipeline(
  device: GPUDevice,
  options: GraphicsPipelineOptions,
  validation: GraphicsValidation,
): Promise<GraphicsPipelines> {
  const poolView = poolViewFor(options.code);
  const vertexModule = await compile(
    device,
    vertexPrelude(poolView, options.bindings?.vertex),
    options.code,
    `${options.label} (vertex stage)`,
  );
  // The fragment module must not hold the vertex entry point (it would reach the writable fault
  // log); its entry point is the emulator's wrapper around the user's, which logs the faults.
  const demoted = demoteOr(options.code, options.vertexEntryPoint);
  const fragmentModule = await compile(
    device,
    fragmentPrelude({ unmappedAccess: validation.unmappedAccess, poolView, bindings: options.bindings?.fragment }),
    fragmentStage(demoted, options.fragmentEntryPoint),
    `${options.label} (fragment stage)`,
  );
  const layout = device.createPipelineLayout({
    label: options.label,
    bindGroupLayouts: [graphicsPreludeBindGroupLayout(device)],
  });
  const descriptor = (topology: GPUPrimitiveTopology): GPURenderPipelineDescriptor => ({
    label: `${options.label} (${topology})`,
    layout,
    vertex: { module: vertexModule, entryPoint: options.vertexEntryPoint },
    fragment: {
      module: fragmentModule,
      entryPoint: FRAGMENT_ENTRY,
      targets: [{ format: options.targetFormat, blend: options.blend, writeMask: options.writeMask }],
    },
    primitive: { topology, cullMode: options.cullMode, frontFace: options.frontFace },
  });
  let render: GPURenderPipeline;
  try {
    render = await device.createRenderPipelineAsync(descriptor(options.topology));
  } catch (error) {
    throw new ShaderCompileError(error instanceof Error ? error.message : String(error));
  }
  const variants = new Map<GPUPrimitiveTopology, GPURenderPipeline>([[options.topology, render]]);
  const variant = (topology: GPUPrimitiveTopology): GPURenderPipeline => {
    let pipeline = variants.get(topology);
    if (!pipeline) variants.set(topology, (pipeline = device.createRenderPipeline(descriptor(topology))));
    return pipeline;
  };
  if (!validation.faults && !validation.unmappedAccess) return { render, variant };
  const call = vertexCall(options.code, options.vertexEntryPoint, 'd3d12_vertex_index', 'd3d12_instance_index');
  const replayCode = `${demoted}\n${vertexReplayWgsl.replaceAll('D3D12_VERTEX_CALL', call)}`;
  const vertexReplay = await createPreludePipeline(
    device,
    replayCode,
    'd3d12_vertex_replay',
    `${options.label} (vertex-stage replay)`,
    [],
    validation.unmappedAccess,
    options.bindings?.vertex,
  );
  return { render, variant, vertexReplay };
}

/** The entry point of shaders/fragment_entry.wgsl. */
const FRAGMENT_ENTRY = 'd3d12_fragment_entry';

/**
 * The fragment stage's code: the user's fragment entry point demoted and called from the wrapper
 * entry point (shaders/fragment_entry.wgsl), which logs its faults once at the end. When the entry
 * point is not there the code goes as it is, and the compiler or pipeline creation says why.
 */
function fragmentStage(code: string, name: string): string {
  let signature: ReturnType<typeof entryPointSignature>;
  try {
    signature = entryPointSignature(code, name);
  } catch {
    return code;
  }
  const call = `${name}(${signature.names.join(', ')})`;
  const body = signature.result
    ? `let d3d12_result = ${call};\n  d3d12_flush_fragment_faults();\n  return d3d12_result;`
    : `${call};\n  d3d12_flush_fragment_faults();`;
  const wrapper = fragmentEntryWgsl
    .replaceAll('D3D12_FRAGMENT_PARAMS', signature.params)
    .replaceAll('D3D12_FRAGMENT_RESULT', signature.result)
    .replaceAll('D3D12_FRAGMENT_BODY', body);
  return `${demoteEntryPoint(code, name)}\n${wrapper}`;
}

/** The entry point of shaders/compute_entry.wgsl. */
const COMPUTE_ENTRY = 'd3d12_compute_entry';

/**
 * The compute stage's code and entry point: for code that makes page handles, the user's entry point
 * demoted and called from the wrapper (shaders/compute_entry.wgsl), which logs their bad offsets at
 * its end; other code as it is. The wrapper goes after the user's code, so compiler line numbers do
 * not move; when the entry point is not there the code goes as it is, and the compiler says why.
 */
function computeStage(code: string, name: string): { code: string; entryPoint: string } {
  if (!makesPageHandles(code)) return { code, entryPoint: name };
  let signature: ReturnType<typeof entryPointSignature>;
  let attributes: string;
  try {
    signature = entryPointSignature(code, name);
    attributes = entryPointAttributes(code, name);
  } catch {
    return { code, entryPoint: name };
  }
  const wrapper = computeEntryWgsl
    .replaceAll('D3D12_COMPUTE_ATTRIBUTES', attributes)
    .replaceAll('D3D12_COMPUTE_PARAMS', signature.params)
    .replaceAll('D3D12_COMPUTE_CALL', `${name}(${signature.names.join(', ')})`);
  return { code: `${demoteEntryPoint(code, name)}\n${wrapper}`, entryPoint: COMPUTE_ENTRY };
}

/** demoteEntryPoint, or the code as it is when the entry point is not there (the compiler says so). */
function demoteOr(code: string, name: string): string {
  try {
    return demoteEntryPoint(code, name);
  } catch {
    return code;
  }
}

/** The replay's workgroup size and the invocations one dispatch covers (from shaders/vertex_replay.wgsl). */
export const VERTEX_REPLAY = (() => {
  const file = 'vertex_replay.wgsl';
  const code = `${PRELUDE_WGSL}\n${vertexReplayWgsl.replaceAll('D3D12_VERTEX_CALL', '0u')}`;
  return {
    workgroup: requireWorkgroupSize(code, 'd3d12_vertex_replay', file),
    vertexStride: requireConstant(vertexReplayWgsl, 'D3D12_VERTEX_REPLAY_VERTEX_STRIDE', file),
    instanceStride: requireConstant(vertexReplayWgsl, 'D3D12_VERTEX_REPLAY_INSTANCE_STRIDE', file),
  };
})();
