/**
 * runDifferential at tiled-resources tiers 1, 2 and 3, three seeds each, a few hundred operations:
 * no mismatch, megabytes compared and every page-table entry checked after every operation, and,
 * over a tier's three seeds, every kind of operation the run claims to cover was made: resource
 * creation (buffers of every CPU access, 2D textures, 3D ones from tier 3) and release,
 * updateTileMappings (every range flag, D3D12's default counts), copyTileMappings, copyTiles both
 * ways, copies, CPU writes through map(), dispatches, evict and makeResident, texture regions
 * that are boxes, spill into a later mip and cover the packed tail, and checkpoints that read an
 * RGBA8 2D texture through a shader and the texture cache.
 */
import { describe, expect } from 'vitest';
import {
  describeValidationFailure,
  runDifferential,
  type ValidationProgress,
  type ValidationResult,
} from '../../../../src/validate/index.js';
import { gpuTest } from '../../../harness/gpu-test.js';

const OPERATIONS = 300;
const SEEDS = [0x7a11ed, 0xc0ffee, 20260401];

/** Operation kinds every tier's three seeds must have made (counts from the results). */
const KINDS = [
  'createHeap',
  'createPlaced',
  'createCommitted',
  'createReserved',
  'createTexture',
  'updateTileMappings',
  'copyTileMappings',
  'copyTiles',
  'uploadCopy',
  'copy',
  'dispatch',
  'cpuWrite',
  'evict',
  'makeResident',
  'executeCommandLists',
  'fenceWait',
  'checkpoint',
  'checkpoint: sampled reads (RGBA8 2D texture)',
  'updateTileMappings (texture)',
  'copyTiles (texture)',
  'copyTileMappings (texture)',
  'texture region: box',
  'texture region: covers the packed tail',
  'texture region: spills into a later mip',
  'range NONE',
  'range NULL',
  'range SKIP',
  'range REUSE_SINGLE_TILE',
  'range counts left to D3D12',
  'whole resource (no regions)',
  'mapping flag NO_HAZARD',
  'createCommitted (upload)',
  'createCommitted (readback)',
  'createCommitted (custom)',
  'cpuWrite (upload)',
  'cpuWrite (readback)',
  'cpuWrite (custom)',
  'copyTiles LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE',
  'copyTiles SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER',
  'evict (heap)',
  'evict (committed)',
  'makeResident (heap)',
  'makeResident (committed)',
  'release',
  'remapWhilePending',
];

function expectPass(result: ValidationResult): void {
  const failure = describeValidationFailure(result);
  if (failure) console.error(failure);
  expect(failure, failure).toBeUndefined();
  expect(result.ops).toBe(OPERATIONS);
  expect(result.bytesCompared).toBeGreaterThan(1 << 20);
  expect(result.pagesValidated).toBeGreaterThan(5 * OPERATIONS);
}

describe('differential at every tier (Node.js + Dawn)', () => {
  for (const tier of [1, 2, 3] as const) {
    gpuTest(`tier ${tier}: seeds ${SEEDS.join(', ')}, ${OPERATIONS} operations each`, async ({ device }) => {
      const counts: Record<string, number> = {};
      const progress: ValidationProgress[] = [];
      for (const seed of SEEDS) {
        const result = await runDifferential({
          gpuDevice: device,
          seed,
          ops: OPERATIONS,
          tier,
          onProgress: (p) => progress.push(p),
        });
        expectPass(result);
        expect(result.tier).toBe(tier);
        for (const [kind, n] of Object.entries(result.counts)) counts[kind] = (counts[kind] ?? 0) + n;
        console.log(
          `[differential] seed ${seed} tier ${tier}: ${result.bytesCompared} bytes, ${result.pagesValidated} pages, ${result.milliseconds} ms`,
        );
      }
      expect(KINDS.filter((kind) => !(counts[kind] ?? 0))).toEqual([]);
      expect(counts.createTexture).toBeGreaterThanOrEqual(3);
      // Progress: per operation, in order, ending at the total with nothing found.
      const last = progress[progress.length - 1];
      expect(last).toMatchObject({
        phase: 'differential',
        seed: SEEDS[SEEDS.length - 1],
        opsDone: OPERATIONS,
        opsTotal: OPERATIONS,
        mismatches: 0,
      });
      expect(progress.length).toBeGreaterThanOrEqual(SEEDS.length * OPERATIONS);
    });
  }

  gpuTest('the same seed replays the same run', async ({ device }) => {
    const a = await runDifferential({ gpuDevice: device, seed: SEEDS[0] as number, ops: 60, tier: 3 });
    const b = await runDifferential({ gpuDevice: device, seed: SEEDS[0] as number, ops: 60, tier: 3 });
    expect(a.mismatches).toEqual([]);
    expect({ ...b, milliseconds: 0 }).toEqual({ ...a, milliseconds: 0 });
  });
});
