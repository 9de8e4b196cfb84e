// Runs the paging soak (test/shared/soak/paging-soak.ts) in the page and returns its JSON summary:
// ok, the first difference or error, operations by kind, paging and bytes compared (not the memory).
import { runPagingSoak, type PagingSoakOptions, type PagingSoakSummary } from '../../shared/soak/paging-soak.js';

export default async function pagingSoakPage(device: GPUDevice, args: PagingSoakOptions): Promise<PagingSoakSummary> {
  return runPagingSoak(device, args);
}
