/**
 * Faults in draws (headless Chromium; draws need a canvas): a fragment shader reading an evicted heap
 * removes the device (or is reported under onPageFault: 'report') exactly as a dispatch does, and so
 * does a vertex shader, whose accesses its compute replay checks (WebGPU vertex shaders cannot write
 * the fault log). Controls: resident memory draws its colour with no fault; gpuValidation off records
 * nothing. A page-handle offset past its page is a page-offset fault in both stages.
 */
import { describe, expect } from 'vitest';
import { browserTest } from '../../../harness/browser/browser-test.js';
import type { DrawFaultCase } from '../../pages/draw-faults.page.js';

const PAGE = 'test/browser/pages/draw-faults.page.ts';

describe('page faults in draws (headless Chromium)', () => {
  browserTest(
    'fragment and vertex shaders reading an evicted heap: removed or reported, attributed to the draw; controls',
    async ({ runPage }) => {
      const cases = await runPage<DrawFaultCase[]>(PAGE);
      const find = (stage: DrawFaultCase['stage'], mode: DrawFaultCase['mode']): DrawFaultCase =>
        cases.find((c) => c.stage === stage && c.mode === mode) as DrawFaultCase;
      for (const stage of ['fragment', 'vertex'] as const) {
        const removed = find(stage, 'remove-device');
        expect(removed.removedReason, `${stage}: removed`).toBe('DXGI_ERROR_DEVICE_HUNG');
        const reported = find(stage, 'report');
        expect(reported.removedReason, `${stage}: report only`).toBe('S_OK');
        for (const c of [removed, reported]) {
          expect(c.faultCount, `${stage} ${c.mode}: faults`).toBeGreaterThan(0);
          expect(c.fault, `${stage} ${c.mode}`).toMatchObject({
            kind: 'read-absent',
            resource: { name: 'colors', kind: 'placed', tile: 0 },
            heap: { name: 'color heap', state: 'evicted' },
            commandList: {
              label: expect.stringMatching(new RegExp(`^DIRECT command list #\\d+ '${stage} reads colors'$`)) as string,
            },
            // omSetRenderTargets 0, clear 1, setPipelineState 2, root SRV 3, constant 4, draw 5.
            command: { index: 5, name: 'drawInstanced' },
          });
          expect(c.fault?.message).toMatch(/by command 5 \(drawInstanced\) of DIRECT command list/);
          expect(c.jsonRoundTrip).toBe(true);
          // The evicted memory read as 0.
          expect(c.pixel).toEqual([0, 0, 0, 0]);
        }
        const resident = find(stage, 'resident');
        expect([resident.removedReason, resident.faultCount, resident.pixel], `${stage}: resident control`).toEqual([
          'S_OK',
          0,
          [0x20, 0x80, 0xc0, 0xff],
        ]);
        const off = find(stage, 'no-validation');
        expect([off.removedReason, off.faultCount], `${stage}: validation off records nothing`).toEqual(['S_OK', 0]);
        // A page-handle offset past its page: a page-offset fault at the address named, attributed to
        // the draw (the fragment stage's flush, the vertex replay's); the load read the page's own word.
        const offset = find(stage, 'page-offset');
        expect(offset.faultCount, `${stage}: page-offset faults`).toBeGreaterThan(0);
        expect(offset.fault, `${stage}: page-offset`).toMatchObject({
          kind: 'page-offset',
          command: { index: 5, name: 'drawInstanced' },
        });
        expect(offset.pixel, `${stage}: page-offset pixel`).toEqual([0x20, 0x80, 0xc0, 0xff]);
      }
      expect(find('vertex', 'page-offset').faultCount).toBe(3);
      // The vertex stage reads 3 words (one per vertex), recorded by its replay; the fragment stage
      // reads once per pixel, far more.
      expect(find('vertex', 'report').faultCount).toBe(3);
      expect(find('fragment', 'report').faultCount).toBeGreaterThan(3);
    },
  );
});
