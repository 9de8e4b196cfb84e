/**
 * The residency manager's options and the counters it reports (getStats, queryResidencyStats), for
 * charts, tests and tools; plain data, so a tool can draw them.
 */
import type { MemorySegment } from '../api/types.js';

export interface ResidencyManagerOptions {
  /** Milliseconds, monotonic; default performance.now(). */
  clock?: () => number;
}

export interface OverBudget {
  segment: MemorySegment;
  usage: number;
  budget: number;
}

export interface ResidencyStats {
  tracked: number;
  evictions: number;
  evictedBytes: number;
  /** Evictions by the grace period (part of `evictions`). */
  trimmed: number;
  madeResident: number;
  madeResidentBytes: number;
  /** Batches split in half because their sets did not fit the budgets together. */
  splits: number;
  /** Batches that ran over budget, the last one's numbers. */
  overBudgetBatches: number;
  lastOverBudget: OverBudget | null;
  executions: number;
}

/** A new manager's counters: all zero. */
export function emptyResidencyStats(): ResidencyStats {
  return {
    tracked: 0,
    evictions: 0,
    evictedBytes: 0,
    trimmed: 0,
    madeResident: 0,
    madeResidentBytes: 0,
    splits: 0,
    overBudgetBatches: 0,
    lastOverBudget: null,
    executions: 0,
  };
}

/** d3dx12residency's QueryResidencyStats, its two out-parameters as one object. */
export interface ResidencyMemoryStats {
  /** Bytes of the tracked objects the manager holds resident. */
  residentMemoryInBytes: number;
  /** Bytes of the tracked objects it does not (evicted, or never made resident). */
  evictedMemoryInBytes: number;
}
