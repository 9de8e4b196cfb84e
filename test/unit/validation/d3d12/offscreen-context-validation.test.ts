/**
 * createOffscreenCanvasContext's arguments (one invalid at a time, both sides of each bound, a valid
 * control) and its state rule: no texture before configure(). Its frames are read back against CPU
 * models in test/gpu/operation/demo/reserved-resources-node.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { createOffscreenCanvasContext } from '../../../../src/index.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';

const loose = (value: unknown): never => value as never;

describe('createOffscreenCanvasContext', () => {
  test.each([1, 64, 8192])('width and height %i are accepted', (size) => {
    const context = createOffscreenCanvasContext(size, size);
    expect(context.canvas).toEqual({ width: size, height: size });
    expect(context.getConfiguration()).toBeNull();
  });

  test.each([0, -1, 8193, 1.5, NaN, Infinity, '64', null, undefined])('width %j is refused', (width) => {
    expectD3D12Error(() => createOffscreenCanvasContext(loose(width), 64), {
      call: 'createOffscreenCanvasContext',
      argument: 'width',
      message: /integer in \[1, 8192\]/,
    });
  });

  test.each([0, 8193, NaN, {}])('height %j is refused', (height) => {
    expectD3D12Error(() => createOffscreenCanvasContext(64, loose(height)), {
      call: 'createOffscreenCanvasContext',
      argument: 'height',
    });
  });

  test('getCurrentTexture before configure is an invalid call', () => {
    const context = createOffscreenCanvasContext(4, 4);
    expectD3D12Error(() => context.getCurrentTexture(), {
      hresult: 'DXGI_ERROR_INVALID_CALL',
      call: 'getCurrentTexture',
      message: /not configured/,
    });
  });
});
