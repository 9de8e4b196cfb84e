/**
 * runValidation: the differential run merged with the package's conformance scenarios (runScenarios,
 * which it runs with the same options): every scenario passes, megabytes compared, the GPU page table
 * checked after each mapping step, progress named per scenario (the texture cache's among them). One
 * run, where two (runScenarios alone, then runValidation) ran the scenarios twice.
 */
import { describe, expect } from 'vitest';
import { describeValidationFailure, runValidation, type ValidationProgress } from '../../../../src/validate/index.js';
import { gpuTest } from '../../../harness/gpu-test.js';

describe('runScenarios and runValidation (Node.js + Dawn)', () => {
  // One run serves both checks: runValidation is the differential run, then runScenarios with the
  // same options, merged; its scenario results and progress are runScenarios' own (run-validation.ts).
  gpuTest(
    'runValidation: the differential run and every conformance scenario, merged (buffers and textures at tiers 1-3, memory semantics, map coherence, residency, the texture cache and mirrors)',
    async ({ device }) => {
      const progress: ValidationProgress[] = [];
      const result = await runValidation({
        gpuDevice: device,
        seed: 0x51ed,
        ops: 40,
        tier: 2,
        onProgress: (p) => progress.push(p),
      });
      const failure = describeValidationFailure(result);
      expect(failure, failure).toBeUndefined();
      expect(result).toMatchObject({ seed: 0x51ed, tier: 2, ops: 40, mismatches: [] });
      expect(result.counts.updateTileMappings).toBeGreaterThan(0);
      expect(result.scenarios.map((s) => s.name)).toEqual([
        'reserved buffer data, every range flag, copyTiles: tier 1',
        'reserved buffer data, every range flag, copyTiles: tier 2',
        'reserved buffer data, every range flag, copyTiles: tier 3',
        'reserved texture data: 2D and 3D boxes, spills into later mips and the tail',
        'CheckAccessFullyMapped: tier 1',
        'CheckAccessFullyMapped: tier 2',
        'CheckAccessFullyMapped: tier 3',
        'memory semantics: queue order of remaps, no clearing, scattered pages',
        'CPU writes through map() across paging',
        'residency: evict/restore keeps bytes, a missing residency-set entry is reported',
        'texture cache: sampled reads after every write path (copies, stores, clears, CPU writes, remaps, paging)',
        'texture mirrors: sampled reads through resolved descriptors after every write path',
      ]);
      expect(result.scenarios.every((s) => s.passed)).toBe(true);
      expect(result.bytesCompared).toBeGreaterThan(10 << 20);
      expect(result.pagesValidated).toBeGreaterThan(100);
      expect(progress.filter((p) => p.scenario).map((p) => p.scenario)).toEqual(result.scenarios.map((s) => s.name));
      expect(progress.at(-1)).toMatchObject({ phase: 'scenarios', opsDone: 12, opsTotal: 12, mismatches: 0 });
    },
    // About 53 s alone on a 2-core machine since the mirrors scenario joined; beside the other gpu
    // files it ran past the project's 60 s.
    180_000,
  );
});
