/**
 * Opening WebGPU for a demo page, with a message a person can act on for each way it can fail: the
 * browser has no WebGPU, it offers no adapter (blocklisted GPU, flag off, no driver), the adapter
 * refuses a device, or the device is lost later (driver reset, GPU process crash, tab in the
 * background too long). Pages show `WebGPUUnavailable.message` in place of the scene.
 */
import { requestWebGPUDevice } from '../../src/index.js';

export class WebGPUUnavailable extends Error {
  override readonly name = 'WebGPUUnavailable';
}

const HOW_TO =
  'Use a recent Chrome or Edge (on Linux start it with --enable-unsafe-webgpu, and --ignore-gpu-blocklist where chrome://gpu shows WebGPU as disabled).';

/** A device from navigator.gpu, or a WebGPUUnavailable saying why there is none. */
export async function openWebGPU(
  gpu: GPU | undefined = typeof navigator === 'undefined' ? undefined : navigator.gpu,
): Promise<GPUDevice> {
  if (!gpu) throw new WebGPUUnavailable(`This browser has no WebGPU (navigator.gpu is missing). ${HOW_TO}`);
  try {
    return await requestWebGPUDevice(gpu);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (/no adapter/i.test(reason))
      throw new WebGPUUnavailable(
        `WebGPU is there but gave no adapter (navigator.gpu.requestAdapter() returned null): the GPU may be blocklisted or WebGPU switched off. ${HOW_TO}`,
      );
    throw new WebGPUUnavailable(`WebGPU refused a device: ${reason}`);
  }
}

/**
 * Whether `device` runs on a CPU rasterizer (SwiftShader, llvmpipe, WARP): scenes then choose lighter
 * defaults, since such an adapter draws a few hundred thousand vertices a second, not billions.
 */
export function isSoftwareAdapter(device: GPUDevice): boolean {
  const info = device.adapterInfo as GPUAdapterInfo & { isFallbackAdapter?: boolean };
  if (info.isFallbackAdapter === true) return true;
  return /swiftshader|llvmpipe|lavapipe|warp|software/i.test(
    [info.vendor, info.architecture, info.device, info.description].join(' '),
  );
}

/** The message for a lost device (any reason but an explicit destroy()). */
export function deviceLostMessage(info: GPUDeviceLostInfo): string {
  return `The WebGPU device was lost${info.message ? `: ${info.message}` : ''}. Reload the page to start again.`;
}

/** Calls `onLost` with a message once `device` is lost for any reason but destroy(). */
export function watchDeviceLoss(device: GPUDevice, onLost: (message: string) => void): void {
  void device.lost.then((info) => {
    if (info.reason !== 'destroyed') onLost(deviceLostMessage(info));
  });
}
