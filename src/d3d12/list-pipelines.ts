/**
 * Which pipeline states a command list takes (setPipelineState, and create or reset with an initial
 * state): none on a COPY list, compute ones only on a COMPUTE list, and only the device's own.
 */
import { invalidArg, type D3D12Error } from '../api/errors.js';
import type { CommandListType } from '../api/types.js';
import type { PipelineState } from './pipeline-state.js';

/** The error of passing `value` as `argument` of `call` to `list`, or undefined when it takes it. */
export function pipelineProblem(
  list: { type: CommandListType; label: string },
  owner: { ownPipelineState(value: unknown): PipelineState | undefined },
  call: string,
  argument: string,
  value: unknown,
): D3D12Error | undefined {
  // setPipelineState on a COPY list: the list is at fault; an initial state for one: the state is.
  if (list.type === 'COPY')
    return argument === 'pipelineState'
      ? invalidArg(call, 'this', `${list.label} is a COPY list, which cannot run shaders`)
      : invalidArg(call, argument, `${list.label} is a COPY list, which cannot run shaders (pass null)`);
  const pipeline = owner.ownPipelineState(value);
  if (!pipeline) return invalidArg(call, argument, 'must be a pipeline state created by this device');
  // A compute list holds compute state only (D3D12's debug layer refuses a graphics PSO there).
  if (list.type === 'COMPUTE' && pipeline.kind !== 'compute')
    return invalidArg(
      call,
      argument,
      `${pipeline.label} is a graphics pipeline state; ${list.label} runs compute pipeline states only`,
    );
  return undefined;
}
