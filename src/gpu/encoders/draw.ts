/**
 * DrawInstanced: a draw in the render pass on its back buffer (consecutive draws into one target
 * share it). With validation or unmapped-access recording, the vertex stage's replay (a compute
 * dispatch with the draw's constants) runs just before, since the vertex stage cannot record faults
 * or unmapped accesses.
 */
import { VERTEX_REPLAY } from '../pipelines.js';
import type { KindEncoder } from './encode-context.js';
import type { ExecutableCommand } from './executable-commands.js';

type Draw = Extract<ExecutableCommand, { kind: 'draw' }>;

const MAX_WORKGROUPS = 65535;

/** Clips `draw`'s viewport and scissor to its target (drawInstanced checked them; a canvas resized since is clipped). */
function setViewportAndScissor(pass: GPURenderPassEncoder, draw: Draw): void {
  const { viewport, scissor, target } = draw;
  if (viewport) {
    const x = Math.min(viewport.topLeftX, target.width);
    const y = Math.min(viewport.topLeftY, target.height);
    pass.setViewport(
      x,
      y,
      Math.min(viewport.width, target.width - x),
      Math.min(viewport.height, target.height - y),
      viewport.minDepth ?? 0,
      viewport.maxDepth ?? 1,
    );
  }
  if (scissor) {
    const left = Math.min(scissor.left, target.width);
    const top = Math.min(scissor.top, target.height);
    pass.setScissorRect(
      left,
      top,
      Math.min(scissor.right, target.width) - left,
      Math.min(scissor.bottom, target.height) - top,
    );
  }
}

export const drawEncoder: KindEncoder<Draw> = {
  plan(command, { settings, unmapped }) {
    const { vertices, vertexReplay } = command;
    const constants = { root: command.root, draw: vertices, assembler: command.assembler };
    const replay = vertexReplay && (settings.validation || unmapped.recording) && vertices[0] > 0 && vertices[1] > 0;
    // The replay's constants, then the draw's (the same).
    return replay ? [constants, constants] : [constants];
  },

  encode(command, context, slots) {
    const { vertices } = command;
    const [replaySlot, drawSlot] = slots.length === 2 ? slots : [undefined, slots[0]];
    if (!drawSlot) return;
    if (replaySlot && command.vertexReplay) {
      const replay = context.passes.compute();
      replay.setBindGroup(0, context.prelude, [replaySlot.offset]);
      replay.setPipeline(command.vertexReplay);
      replay.dispatchWorkgroups(
        Math.min(Math.ceil(vertices[0] / VERTEX_REPLAY.workgroup), MAX_WORKGROUPS),
        Math.min(vertices[1], VERTEX_REPLAY.instanceStride),
      );
    }
    const pass = context.passes.render(command.target);
    pass.setBindGroup(0, context.graphicsPrelude as GPUBindGroup, [drawSlot.offset]);
    pass.setPipeline(command.pipeline);
    setViewportAndScissor(pass, command);
    pass.draw(vertices[0], vertices[1], vertices[2], vertices[3]);
  },
};
