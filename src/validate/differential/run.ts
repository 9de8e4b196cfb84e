/**
 * runDifferential: a seeded random sequence of D3D12 operations over buffers and 2D and 3D reserved
 * textures, run on the GPU through the public API and, in the same order, on the CPU reference.
 * After every operation, device.validateTileMappings compares the GPU page table with the CPU
 * authority; at random checkpoints and at the end, every live resource is read back and compared byte
 * for byte. The run stops at the first mismatch (later ones would follow from it) and returns plain
 * data naming the seed, the operation and what differed.
 *
 * Invariants: the operations depend on (seed, ops, tier) alone, so a mismatch replays exactly; the
 * run creates its own D3D12 device over options.gpuDevice and destroys it, whatever happens; it never
 * throws for a mismatch or for a failing call (both are findings).
 */
import { checkValidationOptions } from '../options.js';
import { createDevice } from '../../d3d12/create-device.js';
import type { Device } from '../../d3d12/device.js';
import readModifyWrite from '../../../shaders/validate_read_modify_write.wgsl?raw';
import { Findings, TileMappingChecks } from '../findings.js';
import { Random } from '../random.js';
import type { ValidationOptions, ValidationResult } from '../types.js';
import { checkpoint, mappingDifference } from './checkpoint.js';
import { DifferentialRunner } from './commands.js';
import { Generator, MAX_UPLOAD_TILES } from './generate.js';
import { describeOperation } from './operations.js';
import { isReserved, type Slots } from './world.js';
import { corruptPageTableEntryForTesting, dropNextPageTableWriteForTesting } from '../../testing/index.js';

const MIB = 2 ** 20;
const LOCAL_BYTES = 48 * MIB;
const NON_LOCAL_BYTES = 32 * MIB;
/**
 * The texture cache the checkpoints' sampled reads go through (sampled-reads.ts): 32 slots, fewer
 * than the run's texture tiles can be, so fills take slots from pages cached before them.
 */
const TEXTURE_CACHE_BYTES = 2 * MIB;
/**
 * Texture mirrors, given (a CPU adapter's default is none): the checkpoints' sampled reads open
 * their textures through root descriptors, so the most recently described ones read their mirrors.
 */
const TEXTURE_MIRROR_BYTES = 4 * MIB;
/** Probability of a checkpoint after each operation. */
const CHECKPOINT_CHANCE = 1 / 80;
/** validateTileMappings answers awaited together (they run in queue order meanwhile). */
const MAX_CHECKS_IN_FLIGHT = 16;

/** What the run's steps share: the operation a finding is charged to, and whether the plant is placed. */
interface RunMarks {
  at: { index: number; operation: string };
  planted: boolean;
}

/** Whether a mapping change moves a tile that was mapped (what drop-write must hit to be seen). */
const changesMappedTile = (before: Slots, after: Slots): boolean =>
  before.some((slot, tile) => slot !== null && (after[tile]?.heap !== slot.heap || after[tile]?.tile !== slot.tile));

/** The runner over a fresh device: its queue, fence and shader, and the hooks that plant drop-write and check each mapping change. */
async function openRunner(
  d3d: Device,
  options: ValidationOptions,
  random: Random,
  tier: number,
  findings: Findings,
  marks: RunMarks,
): Promise<DifferentialRunner> {
  const pipeline = await d3d.createComputePipelineState({
    code: readModifyWrite,
    entryPoint: 'main',
    label: 'differential read-modify-write',
  });
  return new DifferentialRunner(
    d3d,
    d3d.createCommandQueue({ type: 'DIRECT' }),
    d3d.createFence(0),
    pipeline,
    random,
    tier,
    options.cpuReferenceBugForTesting,
    {
      beforeUpdateTileMappings: (entry, slots) => {
        if (options.plant !== 'drop-write' || marks.planted || !changesMappedTile(entry.slots as Slots, slots)) return;
        dropNextPageTableWriteForTesting(d3d);
        marks.planted = true;
      },
      mappingChanged: (entry) => {
        const difference = mappingDifference(entry);
        if (difference)
          findings.add(marks.at.index, marks.at.operation, 'CPU page table (getTileMappingForTesting)', difference);
      },
    },
  );
}

/** corrupt-entry: the first mapped tile of the first reserved resource that has one. */
function plantCorruption(d3d: Device, state: DifferentialRunner): boolean {
  const entry = state.live(isReserved).find((e) => (e.slots as Slots).some((slot) => slot !== null));
  if (!entry) return false;
  corruptPageTableEntryForTesting(
    d3d,
    entry.resource,
    (entry.slots as Slots).findIndex((slot) => slot !== null),
  );
  return true;
}

/** After an operation: execute the batch when it is full, wait when asked or when UPLOAD pages pile up, and maybe checkpoint. */
async function housekeeping(
  state: DifferentialRunner,
  random: Random,
  findings: Findings,
  marks: RunMarks,
): Promise<void> {
  if (state.batch.pending.length >= state.batchTarget) {
    await state.apply({ kind: 'execute' });
    if (random.chance(0.25) || state.batch.uploadTiles() > MAX_UPLOAD_TILES) await state.apply({ kind: 'wait' });
  } else if (state.batch.uploadTiles() > MAX_UPLOAD_TILES) {
    await state.apply({ kind: 'wait' });
  }
  if (random.chance(CHECKPOINT_CHANCE)) await checkpoint(state, findings, marks.at.index, marks.at.operation);
}

