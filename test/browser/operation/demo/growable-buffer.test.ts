/**
 * The growable reserved buffer scene, run for a fixed number of resizes: every step follows the
 * watermark rules (checked against a model written from REFERENCE.md's text, not the scene's code),
 * the buffer's real tile mappings match, the classic path peaks at old + new, and every instance the
 * GPU wrote survives the resizes in both buffers.
 */
import { describe, expect } from 'vitest';
import type { GrowableStep } from '../../../../demo/growable-buffer/main.js';
import { TILE_SIZE } from '../../../../src/index.js';
import { browserTest } from '../../../harness/browser/browser-test.js';
import { runScene, SCENE_TIMEOUT_MS } from './open-scene.js';

const STEPS = 12;
const HEAP_TILES = 256;

interface Snapshot {
  count: number;
  committedTiles: number;
  heapCount: number;
  steps: GrowableStep[];
}

/** REFERENCE.md, "UE5's growable reserved buffers", as a model: heaps as [tiles, used]. */
function modelCommit(heaps: [number, number][], from: number, to: number): [number, number][] {
  const next = heaps.map(([tiles, used]) => [tiles, used] as [number, number]);
  if (to > from) {
    let need = to - from;
    const last = next.at(-1);
    if (last && last[1] < last[0]) {
      const take = Math.min(last[0] - last[1], need);
      last[1] += take;
      need -= take;
    }
    while (need > 0) {
      const size = Math.min(HEAP_TILES, need);
      next.push([size, size]);
      need -= size;
    }
  } else {
    let start = 0;
    const kept: [number, number][] = [];
    for (const [tiles, used] of next) {
      if (start < to) kept.push([tiles, Math.min(used, to - start)]);
      start += used;
    }
    return kept;
  }
  return next;
}

function pcg(v: number): number {
  const state = (Math.imul(v >>> 0, 747796405) + 2891336453) >>> 0;
  const word = Math.imul(((state >>> ((state >>> 28) + 4)) ^ state) >>> 0, 277803737) >>> 0;
  return ((word >>> 22) ^ word) >>> 0;
}

describe('demo: growable reserved buffer', () => {
  browserTest(
    'committed size and heaps follow the watermark rules at each step; classic peaks at old + new; no instance is lost',
    async ({ openPage }) => {
      const run = await runScene<Snapshot>(openPage, 'growable-buffer', {
        frames: STEPS * 2,
        stepFrames: 2,
        drawLimit: 4000,
        width: 800,
        height: 500,
      });
      const { steps } = run.snapshot;
      expect(steps).toHaveLength(STEPS);

      // The worked example first: 40 MiB, 300 tiles, 400 tiles.
      expect(steps.slice(0, 3).map((s) => s.watermark.heaps.map((h) => [h.tiles, h.used]))).toEqual([
        [
          [256, 256],
          [256, 256],
          [128, 128],
        ],
        [
          [256, 256],
          [256, 44],
        ],
        [
          [256, 256],
          [256, 144],
        ],
      ]);

      let heaps: [number, number][] = [];
      let committed = 0;
      let classicBytes = 0;
      for (const step of steps) {
        const tiles = Math.ceil((step.count * 32) / TILE_SIZE);
        expect(step.watermark.committedTiles, `step ${step.step}`).toBe(tiles);
        heaps = modelCommit(heaps, committed, tiles);
        expect(
          step.watermark.heaps.map((h) => [h.tiles, h.used]),
          `step ${step.step}: heaps`,
        ).toEqual(heaps);
        expect(heaps.reduce((sum, [, used]) => sum + used, 0)).toBe(tiles);
        expect(step.watermarkBytes).toBe(heaps.reduce((sum, [size]) => sum + size, 0) * TILE_SIZE);
        // Classic: a new buffer of the new size (64 KiB granular) while the old one still exists.
        const newBytes = tiles * TILE_SIZE;
        expect(step.classic.bytes, `step ${step.step}: classic size`).toBe(newBytes);
        expect(step.classic.peakBytes, `step ${step.step}: classic peak`).toBe(classicBytes + newBytes);
        classicBytes = newBytes;
        committed = tiles;
      }
      expect(run.snapshot.heapCount).toBe(heaps.length);
      // The random walk must have exercised both directions and slack reuse.
      expect(steps.some((s) => s.watermark.releasedHeaps > 0)).toBe(true);
      expect(steps.some((s) => s.watermark.slackReused > 0)).toBe(true);

      // The buffer's real tile mappings: [0, N) in heap order, each heap's tiles from 0, nothing above.
      const mapping = (await run.page.evaluate(
        (upTo) => window.d3d12Demo.forTesting.mapping?.(upTo as never),
        committed + 64,
      )) as ([number, number] | null)[];
      let tile = 0;
      heaps.forEach(([, used], k) => {
        for (let t = 0; t < used; t++, tile++) expect(mapping[tile], `buffer tile ${tile}`).toEqual([k, t]);
      });
      expect(
        mapping.slice(committed).every((m) => m === null),
        'nothing mapped above the watermark',
      ).toBe(true);

      // Instances written when they were first committed are intact in both buffers.
      const count = run.snapshot.count;
      const indices = Array.from({ length: 48 }, (_, k) => Math.floor((k * (count - 1)) / 47));
      const words = (await run.page.evaluate(
        (list) => window.d3d12Demo.forTesting.readInstances?.(list as never),
        indices,
      )) as { reserved: number[][]; classic: number[][] };
      const expected = indices.map((i) => [pcg(i), i, 0xa5a5a5a5, pcg((i ^ 0xa5a5a5a5) >>> 0)]);
      expect(words.reserved).toEqual(expected);
      expect(words.classic).toEqual(expected);
    },
    SCENE_TIMEOUT_MS + 60_000,
  );
});
