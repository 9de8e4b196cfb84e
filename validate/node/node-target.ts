/**
 * The Node.js target: the suite (src/validate/) on a Dawn device from createNodeDevice (the GPU's
 * Vulkan driver, else SwiftShader): the differential run seed by seed, then the scenarios.
 */
import { createNodeDevice, formatAdapter, nodeDeviceDriver, summarizeAdapter } from '../../src/node/index.js';
import { runDifferential, runScenarios } from '../../src/validate/index.js';
import { runsOnCpu } from '../../src/gpu/request-device.js';
import { yieldWhileDawnPolls } from '../../tools/node/dawn-polling.js';
import type { RunParameters } from '../validation-logic.js';
import type { TargetReport } from './report.js';

/** `gpuDevice`: run on this device (left open) instead of opening one (destroyed at the end). */
export async function runNodeTarget(run: RunParameters, report: TargetReport, gpuDevice?: GPUDevice): Promise<void> {
  const device = gpuDevice ?? (await createNodeDevice());
  const driver = gpuDevice ? undefined : nodeDeviceDriver();
  report.line(
    `node ${process.version}, adapter ${formatAdapter(summarizeAdapter(device.adapterInfo))}${driver ? `, Vulkan driver from ${driver.source}` : ''}`,
  );
  let failure: Error | undefined;
  const onError = (event: GPUUncapturedErrorEvent): void => {
    failure ??= new Error(`WebGPU error: ${event.error.message}`);
  };
  device.addEventListener('uncapturederror', onError);
  // On a CPU adapter Dawn's polling would spin a core its workers need (tools/node/dawn-polling.ts).
  const restorePolling = runsOnCpu(device) ? yieldWhileDawnPolls() : undefined;
  const plant = run.plant ? { plant: run.plant } : {};
  report.startClock();
  try {
    for (let i = 0; i < run.seeds; i++) {
      report.add(
        await runDifferential({ gpuDevice: device, seed: run.seed + i, ops: run.ops, tier: run.tier, ...plant }),
      );
      if (failure) throw failure;
    }
    report.add(await runScenarios({ gpuDevice: device, seed: run.seed, tier: run.tier, ...plant }));
    if (failure) throw failure;
  } finally {
    restorePolling?.();
    device.removeEventListener('uncapturederror', onError);
    if (!gpuDevice) device.destroy();
  }
}
