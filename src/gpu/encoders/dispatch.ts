/** Dispatches (and the UAV clears the queue made dispatches of): one compute dispatch each, in the open compute pass. */
import type { KindEncoder } from './encode-context.js';
import type { ExecutableCommand } from './executable-commands.js';

type Dispatch = Extract<ExecutableCommand, { kind: 'dispatch' }>;

export const dispatchEncoder: KindEncoder<Dispatch> = {
  // An empty dispatch runs nothing (D3D12); WebGPU would warn about it.
  plan(command, planning) {
    if (command.groups.some((count) => count === 0)) return null;
    const { mirrors } = planning;
    // A pipeline that opens textures resolves its root descriptors to the mirrors bound with it.
    const set = mirrors.serves(command.pipeline) ? mirrors.setFor(command.addresses) : undefined;
    return [set ? { root: command.root, mirrors: set } : { root: command.root }];
  },

  encode(command, context, slots) {
    const { groups } = command;
    const slot = slots[0];
    if (!slot) return;
    const pass = context.passes.compute();
    const set = slot.constants.mirrors;
    if (set) {
      set.group ??= context.mirrorPrelude(set);
      pass.setBindGroup(0, set.group, [slot.offset]);
      if (!set.resolved) {
        // The set's first dispatch: its descriptors are compared with its mirrors' first.
        set.resolved = true;
        pass.setPipeline(context.mirrorResolve());
        pass.dispatchWorkgroups(1);
      }
    } else {
      pass.setBindGroup(0, context.prelude, [slot.offset]);
    }
    pass.setPipeline(command.pipeline);
    pass.dispatchWorkgroups(groups[0], groups[1], groups[2]);
  },
};
