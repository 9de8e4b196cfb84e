/**
 * Opens a WebGPU device the way the emulator needs it, in the browser and in Node.js alike: with the
 * adapter's maxima for the limits that bound emulated memory (pool and page-table buffers are as large
 * as the adapter allows) and the largest 2D texture (the demos' native baselines), and with timestamp
 * queries where the adapter has them (benchmarks).
 */

/** Limits requested at the adapter's maximum rather than WebGPU's defaults. */
const MAXIMIZED_LIMITS = [
  'maxBufferSize',
  'maxStorageBufferBindingSize',
  'maxStorageBuffersPerShaderStage',
  'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupsPerDimension',
  'maxTextureDimension2D',
] as const;

/** Features used when present; none is required. */
const OPTIONAL_FEATURES: GPUFeatureName[] = ['timestamp-query'];

/** What a test or a benchmark reports about the adapter it ran on. */
export interface AdapterSummary {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
}

export function summarizeAdapter(info: GPUAdapterInfo): AdapterSummary {
  return {
    vendor: info.vendor,
    architecture: info.architecture,
    device: info.device,
    description: info.description,
  };
}

export function formatAdapter(summary: AdapterSummary): string {
  const details = [summary.device, summary.description].filter(Boolean).join(', ');
  return `vendor=${summary.vendor || '?'} architecture=${summary.architecture || '?'}${details ? ` (${details})` : ''}`;
}

/**
 * Whether `gpuDevice` runs shaders on the CPU (SwiftShader, or any fallback adapter). There the
 * texture cache is off unless asked for (create-device.ts: a CPU runs both sides of every branch, so a
 * read pays for the cache's path and memory's), and `npm run validate` lets Dawn's polling sleep
 * (tools/node/dawn-polling.ts: a spinning poll takes a core the shaders need).
 */
export function runsOnCpu(gpuDevice: GPUDevice): boolean {
  const info = (gpuDevice as { adapterInfo?: Partial<GPUAdapterInfo> & { isFallbackAdapter?: boolean } }).adapterInfo;
  if (!info) return false;
  return info.isFallbackAdapter === true || /swiftshader/i.test(`${info.architecture ?? ''} ${info.description ?? ''}`);
}

export async function requestDeviceWithAdapterLimits(adapter: GPUAdapter, label = 'd3d12-webgpu'): Promise<GPUDevice> {
  const requiredLimits: Record<string, number> = {};
  for (const name of MAXIMIZED_LIMITS) requiredLimits[name] = adapter.limits[name];
  const requiredFeatures = OPTIONAL_FEATURES.filter((feature) => adapter.features.has(feature));
  return adapter.requestDevice({ label, requiredLimits, requiredFeatures });
}

/** Requests an adapter from `gpu` and a device from it; throws with `context` when there is none. */
export async function requestWebGPUDevice(
  gpu: GPU,
  options: GPURequestAdapterOptions = {},
  context = 'navigator.gpu',
): Promise<GPUDevice> {
  const adapter = await gpu.requestAdapter(options);
  if (!adapter) throw new Error(`requestAdapter returned no adapter (${context})`);
  return requestDeviceWithAdapterLimits(adapter);
}
