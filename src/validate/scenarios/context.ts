/**
 * What a conformance scenario shares with the run that called it: the GPU page-table check after
 * each mapping step (device.validateTileMappings, turned into a Check), the pages it compared, and
 * the self-check plant of runScenarios({ plant }), placed at the first mapping step that can show it.
 *
 * Invariants: a scenario called without a context gets a fresh one (no plant), so the tests and the
 * package run the same checks; a plant is placed at most once per context, and only where the next
 * tile-mapping check can see it (a mapped tile for corrupt-entry, a remap of mapped tiles for
 * drop-write).
 */
import type { Device } from '../../d3d12/device.js';
import type { Resource } from '../../d3d12/resource.js';
import type { Check } from '../bytes.js';
import { describeTileValidation } from '../findings.js';
import type { PlantMode } from '../types.js';
import { corruptPageTableEntryForTesting, dropNextPageTableWriteForTesting } from '../../testing/index.js';

export class ScenarioContext {
  pagesValidated = 0;
  private planted = false;

  constructor(readonly plant?: PlantMode) {}

  get plantPlaced(): boolean {
    return this.planted;
  }

  /** Right before an updateTileMappings that changes mapped tiles: drop-write skips its page-table write. */
  beforeRemap(device: Device): void {
    if (this.plant !== 'drop-write' || this.planted) return;
    dropNextPageTableWriteForTesting(device);
    this.planted = true;
  }

  /**
   * After a mapping step: corrupt-entry first rewrites the GPU entry of `mapped` (a mapped tile), then
   * the GPU page table is compared with the CPU authority.
   */
  async tileMappings(device: Device, name: string, mapped?: { resource: Resource; page: number }): Promise<Check[]> {
    if (this.plant === 'corrupt-entry' && !this.planted && mapped) {
      corruptPageTableEntryForTesting(device, mapped.resource, mapped.page);
      this.planted = true;
    }
    const v = await device.validateTileMappings();
    this.pagesValidated += v.pages;
    const check: Check = {
      name: `${name}: the GPU page table matches the CPU authority (validateTileMappings)`,
      length: 0,
      firstDifference: -1,
    };
    return [
      v.mismatchCount === 0
        ? check
        : {
            ...check,
            firstDifference: v.mismatches[0]?.page ?? 0,
            actual: v.mismatchCount,
            expected: 0,
            detail: describeTileValidation(v),
          },
    ];
  }
}
