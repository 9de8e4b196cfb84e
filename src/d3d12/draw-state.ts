/**
 * What a DIRECT list's drawing commands set and draw with: the render target (a back buffer), the
 * viewport and the scissor rectangle, checked as they are set (validation/draw.ts) and again, against
 * the pipeline state and the target, at drawInstanced, which becomes a recorded draw.
 */
import { invalidArg, orThrow, show } from '../api/errors.js';
import type { Rect, Viewport } from '../api/types.js';
import {
  validateClearColor,
  validateDrawInstanced,
  validateScissorRects,
  validateViewportInTarget,
  validateViewports,
} from '../validation/draw.js';
import type { PipelineState } from './pipeline-state.js';
import type { RecordedCommand } from './recorded-commands.js';
import { BackBuffer } from './swap-chain.js';

/** `value` as a current back buffer, or the error naming `argument` of `method`. */
function backBuffer(method: string, argument: string, value: unknown): BackBuffer {
  if (!(value instanceof BackBuffer)) {
    throw invalidArg(
      method,
      argument,
      `must be a back buffer from SwapChain.getCurrentBackBuffer() (render targets in heap memory are not emulated), got ${show(value)}`,
    );
  }
  if (!value.current)
    throw invalidArg(method, argument, `${value.label} was presented; draw into the current frame's back buffer`);
  return value;
}

export class DrawState {
  private renderTarget: BackBuffer | undefined;
  private viewport: Viewport | undefined;
  private scissor: Rect | undefined;

  clear(): void {
    this.renderTarget = undefined;
    this.viewport = undefined;
    this.scissor = undefined;
  }

  /** OMSetRenderTargets: one back buffer, or none. */
  setRenderTargets(method: string, renderTargets: unknown): void {
    if (!Array.isArray(renderTargets) || renderTargets.length > 1)
      throw invalidArg(
        method,
        'renderTargets',
        `must be an array of at most one back buffer, got ${show(renderTargets)}`,
      );
    this.renderTarget =
      renderTargets[0] === undefined ? undefined : backBuffer(method, 'renderTargets[0]', renderTargets[0]);
  }

  setViewports(viewports: unknown): void {
    this.viewport = orThrow(validateViewports(viewports));
  }

  setScissorRects(rects: unknown): void {
    this.scissor = orThrow(validateScissorRects(rects));
  }

  /** ClearRenderTargetView of the whole target. */
  clearCommand(method: string, renderTarget: unknown, colorRGBA: unknown): RecordedCommand {
    const target = backBuffer(method, 'renderTargetView', renderTarget);
    const color = orThrow(validateClearColor(colorRGBA));
    return { kind: 'clear', target, color };
  }

  /** DrawInstanced with `pipeline` (the one set) and `root` (a snapshot of the graphics root arguments). */
  drawCommand(
    method: string,
    pipeline: PipelineState | undefined,
    root: Uint32Array,
    vertices: [number, number, number, number],
  ): Extract<RecordedCommand, { kind: 'draw' }> {
    const problem = validateDrawInstanced(...vertices);
    if (problem) throw problem;
    if (!pipeline || pipeline.kind !== 'graphics')
      throw invalidArg(method, 'this', 'no graphics pipeline state is set (setPipelineState)');
    const target = this.renderTarget;
    if (!target) throw invalidArg(method, 'this', 'no render target is set (omSetRenderTargets)');
    if (!target.current) throw invalidArg(method, 'this', `${target.label} was presented`);
    if (pipeline.rtvFormat !== target.format) {
      throw invalidArg(
        method,
        'this',
        `${pipeline.label} renders to ${pipeline.rtvFormat ?? '?'} but ${target.label} is ${target.format} (RTVFormats[0] must match the render target)`,
      );
    }
    if (this.viewport) {
      const outside = validateViewportInTarget(this.viewport, target.width, target.height);
      if (outside) throw outside;
    }
    return {
      kind: 'draw',
      pipeline,
      root,
      target,
      viewport: this.viewport,
      scissor: this.scissor,
      vertices,
      addresses: [],
      memory: [],
    };
  }
}
