/**
 * Compute pipelines over the prelude: the bind group layout every pipeline shares (group 0: page
 * table, the two pools, per-dispatch constants, fault log), user pipelines (prelude + user WGSL) and
 * the emulator's own kernels, cached per GPUDevice in a WeakMap.
 */
import { PRELUDE_WGSL, preludeLayout } from './prelude.js';

const PRELUDE_LINES = PRELUDE_WGSL.split('\n').length;

interface DeviceCache {
  group0: GPUBindGroupLayout;
  kernels: Map<string, Promise<GPUComputePipeline>>;
}

const caches = new WeakMap<GPUDevice, DeviceCache>();

function cacheFor(device: GPUDevice): DeviceCache {
  let cache = caches.get(device);
  if (!cache) {
    const storage = (type: GPUBufferBindingType) => ({ visibility: GPUShaderStage.COMPUTE, buffer: { type } });
    const group0 = device.createBindGroupLayout({
      label: 'd3d12 prelude (group 0)',
      entries: [
        { binding: 0, ...storage('read-only-storage') },
        { binding: 1, ...storage('storage') },
        { binding: 2, ...storage('storage') },
        { binding: 3, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true, minBindingSize: preludeLayout().dispatchInfo.size } },
        { binding: 4, ...storage('storage') },
      ],
    });
    cache = { group0, kernels: new Map() };
    caches.set(device, cache);
  }
  return cache;
}

/** The layout of group 0, which every emulator pipeline binds. */
export function preludeBindGroupLayout(device: GPUDevice): GPUBindGroupLayout {
  return cacheFor(device).group0;
}

/** A compile error, with line numbers counted from the start of the code the caller gave. */
export class ShaderCompileError extends Error {
  override name = 'ShaderCompileError';
}

/**
 * Compiles `code` after the prelude into a compute pipeline whose group 0 is the prelude's, plus the
 * given extra groups. Rejects with a ShaderCompileError listing the compiler's messages.
 */
export async function createPreludePipeline(
  device: GPUDevice,
  code: string,
  entryPoint: string,
  label: string,
  extraGroups: GPUBindGroupLayout[] = [],
): Promise<GPUComputePipeline> {
  // The compiler's messages are reported below, with the caller's line numbers; the WebGPU
  // validation error a bad module raises is caught here so it does not reach the caller's device.
  // The scope is popped at once (not after an await), so it holds only this call's error and none
  // of what the caller does meanwhile.
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ label, code: `${PRELUDE_WGSL}\n${code}` });
  const moduleError = device.popErrorScope();
  const [info] = await Promise.all([module.getCompilationInfo(), moduleError]);
  const errors = info.messages.filter((message) => message.type === 'error');
  if (errors.length > 0) {
    const lines = errors.map((message) => {
      const line = message.lineNum - PRELUDE_LINES;
      return line > 0 ? `line ${line}:${message.linePos}: ${message.message}` : `in the prelude (line ${message.lineNum}): ${message.message}`;
    });
    throw new ShaderCompileError(lines.join('\n'));
  }
  const layout = device.createPipelineLayout({ label, bindGroupLayouts: [preludeBindGroupLayout(device), ...extraGroups] });
  try {
    return await device.createComputePipelineAsync({ label, layout, compute: { module, entryPoint } });
  } catch (error) {
    // A GPUPipelineError (e.g. no such entry point); createComputePipelineAsync reports it here only.
    throw new ShaderCompileError(error instanceof Error ? error.message : String(error));
  }
}

/** One of the emulator's own kernels, compiled once per device. */
export function kernelPipeline(device: GPUDevice, name: string, code: string, entryPoint: string, extraGroups: GPUBindGroupLayout[]): Promise<GPUComputePipeline> {
  const cache = cacheFor(device);
  let pipeline = cache.kernels.get(name);
  if (!pipeline) {
    pipeline = createPreludePipeline(device, code, entryPoint, `d3d12 ${name}`, extraGroups);
    cache.kernels.set(name, pipeline);
  }
  return pipeline;
}
