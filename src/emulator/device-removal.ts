/**
 * DeviceRemoval: how a device stops working, and what it says about why. A device is removed once,
 * for the first of: a page fault with onPageFault 'remove-device' (DXGI_ERROR_DEVICE_HUNG, with the
 * faults as DRED reports them), a queue operation or readback that failed after its call returned,
 * a lost WebGPU device, or Device.destroy() (DXGI_ERROR_DEVICE_REMOVED). Faults are kept for
 * readFaults() whatever the policy.
 *
 * Invariants: the removal reason never changes once set; at most MAX_FAULT_REPORTS faults are kept,
 * and every fault not kept is counted; on removal every fence of the device completes with the
 * largest value (as in D3D12), so nothing waits forever.
 */
import { D3D12Error, type HResult } from '../api/errors.js';
import {
  describeFaults,
  MAX_FAULT_REPORTS,
  type FaultContext,
  type FaultRecord,
  type FaultReport,
  type SubmittedList,
} from './fault-report.js';
import type { Fence } from '../d3d12/fence.js';

export class DeviceRemoval {
  /** Faults reported by the GPU, not yet taken by takeFaults() (at most MAX_FAULT_REPORTS). */
  private readonly faultReports: FaultReport[] = [];
  /** Faults seen but not kept: past a submission's fault-log capacity, or past MAX_FAULT_REPORTS. */
  private faultsLost = 0;
  private removal: { reason: HResult; message: string; faults: FaultReport[] } | undefined;

  constructor(
    /** Whether a page fault removes the device ('remove-device') or is only reported. */
    private readonly onPageFault: 'remove-device' | 'report',
    /** Every fence of the device (completed on removal). */
    private readonly fences: Iterable<Fence>,
    /** What a fault report names: the device's resources and heaps, and the page-table encoding. */
    private readonly objects: Omit<FaultContext, 'list'>,
  ) {}

  get reason(): HResult | 'S_OK' {
    return this.removal?.reason ?? 'S_OK';
  }

  /** GetPageFaultReport's answer: a copy, or null while the device works. */
  report(): { message: string; faults: FaultReport[] } | null {
    return this.removal ? structuredClone({ message: this.removal.message, faults: this.removal.faults }) : null;
  }

  /** Throws DXGI_ERROR_DEVICE_REMOVED, naming `call`, once the device is removed. */
  check(call: string): void {
    if (this.removal)
      throw new D3D12Error(
        'DXGI_ERROR_DEVICE_REMOVED',
        call,
        'this',
        `the device was removed: ${this.removal.message}`,
      );
  }

  remove(reason: HResult, message: string, faults: FaultReport[]): void {
    if (this.removal) return;
    this.removal = { reason, message, faults };
    for (const fence of this.fences) fence.complete(Number.MAX_SAFE_INTEGER);
  }

  /** Faults of one submission arrived (`lost`: past its fault log's capacity); `lists` names its command lists and their commands. */
  recordFaults(records: FaultRecord[], lost: number, lists: ReadonlyMap<number, SubmittedList>): void {
    const reports = describeFaults(records, 0, { ...this.objects, list: (id) => lists.get(id) });
    const room = Math.max(0, MAX_FAULT_REPORTS - this.faultReports.length);
    this.faultReports.push(...reports.slice(0, room));
    this.faultsLost += lost + Math.max(0, reports.length - room);
    if (this.onPageFault === 'remove-device' && reports.length > 0) {
      if (lost > 0) (reports[reports.length - 1] as FaultReport).message += `; ${lost} more fault(s) were not recorded`;
      this.remove('DXGI_ERROR_DEVICE_HUNG', (reports[0] as FaultReport).message, reports);
    }
  }

  /** A queue operation or a readback failed after its call returned: the device is removed. */
  recordFailure(call: string, error: unknown): void {
    const message = `${call} failed after the call returned: ${error instanceof Error ? error.message : String(error)}`;
    this.remove('DXGI_ERROR_DEVICE_REMOVED', message, []);
  }

  /** The faults kept so far (then forgotten); the last names how many more were not kept. */
  takeFaults(): FaultReport[] {
    const reports = this.faultReports.splice(0);
    if (this.faultsLost > 0 && reports.length > 0)
      (reports[reports.length - 1] as FaultReport).message += `; ${this.faultsLost} more fault(s) were not kept`;
    this.faultsLost = 0;
    return reports;
  }
}
