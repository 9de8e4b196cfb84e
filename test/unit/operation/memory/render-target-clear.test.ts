/**
 * ClearRenderTargetView's colour as handed to WebGPU (src/memory/render-target-clear.ts): for every
 * back-buffer format, the value that D3D12's converted bits stand for, so that WebGPU's own
 * conversion stores those bits: k / 255 for 8-bit UNORM, the 16-bit float's value for
 * R16G16B16A16_FLOAT (past ±65504 is ±65504, rounded toward zero).
 */
import { describe, expect, test } from 'vitest';
import { renderTargetClearColor } from '../../../../src/memory/render-target-clear.js';
import { CANVAS_FORMAT_NAMES } from '../../../../src/gpu/canvas-surface.js';

describe('render-target clear colours', () => {
  test.each([
    // vkd3d-proton's test_clear_render_target_view colour {0.1, 0.5, 0.3, 0.75}; D3D's FLOAT -> UNORM gives 26, 128, 77, 191.
    ['R8G8B8A8_UNORM', [0.1, 0.5, 0.3, 0.75], [26 / 255, 128 / 255, 77 / 255, 191 / 255]],
    ['B8G8R8A8_UNORM', [0.1, 0.5, 0.3, 0.75], [26 / 255, 128 / 255, 77 / 255, 191 / 255]],
    // Its negative_value {1, -1, -0.5, -2} saturates in UNORM.
    ['R8G8B8A8_UNORM', [1, -1, -0.5, -2], [1, 0, 0, 0]],
    ['R8G8B8A8_UNORM', [2, 1e30, -1e30, 0.50000762951], [1, 1, 0, 128 / 255]],
    ['R16G16B16A16_FLOAT', [0.5, 1, -2, 65504], [0.5, 1, -2, 65504]],
    ['R16G16B16A16_FLOAT', [65520, -1e6, 3.4e38, -65519], [65504, -65504, 65504, -65504]],
    ['R16G16B16A16_FLOAT', [1 + 3 * 2 ** -11, 2049.5, 7 * 2 ** -26, -(2 ** -25)], [1 + 2 ** -10, 2048, 2 ** -24, -0]],
    ['R16G16B16A16_FLOAT', [0.1, 1e-40, 0, -0], [0.0999755859375, 0, 0, -0]],
  ] as const)('%s %j clears as %j', (format, color, expected) => {
    expect(renderTargetClearColor(format, color)).toEqual(expected);
  });

  test('every back-buffer format has a conversion; other formats have none', () => {
    for (const format of CANVAS_FORMAT_NAMES) expect(renderTargetClearColor(format, [0, 0, 0, 0])).toHaveLength(4);
    expect(() => renderTargetClearColor('R32G32B32A32_FLOAT', [0, 0, 0, 0])).toThrow(/not a back-buffer format/);
  });
});
