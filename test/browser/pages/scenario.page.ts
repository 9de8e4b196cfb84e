// Runs one conformance scenario of the package (src/validate/scenarios/) in the page; returns its JSON result.
import { SCENARIOS, type ScenarioName } from '../../../src/validate/index.js';

export default async function scenarioPage(
  device: GPUDevice,
  args: { scenario: ScenarioName; options?: unknown },
): Promise<unknown> {
  const scenario = SCENARIOS[args.scenario] as (device: GPUDevice, options?: unknown) => Promise<unknown>;
  return scenario(device, args.options);
}
