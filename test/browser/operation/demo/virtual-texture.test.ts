/**
 * The virtual texture scene on fixed views, judged from screenshots of its canvas: once the tiles
 * have streamed in, every pixel equals the procedural colour the CPU computes for the texel and mip
 * the view shows (the view puts pixel centres on texel centres, so sampling is exact); before that,
 * the view falls back to the pinned coarse mip; and a pool too small for two views evicts and
 * reuses pages, then shows the first view exactly again. Tiles come from the CPU by default (a worker,
 * the upload ring and copyTiles); copy=copyTextureRegion streams them through placed footprints
 * instead, and both paths show mips 0 and 3 and every packed mip (the tail) exactly; source=gpu, the
 * compute pass that generates them in place, keeps its own exact-texel case.
 */
import { describe, expect } from 'vitest';
import type { VirtualTextureSnapshot } from '../../../../demo/virtual-texture/main.js';
import {
  proceduralBilinear,
  proceduralTexel,
  VT_MIPS,
  VT_SIZE,
  VT_STANDARD_MIPS,
} from '../../../../demo/virtual-texture/procedural.js';
import { TILE_SIZE } from '../../../../src/index.js';
import { browserTest } from '../../../harness/browser/browser-test.js';
import type { DecodedPng } from '../../../harness/png.js';
import { runScene, runSceneHolds, SCENE_TIMEOUT_MS } from './open-scene.js';

// Every pixel of these canvases is checked, and on SwiftShader a frame's cost is its pixels' (a frame
// at 480 x 320 took 0.7 s, at 240 x 160 0.2 s). View A at this size still crosses tile edges: its
// texels span 2 x 2 tiles of mip 0, and the feedback's one-texel border asks for 3 x 2.
const WIDTH = 240;
const HEIGHT = 160;
const VIEW_A = { cx: 5000, cy: 7000, s: 1 };
const VIEW_B = { cx: 9216, cy: 4096, s: 8 };
/** Pages the scene maps for good: mips 5..7 (16 + 4 + 1 tiles) and the packed tail (main.ts). */
const PINNED_PAGES = 22;
/**
 * A pool with room for view A's 13 tiles (6 of mip 0 and their parents in mips 1-4) but not also for
 * view B's 6 (4 of mip 3, 2 of mip 4): the scene's `pending` counts at this canvas size. The second
 * view evicts, the first streams back.
 */
const SMALL_POOL_PAGES = PINNED_PAGES + 16;
const viewParam = (v: { cx: number; cy: number; s: number }): string => `${v.cx},${v.cy},${v.s}`;
/** The CPU source's two copy paths: the default (copyTiles) and copyTextureRegion. */
const COPY_PATHS = ['copyTiles', 'copyTextureRegion'] as const;
/** A canvas whose lower right quadrant holds a whole packed mip (mip 8: 64 × 64 texels, one a pixel). */
const TAIL_CANVAS = 128;
/** Packed mip `mip` one texel a pixel, texel (0, 0) at the canvas's centre pixel. */
const tailView = (mip: number) => ({ cx: 0, cy: 0, s: 2 ** mip });

/** source=cpu: tiles went through the upload ring (by `copy`), and their latency was measured. */
function expectStreamed(
  snapshot: VirtualTextureSnapshot,
  name: string,
  copy: (typeof COPY_PATHS)[number] = 'copyTiles',
): void {
  expect(snapshot.source, name).toBe('cpu');
  expect(snapshot.copy, name).toBe(copy);
  const streaming = snapshot.streaming;
  expect(streaming?.bytes, `${name}: streamed bytes`).toBeGreaterThan(0);
  expect(streaming?.tiles, name).toBe((streaming?.bytes ?? 0) / TILE_SIZE);
  expect(Number.isFinite(streaming?.latencyMedianMs), `${name}: median latency ${streaming?.latencyMedianMs}`).toBe(
    true,
  );
  expect(Number.isFinite(streaming?.latencyP95Ms), `${name}: p95 latency ${streaming?.latencyP95Ms}`).toBe(true);
  expect(streaming?.latencyP95Ms, name).toBeGreaterThanOrEqual(streaming?.latencyMedianMs ?? Infinity);
  expect(streaming?.waiting, `${name}: no tile still on its way`).toBe(0);
}

