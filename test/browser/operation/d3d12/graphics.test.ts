import { describe, expect } from 'vitest';
import { browserTest } from '../../../harness/browser/browser-test.js';
import { MODES, type GraphicsResult } from '../../pages/graphics.page.js';

describe('tiled texture reads in a graphics pipeline (headless Chromium)', () => {
  browserTest(
    'd3d12_tex2d_load and d3d12_tex2d_sample_level (lod, min_lod clamp, bilinear) draw the texels the CPU predicts; NULL tiles report unmapped',
    async ({ runPage }) => {
      const result = await runPage<GraphicsResult>('test/browser/pages/graphics.page.ts');
      expect(result.pixels).toHaveLength(MODES.length);
      for (const [mode, name] of MODES.entries()) {
        // Filtering between texels rounds in f32 then to unorm8: one step of tolerance there only.
        const tolerance = name.includes('bilinear') ? 1 : 0;
        const mismatches: string[] = [];
        for (let y = 0; y < 64; y++) {
          const got = result.pixels[mode]?.[y] ?? [];
          const want = result.expected[mode]?.[y] ?? [];
          for (let i = 0; i < want.length; i++) {
            if (!(Math.abs((got[i] ?? -99) - (want[i] ?? 0)) <= tolerance))
              mismatches.push(`(${Math.floor(i / 4)}, ${y}) channel ${i % 4}: ${got[i]} vs ${want[i]}`);
          }
        }
        expect(mismatches.slice(0, 8), `${name}: ${mismatches.length} channels differ`).toEqual([]);
      }
    },
  );
});
