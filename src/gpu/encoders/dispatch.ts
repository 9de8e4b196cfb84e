/** Dispatches (and the UAV clears the queue made dispatches of): one compute dispatch each, in the open compute pass. */
import type { KindEncoder } from './encode-context.js';
import type { ExecutableCommand } from './executable-commands.js';

type Dispatch = Extract<ExecutableCommand, { kind: 'dispatch' }>;

export const dispatchEncoder: KindEncoder<Dispatch> = {
  // An empty dispatch runs nothing (D3D12); WebGPU would warn about it.
  plan: (command) => (command.groups.some((count) => count === 0) ? null : [{ root: command.root }]),

  encode(command, context, slots) {
    const { groups } = command;
    const slot = slots[0];
    if (!slot) return;
    const pass = context.passes.compute();
    pass.setBindGroup(0, context.prelude, [slot.offset]);
    pass.setPipeline(command.pipeline);
    pass.dispatchWorkgroups(groups[0], groups[1], groups[2]);
  },
};