/**
 * Pixels that differ from the texels of mip log2(s) the view puts at their centres; pixels beside the
 * texture are not checked (`checked` counts those that are).
 */
function exactMismatches(
  canvas: DecodedPng,
  view: { cx: number; cy: number; s: number },
): string[] & { checked: number } {
  const mip = Math.log2(view.s);
  const size = VT_SIZE >> mip;
  const out = Object.assign([] as string[], { checked: 0 });
  for (let py = 0; py < canvas.height; py++) {
    for (let px = 0; px < canvas.width; px++) {
      const x = view.cx / view.s - canvas.width / 2 + px;
      const y = view.cy / view.s - canvas.height / 2 + py;
      if (x < 0 || y < 0 || x >= size || y >= size) continue;
      out.checked++;
      const want = proceduralTexel(mip, x, y);
      const at = (py * canvas.width + px) * 4;
      const got = [canvas.pixels[at], canvas.pixels[at + 1], canvas.pixels[at + 2]];
      if (got[0] !== want[0] || got[1] !== want[1] || got[2] !== want[2])
        out.push(
          `pixel (${px}, ${py}) = ${got.join(',')}, mip ${mip} texel (${x}, ${y}) is ${want.slice(0, 3).join(',')}`,
        );
    }
  }
  return out;
}

