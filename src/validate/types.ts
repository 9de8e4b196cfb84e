/**
 * The public shapes of `d3d12-webgpu/validate`: what a run takes, reports while it goes, and
 * returns. Everything a run returns is plain data (JSON.stringify keeps all of it), so a browser
 * page, a CLI and a test read the same result.
 *
 * Invariant: a run is a function of (seed, ops, tier, plant): the same options replay the same
 * operations, byte for byte, on any GPU; `mismatches` is empty exactly when every comparison held.
 */

/**
 * Self-checks of the validator (issue 13, point 6): a fault planted behind the API's back that a run
 * must report. 'corrupt-entry' rewrites one GPU page-table entry of a mapped tile
 * (device.corruptPageTableEntryForTesting); 'drop-write' skips the next queued page-table write
 * (device.dropNextPageTableWriteForTesting), just before a mapping change of mapped tiles.
 */
export type PlantMode = 'corrupt-entry' | 'drop-write';

/**
 * A deliberately wrong CPU reference, to show that the byte comparison catches a reference that
 * disagrees with the GPU: 'copy-drops-last-byte' leaves the last byte of every copyBufferRegion out
 * of the prediction.
 */
export type CpuReferenceBugForTesting = 'copy-drops-last-byte';

export type ValidationPhase = 'differential' | 'scenarios';

export interface ValidationOptions {
  /** The WebGPU device the run's own D3D12 device is created over; it stays the caller's. */
  gpuDevice: GPUDevice;
  /** Names the run: the same seed replays the same operations. */
  seed: number;
  /** Operations of the differential run (executes, waits and checkpoints not counted). */
  ops: number;
  /** Tiled resources tier of the run's device (default 3). */
  tier?: 1 | 2 | 3 | 4;
  onProgress?: (p: ValidationProgress) => void;
  plant?: PlantMode;
  /** Test only: run against a wrong CPU reference (the run must then report mismatches). */
  cpuReferenceBugForTesting?: CpuReferenceBugForTesting;
}

export interface ValidationProgress {
  phase: ValidationPhase;
  seed: number;
  opsDone: number;
  opsTotal: number;
  bytesCompared: number;
  mismatches: number;
  /** The scenario running (scenarios phase). */
  scenario?: string;
}

export interface ValidationMismatch {
  seed: number;
  phase: ValidationPhase;
  /** The differential operation after which the comparison failed; -1 for scenarios. */
  operationIndex: number;
  /** The operation (e.g. 'updateTileMappings(reserved texture T3, ...)') or the scenario's name. */
  operation: string;
  /** What was compared: 'bytes of B4 (READBACK copy)', 'validateTileMappings', 'CPU page table', ... */
  check: string;
  /** The first differing byte (expected vs found), or the tile mismatch. */
  detail: string;
}

export interface ValidationResult {
  seed: number;
  tier: number;
  /** Differential operations run (0 for scenarios alone). */
  ops: number;
  /** Bytes of GPU memory compared with the CPU reference. */
  bytesCompared: number;
  /** Page-table entries device.validateTileMappings compared with the CPU authority. */
  pagesValidated: number;
  scenarios: { name: string; passed: boolean; detail?: string }[];
  mismatches: ValidationMismatch[];
  /** Differential operations by kind, plus executeCommandLists, fenceWait, regenerated and the like. */
  counts: Record<string, number>;
  /** Differential checkpoints: every live resource read back and compared. */
  checkpoints: number;
  milliseconds: number;
  /** The last operations before the first mismatch (differential runs that failed). */
  trace?: string[];
}
