/**
 * Options, summary and messages of the paging soak (test/shared/soak/paging-soak.ts): plain data,
 * so the browser page can return the summary as JSON.
 */
import type { ResidencyStats } from '../../../src/index.js';

const MIB = 2 ** 20;

export interface PagingSoakOptions {
  seed: number;
  /** Operations to run (default 2,000); checkpoints and setup come on top. */
  operations?: number;
  /** Random checkpoints during the run (default 2); one more always comes at the end. */
  checkpoints?: number;
  /**
   * Flips one byte of the CPU model just before the first checkpoint, to show that the comparison
   * finds it: 'DEFAULT' in GPU memory, 'CPU' in CPU-visible memory.
   */
  corrupt?: 'DEFAULT' | 'CPU';
  /**
   * Waits for the GPU after every operation, so no readback is ever in flight while the CPU works:
   * a difference that goes away with it comes from the emulator's asynchronous coherence.
   */
  serialize?: boolean;
  /** Operations a failure's trace lists (default 40, at most 2,000). */
  traceLines?: number;
}

export interface PagingSoakDifference {
  /** 'gpu': read back through a READBACK buffer; 'cpu': read through map(); 'mapping': the CPU page table. */
  kind: 'gpu' | 'cpu' | 'mapping';
  /** Checkpoint number, or 0 for a cpuRead operation. */
  checkpoint: number;
  afterOperations: number;
  object: string;
  resource: string;
  /** Byte offset in the object (gpu, cpu) or tile (mapping). */
  offset: number;
  /** The store byte behind it. */
  location: string;
  actual: string;
  expected: string;
}

export interface PagingSoakSummary {
  seed: number;
  ok: boolean;
  requestedOperations: number;
  operations: number;
  /** Operations by kind (each an API-level action). */
  counts: Record<string, number>;
  /**
   * Orders seen happening: a CPU write paged out before any GPU work read it, by the application's
   * evict or by the manager; such a write then read by a soak list; an unpin (the application's evict
   * of its own reference on a tracked object) that paged the object out, the manager having let go.
   */
  orders: {
    writeThenEvict: number;
    managerEvictedAfterWrite: number;
    writeEvictRestoreRead: number;
    unpinPagedOut: number;
  };
  setupLists: number;
  checkpointLists: number;
  checkpoints: number;
  /** Bytes compared through READBACK buffers, through map(), and in cpuRead operations. */
  bytesCompared: { gpu: number; cpu: number; cpuRead: number };
  bytesDiffering: number;
  /** Of those, found through READBACK buffers and through map() at checkpoints. */
  differingByPath: { gpu: number; cpu: number };
  objects: {
    stores: number;
    tracked: number;
    untracked: number;
    cpuVisible: number;
    buffers: number;
    reserved: number;
    probes: number;
  };
  /** Bytes of the manager's tracked LOCAL objects, the LOCAL budget, and their ratio. */
  trackedLocalBytes: number;
  localBudget: number;
  budgetMultiple: number;
  /** All pageable bytes, both segments. */
  pageableBytes: number;
  maxLocalUsage: number;
  localPool: number;
  residency: ResidencyStats;
  paging: { evictions: number; evictedBytes: number; restores: number; restoredBytes: number };
  removedReason: string;
  milliseconds: number;
  /** What `corrupt` flipped. */
  corrupted?: { location: string; from: string; to: string };
  difference?: PagingSoakDifference;
  error?: string;
  trace?: string[];
}

/** A failure message naming the seed and the first difference; undefined when the soak passed. */
export function describePagingSoakFailure(summary: PagingSoakSummary): string | undefined {
  if (summary.ok) return undefined;
  const lines = [
    `paging soak failed: seed ${summary.seed} (0x${summary.seed.toString(16)}) after ${summary.operations} operations ` +
      `(${summary.checkpoints} checkpoints, ${summary.bytesCompared.gpu + summary.bytesCompared.cpu + summary.bytesCompared.cpuRead} bytes compared), device ${summary.removedReason}`,
  ];
  const d = summary.difference;
  if (d) {
    const where = d.checkpoint > 0 ? `checkpoint ${d.checkpoint}` : 'cpuRead';
    lines.push(
      d.kind === 'mapping'
        ? `${where} (after ${d.afterOperations} operations): ${d.object} (${d.resource}) tile ${d.offset} maps to ${d.actual} in the CPU page table, the model says ${d.expected}`
        : `${where} (after ${d.afterOperations} operations): ${d.object} (${d.resource}) byte ${d.offset} (${d.location}) is ${d.actual} ${d.kind === 'gpu' ? 'on the GPU' : 'through map()'}, the CPU model says ${d.expected}`,
    );
  }
  if (summary.error) lines.push(summary.error);
  if (summary.trace) lines.push('last operations:', ...summary.trace.map((line) => `  ${line}`));
  lines.push(
    `reproduce: D3D12_PAGING_SOAK_SEED=${summary.seed} D3D12_PAGING_SOAK_OPS=${summary.requestedOperations} npx vitest run --project gpu test/gpu/stress/d3d12/paging-soak.test.ts ` +
      `(or --project browser test/browser/stress/d3d12/paging-soak.test.ts) -t D3D12_PAGING_SOAK_SEED; D3D12_PAGING_SOAK_SERIALIZE=1 waits for the GPU after every operation`,
  );
  return lines.join('\n');
}

/** The summary line: operations by kind, paging, checkpoints, bytes compared and differing. */
export function describePagingSoakRun(summary: PagingSoakSummary): string {
  const kinds = Object.entries(summary.counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  const o = summary.orders;
  const b = summary.bytesCompared;
  return (
    `paging soak seed ${summary.seed}: ${summary.operations} operations (${kinds}); ` +
    `orders: write->evict ${o.writeThenEvict}, manager evicted after write ${o.managerEvictedAfterWrite}, write->evict->restore->GPU read ${o.writeEvictRestoreRead}, unpin paged out ${o.unpinPagedOut}; ` +
    `${(summary.trackedLocalBytes / MIB).toFixed(2)} MiB tracked LOCAL (${summary.budgetMultiple.toFixed(2)}x the ${(summary.localBudget / MIB).toFixed(2)} MiB budget), ${(summary.pageableBytes / MIB).toFixed(2)} MiB pageable, max LOCAL usage ${(summary.maxLocalUsage / MIB).toFixed(2)} MiB; ` +
    `evictions ${summary.paging.evictions}, restores ${summary.paging.restores} (manager: ${summary.residency.evictions} evictions, ${summary.residency.madeResident} made resident, ${summary.residency.splits} splits); ` +
    `${summary.checkpoints} checkpoints, bytes compared ${b.gpu + b.cpu + b.cpuRead} (${b.gpu} read back, ${b.cpu} mapped, ${b.cpuRead} in cpuRead), bytes differing ${summary.bytesDiffering}; ${summary.milliseconds} ms`
  );
}
