/**
 * requestDeviceWithAdapterLimits (src/gpu/request-device.ts), GPU-free: the limits it raises to the
 * adapter's maxima (memory-bound ones, and maxTextureDimension2D for the demos' native baselines),
 * the ones it leaves at WebGPU's defaults, and timestamp queries only where the adapter has them.
 */
import { expect, test } from 'vitest';
import { requestDeviceWithAdapterLimits } from '../../../../src/gpu/request-device.js';

function fakeAdapter(features: string[]): { adapter: GPUAdapter; requested: () => GPUDeviceDescriptor | undefined } {
  let descriptor: GPUDeviceDescriptor | undefined;
  const limits = {
    maxBufferSize: 1 << 30,
    maxStorageBufferBindingSize: 1 << 29,
    maxStorageBuffersPerShaderStage: 16,
    maxComputeWorkgroupStorageSize: 32768,
    maxComputeInvocationsPerWorkgroup: 1024,
    maxComputeWorkgroupSizeX: 1024,
    maxComputeWorkgroupsPerDimension: 65535,
    maxTextureDimension2D: 16384,
    maxTextureDimension3D: 2048,
    maxBindGroups: 8,
  };
  const adapter = {
    limits,
    features: new Set(features),
    requestDevice(d: GPUDeviceDescriptor) {
      descriptor = d;
      return Promise.resolve({} as GPUDevice);
    },
  } as unknown as GPUAdapter;
  return { adapter, requested: () => descriptor };
}

test('memory limits and maxTextureDimension2D are requested at the adapter maximum, others left at the defaults', async () => {
  const { adapter, requested } = fakeAdapter(['timestamp-query', 'shader-f16']);
  await requestDeviceWithAdapterLimits(adapter, 'test');
  expect(requested()?.label).toBe('test');
  expect(requested()?.requiredLimits).toEqual({
    maxBufferSize: 1 << 30,
    maxStorageBufferBindingSize: 1 << 29,
    maxStorageBuffersPerShaderStage: 16,
    maxComputeWorkgroupStorageSize: 32768,
    maxComputeInvocationsPerWorkgroup: 1024,
    maxComputeWorkgroupSizeX: 1024,
    maxComputeWorkgroupsPerDimension: 65535,
    maxTextureDimension2D: 16384,
  });
  expect(requested()?.requiredFeatures).toEqual(['timestamp-query']);
});

test('an adapter without timestamp queries is asked for no feature', async () => {
  const { adapter, requested } = fakeAdapter([]);
  await requestDeviceWithAdapterLimits(adapter);
  expect(requested()?.requiredFeatures).toEqual([]);
});