describe('demo: virtual texture streaming', () => {
  for (const copy of COPY_PATHS) {
    // copyTiles is the default: its runs leave the parameter out.
    const copyParam: Record<string, string> = copy === 'copyTiles' ? {} : { copy };
    browserTest(
      `copy=${copy}: a streamed-in view at lod 0 and at lod 3 shows exactly the procedural texels of that mip`,
      async ({ openPage }) => {
        // One page load, two holds: view A (lod 0) for 14 frames, then view B (lod 3) for 14.
        const lods = [
          ['lod0', VIEW_A],
          ['lod3', VIEW_B],
        ] as const;
        await runSceneHolds<VirtualTextureSnapshot>(
          openPage,
          'virtual-texture',
          {
            frames: 28,
            viewFrames: 14,
            views: lods.map(([, view]) => viewParam(view)).join(';'),
            width: WIDTH,
            height: HEIGHT,
            poolPages: 128,
            ...copyParam,
          },
          14,
          (hold) => `virtual-texture-${copy}-${lods[hold]?.[0]}`,
          async (run, hold) => {
            const [name, view] = lods[hold] ?? lods[0];
            expect([run.canvas.width, run.canvas.height]).toEqual([WIDTH, HEIGHT]);
            expect(run.snapshot.pending, `${name}: every requested tile arrived`).toBe(0);
            expect(run.snapshot.virtualBytes).toBeGreaterThan(2 ** 30);
            expectStreamed(run.snapshot, name, copy);
            const mismatches = exactMismatches(run.canvas, view);
            expect(mismatches.checked, name).toBe(WIDTH * HEIGHT);
            expect(mismatches.slice(0, 5), `${name}: ${mismatches.length} pixels differ`).toEqual([]);
            // The panel names the path, and its switch shows it.
            const shown = await run.page.evaluate(() => ({
              source: document.querySelector('td[data-stat="tile source"]')?.textContent ?? '',
              switched: [...document.querySelectorAll('label.switch')]
                .find((l) => l.textContent?.includes('copyTextureRegion'))
                ?.querySelector('input')?.checked,
            }));
            expect(shown).toEqual({
              source: `CPU worker → upload ring → ${copy}`,
              switched: copy === 'copyTextureRegion',
            });
          },
        );
      },
      2 * SCENE_TIMEOUT_MS,
    );

    browserTest(
      `copy=${copy}: every packed mip (8..14, streamed before the first frame) shows exactly its procedural texels`,
      async ({ openPage }) => {
        // One page load, a hold of 2 frames per packed mip.
        const mips = Array.from({ length: VT_MIPS - VT_STANDARD_MIPS }, (_, k) => VT_STANDARD_MIPS + k);
        await runSceneHolds<VirtualTextureSnapshot>(
          openPage,
          'virtual-texture',
          {
            frames: 2 * mips.length,
            viewFrames: 2,
            views: mips.map((mip) => viewParam(tailView(mip))).join(';'),
            width: TAIL_CANVAS,
            height: TAIL_CANVAS,
            ...copyParam,
          },
          2,
          (hold) => `virtual-texture-${copy}-mip${mips[hold]}`,
          (run, hold) => {
            const mip = mips[hold] ?? VT_STANDARD_MIPS;
            expectStreamed(run.snapshot, `mip ${mip}`, copy);
            const mismatches = exactMismatches(run.canvas, tailView(mip));
            expect(mismatches.checked, `mip ${mip}: its texels on the canvas`).toBe(
              Math.min(VT_SIZE >> mip, TAIL_CANVAS / 2) ** 2,
            );
            expect(mismatches.slice(0, 5), `mip ${mip}: ${mismatches.length} pixels differ`).toEqual([]);
          },
        );
      },
      2 * SCENE_TIMEOUT_MS,
    );
  }

  browserTest(
    'source=gpu: tiles generated in place by the compute pass show exactly the procedural texels too',
    async ({ openPage }) => {
      const run = await runScene<VirtualTextureSnapshot>(
        openPage,
        'virtual-texture',
        { frames: 14, views: viewParam(VIEW_A), width: WIDTH, height: HEIGHT, poolPages: 128, source: 'gpu' },
        'virtual-texture-gpu',
      );
      expect(run.snapshot.source).toBe('gpu');
      expect(run.snapshot.streaming, 'no worker, no upload ring').toBeUndefined();
      expect(run.snapshot.pending).toBe(0);
      const mismatches = exactMismatches(run.canvas, VIEW_A);
      expect(mismatches.slice(0, 5), `${mismatches.length} pixels differ`).toEqual([]);
    },
    SCENE_TIMEOUT_MS,
  );

  for (const residencyMap of ['on', 'off'] as const) {
    browserTest(
      `before its tiles arrive, the view falls back to the pinned mip 5 (residency map ${residencyMap}); no unmapped-access report by default`,
      async ({ openPage }) => {
        // On: the map clamps the sample to mip 5. Off: the map claims mip 0, the sample reports
        // unmapped tiles and the draw falls back on that status alone.
        const run = await runScene<VirtualTextureSnapshot>(
          openPage,
          'virtual-texture',
          { frames: 1, views: viewParam(VIEW_A), width: WIDTH, height: HEIGHT, residencyMap },
          `virtual-texture-fallback-${residencyMap}`,
        );
        let worst = 0;
        for (let py = 0; py < HEIGHT; py += 7) {
          for (let px = 0; px < WIDTH; px += 7) {
            const u = (VIEW_A.cx + (px + 0.5 - WIDTH / 2) * VIEW_A.s) / VT_SIZE;
            const v = (VIEW_A.cy + (py + 0.5 - HEIGHT / 2) * VIEW_A.s) / VT_SIZE;
            const want = proceduralBilinear(5, u, v);
            const at = (py * WIDTH + px) * 4;
            for (let c = 0; c < 3; c++)
              worst = Math.max(worst, Math.abs((run.canvas.pixels[at + c] ?? 0) - (want[c] ?? 0)));
          }
        }
        // Filtering in f32, then unorm8: a couple of steps at most.
        expect(worst).toBeLessThanOrEqual(2);
        // Unmapped-access recording is off by default (unmapped=1 turns it on, below).
        expect(run.snapshot.unmapped).toBeUndefined();
      },
      SCENE_TIMEOUT_MS,
    );
  }

  browserTest(
    "unmapped=1: the draw's reads of NULL tiles (residency map off) are reported and counted",
    async ({ openPage }) => {
      const run = await runScene<VirtualTextureSnapshot>(
        openPage,
        'virtual-texture',
        { frames: 4, views: viewParam(VIEW_A), width: WIDTH, height: HEIGHT, residencyMap: 'off', unmapped: '1' },
        'virtual-texture-unmapped',
      );
      // The report asked for at frame 0 arrives once the GPU has run that frame: wait for it.
      await run.page.waitForFunction(
        () => ((window.d3d12Demo.snapshot() as VirtualTextureSnapshot).unmapped?.reports ?? 0) >= 1,
        { timeout: SCENE_TIMEOUT_MS, polling: 100 },
      );
      const unmapped = (await run.page.evaluate(() => window.d3d12Demo.snapshot() as VirtualTextureSnapshot)).unmapped;
      expect(unmapped?.reports).toBeGreaterThanOrEqual(1);
      // At frame 0 the view's mip-0 tiles are NULL, and the draw samples them before falling back.
      expect(unmapped?.accesses).toBeGreaterThan(0);
      expect(unmapped?.maxTiles).toBeGreaterThan(0);
    },
    SCENE_TIMEOUT_MS,
  );

  browserTest(
    'a pool too small for two views evicts least recently used tiles, reuses their pages and streams the first view back exactly',
    async ({ openPage }) => {
      const views = [VIEW_A, VIEW_B, VIEW_A].map(viewParam).join(';');
      const run = await runScene<VirtualTextureSnapshot>(
        openPage,
        'virtual-texture',
        { frames: 42, viewFrames: 14, views, width: WIDTH, height: HEIGHT, poolPages: SMALL_POOL_PAGES },
        'virtual-texture-evict',
      );
      expect(run.snapshot.evictions, 'tiles were evicted').toBeGreaterThan(0);
      expect(run.snapshot.residentTiles).toBeLessThanOrEqual(SMALL_POOL_PAGES);
      expect(run.snapshot.mappedTotal, 'pages were reused').toBeGreaterThan(SMALL_POOL_PAGES - PINNED_PAGES);
      expect(run.snapshot.pending).toBe(0);
      expectStreamed(run.snapshot, 'evict');
      const mismatches = exactMismatches(run.canvas, VIEW_A);
      expect(mismatches.slice(0, 5), `${mismatches.length} pixels differ`).toEqual([]);
      // The overlay: heap usage and evictions as the scene counted them, and the tile map drawing
      // mip 0's resident tiles in the mapped colour.
      const overlay = await run.page.evaluate(() => {
        const stat = (key: string) => document.querySelector(`td[data-stat="${key}"]`)?.textContent ?? '';
        const map = document.querySelector<HTMLCanvasElement>('canvas.tile-map');
        const pixels = map?.getContext('2d')?.getImageData(0, 0, map.width, map.height).data ?? new Uint8ClampedArray();
        let mappedPixels = 0;
        for (let i = 0; i < pixels.length; i += 4)
          if (pixels[i] === 0x5a && pixels[i + 1] === 0xd1 && pixels[i + 2] === 0x7f) mappedPixels++;
        return {
          pool: stat('tile pool'),
          evictions: stat('evictions'),
          perSecond: stat('mappings per second'),
          streamedRate: stat('MB/s'),
          latency: stat('tile latency (median / p95)'),
          mappedPixels,
        };
      });
      expect(overlay.pool).toContain(`of ${SMALL_POOL_PAGES} pages used`);
      expect(overlay.evictions).toBe(String(run.snapshot.evictions));
      expect(overlay.perSecond).toMatch(/^\d+$/);
      expect(overlay.streamedRate).toMatch(/^\d+\.\d$/);
      expect(overlay.latency).toMatch(/^\d+\.\d \/ \d+\.\d ms$/);
      expect(overlay.mappedPixels, 'tile map cells in the mapped colour').toBeGreaterThan(0);
    },
    SCENE_TIMEOUT_MS,
  );
});
