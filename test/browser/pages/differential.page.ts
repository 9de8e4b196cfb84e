// Runs the differential test (test/shared/differential/) in the page and returns its small JSON
// summary: ok, the first difference or error, the seed and the operation counts (not the memory).
import { runDifferential, type DifferentialOptions, type DifferentialSummary } from '../../shared/differential/operations.js';

export default async function differentialPage(device: GPUDevice, args: DifferentialOptions): Promise<DifferentialSummary> {
  return runDifferential(device, args);
}
