/**
 * `d3dTest(options)`: gpuTest with a `d3d` fixture, an emulated D3D12 device over the test file's
 * WebGPU device, created for each test with `options` and destroyed after it.
 */
import { createDevice, type Device, type DeviceOptions } from '../../src/index.js';
import { gpuTest } from './gpu-test.js';

export function d3dTest(options: Omit<DeviceOptions, 'gpuDevice'>) {
  return gpuTest.extend<{ d3d: Device }>({
    d3d: async ({ device }, use) => {
      const d3d = await createDevice({ gpuDevice: device, ...options });
      await use(d3d);
      d3d.destroy();
    },
  });
}
