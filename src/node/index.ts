/**
 * The Node.js entry (`d3d12-webgpu/node`): a WebGPU device from Dawn, with a Vulkan driver found
 * without any setup (see vulkan-driver.ts).
 */
/// <reference types="@webgpu/types" />
import { requestDeviceWithAdapterLimits } from '../gpu/request-device.js';
import { loadDawn } from './dawn-module.js';
import { fallbackReason, resolveVulkanDriver, type VulkanDriver } from './vulkan-driver.js';

export { resolveVulkanDriver, type VulkanDriver, type VulkanDriverSource } from './vulkan-driver.js';
export * from '../index.js';

export interface NodeDeviceOptions {
  powerPreference?: GPUPowerPreference;
  /** Dawn's own flags, e.g. `enable-dawn-features=dump_shaders`. */
  dawnFlags?: string[];
}

/**
 * Dawn shuts its instance down once the `GPU` object is collected, so each device keeps the `GPU` it
 * came from alive for as long as the device itself is reachable.
 */
const instanceOf = new WeakMap<GPUDevice, GPU>();

let lastDriver: VulkanDriver | undefined;

/** The Vulkan driver the last `createNodeDevice` call used (for logs). */
export function nodeDeviceDriver(): VulkanDriver | undefined {
  return lastDriver;
}

/** Asks Dawn for an adapter with `driver`, exporting its ICD only while Dawn opens Vulkan. */
async function requestAdapter(
  driver: VulkanDriver,
  options: NodeDeviceOptions,
): Promise<{ gpu: GPU; adapter: GPUAdapter | null }> {
  const dawn = loadDawn(driver.loaderDir);
  // Globals in a browser; here too, without replacing any the host already provides.
  for (const [name, value] of Object.entries(dawn.globals)) {
    if (!(name in globalThis)) Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
  }
  const previous = process.env.VK_ICD_FILENAMES;
  if (driver.icdManifest) process.env.VK_ICD_FILENAMES = driver.icdManifest;
  try {
    // Dawn creates its Vulkan instance, which reads VK_ICD_FILENAMES, while it discovers adapters.
    const gpu = dawn.create(options.dawnFlags ?? []);
    return { gpu, adapter: await gpu.requestAdapter({ powerPreference: options.powerPreference }) };
  } finally {
    // Child processes (a browser, a test worker) must not inherit our choice.
    if (previous === undefined) delete process.env.VK_ICD_FILENAMES;
    else process.env.VK_ICD_FILENAMES = previous;
  }
}

const describeDriver = (driver: VulkanDriver): string =>
  `Vulkan driver from ${driver.source}${driver.icdManifest ? ` (${driver.icdManifest})` : ''}`;

/** Whether the fallback from a system driver to SwiftShader was reported (once per process). */
let fallbackSaid = false;

/**
 * Opens a WebGPU device from Dawn, with the adapter's memory limits. On Linux it first finds a
 * Vulkan driver (vulkan-driver.ts); a system driver that yields no adapter (a GPU driver installed
 * on a machine without that GPU) gives way to the bundled SwiftShader. WebGPU's constant namespaces
 * (`GPUBufferUsage`, ...) become globals where the host has none.
 */
export async function createNodeDevice(options: NodeDeviceOptions = {}): Promise<GPUDevice> {
  let driver = resolveVulkanDriver();
  let { gpu, adapter } = await requestAdapter(driver, options);
  if (!adapter && driver.source === 'system') {
    // Said once per process: a machine without its GPU keeps working, but not silently.
    if (!fallbackSaid)
      console.warn(`d3d12-webgpu: using the bundled SwiftShader (a CPU) instead of the GPU: ${fallbackReason(driver)}`);
    fallbackSaid = true;
    driver = resolveVulkanDriver(undefined, { bundledOnly: true });
    ({ gpu, adapter } = await requestAdapter(driver, options));
  }
  if (!adapter) throw new Error(`Dawn found no WebGPU adapter (${describeDriver(driver)})`);
  lastDriver = driver;
  const device = await requestDeviceWithAdapterLimits(adapter);
  instanceOf.set(device, gpu);
  return device;
}
