import { describe, expect } from 'vitest';
import { browserTest } from '../../../harness/browser/browser-test.js';
import type { SwapChainResult } from '../../pages/swap-chain.page.js';

/** The CPU's picture of frame 0 in swap-chain.page.ts, RGBA8. */
function expectedFrame(x: number, y: number): [number, number, number, number] {
  if (x < 8 && y < 8) return [128, 128, 255, 255]; // white at alpha 128 over blue
  if (y >= 56 && x >= 16 && x < 40) return [Math.floor(x / 8) * 40, 255, 0, 255]; // instances 2..4, row 7
  if (x >= 32 && y < 32) return [0, 255, 0, 255]; // the viewport's quadrant
  if (x >= 16 && x < 48 && y >= 16 && y < 48) return [255, 0, 0, 255]; // the scissored draw
  return [0, 0, 255, 255]; // the clear
}

describe('swap chain and drawing calls in a canvas (headless Chromium)', () => {
  browserTest(
    'clears, scissors, viewports, instanced draws, blending and root constants draw the predicted frame; state rules throw',
    async ({ runPage }) => {
      const result = await runPage<SwapChainResult>('test/browser/pages/swap-chain.page.ts');
      const mismatches: string[] = [];
      for (let y = 0; y < result.height; y++) {
        for (let x = 0; x < result.width; x++) {
          const want = expectedFrame(x, y);
          const at = (y * result.width + x) * 4;
          const got = result.frame.slice(at, at + 4);
          // Blending rounds differently across GPUs: one step of tolerance, exact elsewhere.
          const tolerance = x < 8 && y < 8 ? 1 : 0;
          if (got.some((value, i) => Math.abs(value - (want[i] ?? -1)) > tolerance))
            mismatches.push(`(${x}, ${y}) is ${got.join(',')}, predicted ${want.join(',')}`);
        }
      }
      expect(mismatches.slice(0, 10), `${mismatches.length} pixels differ`).toEqual([]);

      expect(result.sameBackBufferUntilPresent).toBe(true);
      expect(result.frames).toEqual([0, 1]);
      expect(
        new Set(chunks(result.acrossTasks)),
        'a list recorded before an await clears the live canvas texture',
      ).toEqual(new Set(['0,255,0,255']));

      expect(result.controls.filter((c) => c.threw !== null)).toEqual([]);
      const byName = new Map(result.errors.map((e) => [e.name, e]));
      const expected: [string, string, string | RegExp, RegExp][] = [
        ['clear a presented back buffer', 'clearRenderTargetView', 'renderTargetView', /was presented/],
        ['set a presented back buffer', 'omSetRenderTargets', 'renderTargets[0]', /was presented/],
        ['present: syncInterval 5', 'SwapChain.present', 'syncInterval', /0 to 4/],
        [
          'execute a list drawing into a presented back buffer',
          'executeCommandLists',
          'commandLists[0]',
          /was presented/,
        ],
        ['drawInstanced without a pipeline state', 'drawInstanced', 'this', /no graphics pipeline state/],
        ['drawInstanced with a compute pipeline state', 'drawInstanced', 'this', /no graphics pipeline state/],
        ['drawInstanced without a render target', 'drawInstanced', 'this', /no render target/],
        ['drawInstanced with an RTV format mismatch', 'drawInstanced', 'this', /B8G8R8A8_UNORM.*R8G8B8A8_UNORM/],
        [
          'drawInstanced with a viewport outside the target',
          'drawInstanced',
          'this',
          /inside the 64 x 64 render target/,
        ],
        ['dispatch with a graphics pipeline state', 'dispatch', 'this', /not a compute one/],
        ['clearRenderTargetView on a COPY list', 'clearRenderTargetView', 'this', /only DIRECT lists draw/],
        ['drawInstanced on a COMPUTE list', 'drawInstanced', 'this', /only DIRECT lists draw/],
        [
          'setGraphicsRoot32BitConstants on a COMPUTE list',
          'setGraphicsRoot32BitConstants',
          'this',
          /only DIRECT lists draw/,
        ],
        [
          'setGraphicsRoot32BitConstants past 64 constants',
          'setGraphicsRoot32BitConstants',
          /srcData|destOffsetIn32BitValues/,
          /64/,
        ],
        [
          'clearRenderTargetView on a heap texture',
          'clearRenderTargetView',
          'renderTargetView',
          /back buffer from SwapChain.getCurrentBackBuffer/,
        ],
        ['omSetRenderTargets with two targets', 'omSetRenderTargets', 'renderTargets', /at most one/],
        ['drawInstanced on a closed list', 'GraphicsCommandList.drawInstanced', 'this', /closed/],
        ['createSwapChain: not a canvas context', 'createSwapChain', 'context', /canvas context/],
        ['createSwapChain: format R32_FLOAT', 'createSwapChain', 'desc.format', /R8G8B8A8_UNORM/],
        ['createSwapChain: alphaMode', 'createSwapChain', 'desc.alphaMode', /opaque/],
        ['createSwapChain: desc null', 'createSwapChain', 'desc', /must be an object, got null/],
        [
          'createGraphicsPipelineState: rtvFormat R32_FLOAT',
          'createGraphicsPipelineState',
          'desc.rtvFormat',
          /back-buffer format/,
        ],
        [
          'createGraphicsPipelineState: no such fragment entry point',
          'createGraphicsPipelineState',
          'desc.code',
          /does not compile/,
        ],
      ];
      expect([...byName.keys()].sort()).toEqual(expected.map(([name]) => name).sort());
      for (const [name, call, argument, message] of expected) {
        const error = byName.get(name);
        expect(error?.hresult, name).toBe('E_INVALIDARG');
        expect(error?.call, name).toBe(call);
        if (argument instanceof RegExp) expect(error?.argument, name).toMatch(argument);
        else expect(error?.argument, name).toBe(argument);
        expect(error?.message, name).toMatch(message);
      }
    },
  );
});

function chunks(bytes: number[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < bytes.length; i += 4) out.push(bytes.slice(i, i + 4).join(','));
  return out;
}
