// Runs the package's differential run (src/validate: runDifferential) in the page and returns its
// plain-data result: mismatches with seed and operation index, counters (not the memory).
import { runDifferential, type ValidationOptions, type ValidationResult } from '../../../src/validate/index.js';

export type DifferentialPageArgs = Pick<ValidationOptions, 'seed' | 'ops' | 'tier'>;

export default async function differentialPage(
  device: GPUDevice,
  args: DifferentialPageArgs,
): Promise<ValidationResult> {
  return runDifferential({ gpuDevice: device, ...args });
}
