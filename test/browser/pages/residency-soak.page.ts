// Runs the residency soak (test/shared/soak/) in the page and returns its small JSON summary: ok, the
// first difference or error, the seed, the list and byte counts and the paging stats (not the memory).
import { runResidencySoak, type SoakOptions, type SoakSummary } from '../../shared/soak/residency-soak.js';

export default async function residencySoakPage(device: GPUDevice, args: SoakOptions): Promise<SoakSummary> {
  return runResidencySoak(device, args);
}
