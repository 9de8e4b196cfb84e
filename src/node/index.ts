/**
 * The Node.js entry (`d3d12-webgpu/node`): a WebGPU device from Dawn, with a Vulkan driver found
 * without any setup (see vulkan-driver.ts).
 */
import { requestWebGPUDevice } from '../gpu/request-device.js';
import { loadDawn } from './dawn-module.js';
import { resolveVulkanDriver, type VulkanDriver } from './vulkan-driver.js';

export { resolveVulkanDriver, type VulkanDriver, type VulkanDriverSource } from './vulkan-driver.js';
export { formatAdapter, summarizeAdapter, type AdapterSummary } from '../gpu/request-device.js';

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

/**
 * Opens a WebGPU device from Dawn, with the adapter's memory limits. On Linux it first finds a
 * Vulkan driver (vulkan-driver.ts) and, where it picks one, exports `VK_ICD_FILENAMES` for this
 * process so that Dawn's Vulkan loader uses it. WebGPU's constant namespaces (`GPUBufferUsage`, ...)
 * become globals where the host has none.
 */
export async function createNodeDevice(options: NodeDeviceOptions = {}): Promise<GPUDevice> {
  const driver = resolveVulkanDriver();
  if (driver.icdManifest) process.env.VK_ICD_FILENAMES = driver.icdManifest;
  lastDriver = driver;

  const dawn = loadDawn(driver.loaderDir);
  // Globals in a browser; here too, without replacing any the host already provides.
  for (const [name, value] of Object.entries(dawn.globals)) {
    if (!(name in globalThis)) Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
  }
  const gpu = dawn.create(options.dawnFlags ?? []);
  const where = `Dawn, Vulkan driver from ${driver.source}${driver.icdManifest ? ` (${driver.icdManifest})` : ''}`;
  const device = await requestWebGPUDevice(gpu, { powerPreference: options.powerPreference }, where);
  instanceOf.set(device, gpu);
  return device;
}