/** The operation loop: generate, apply, check the page table, housekeep, until `target` operations or the first finding. */
async function runOperations(
  d3d: Device,
  options: ValidationOptions,
  state: DifferentialRunner,
  checks: TileMappingChecks,
  findings: Findings,
  marks: RunMarks,
  progress: () => void,
): Promise<void> {
  const generator = new Generator(state, state.random, options.tier ?? 3);
  for (let idle = 0; state.operations < options.ops && !findings.failed;) {
    const op = generator.generate();
    if (!op) {
      if (++idle > 10_000) throw new Error('the generator found no legal operation 10,000 times in a row');
      continue;
    }
    idle = 0;
    marks.at = { index: state.operations, operation: describeOperation(op) };
    await state.apply(op);
    if (op.kind !== 'newList') state.operations++;
    if (options.plant === 'corrupt-entry' && !marks.planted) marks.planted = plantCorruption(d3d, state);
    checks.after(marks.at.index, marks.at.operation);
    // Once planted, each check is awaited at once: the run stops at the operation that shows it.
    if (marks.planted || checks.pending >= MAX_CHECKS_IN_FLIGHT) await checks.drain();
    if (!findings.failed) await housekeeping(state, state.random, findings, marks);
    progress();
  }
}

/** The end of a run: the final checkpoint (unless it already failed), the last page-table answers, and a plant nothing placed or saw. */
async function finishRun(
  options: ValidationOptions,
  state: DifferentialRunner,
  checks: TileMappingChecks,
  findings: Findings,
  marks: RunMarks,
): Promise<void> {
  if (!findings.failed) {
    marks.at = { index: state.operations, operation: 'final checkpoint' };
    await checkpoint(state, findings, marks.at.index, marks.at.operation);
    checks.after(marks.at.index, marks.at.operation);
  }
  await checks.drain();
  const { index, operation } = marks.at;
  if (options.plant && !marks.planted)
    findings.add(
      index,
      operation,
      'plant',
      `the ${options.plant} plant found no place in ${state.operations} operations`,
    );
  // A plant nothing saw (a lost write of entries that did not change, say) is reported, never a clean pass.
  else if (options.plant && findings.mismatches.length === 0)
    findings.add(index, operation, 'plant', `the ${options.plant} plant was placed and no check saw it`);
}

/** The run's plain-data result. */
function resultOf(
  seed: number,
  tier: number,
  started: number,
  runner: DifferentialRunner | undefined,
  findings: Findings,
): ValidationResult {
  const counts = {
    ...(runner?.counts ?? {}),
    fenceWait: runner?.batch.waits ?? 0,
    commandLists: runner?.batch.commandLists ?? 0,
  };
  return {
    seed,
    tier,
    ops: runner?.operations ?? 0,
    bytesCompared: findings.bytesCompared,
    pagesValidated: findings.pagesValidated,
    scenarios: [],
    mismatches: findings.mismatches,
    counts,
    checkpoints: findings.checkpoints,
    milliseconds: Math.round(performance.now() - started),
    ...(findings.failed ? { trace: runner?.trace.slice(-40) ?? [] } : {}),
  };
}

export async function runDifferential(options: ValidationOptions): Promise<ValidationResult> {
  checkValidationOptions('runDifferential', options, { seed: true, ops: true });
  const started = performance.now();
  const seed = options.seed >>> 0;
  const tier = options.tier ?? 3;
  const findings = new Findings(seed, 'differential');
  const marks: RunMarks = { at: { index: -1, operation: 'createDevice' }, planted: false };
  let runner: DifferentialRunner | undefined;
  let device: Device | undefined;
  const progress = (): void =>
    options.onProgress?.({
      phase: 'differential',
      seed,
      opsDone: runner?.operations ?? 0,
      opsTotal: options.ops,
      bytesCompared: findings.bytesCompared,
      mismatches: findings.mismatches.length,
    });
  try {
    const d3d = await createDevice({
      gpuDevice: options.gpuDevice,
      localMemoryBytes: LOCAL_BYTES,
      nonLocalMemoryBytes: NON_LOCAL_BYTES,
      textureCacheBytes: TEXTURE_CACHE_BYTES,
      textureMirrorBytes: TEXTURE_MIRROR_BYTES,
      tiledResourcesTier: tier,
    });
    device = d3d;
    const checks = new TileMappingChecks(d3d, findings);
    runner = await openRunner(d3d, options, new Random(seed), tier, findings, marks);
    await runOperations(d3d, options, runner, checks, findings, marks, progress);
    await finishRun(options, runner, checks, findings, marks);
  } catch (caught) {
    const message = caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught);
    findings.add(marks.at.index, marks.at.operation, 'error', message);
  } finally {
    device?.destroy();
  }
  progress();
  return resultOf(seed, tier, started, runner, findings);
}
