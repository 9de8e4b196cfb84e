/**
 * Validation of the drawing calls' arguments (src/validation/draw.ts) and of
 * createGraphicsPipelineState's descriptor: one invalid field per case, each next to a valid control.
 * The rules that need a live list or swap chain are checked in the browser (swap-chain.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { orThrow } from '../../../../src/api/errors.js';
import { validateCreateGraphicsPipelineState } from '../../../../src/validation/graphics-pipeline.js';
import {
  validateClearColor,
  validateDrawInstanced,
  validateScissorRects,
  validateViewportInTarget,
  validateViewports,
} from '../../../../src/validation/draw.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';

const VIEWPORT = { topLeftX: 0, topLeftY: 0, width: 64, height: 32, minDepth: 0, maxDepth: 1 };
const RECT = { left: 0, top: 0, right: 64, bottom: 32 };
const PSO = {
  code: '@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0); }',
  vertexEntryPoint: 'vs',
  fragmentEntryPoint: 'fs',
  rtvFormat: 'R8G8B8A8_UNORM',
};

describe('validation: clearRenderTargetView colorRGBA', () => {
  it('control: four finite numbers (values outside [0, 1] are legal, as for float targets)', () => {
    expect(orThrow(validateClearColor([0, 0.5, 2, -1]))).toEqual([0, 0.5, 2, -1]);
  });
  it.each([
    ['three components', [0, 0, 0]],
    ['five components', [0, 0, 0, 0, 0]],
    ['NaN', [0, Number.NaN, 0, 1]],
    ['Infinity', [0, 0, Infinity, 1]],
    ['a string component', [0, 0, '1', 1]],
    ['not an array', { r: 0, g: 0, b: 0, a: 1 }],
  ])('%s', (_, color) => {
    expectD3D12Error(() => orThrow(validateClearColor(color)), {
      call: 'clearRenderTargetView',
      argument: 'colorRGBA',
      message: /four finite numbers/,
    });
  });
});

describe('validation: rsSetViewports', () => {
  it('control: one viewport; depth defaults to [0, 1]', () => {
    expect(orThrow(validateViewports([VIEWPORT]))).toEqual(VIEWPORT);
    expect(orThrow(validateViewports([{ topLeftX: -8, topLeftY: 4.5, width: 0.5, height: 1 }]))).toEqual({
      topLeftX: -8,
      topLeftY: 4.5,
      width: 0.5,
      height: 1,
      minDepth: 0,
      maxDepth: 1,
    });
  });
  it.each([
    ['no viewport', [], 'viewports', /exactly one/],
    ['two viewports (one render target)', [VIEWPORT, VIEWPORT], 'viewports', /exactly one/],
    ['not an array', VIEWPORT, 'viewports', /exactly one/],
    ['null viewport', [null], 'viewports[0]', /D3D12_VIEWPORT/],
    ['topLeftX NaN', [{ ...VIEWPORT, topLeftX: Number.NaN }], 'viewports[0].topLeftX', /finite/],
    ['topLeftY missing', [{ ...VIEWPORT, topLeftY: undefined }], 'viewports[0].topLeftY', /finite/],
    ['width 0', [{ ...VIEWPORT, width: 0 }], 'viewports[0].width', /positive/],
    ['height negative', [{ ...VIEWPORT, height: -1 }], 'viewports[0].height', /positive/],
    [
      'topLeftX below D3D12_VIEWPORT_BOUNDS_MIN',
      [{ ...VIEWPORT, topLeftX: -32769 }],
      'viewports[0].topLeftX',
      /VIEWPORT_BOUNDS/,
    ],
    [
      'topLeftY + height above D3D12_VIEWPORT_BOUNDS_MAX',
      [{ ...VIEWPORT, topLeftY: 32700, height: 68 }],
      'viewports[0].topLeftY',
      /VIEWPORT_BOUNDS/,
    ],
    ['minDepth below 0', [{ ...VIEWPORT, minDepth: -0.1 }], 'viewports[0].minDepth', /\[0, 1\]/],
    ['maxDepth above 1', [{ ...VIEWPORT, maxDepth: 1.5 }], 'viewports[0].maxDepth', /\[0, 1\]/],
    [
      'minDepth above maxDepth',
      [{ ...VIEWPORT, minDepth: 0.8, maxDepth: 0.2 }],
      'viewports[0].minDepth',
      /exceed maxDepth/,
    ],
  ])('%s', (_, viewports, argument, message) => {
    expectD3D12Error(() => orThrow(validateViewports(viewports)), { call: 'rsSetViewports', argument, message });
  });
  it('boundary: a viewport touching D3D12_VIEWPORT_BOUNDS_MIN/MAX is legal', () => {
    expect(orThrow(validateViewports([{ ...VIEWPORT, topLeftX: -32768, topLeftY: 32700, height: 67 }])).topLeftX).toBe(
      -32768,
    );
  });
  it('boundary: minDepth equal to maxDepth is legal', () => {
    expect(orThrow(validateViewports([{ ...VIEWPORT, minDepth: 0.5, maxDepth: 0.5 }])).minDepth).toBe(0.5);
  });
});

describe('validation: rsSetScissorRects', () => {
  it('control: one rectangle; an empty one (right == left) is legal and draws nothing', () => {
    expect(orThrow(validateScissorRects([RECT]))).toEqual(RECT);
    expect(orThrow(validateScissorRects([{ left: 5, top: 5, right: 5, bottom: 5 }]))).toEqual({
      left: 5,
      top: 5,
      right: 5,
      bottom: 5,
    });
  });
  it.each([
    ['no rectangle', [], 'rects', /exactly one/],
    ['two rectangles', [RECT, RECT], 'rects', /exactly one/],
    ['null rectangle', [null], 'rects[0]', /D3D12_RECT/],
    ['left negative', [{ ...RECT, left: -1 }], 'rects[0].left', /at least 0/],
    ['top fractional', [{ ...RECT, top: 0.5 }], 'rects[0].top', /integer/],
    ['right below left', [{ ...RECT, left: 10, right: 9 }], 'rects[0].right', /at least left/],
    ['bottom below top', [{ ...RECT, top: 10, bottom: 9 }], 'rects[0].bottom', /at least top/],
  ])('%s', (_, rects, argument, message) => {
    expectD3D12Error(() => orThrow(validateScissorRects(rects)), { call: 'rsSetScissorRects', argument, message });
  });
});

describe('validation: drawInstanced counts', () => {
  it('control: zero counts and 2^32 - 1 are legal', () => {
    expect(validateDrawInstanced(0, 0, 0, 0)).toBeUndefined();
    expect(validateDrawInstanced(0xffffffff, 1, 0xffffffff, 0xffffffff)).toBeUndefined();
  });
  const valid = [3, 1, 0, 0];
  it.each([
    [0, 'vertexCountPerInstance', -1],
    [0, 'vertexCountPerInstance', 1.5],
    [1, 'instanceCount', 2 ** 32],
    [1, 'instanceCount', '1'],
    [2, 'startVertexLocation', -3],
    [3, 'startInstanceLocation', Number.NaN],
  ])('argument %i (%s) = %s', (index, argument, value) => {
    const args: unknown[] = [...valid];
    args[index] = value;
    const problem = validateDrawInstanced(args[0], args[1], args[2], args[3]);
    expectD3D12Error(
      () => {
        if (problem) throw problem;
      },
      { call: 'drawInstanced', argument },
    );
  });
});

describe('validation: createGraphicsPipelineState desc', () => {
  it('control: defaults to TRIANGLELIST without blending', () => {
    expect(orThrow(validateCreateGraphicsPipelineState(PSO))).toMatchObject({
      primitiveTopology: 'TRIANGLELIST',
      topologyType: 'TRIANGLE',
      blend: undefined,
    });
    expect(
      orThrow(
        validateCreateGraphicsPipelineState({
          ...PSO,
          primitiveTopology: 'LINESTRIP',
          blend: 'ALPHA_BLEND',
          label: 'lines',
        }),
      ),
    ).toMatchObject({
      primitiveTopology: 'LINESTRIP',
      topologyType: 'LINE',
      // ALPHA_BLEND: SrcAlpha / InvSrcAlpha, as D3D12's blend state names it.
      blend: { srcBlend: 'SRC_ALPHA', destBlend: 'INV_SRC_ALPHA', blendOp: 'ADD' },
      label: 'lines',
    });
  });
  it.each([
    ['desc not an object', null, 'desc'],
    ['code missing', { ...PSO, code: undefined }, 'desc.code'],
    ['vertexEntryPoint not an identifier', { ...PSO, vertexEntryPoint: 'main()' }, 'desc.vertexEntryPoint'],
    ['fragmentEntryPoint missing', { ...PSO, fragmentEntryPoint: undefined }, 'desc.fragmentEntryPoint'],
    ['fragmentEntryPoint empty', { ...PSO, fragmentEntryPoint: '' }, 'desc.fragmentEntryPoint'],
    ['rtvFormat not a string', { ...PSO, rtvFormat: 28 }, 'desc.rtvFormat'],
    ['unknown primitiveTopology', { ...PSO, primitiveTopology: 'QUADLIST' }, 'desc.primitiveTopology'],
    ['unknown blend', { ...PSO, blend: 'ADDITIVE' }, 'desc.blend'],
    ['label not a string', { ...PSO, label: 5 }, 'desc.label'],
  ])('%s', (_, desc, argument) => {
    expectD3D12Error(() => orThrow(validateCreateGraphicsPipelineState(desc)), {
      call: 'createGraphicsPipelineState',
      argument,
    });
  });
});

describe('validation: the viewport lies inside the render target (at the draw, named by the draw call)', () => {
  const full = { ...VIEWPORT, width: 64, height: 32 };
  it.each(['drawInstanced', 'drawIndexedInstanced'])(
    'control (%s): a viewport filling or inside the target',
    (call) => {
      expect(validateViewportInTarget(call, full, 64, 32)).toBeUndefined();
      expect(validateViewportInTarget(call, { ...full, topLeftX: 8, width: 56 }, 64, 32)).toBeUndefined();
    },
  );
  it.each([
    ['left of the target', { topLeftX: -1 }],
    ['above the target', { topLeftY: -1 }],
    ['past its right edge', { width: 64.5 }],
    ['past its bottom edge', { topLeftY: 1, height: 32 }],
  ])('%s', (_, change) => {
    for (const call of ['drawInstanced', 'drawIndexedInstanced'])
      expectD3D12Error(() => orThrow(validateViewportInTarget(call, { ...full, ...change }, 64, 32)), {
        call,
        argument: 'this',
        message: /inside the 64 x 32 render target/,
      });
  });
});
