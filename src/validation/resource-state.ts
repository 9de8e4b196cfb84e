/**
 * Initial resource states and optimized clear values, as creation checks them.
 *
 * States: a write state (RENDER_TARGET, UNORDERED_ACCESS, DEPTH_WRITE, STREAM_OUT, COPY_DEST,
 * RESOLVE_DEST) stands alone; read states may be ORed (given as an array); a state that needs a
 * resource flag needs it (RENDER_TARGET, UNORDERED_ACCESS, DEPTH_WRITE/READ); UPLOAD heaps require
 * GENERIC_READ and READBACK heaps COPY_DEST. D3D12 creates buffers outside UPLOAD/READBACK heaps in
 * COMMON whatever the initial state says (the debug layer warns that it is ignored); so does this.
 */
import { D3D12Error, invalidArg, show, type Checked } from '../api/errors.js';
import {
  RESOURCE_STATE_BITS,
  RESOURCE_STATES,
  type FullResourceDesc,
  type HeapType,
  type ResourceState,
} from '../api/types.js';
import { formatInfo, type FormatInfo } from '../memory/formats.js';
import { asNameList, checkName, isObject, type Problem } from './common.js';

const S = RESOURCE_STATE_BITS;
export const WRITE_STATE_BITS =
  S.RENDER_TARGET | S.UNORDERED_ACCESS | S.DEPTH_WRITE | S.STREAM_OUT | S.COPY_DEST | S.RESOLVE_DEST;

/** The resource flag a state bit needs. */
const STATE_NEEDS_FLAG: [number, string, string][] = [
  [S.RENDER_TARGET, 'RENDER_TARGET', 'ALLOW_RENDER_TARGET'],
  [S.UNORDERED_ACCESS, 'UNORDERED_ACCESS', 'ALLOW_UNORDERED_ACCESS'],
  [S.DEPTH_WRITE, 'DEPTH_WRITE', 'ALLOW_DEPTH_STENCIL'],
  [S.DEPTH_READ, 'DEPTH_READ', 'ALLOW_DEPTH_STENCIL'],
];

/** Checks a state (name or array of names) and returns its bits. */
export function checkResourceState(call: string, argument: string, value: unknown): Checked<number> {
  const names = asNameList(value);
  if (names.length === 0) return invalidArg(call, argument, 'must name at least one state');
  let bits = 0;
  for (let i = 0; i < names.length; i++) {
    const problem = checkName(call, Array.isArray(value) ? `${argument}[${i}]` : argument, names[i], RESOURCE_STATES);
    if (problem) return problem;
    bits |= RESOURCE_STATE_BITS[names[i] as ResourceState];
  }
  const writes = bits & WRITE_STATE_BITS;
  if (writes !== 0 && bits !== writes)
    return invalidArg(call, argument, `a write state cannot be combined with other states, got ${show(value)}`);
  if (writes !== 0 && (writes & (writes - 1)) !== 0)
    return invalidArg(call, argument, `write states cannot be combined, got ${show(value)}`);
  return bits;
}

/** The initial state's rules for a resource of `desc` in a heap of `heapType` (undefined: reserved). */
export function checkInitialState(
  call: string,
  argument: string,
  value: unknown,
  desc: FullResourceDesc,
  heapType: HeapType | undefined,
): Checked<number> {
  const bits = checkResourceState(call, argument, value);
  if (bits instanceof D3D12Error) return bits;
  if (heapType === 'UPLOAD' && bits !== S.GENERIC_READ) {
    return invalidArg(call, argument, `a resource in an UPLOAD heap must start in GENERIC_READ, got ${show(value)}`);
  }
  if (heapType === 'READBACK' && bits !== S.COPY_DEST) {
    return invalidArg(call, argument, `a resource in a READBACK heap must start in COPY_DEST, got ${show(value)}`);
  }
  for (const [bit, state, flag] of STATE_NEEDS_FLAG) {
    if ((bits & bit) !== 0 && !desc.flags.includes(flag as FullResourceDesc['flags'][number])) {
      return invalidArg(call, argument, `${state} needs a resource created with ${flag}`);
    }
  }
  return bits;
}

/** The state a resource really starts in (buffers in GPU-only memory start in COMMON). */
export function effectiveInitialState(bits: number, desc: FullResourceDesc, heapType: HeapType | undefined): number {
  return desc.dimension === 'BUFFER' && heapType !== 'UPLOAD' && heapType !== 'READBACK' ? S.COMMON : bits;
}

const inUnitRange = (value: unknown): boolean => typeof value === 'number' && value >= 0 && value <= 1;

/** pOptimizedClearValue: only for render targets (a color) and depth-stencil (depth and stencil). */
export function checkClearValue(
  call: string,
  argument: string,
  value: unknown,
  desc: FullResourceDesc,
  format: FormatInfo | undefined,
): Problem {
  if (value === undefined || value === null) return undefined;
  if (desc.dimension === 'BUFFER') return invalidArg(call, argument, 'a buffer cannot have an optimized clear value');
  const rt = desc.flags.includes('ALLOW_RENDER_TARGET');
  const ds = desc.flags.includes('ALLOW_DEPTH_STENCIL');
  if (!rt && !ds)
    return invalidArg(call, argument, 'only render targets and depth-stencil textures take an optimized clear value');
  if (!isObject(value)) return invalidArg(call, argument, `must be a D3D12_CLEAR_VALUE object, got ${show(value)}`);
  // D3D12_CLEAR_VALUE's format follows the rules of view creation: typed, of the resource's family,
  // and a depth format for a depth-stencil target.
  const clearFormat = formatInfo(String(value.format));
  if (!clearFormat || clearFormat.family !== format?.family) {
    return invalidArg(
      call,
      `${argument}.format`,
      `must be ${desc.format} or a format of its family, got ${show(value.format)}`,
    );
  }
  if (clearFormat.typeless)
    return invalidArg(
      call,
      `${argument}.format`,
      `must be a typed format, as a view's is; ${String(value.format)} is TYPELESS`,
    );
  if (ds && clearFormat.kind !== 'depth')
    return invalidArg(
      call,
      `${argument}.format`,
      `a depth-stencil clear value needs a depth format, got ${String(value.format)}`,
    );
  if (rt && clearFormat.kind !== 'color')
    return invalidArg(
      call,
      `${argument}.format`,
      `a render target's clear value needs a color format, got ${String(value.format)}`,
    );
  if (rt) {
    const color = value.color;
    if (
      !Array.isArray(color) ||
      color.length !== 4 ||
      !color.every((c) => typeof c === 'number' && Number.isFinite(c))
    ) {
      return invalidArg(
        call,
        `${argument}.color`,
        `a render target's clear value needs four finite numbers, got ${show(color)}`,
      );
    }
    return undefined;
  }
  const depthStencil = value.depthStencil;
  if (!isObject(depthStencil) || !inUnitRange(depthStencil.depth)) {
    return invalidArg(
      call,
      `${argument}.depthStencil.depth`,
      `a depth clear value must be in [0, 1], got ${show(isObject(depthStencil) ? depthStencil.depth : depthStencil)}`,
    );
  }
  const stencil = depthStencil.stencil ?? 0;
  if (typeof stencil !== 'number' || !Number.isInteger(stencil) || stencil < 0 || stencil > 255) {
    return invalidArg(
      call,
      `${argument}.depthStencil.stencil`,
      `a stencil clear value must be an integer in [0, 255], got ${show(stencil)}`,
    );
  }
  return undefined;
}
