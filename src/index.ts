/**
 * d3d12-webgpu: the Direct3D 12 memory model emulated on a real GPU through WebGPU.
 * The browser entry; `d3d12-webgpu/node` adds a Dawn-backed device for Node.js.
 */
/// <reference types="@webgpu/types" />
export {
  formatAdapter,
  requestDeviceWithAdapterLimits,
  requestWebGPUDevice,
  summarizeAdapter,
  type AdapterSummary,
} from './gpu/request-device.js';
export {
  runSmokePattern,
  smokePatternReference,
  type SmokePatternArgs,
  type SmokePatternOptions,
} from './gpu/smoke-pattern.js';
