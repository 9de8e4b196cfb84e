/**
 * globalSetup of the gpu project: opens the Dawn device once in the main process to log, once per
 * run, the adapter and the Vulkan driver that the test workers will get from the same provider.
 */
import { createNodeDevice, formatAdapter, nodeDeviceDriver, summarizeAdapter } from '../../src/node/index.js';

export default async function setup(): Promise<void> {
  const device = await createNodeDevice();
  const driver = nodeDeviceDriver();
  console.log(
    `[gpu] adapter: ${formatAdapter(summarizeAdapter(device.adapterInfo))}; ` +
      `Vulkan driver: ${driver?.source}${driver?.icdManifest ? ` ${driver.icdManifest}` : ''}`,
  );
  device.destroy();
}
