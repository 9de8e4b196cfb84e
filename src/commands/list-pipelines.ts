/**
 * Which pipeline states a command list takes (setPipelineState, and create or reset with an initial
 * state): none set on a COPY list, compute ones only on a COMPUTE list, and only the device's own.
 * A COPY list created or reset with an initial state takes and ignores it, as D3D12 does (the
 * documentation puts no rule on it, and Microsoft's D3D12Residency sample creates its copy lists so).
 */
import { invalidArg, type D3D12Error } from '../api/errors.js';
import type { CommandListType } from '../api/types.js';
import type { PipelineState } from '../d3d12/pipeline-state.js';

/** The error of passing `value` as `argument` of `call` to `list`, or undefined when it takes it. */
export function pipelineProblem(
  list: { type: CommandListType; label: string },
  owner: { ownPipelineState(value: unknown): PipelineState | undefined },
  call: string,
  argument: string,
  value: unknown,
): D3D12Error | undefined {
  // setPipelineState on a COPY list: the list is at fault.
  if (list.type === 'COPY' && argument === 'pipelineState')
    return invalidArg(call, 'this', `${list.label} is a COPY list, which cannot run shaders`);
  const pipeline = owner.ownPipelineState(value);
  if (!pipeline) return invalidArg(call, argument, 'must be a pipeline state created by this device');
  if (list.type === 'COPY') return undefined;
  // A compute list holds compute state only (D3D12's debug layer refuses a graphics PSO there).
  if (list.type === 'COMPUTE' && pipeline.kind !== 'compute')
    return invalidArg(
      call,
      argument,
      `${pipeline.label} is a graphics pipeline state; ${list.label} runs compute pipeline states only`,
    );
  return undefined;
}
