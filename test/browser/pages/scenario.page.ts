// Runs a shared GPU scenario (test/shared/scenarios/) in the page; returns its checks.
import { SCENARIOS, type ScenarioName } from '../../shared/scenarios/index.js';
import type { Check } from '../../shared/page-table-model.js';

export default async function scenarioPage(device: GPUDevice, args: { scenario: ScenarioName; options?: unknown }): Promise<Check[]> {
  const scenario = SCENARIOS[args.scenario] as (device: GPUDevice, options?: unknown) => Promise<Check[]>;
  return scenario(device, args.options);
}
