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
/** Probability of a checkpoint after each operation. */
const CHECKPOINT_CHANCE = 1 / 80;
/** validateTileMappings answers awaited together (they run in queue order meanwhile). */
const MAX_CHECKS_IN_FLIGHT = 16;

/** Whether a mapping change moves a tile that was mapped (what drop-write must hit to be seen). */
const changesMappedTile = (before: Slots, after: Slots): boolean =>
  before.some((slot, tile) => slot !== null && (after[tile]?.heap !== slot.heap || after[tile]?.tile !== slot.tile));

export async function runDifferential(options: ValidationOptions): Promise<ValidationResult> {
  checkValidationOptions('runDifferential', options, { seed: true, ops: true });
  const started = performance.now();
  const seed = options.seed >>> 0;
  const tier = options.tier ?? 3;
  const target = options.ops;
  const findings = new Findings(seed, 'differential');
  let runner: DifferentialRunner | undefined;
  let at = { index: -1, operation: 'createDevice' };
  let device: Device | undefined;
  const progress = (): void =>
    options.onProgress?.({
      phase: 'differential',
      seed,
      opsDone: runner?.operations ?? 0,
      opsTotal: target,
      bytesCompared: findings.bytesCompared,
      mismatches: findings.mismatches.length,
    });
  try {
    const d3d = await createDevice({
      gpuDevice: options.gpuDevice,
      localMemoryBytes: LOCAL_BYTES,
      nonLocalMemoryBytes: NON_LOCAL_BYTES,
      tiledResourcesTier: tier,
    });
    device = d3d;
    const checks = new TileMappingChecks(d3d, findings);
    let planted = false;
    const pipeline = await d3d.createComputePipelineState({
      code: readModifyWrite,
      entryPoint: 'main',
      label: 'differential read-modify-write',
    });
    const random = new Random(seed);
    runner = new DifferentialRunner(
      d3d,
      d3d.createCommandQueue({ type: 'DIRECT' }),
      d3d.createFence(0),
      pipeline,
      random,
      tier,
      options.cpuReferenceBugForTesting,
      {
        beforeUpdateTileMappings: (entry, slots) => {
          if (options.plant !== 'drop-write' || planted || !changesMappedTile(entry.slots as Slots, slots)) return;
          dropNextPageTableWriteForTesting(d3d);
          planted = true;
        },
        mappingChanged: (entry) => {
          const difference = mappingDifference(entry);
          if (difference) findings.add(at.index, at.operation, 'CPU page table (getTileMappingForTesting)', difference);
        },
      },
    );
    const state = runner;
    const generator = new Generator(state, random, tier);
    /** corrupt-entry: the first mapped tile of the first reserved resource that has one. */
    const plantCorruption = (): boolean => {
      const entry = state.live(isReserved).find((e) => (e.slots as Slots).some((slot) => slot !== null));
      if (!entry) return false;
      corruptPageTableEntryForTesting(
        d3d,
        entry.resource,
        (entry.slots as Slots).findIndex((slot) => slot !== null),
      );
      return true;
    };
    const housekeeping = async (): Promise<void> => {
      if (state.batch.pending.length >= state.batchTarget) {
        await state.apply({ kind: 'execute' });
        if (random.chance(0.25) || state.batch.uploadTiles() > MAX_UPLOAD_TILES) await state.apply({ kind: 'wait' });
      } else if (state.batch.uploadTiles() > MAX_UPLOAD_TILES) {
        await state.apply({ kind: 'wait' });
      }
      if (random.chance(CHECKPOINT_CHANCE)) await checkpoint(state, findings, at.index, at.operation);
    };
    for (let idle = 0; state.operations < target && !findings.failed;) {
      const op = generator.generate();
      if (!op) {
        if (++idle > 10_000) throw new Error('the generator found no legal operation 10,000 times in a row');
        continue;
      }
      idle = 0;
      at = { index: state.operations, operation: describeOperation(op) };
      await state.apply(op);
      if (op.kind !== 'newList') state.operations++;
      if (options.plant === 'corrupt-entry' && !planted) planted = plantCorruption();
      checks.after(at.index, at.operation);
      // Once planted, each check is awaited at once: the run stops at the operation that shows it.
      if (planted || checks.pending >= MAX_CHECKS_IN_FLIGHT) await checks.drain();
      if (!findings.failed) await housekeeping();
      progress();
    }
    if (!findings.failed) {
      at = { index: state.operations, operation: 'final checkpoint' };
      await checkpoint(state, findings, at.index, at.operation);
      checks.after(at.index, at.operation);
    }
    await checks.drain();
    if (options.plant && !planted)
      findings.add(
        at.index,
        at.operation,
        'plant',
        `the ${options.plant} plant found no place in ${state.operations} operations`,
      );
    // A plant nothing saw (a lost write of entries that did not change, say) is reported, never a clean pass.
    else if (options.plant && findings.mismatches.length === 0)
      findings.add(at.index, at.operation, 'plant', `the ${options.plant} plant was placed and no check saw it`);
  } catch (caught) {
    findings.add(
      at.index,
      at.operation,
      'error',
      caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught),
    );
  } finally {
    device?.destroy();
  }
  progress();
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
