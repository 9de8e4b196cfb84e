/**
 * The residency pressure scene: usage stays within the budget on every frame unless the manager
 * reported the frame over budget, objects really page (evictions and restores), every byte of every
 * heap survives its round trips, and forgetting one registration ends in a page-fault report that
 * names the resource, the tile, the heap and the command list.
 */
import { describe, expect } from 'vitest';
import type { PressureFrame, PressureReport } from '../../../../demo/residency-pressure/main.js';
import { cameraAt, createWorld, visibleObjects } from '../../../../demo/residency-pressure/world.js';
import { browserTest } from '../../../harness/browser/browser-test.js';
import { runScene, SCENE_TIMEOUT_MS } from './open-scene.js';

interface Snapshot {
  worldBytes: number;
  history: PressureFrame[];
  report: PressureReport | null;
  forgotten: { index: number; heap: string; resource: string } | null;
  stats: { evictions: number; madeResident: number; overBudgetBatches: number };
}

const BASE_TILES = 2;
const MiB = 2 ** 20;

describe('demo: residency under pressure', () => {
  browserTest(
    'usage stays within the budget except where over-commit is reported; heaps page and keep every byte',
    async ({ openPage }) => {
      const speed = 3;
      const frames = 60;
      const budget = 5 * MiB;
      const run = await runScene<Snapshot>(openPage, 'residency-pressure', {
        frames,
        baseTiles: BASE_TILES,
        budgetMiB: budget / MiB,
        speed,
        width: 720,
        height: 540,
      });
      const { history, worldBytes } = run.snapshot;
      expect(worldBytes, 'the world is several times the budget').toBeGreaterThan(3 * budget);
      expect(history).toHaveLength(frames);
      const world = createWorld(BASE_TILES);
      for (const entry of history) {
        expect(entry.budget, `frame ${entry.frame}: budget`).toBe(budget);
        if (!entry.overBudget)
          expect(entry.usage, `frame ${entry.frame}: usage within budget`).toBeLessThanOrEqual(entry.budget);
        // The camera path is a pure function of the frame: the scene used the objects the model predicts.
        expect(entry.visible, `frame ${entry.frame}: objects in view`).toEqual(
          visibleObjects(world, cameraAt((entry.frame + 1) * speed)).map((o) => o.index),
        );
      }
      expect(run.snapshot.stats.evictions, 'objects were evicted').toBeGreaterThan(10);
      expect(history.filter((e) => e.evictions > 0).length, 'paging on many frames').toBeGreaterThanOrEqual(4);
      expect(run.snapshot.stats.madeResident, 'evicted objects came back').toBeGreaterThan(
        run.snapshot.stats.evictions / 2,
      );

      const last = history.at(-1) as PressureFrame;
      const frameData = (await run.page.evaluate(() => window.d3d12Demo.forTesting.readFrameData?.())) as number[][];
      for (const k of last.visible)
        expect(frameData[k], `object ${k}: 256 samples, none wrong, this frame`).toEqual([
          256,
          0,
          last.frame,
          expect.any(Number),
        ]);
      const wrong = (await run.page.evaluate(() => window.d3d12Demo.forTesting.verifyAllObjects?.())) as number[];
      expect(wrong).toEqual(new Array<number>(world.length).fill(0));
    },
    SCENE_TIMEOUT_MS + 60_000,
  );

  browserTest(
    'a forgotten registration faults once the manager evicts the heap, and the report names resource, tile, heap and list',
    async ({ openPage }) => {
      const run = await runScene<Snapshot>(
        openPage,
        'residency-pressure',
        { frames: 300, baseTiles: BASE_TILES, budgetMiB: 4, forgetAt: 10, width: 720, height: 540 },
        'residency-pressure-fault',
      );
      const { report, forgotten } = run.snapshot;
      expect(forgotten).not.toBeNull();
      expect(report, 'the device was removed before 300 frames').not.toBeNull();
      expect(run.frames).toBeLessThan(300);
      // GetDeviceRemovedReason after a GPU page fault; calls on the device then fail with DXGI_ERROR_DEVICE_REMOVED.
      expect(report?.reason).toBe('DXGI_ERROR_DEVICE_HUNG');
      const fault = report?.faults[0];
      expect(fault?.kind).toBe('read-absent');
      expect(fault?.resource?.label).toContain(forgotten?.resource);
      expect(fault?.heap?.label).toContain(forgotten?.heap);
      expect(fault?.heap?.state).toBe('evicted');
      expect(fault?.resource?.tile).toBeTypeOf('number');
      expect(fault?.commandList.label).toMatch(/frame \d+: shade visible objects/);
      expect(fault?.command.name).toBe('dispatch');
      // The report is on screen.
      const shown = await run.page.$eval('.report', (el) => el.textContent);
      expect(shown).toContain('device removed (GetDeviceRemovedReason: DXGI_ERROR_DEVICE_HUNG)');
      expect(shown).toContain(forgotten?.resource);
    },
    SCENE_TIMEOUT_MS + 60_000,
  );
});
