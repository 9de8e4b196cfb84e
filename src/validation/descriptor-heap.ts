/**
 * CreateDescriptorHeap and descriptor handles, checked as the runtime and debug layer check them.
 *
 * Rules: a type of D3D12_DESCRIPTOR_HEAP_TYPE; at least one descriptor; SHADER_VISIBLE only on
 * CBV_SRV_UAV and SAMPLER heaps (the flag "does not apply to other descriptor heap types"); a
 * shader-visible sampler heap holds at most 2048 descriptors (D3D12_MAX_SHADER_VISIBLE_SAMPLER_HEAP_SIZE),
 * any other heap at most MAX_DESCRIPTORS_PER_HEAP (D3D12 guarantees 1,000,000 CBV/SRV/UAV
 * descriptors in a shader-visible heap); a single-adapter node mask (0 or 1).
 */
import { invalidArg, show, type Checked } from '../api/errors.js';
import {
  DESCRIPTOR_HEAP_FLAGS,
  DESCRIPTOR_HEAP_TYPES,
  type DescriptorHeapFlag,
  type DescriptorHeapType,
} from '../api/binding-types.js';
import { asNameList, checkInteger, checkName, isObject } from './common.js';

/** D3D12_MAX_SHADER_VISIBLE_SAMPLER_HEAP_SIZE. */
export const MAX_SHADER_VISIBLE_SAMPLERS = 2048;
/** The most descriptors of any heap: 2^20 (the prelude's D3D12_MAX_HEAP_DESCRIPTORS; D3D12 guarantees 1,000,000). */
export const MAX_DESCRIPTORS_PER_HEAP = 1 << 20;

export interface FullDescriptorHeapDesc {
  type: DescriptorHeapType;
  numDescriptors: number;
  flags: DescriptorHeapFlag[];
  nodeMask: number;
}

/** Whether a heap of this description is bound on command lists (lives in GPU memory here). */
export const shaderVisible = (desc: FullDescriptorHeapDesc): boolean => desc.flags.includes('SHADER_VISIBLE');

export function validateCreateDescriptorHeap(desc: unknown): Checked<FullDescriptorHeapDesc> {
  const call = 'createDescriptorHeap';
  if (!isObject(desc))
    return invalidArg(call, 'desc', `must be a D3D12_DESCRIPTOR_HEAP_DESC object, got ${show(desc)}`);
  const typeProblem = checkName(call, 'desc.type', desc.type, DESCRIPTOR_HEAP_TYPES);
  if (typeProblem) return typeProblem;
  const type = desc.type as DescriptorHeapType;
  const flags = desc.flags === undefined ? [] : asNameList(desc.flags);
  for (let i = 0; i < flags.length; i++) {
    const problem = checkName(
      call,
      Array.isArray(desc.flags) ? `desc.flags[${i}]` : 'desc.flags',
      flags[i],
      DESCRIPTOR_HEAP_FLAGS,
    );
    if (problem) return problem;
  }
  const named = flags as DescriptorHeapFlag[];
  const visible = named.includes('SHADER_VISIBLE');
  if (visible && type !== 'CBV_SRV_UAV' && type !== 'SAMPLER') {
    return invalidArg(
      call,
      'desc.flags',
      `SHADER_VISIBLE applies to CBV_SRV_UAV and SAMPLER heaps only; a ${type} heap is never bound to shaders`,
    );
  }
  const max = visible && type === 'SAMPLER' ? MAX_SHADER_VISIBLE_SAMPLERS : MAX_DESCRIPTORS_PER_HEAP;
  const countProblem = checkInteger(call, 'desc.numDescriptors', desc.numDescriptors, 1, max);
  if (countProblem) {
    return visible && type === 'SAMPLER' && typeof desc.numDescriptors === 'number' && desc.numDescriptors > max
      ? invalidArg(
          call,
          'desc.numDescriptors',
          `a shader-visible sampler heap holds at most ${max} descriptors (D3D12_MAX_SHADER_VISIBLE_SAMPLER_HEAP_SIZE), got ${desc.numDescriptors}`,
        )
      : countProblem;
  }
  const nodeMask = desc.nodeMask ?? 0;
  const maskProblem = checkInteger(call, 'desc.nodeMask', nodeMask, 0, 1);
  if (maskProblem) return maskProblem;
  return {
    type,
    numDescriptors: desc.numDescriptors as number,
    flags: visible ? ['SHADER_VISIBLE'] : [],
    nodeMask: nodeMask as number,
  };
}

export function validateDescriptorHeapType(call: string, argument: string, type: unknown): Checked<DescriptorHeapType> {
  return checkName(call, argument, type, DESCRIPTOR_HEAP_TYPES) ?? (type as DescriptorHeapType);
}
