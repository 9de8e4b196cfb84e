/**
 * The soak driver both soaks run on (residency-soak.ts: command lists through the residency manager;
 * paging-soak.ts: CPU writes, copies and the application's own paging). It owns what they share: a
 * device with a small LOCAL budget and a residency manager on the soak's seeded clock, the seeded
 * generator the soak draws its steps from, the step loop with CPU-model comparisons (checkpoints) at
 * seeded points between 10 % and 90 % of the run and one at the end, and the outcome a failure report
 * names: the seed, the step the run stopped after, the error or device removal, and the paging stats.
 *
 * Invariants: the steps come from Random(seed) alone and the checkpoint points from their own
 * generator (Random(seed ^ 0x5a5a5a5a)), so how many checkpoints a run has does not change its
 * steps; the driver never throws for a failing step (the outcome carries it) and always destroys the
 * device.
 */
import {
  createDevice,
  createResidencyManager,
  type Device,
  type PagingStats,
  type PipelineState,
  type ResidencyManager,
  type ResidencyStats,
} from '../../../src/index.js';
import { Random } from '../../../src/validate/random.js';
import { emptyResidencyStats } from '../../../src/residency/residency-stats.js';

/**
 * The read-modify-write shader both soaks dispatch: word i of `words` (root constant 2) from the
 * address in root descriptor 1 (a root UAV) becomes
 * (v ^ c) * 0x9e3779b1 + i (mod 2^32), c being root constant 3.
 */
export const SOAK_RMW_SHADER = /* wgsl */ `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x >= d3d12_root_constant(2u)) {
    return;
  }
  let va = d3d12_address_add(d3d12_root_descriptor(1u), id.x * 4u);
  d3d12_store(va, (d3d12_load(va) ^ d3d12_root_constant(3u)) * 0x9e3779b1u + id.x);
}
`;

/** What a soak's runner gives the driver. */
export interface DrivenSoak {
  /** The manager's clock (ms), advanced by the runner as it executes. */
  readonly now: number;
  /** The first difference from the CPU model; the run stops once there is one. */
  readonly difference: unknown;
  setup(): Promise<void>;
}

/** What the driver hands a soak to build its runner from. */
export interface SoakParts {
  device: Device;
  manager: ResidencyManager;
  pipeline: PipelineState;
  /** The seeded generator every step draws from. */
  random: Random;
}

export interface SoakPlan<R extends DrivenSoak> {
  seed: number;
  /** Steps to run, in the soak's unit. */
  target: number;
  /** The unit, as a failure names where the run stopped: 'operations', 'soak lists'. */
  unit: string;
  /** Checkpoints during the run (one more always comes at the end). */
  checkpoints: number;
  localPool: number;
  localBudget: number;
  nonLocalPool: number;
  nonLocalBudget: number;
  /** setResidencyDebugBudget before anything is created; null leaves it unset. */
  debugBudget?: number | null;
  pipelineLabel: string;
  create(parts: SoakParts): R;
  /** Steps done so far, in the soak's unit. */
  done(runner: R): number;
  /** One step; `remaining` is target − done. */
  step(runner: R, remaining: number): Promise<void>;
  /** Every byte read back and compared with the CPU model. */
  checkpoint(runner: R): Promise<void>;
  /** After the final checkpoint found nothing. */
  finish?(runner: R): Promise<void>;
}

export interface SoakOutcome<R> {
  seed: number;
  runner: R | undefined;
  /** What stopped the run other than a difference: a thrown error (after how many steps) or device removal. */
  error: string | undefined;
  removedReason: string;
  residency: ResidencyStats;
  paging: PagingStats;
  /** No error, no difference, the device not removed. */
  ok: boolean;
  milliseconds: number;
}

/** Where the checkpoints fall: `count` seeded step counts between 10 % and 90 % of `target`, in order. */
function checkpointMarks(seed: number, target: number, count: number): number[] {
  const placement = new Random(seed ^ 0x5a5a5a5a);
  return Array.from({ length: count }, () => placement.int(Math.floor(target * 0.1), Math.floor(target * 0.9))).sort(
    (a, b) => a - b,
  );
}

/** The step loop: steps until the target or the first difference, a checkpoint at each mark passed, one at the end. */
async function runSteps<R extends DrivenSoak>(plan: SoakPlan<R>, runner: R): Promise<void> {
  const marks = checkpointMarks(plan.seed, plan.target, plan.checkpoints);
  while (plan.done(runner) < plan.target && !runner.difference) {
    await plan.step(runner, plan.target - plan.done(runner));
    while (marks.length > 0 && plan.done(runner) >= (marks[0] as number) && !runner.difference) {
      marks.shift();
      await plan.checkpoint(runner);
    }
  }
  if (!runner.difference) await plan.checkpoint(runner);
  if (!runner.difference) await plan.finish?.(runner);
}

/** Runs a soak on a device over `gpuDevice`. Never throws for a difference or a failing step: the outcome says what happened. */
export async function driveSoak<R extends DrivenSoak>(
  gpuDevice: GPUDevice,
  plan: SoakPlan<R>,
): Promise<SoakOutcome<R>> {
  const started = performance.now();
  const device = await createDevice({
    gpuDevice,
    localMemoryBytes: plan.localPool,
    localMemoryBudget: plan.localBudget,
    nonLocalMemoryBytes: plan.nonLocalPool,
    nonLocalMemoryBudget: plan.nonLocalBudget,
  });
  if (plan.debugBudget !== undefined && plan.debugBudget !== null) device.setResidencyDebugBudget(plan.debugBudget);
  let runner: R | undefined;
  let manager: ResidencyManager | undefined;
  let error: string | undefined;
  try {
    const random = new Random(plan.seed);
    const pipeline = await device.createComputePipelineState({
      code: SOAK_RMW_SHADER,
      entryPoint: 'main',
      label: plan.pipelineLabel,
    });
    manager = createResidencyManager(device, { clock: () => runner?.now ?? 0 });
    runner = plan.create({ device, manager, pipeline, random });
    await runner.setup();
    await runSteps(plan, runner);
  } catch (caught) {
    const at = runner ? `after ${plan.done(runner)} ${plan.unit}: ` : '';
    error = `${at}${caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught)}`;
  }
  // A manager that never ran (the run failed before creating one) reports zeros.
  const residency = manager?.getStats() ?? emptyResidencyStats();
  const paging = { ...device.getPagingStats() };
  const removedReason = device.getDeviceRemovedReason();
  if (removedReason !== 'S_OK' && !error)
    error = `the device was removed (${removedReason}): ${device.getPageFaultReport()?.message ?? 'no report'}`;
  device.destroy();
  const ok = !error && !runner?.difference && removedReason === 'S_OK';
  return {
    seed: plan.seed,
    runner,
    error,
    removedReason,
    residency,
    paging,
    ok,
    milliseconds: Math.round(performance.now() - started),
  };
}
