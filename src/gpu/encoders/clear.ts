/** ClearRenderTargetView: a render pass of its own on the back buffer, whose load op clears it. */
import type { KindEncoder } from './encode-context.js';
import type { ExecutableCommand } from './executable-commands.js';

type Clear = Extract<ExecutableCommand, { kind: 'clear' }>;

export const clearEncoder: KindEncoder<Clear> = {
  plan: () => [],
  encode: (command, context) => context.passes.clear(command.target, command.color),
};
