/**
 * The validator's self-checks: faults planted behind the API's back must be reported, every time.
 *   - corrupt-entry (device.corruptPageTableEntryForTesting on the first mapped tile) and drop-write
 *     (device.dropNextPageTableWriteForTesting before a remap of mapped tiles), on two seeds each, in
 *     the differential run and in the scenarios: validateTileMappings reports the page; a control run
 *     of the same seed and length without the plant reports nothing;
 *   - a deliberately wrong CPU reference (cpuReferenceBugForTesting: every copy's last byte left out of
 *     the prediction) is caught by the byte comparison; the same run with the right reference passes.
 */
import { describe, expect } from 'vitest';
import { runDifferential, runScenarios, type PlantMode } from '../../../../src/validate/index.js';
import { gpuTest } from '../../../harness/gpu-test.js';

const OPERATIONS = 200;

describe('planted faults are found (Node.js + Dawn)', () => {
  for (const plant of ['corrupt-entry', 'drop-write'] as PlantMode[]) {
    for (const seed of [1, 2]) {
      gpuTest(
        `differential, ${plant}, seed ${seed}: reported by validateTileMappings; the control run is clean`,
        async ({ device }) => {
          const planted = await runDifferential({ gpuDevice: device, seed, ops: OPERATIONS, plant });
          const found = planted.mismatches.find((m) => m.check === 'validateTileMappings');
          expect(found, JSON.stringify(planted.mismatches.slice(0, 2))).toBeDefined();
          expect(found?.detail).toMatch(
            /^[1-9]\d* of \d+ page-table entries differ from the CPU authority; first: .* page \d+ .*: expected .*, found /,
          );
          expect(found).toMatchObject({ seed, phase: 'differential' });
          // The run stops at the plant: early, and the trace replays it.
          expect(found?.operationIndex).toBeLessThan(OPERATIONS);
          expect(planted.trace?.length).toBeGreaterThan(0);
          const control = await runDifferential({ gpuDevice: device, seed, ops: planted.ops, tier: planted.tier as 3 });
          expect(control.mismatches).toEqual([]);
          expect(control.pagesValidated).toBeGreaterThan(0);
        },
      );
    }
    gpuTest(`scenarios, ${plant}: reported by the scenario where it was planted`, async ({ device }) => {
      const planted = await runScenarios({ gpuDevice: device, plant });
      // runScenarios' own result: no differential operations, the default tier.
      expect(planted).toMatchObject({ ops: 0, tier: 3 });
      expect(planted.mismatches.length).toBeGreaterThanOrEqual(1);
      expect(
        planted.mismatches.some(
          (m) =>
            m.phase === 'scenarios' &&
            /validateTileMappings/.test(m.check) &&
            /differ from the CPU authority/.test(m.detail),
        ),
      ).toBe(true);
      expect(planted.scenarios.at(-1)?.passed).toBe(false);
    });
  }

  gpuTest(
    'a wrong CPU reference is caught by the byte comparison; the right one passes the same run',
    async ({ device }) => {
      const wrong = await runDifferential({
        gpuDevice: device,
        seed: 3,
        ops: OPERATIONS,
        cpuReferenceBugForTesting: 'copy-drops-last-byte',
      });
      expect(wrong.mismatches.length).toBeGreaterThanOrEqual(1);
      expect(wrong.mismatches.every((m) => /^bytes of /.test(m.check))).toBe(true);
      expect(wrong.mismatches[0]?.detail).toMatch(/^byte \d+ of \d+.*: expected 0x[0-9a-f]{2}, found 0x[0-9a-f]{2}$/);
      const right = await runDifferential({ gpuDevice: device, seed: 3, ops: wrong.ops });
      expect(right.mismatches).toEqual([]);
      expect(right.bytesCompared).toBeGreaterThan(0);
    },
  );
});
