/**
 * Drawing argument rules (ID3D12GraphicsCommandList on DIRECT lists): clear colours, viewports,
 * scissor rectangles and draw counts. State rules that need the list (a pipeline or a render target
 * set, the back buffer still current) stay with the list.
 */
import { invalidArg, show, type Checked } from '../api/errors.js';
import type { Rect, Viewport } from '../api/types.js';
import { checkInteger, type Problem } from './common.js';

/**
 * D3D12_VIEWPORT_BOUNDS_MIN/MAX. WebGPU is narrower: a viewport must lie inside the render target,
 * which drawInstanced and drawIndexedInstanced check once the target is known (validateViewportInTarget).
 */
const VIEWPORT_BOUNDS_MIN = -32768;
const VIEWPORT_BOUNDS_MAX = 32767;

/** clearRenderTargetView's ColorRGBA: four finite floats. */
export function validateClearColor(color: unknown): Checked<[number, number, number, number]> {
  if (!Array.isArray(color) || color.length !== 4 || !color.every((c) => typeof c === 'number' && Number.isFinite(c))) {
    return invalidArg('clearRenderTargetView', 'colorRGBA', `must be four finite numbers, got ${show(color)}`);
  }
  return [color[0], color[1], color[2], color[3]] as [number, number, number, number];
}

/** rsSetViewports: exactly one viewport (one render target), finite, with a positive size and depth in [0, 1]. */
export function validateViewports(viewports: unknown): Checked<Viewport> {
  const call = 'rsSetViewports';
  if (!Array.isArray(viewports) || viewports.length !== 1)
    return invalidArg(call, 'viewports', `must hold exactly one D3D12_VIEWPORT, got ${show(viewports)}`);
  const viewport = viewports[0] as Partial<Record<keyof Viewport, unknown>> | null;
  if (typeof viewport !== 'object' || viewport === null)
    return invalidArg(call, 'viewports[0]', `must be a D3D12_VIEWPORT, got ${show(viewport)}`);
  for (const field of ['topLeftX', 'topLeftY', 'width', 'height'] as const) {
    const value = viewport[field];
    if (typeof value !== 'number' || !Number.isFinite(value))
      return invalidArg(call, `viewports[0].${field}`, `must be a finite number, got ${show(value)}`);
    if ((field === 'width' || field === 'height') && value <= 0)
      return invalidArg(call, `viewports[0].${field}`, `must be positive, got ${value}`);
  }
  const { topLeftX, topLeftY, width, height } = viewport as Viewport;
  for (const [field, start, size] of [
    ['X', topLeftX, width],
    ['Y', topLeftY, height],
  ] as const) {
    if (start < VIEWPORT_BOUNDS_MIN || start + size > VIEWPORT_BOUNDS_MAX) {
      return invalidArg(
        call,
        `viewports[0].topLeft${field}`,
        `the viewport must lie within [${VIEWPORT_BOUNDS_MIN}, ${VIEWPORT_BOUNDS_MAX}] (D3D12_VIEWPORT_BOUNDS_MIN/MAX), got ${start} + ${size}`,
      );
    }
  }
  const depth = { minDepth: viewport.minDepth ?? 0, maxDepth: viewport.maxDepth ?? 1 };
  for (const [field, value] of Object.entries(depth)) {
    if (typeof value !== 'number' || !(value >= 0 && value <= 1))
      return invalidArg(
        call,
        `viewports[0].${field}`,
        `must be in [0, 1] (D3D12_MIN_DEPTH..D3D12_MAX_DEPTH), got ${show(value)}`,
      );
  }
  const { minDepth, maxDepth } = depth as { minDepth: number; maxDepth: number };
  if (minDepth > maxDepth)
    return invalidArg(call, 'viewports[0].minDepth', `must not exceed maxDepth (${maxDepth}), got ${minDepth}`);
  return { topLeftX, topLeftY, width, height, minDepth, maxDepth };
}

/** rsSetScissorRects: exactly one rectangle of non-negative integers, right >= left, bottom >= top. */
export function validateScissorRects(rects: unknown): Checked<Rect> {
  const call = 'rsSetScissorRects';
  if (!Array.isArray(rects) || rects.length !== 1)
    return invalidArg(call, 'rects', `must hold exactly one D3D12_RECT, got ${show(rects)}`);
  const rect = rects[0] as Partial<Record<keyof Rect, unknown>> | null;
  if (typeof rect !== 'object' || rect === null)
    return invalidArg(call, 'rects[0]', `must be a D3D12_RECT, got ${show(rect)}`);
  for (const field of ['left', 'top', 'right', 'bottom'] as const) {
    const problem = checkInteger(call, `rects[0].${field}`, rect[field], 0);
    if (problem) return problem;
  }
  const { left, top, right, bottom } = rect as Rect;
  if (right < left) return invalidArg(call, 'rects[0].right', `must be at least left (${left}), got ${right}`);
  if (bottom < top) return invalidArg(call, 'rects[0].bottom', `must be at least top (${top}), got ${bottom}`);
  return { left, top, right, bottom };
}

/** drawInstanced's four counts: 32-bit unsigned integers. */
export function validateDrawInstanced(
  vertexCountPerInstance: unknown,
  instanceCount: unknown,
  startVertexLocation: unknown,
  startInstanceLocation: unknown,
): Problem {
  const call = 'drawInstanced';
  const max = 0xffffffff;
  return (
    checkInteger(call, 'vertexCountPerInstance', vertexCountPerInstance, 0, max) ??
    checkInteger(call, 'instanceCount', instanceCount, 0, max) ??
    checkInteger(call, 'startVertexLocation', startVertexLocation, 0, max) ??
    checkInteger(call, 'startInstanceLocation', startInstanceLocation, 0, max)
  );
}

/**
 * WebGPU's rule, which the emulator keeps because it cannot move a viewport's transform outside the
 * target: the viewport must lie inside the render target. D3D12 allows a viewport that sticks out.
 */
export function validateViewportInTarget(call: string, viewport: Viewport, width: number, height: number): Problem {
  if (
    viewport.topLeftX < 0 ||
    viewport.topLeftY < 0 ||
    viewport.topLeftX + viewport.width > width ||
    viewport.topLeftY + viewport.height > height
  ) {
    const { topLeftX, topLeftY } = viewport;
    return invalidArg(
      call,
      'this',
      `the viewport (${topLeftX}, ${topLeftY}, ${viewport.width} x ${viewport.height}) must lie inside the ${width} x ${height} render target (a WebGPU rule the emulator keeps)`,
    );
  }
  return undefined;
}
