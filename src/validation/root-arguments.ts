/**
 * Root arguments set against a root signature (Set{Compute,Graphics}Root32BitConstant(s),
 * Root{ConstantBuffer,ShaderResource,UnorderedAccess}View, RootDescriptorTable), checked as the debug
 * layer checks them: the parameter exists and is of the call's kind; constants stay inside the
 * parameter's values; an address is a 64-bit GPU virtual address; a table's base descriptor lies in
 * the descriptor heap of its kind that setDescriptorHeaps set (SAMPLER tables in the sampler heap,
 * the others in the CBV/SRV/UAV heap), at a descriptor, with the table's bounded ranges inside it.
 */
import { invalidArg, show, type Checked } from '../api/errors.js';
import { UNBOUNDED_DESCRIPTOR_RANGE } from '../api/binding-types.js';
import { checkInteger } from './common.js';
import type { CheckedParameter } from './root-signature.js';

/** A shader-visible descriptor heap as a table's check reads it. */
export interface TableHeap {
  readonly label: string;
  readonly gpuStart: bigint;
  readonly numDescriptors: number;
  readonly incrementSize: number;
  /** Released since setDescriptorHeaps set it (its handles no longer name descriptors). */
  readonly released?: boolean;
}

function parameterOf(
  call: string,
  parameters: readonly CheckedParameter[],
  index: unknown,
  kind: string,
  what: string,
): Checked<CheckedParameter> {
  const problem = checkInteger(call, 'rootParameterIndex', index, 0, Math.max(parameters.length - 1, 0));
  if (problem || parameters.length === 0)
    return invalidArg(
      call,
      'rootParameterIndex',
      `must be a parameter of the root signature set (0 to ${parameters.length - 1}), got ${show(index)}`,
    );
  const parameter = parameters[index as number] as CheckedParameter;
  if (parameter.type !== kind)
    return invalidArg(
      call,
      'rootParameterIndex',
      `parameter ${index as number} is a ${parameter.type} parameter; ${call} sets ${what}`,
    );
  return parameter;
}

/** Set*Root32BitConstant(s): the words to write at the parameter's first word + destOffset. */
export function validateSignatureConstants(
  call: string,
  parameters: readonly CheckedParameter[],
  index: unknown,
  values: readonly unknown[],
  destOffset: unknown,
): Checked<{ word: number; values: Uint32Array }> {
  const parameter = parameterOf(call, parameters, index, '32BIT_CONSTANTS', '32-bit root constants');
  if (!('word' in parameter)) return parameter;
  const offsetProblem = checkInteger(call, 'destOffsetIn32BitValues', destOffset, 0, parameter.values);
  if (offsetProblem) return offsetProblem;
  if ((destOffset as number) + values.length > parameter.values)
    return invalidArg(
      call,
      'srcData',
      `${values.length} values from offset ${destOffset as number} run past parameter ${index as number}'s ${parameter.values}`,
    );
  const words = new Uint32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < -(2 ** 31) || value >= 2 ** 32)
      return invalidArg(call, `srcData[${i}]`, `must be a 32-bit integer (signed or unsigned), got ${show(value)}`);
    words[i] = value >>> 0;
  }
  return { word: parameter.word + (destOffset as number), values: words };
}

/** Set*Root{ConstantBuffer,ShaderResource,UnorderedAccess}View: the parameter's first word. */
export function validateSignatureDescriptor(
  call: string,
  parameters: readonly CheckedParameter[],
  index: unknown,
  kind: 'CBV' | 'SRV' | 'UAV',
  bufferLocation: unknown,
): Checked<number> {
  const parameter = parameterOf(call, parameters, index, kind, `a root ${kind}`);
  if (!('word' in parameter)) return parameter;
  if (typeof bufferLocation !== 'bigint' || bufferLocation < 0n || bufferLocation >= 2n ** 64n)
    return invalidArg(
      call,
      'bufferLocation',
      `must be a GPU virtual address, a bigint from 0 to 2^64 - 1 (getGPUVirtualAddress()), got ${show(bufferLocation)}`,
    );
  return parameter.word;
}

/** Set*RootDescriptorTable: the parameter's first word and the table's address. */
export function validateSignatureTable(
  call: string,
  parameters: readonly CheckedParameter[],
  index: unknown,
  baseDescriptor: unknown,
  heapOf: (sampler: boolean) => TableHeap | undefined,
): Checked<{ word: number; address: bigint }> {
  const parameter = parameterOf(call, parameters, index, 'DESCRIPTOR_TABLE', 'a descriptor table');
  if (!('word' in parameter)) return parameter;
  const ptr = (baseDescriptor as { ptr?: unknown } | null)?.ptr;
  if (typeof baseDescriptor !== 'object' || baseDescriptor === null || typeof ptr !== 'bigint')
    return invalidArg(
      call,
      'baseDescriptor',
      `must be a D3D12_GPU_DESCRIPTOR_HANDLE ({ ptr: bigint }), got ${show(baseDescriptor)}`,
    );
  const sampler = parameter.ranges[0]?.type === 'SAMPLER';
  const kind = sampler ? 'SAMPLER' : 'CBV_SRV_UAV';
  const heap = heapOf(sampler);
  if (!heap)
    return invalidArg(
      call,
      'baseDescriptor',
      `parameter ${index as number} is a ${kind} table, and no ${kind} descriptor heap is set (setDescriptorHeaps)`,
    );
  if (heap.released)
    return invalidArg(
      call,
      'baseDescriptor',
      `${heap.label}, the ${kind} heap set (setDescriptorHeaps), was released; its descriptors are gone`,
    );
  const offset = ptr - heap.gpuStart;
  const bytes = BigInt(heap.numDescriptors * heap.incrementSize);
  if (offset < 0n || offset >= bytes || offset % BigInt(heap.incrementSize) !== 0n)
    return invalidArg(
      call,
      'baseDescriptor',
      `0x${ptr.toString(16)} is not a descriptor of ${heap.label}, the ${kind} heap set`,
    );
  const first = Number(offset) / heap.incrementSize;
  for (const range of parameter.ranges) {
    const end = first + range.offset + (range.count === UNBOUNDED_DESCRIPTOR_RANGE ? 1 : range.count);
    if (end > heap.numDescriptors)
      return invalidArg(
        call,
        'baseDescriptor',
        `the table from descriptor ${first} of ${heap.label} runs past its ${heap.numDescriptors} descriptors (a range ends at ${end})`,
      );
  }
  return { word: parameter.word, address: ptr };
}
