/**
 * EndQuery(TIMESTAMP) and ResolveQueryData: outside passes (WebGPU writes timestamps at pass
 * boundaries and resolves on the command encoder); see ../queries.ts. The copy of resolved results
 * into the destination is a copy command of its own, after the resolve.
 */
import { encodeResolve, encodeTimestamp } from '../queries.js';
import type { KindEncoder } from './encode-context.js';
import type { ExecutableCommand } from './executable-commands.js';

type Timestamp = Extract<ExecutableCommand, { kind: 'timestamp' }>;
type Resolve = Extract<ExecutableCommand, { kind: 'resolve' }>;

export const timestampEncoder: KindEncoder<Timestamp> = {
  plan: () => [],
  encode: (command, context) => encodeTimestamp(context.passes.outside(), command.querySet, command.queryIndex),
};

export const resolveEncoder: KindEncoder<Resolve> = {
  plan: () => [],
  encode(command, context) {
    const { querySet, first, count, results } = command;
    context.transient.push(encodeResolve(context.memory, context.passes.outside(), querySet, first, count, results));
  },
};
