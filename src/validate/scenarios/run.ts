/**
 * runScenarios: the conformance scenarios the tests have, as one run: reserved buffer data with every
 * range flag and CheckAccessFullyMapped at tiers 1, 2 and 3 (and 4 when asked), reserved 2D and 3D
 * texture data (boxes, spills into later mips and the packed tail, copyTiles), memory semantics (queue
 * order of remaps, creation clears nothing, scattered pages), CPU writes through map() across paging,
 * residency (evict/restore keeps bytes; a missing residency-set entry is reported), and the texture
 * cache (sampled reads after every write path match the CPU model: no stale copy is ever read).
 *
 * Invariants: each scenario creates and destroys its own D3D12 devices over options.gpuDevice; a
 * scenario passes when every one of its checks found no difference, and each failed check is a
 * mismatch naming the scenario; a scenario that throws fails with the error as its detail. With a
 * plant, the run ends after the scenario that reported it.
 */
import { checkValidationOptions } from '../options.js';
import { checkThat, describeCheck, type Check } from '../bytes.js';
import { Findings } from '../findings.js';
import type { ValidationOptions, ValidationResult } from '../types.js';
import { computeTiers } from './compute-tiers.js';
import { ScenarioContext } from './context.js';
import { mapCoherence } from './map-coherence.js';
import { memorySemantics } from './memory-semantics.js';
import { reservedBufferData } from './reserved-buffer-data.js';
import { reservedTextureData } from './reserved-texture-data.js';
import { residencyBasics, type ResidencyBasics } from './residency-basics.js';
import { textureCache, textureMirrors } from './texture-cache.js';

export type ScenarioOptions = Omit<ValidationOptions, 'ops' | 'seed'> & { seed?: number };

/** What the residency scenario must report, as checks (the tests assert the same fields). */
export function residencyBasicsChecks(result: ResidencyBasics): Check[] {
  const fault = result.fault;
  const expect = checkThat;
  const message =
    /placed resource #\d+ 'vertex data' tile 0, heap #\d+ 'mesh heap'.*command 3 \(dispatch\) of DIRECT command list #\d+ 'draw meshes'/;
  return [
    ...result.checks,
    expect(
      'the missing residency-set entry removes the device',
      result.removedReason === 'DXGI_ERROR_DEVICE_HUNG',
      `removed reason ${result.removedReason}, expected DXGI_ERROR_DEVICE_HUNG`,
    ),
    expect(
      'the fault names the resource, tile, heap and command',
      fault?.kind === 'read-absent' &&
        fault.tile === 0 &&
        fault.resource === 'vertex data' &&
        fault.heap === 'mesh heap' &&
        fault.commandIndex === 3 &&
        fault.commandName === 'dispatch' &&
        message.test(fault.message),
      `fault ${JSON.stringify(fault ?? null)}`,
    ),
  ];
}

export async function runScenarios(options: ScenarioOptions): Promise<ValidationResult> {
  checkValidationOptions('runScenarios', options, { seed: false, ops: false });
  const started = performance.now();
  const seed = (options.seed ?? 0) >>> 0;
  const tier = options.tier ?? 3;
  const gpu = options.gpuDevice;
  const findings = new Findings(seed, 'scenarios');
  const context = new ScenarioContext(options.plant);
  const tiers = [...new Set<1 | 2 | 3 | 4>([1, 2, 3, tier])];
  const scenarios: [string, () => Promise<Check[]>][] = [
    ...tiers.map((t): [string, () => Promise<Check[]>] => [
      `reserved buffer data, every range flag, copyTiles: tier ${t}`,
      () => reservedBufferData(gpu, { tiledResourcesTier: t }, context),
    ]),
    [
      'reserved texture data: 2D and 3D boxes, spills into later mips and the tail',
      () => reservedTextureData(gpu, context),
    ],
    ...tiers.map((t): [string, () => Promise<Check[]>] => [
      `CheckAccessFullyMapped: tier ${t}`,
      () => computeTiers(gpu, { tiledResourcesTier: t }, context),
    ]),
    ['memory semantics: queue order of remaps, no clearing, scattered pages', () => memorySemantics(gpu, context)],
    ['CPU writes through map() across paging', () => mapCoherence(gpu, context)],
    [
      'residency: evict/restore keeps bytes, a missing residency-set entry is reported',
      async () => residencyBasicsChecks(await residencyBasics(gpu, context)),
    ],
    [
      'texture cache: sampled reads after every write path (copies, stores, clears, CPU writes, remaps, paging)',
      () => textureCache(gpu, { viewsAndCacheSizes: false }, context),
    ],
    [
      'texture mirrors: sampled reads through resolved descriptors after every write path',
      () => textureMirrors(gpu, { viewsAndCacheSizes: false }, context),
    ],
  ];
  const results: ValidationResult['scenarios'] = [];
  for (const [name, run] of scenarios) {
    options.onProgress?.({
      phase: 'scenarios',
      seed,
      opsDone: results.length,
      opsTotal: scenarios.length,
      bytesCompared: findings.bytesCompared,
      mismatches: findings.mismatches.length,
      scenario: name,
    });
    try {
      const checks = await run();
      const failed = checks.filter((c) => c.firstDifference >= 0);
      for (const c of checks) findings.bytesCompared += c.length;
      for (const c of failed) findings.add(-1, name, c.name, describeCheck(c) ?? '');
      const passed = checks.length > 0 && failed.length === 0;
      results.push(
        passed
          ? { name, passed }
          : { name, passed, detail: failed[0] ? `${failed[0].name}: ${describeCheck(failed[0])}` : 'no checks ran' },
      );
      if (checks.length === 0) findings.add(-1, name, 'checks', 'the scenario compared nothing');
    } catch (caught) {
      const detail = caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught);
      findings.add(-1, name, 'error', detail);
      results.push({ name, passed: false, detail });
    }
    // A self-check run ends with the scenario that caught its plant: the rest would only repeat it.
    if (context.plantPlaced && findings.failed) break;
  }
  options.onProgress?.({
    phase: 'scenarios',
    seed,
    opsDone: results.length,
    opsTotal: scenarios.length,
    bytesCompared: findings.bytesCompared,
    mismatches: findings.mismatches.length,
  });
  findings.pagesValidated = context.pagesValidated;
  if (options.plant && !context.plantPlaced)
    findings.add(-1, 'runScenarios', 'plant', `the ${options.plant} plant found no place to go`);
  return {
    seed,
    tier,
    ops: 0,
    bytesCompared: findings.bytesCompared,
    pagesValidated: findings.pagesValidated,
    scenarios: results,
    mismatches: findings.mismatches,
    counts: {},
    checkpoints: 0,
    milliseconds: Math.round(performance.now() - started),
  };
}
