/**
 * Page side of the browser runner. The Node side (browser-test.ts) loads runner.html and calls
 * `window.d3d12Runner.run(modulePath, args, testName)`: the page opens a WebGPU device, imports the
 * test page module and runs its default export inside the shared error scopes
 * (gpu-error-scopes.ts). The result must be JSON-serializable (typed arrays: convert to arrays).
 */
import { formatAdapter, requestWebGPUDevice, summarizeAdapter, type AdapterSummary } from '../../../src/index.js';
import { runInGpuErrorScopes } from '../gpu-error-scopes.js';

export type PageTest<Args, Result> = (device: GPUDevice, args: Args) => Promise<Result>;

export interface PageRunner {
  run(modulePath: string, args: unknown, testName: string): Promise<unknown>;
  adapter(): Promise<AdapterSummary & { line: string }>;
}

declare global {
  interface Window {
    d3d12Runner: PageRunner;
  }
}

function gpu(): GPU {
  if (!navigator.gpu) {
    throw new Error(`navigator.gpu is missing (secure context: ${String(window.isSecureContext)}); is WebGPU enabled?`);
  }
  return navigator.gpu;
}

window.d3d12Runner = {
  async run(modulePath, args, testName) {
    const module = (await import(/* @vite-ignore */ modulePath)) as { default?: PageTest<unknown, unknown> };
    if (typeof module.default !== 'function') throw new Error(`${modulePath} has no default export to run`);
    const device = await requestWebGPUDevice(gpu());
    try {
      return await runInGpuErrorScopes(device, testName, () => module.default!(device, args));
    } finally {
      device.destroy();
    }
  },
  async adapter() {
    const adapter = await gpu().requestAdapter();
    if (!adapter) throw new Error('navigator.gpu.requestAdapter() returned null');
    const summary = summarizeAdapter(adapter.info);
    return { ...summary, line: formatAdapter(summary) };
  },
};
