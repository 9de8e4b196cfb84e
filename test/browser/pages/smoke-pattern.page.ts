// Runs the shared smoke pattern in the page and returns the words as a plain array.
import { runSmokePattern, type SmokePatternArgs } from '../../../src/gpu/smoke-pattern.js';

export default async function smokePatternPage(device: GPUDevice, args: SmokePatternArgs): Promise<number[]> {
  return Array.from(await runSmokePattern(device, args));
}
