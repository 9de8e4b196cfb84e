/**
 * What a DIRECT list's drawing commands set and draw with: the render target (a back buffer), the
 * viewport and the scissor rectangle, checked as they are set (validation/draw.ts) and again, against
 * the pipeline state and the target, at drawInstanced, which becomes a recorded draw.
 */
import { invalidArg, orThrow, show } from '../api/errors.js';
import type { Rect, Viewport } from '../api/types.js';
import {
  validateClearColor,
  validateScissorRects,
  validateViewportInTarget,
  validateViewports,
} from '../validation/draw.js';
import { renderTargetClearColor } from '../memory/render-target-clear.js';
import type { PipelineState } from '../d3d12/pipeline-state.js';
import type { RecordedCommand } from './recorded-commands.js';
import { BackBuffer } from '../d3d12/swap-chain.js';
import type { IaPrimitiveTopology, IndexBufferView, VertexBufferView } from '../api/binding-types.js';
import type { PrimitiveTopology } from '../d3d12/pipeline-state.js';
import {
  validateIndexBuffer,
  validatePrimitiveTopology,
  validateVertexBuffers,
} from '../validation/input-assembler.js';
import { INPUT_SLOTS } from '../validation/input-layout.js';

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

/** Words of a draw's input assembler constants: draw_indexed, index_buffer, then the vertex buffers (the prelude's D3D12DispatchInfo). */
const IA_WORDS = 8 + 4 * INPUT_SLOTS;

/** The topologies a pipeline of each topology type draws. */
const OF_TYPE: Record<'POINT' | 'LINE' | 'TRIANGLE', readonly PrimitiveTopology[]> = {
  POINT: ['POINTLIST'],
  LINE: ['LINELIST', 'LINESTRIP'],
  TRIANGLE: ['TRIANGLELIST', 'TRIANGLESTRIP'],
};

export class DrawState {
  private renderTarget: BackBuffer | undefined;
  private viewport: Viewport | undefined;
  private scissor: Rect | undefined;
  /** IASetPrimitiveTopology (undefined: none set, the pipeline's own topology). */
  private topology: IaPrimitiveTopology | undefined;
  private vertexBuffers: (VertexBufferView | undefined)[] = [];
  private indexBuffer: IndexBufferView | undefined;

  clear(): void {
    this.renderTarget = undefined;
    this.viewport = undefined;
    this.scissor = undefined;
    this.topology = undefined;
    this.vertexBuffers = [];
    this.indexBuffer = undefined;
  }

  setPrimitiveTopology(topology: unknown): void {
    this.topology = orThrow(validatePrimitiveTopology(topology));
  }

  setVertexBuffers(startSlot: unknown, views: unknown): void {
    for (const [slot, view] of orThrow(validateVertexBuffers(startSlot, views)))
      this.vertexBuffers[slot] = view ? { ...view } : undefined;
  }

  setIndexBuffer(view: unknown): void {
    const checked = orThrow(validateIndexBuffer(view));
    this.indexBuffer = checked ? { ...checked } : undefined;
  }

  /**
   * The topology a draw with `pipeline` uses: the one set, of the pipeline's type; or, with none set,
   * the pipeline's own.
   */
  private drawTopology(method: string, pipeline: PipelineState): PrimitiveTopology {
    const type = pipeline.parts.topologyType ?? 'TRIANGLE';
    if (this.topology === undefined) return pipeline.parts.fixedTopology ?? 'TRIANGLELIST';
    if (this.topology === 'UNDEFINED')
      throw invalidArg(method, 'this', 'the primitive topology set is UNDEFINED (iaSetPrimitiveTopology)');
    if (!OF_TYPE[type].includes(this.topology))
      throw invalidArg(
        method,
        'this',
        `the topology set, ${this.topology}, is not of ${pipeline.label}'s type ${type}`,
      );
    return this.topology;
  }

  /** The input assembler's constants of a draw (`indexed`: start index, base vertex), the vertex buffers in the pipeline's slot order. */
  private assembler(pipeline: PipelineState, indexed?: [number, number]): Uint32Array {
    const words = new Uint32Array(IA_WORDS);
    if (indexed && this.indexBuffer) {
      const bytes = this.indexBuffer.format === 'R16_UINT' ? 2 : 4;
      words.set([indexed[0], indexed[1] >>> 0, bytes, this.indexBuffer.sizeInBytes], 0);
      words[4] = Number(this.indexBuffer.bufferLocation & 0xffffffffn);
      words[5] = Number(this.indexBuffer.bufferLocation >> 32n);
    }
    (pipeline.parts.inputSlots ?? []).forEach((slot, i) => {
      const view = this.vertexBuffers[slot];
      if (!view) return;
      const at = 8 + 4 * i;
      words[at] = Number(view.bufferLocation & 0xffffffffn);
      words[at + 1] = Number(view.bufferLocation >> 32n);
      words[at + 2] = view.sizeInBytes;
      words[at + 3] = view.strideInBytes;
    });
    return words;
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

  /**
   * ClearRenderTargetView of the whole target. The colour is converted to the target's format here,
   * D3D12's way, and recorded as the value the stored bits stand for, so that WebGPU's own conversion
   * of the clear colour cannot round differently (memory/render-target-clear.ts).
   */
  clearCommand(method: string, renderTarget: unknown, colorRGBA: unknown): RecordedCommand {
    const target = backBuffer(method, 'renderTargetView', renderTarget);
    const color = renderTargetClearColor(target.format, orThrow(validateClearColor(colorRGBA)));
    return { kind: 'clear', target, color };
  }

  /**
   * DrawInstanced (`indexed` undefined) or DrawIndexedInstanced (`indexed`: start index, base vertex;
   * `vertices`: index count, instance count, 0, start instance) with `pipeline` (the one set) and
   * `root` (a snapshot of the graphics root arguments).
   */
  drawCommand(
    method: string,
    pipeline: PipelineState | undefined,
    root: Uint32Array,
    vertices: [number, number, number, number],
    indexed?: [number, number],
  ): Extract<RecordedCommand, { kind: 'draw' }> {
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
    if (indexed && !this.indexBuffer) throw invalidArg(method, 'this', 'no index buffer is set (iaSetIndexBuffer)');
    if (this.viewport) {
      const outside = validateViewportInTarget(method, this.viewport, target.width, target.height);
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
      topology: this.drawTopology(method, pipeline),
      assembler: this.assembler(pipeline, indexed),
      addresses: [],
      memory: [],
    };
  }
}
