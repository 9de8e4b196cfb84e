/**
 * Root arguments (the emulator's one root signature): root parameter 0 holds ROOT_CONSTANT_COUNT
 * 32-bit constants; root parameters 1 to ROOT_DESCRIPTOR_COUNT hold root descriptors, a GPU virtual
 * address each (SetComputeRootShaderResourceView and the like; d3d12_root_descriptor(i) in WGSL).
 * A list keeps one set for compute and one for graphics, as D3D12 keeps them apart, and each
 * dispatch or draw records a snapshot of the words: the constants, then two words per descriptor.
 */
import { invalidArg, orThrow, show, type D3D12Error } from '../api/errors.js';
import { preludeConstant } from '../gpu/prelude.js';
import { validateRootConstants, validateRootDescriptor } from '../validation/command-list.js';

/** Root parameter 0: this many 32-bit constants (prelude: D3D12_ROOT_CONSTANT_COUNT). */
export const ROOT_CONSTANT_COUNT = preludeConstant('D3D12_ROOT_CONSTANT_COUNT');
/** Root parameters 1 to this: root descriptors, a GPU virtual address each (prelude: D3D12_ROOT_DESCRIPTOR_COUNT). */
export const ROOT_DESCRIPTOR_COUNT = preludeConstant('D3D12_ROOT_DESCRIPTOR_COUNT');
/** A list's root arguments as recorded per dispatch or draw: the constants, then two words per descriptor. */
const ROOT_ARGUMENT_WORDS = ROOT_CONSTANT_COUNT + 2 * ROOT_DESCRIPTOR_COUNT;

export class RootArguments {
  private words = new Uint32Array(ROOT_ARGUMENT_WORDS);

  /** Set*Root32BitConstants (or, `single`, Set*Root32BitConstant's one value, checked as `srcData`). */
  setConstants(
    method: string,
    rootParameterIndex: unknown,
    srcData: unknown,
    destOffsetIn32BitValues: unknown,
    single: boolean,
  ): void {
    const values = single ? singleConstant(method, srcData) : srcData;
    const words = orThrow(
      validateRootConstants(rootParameterIndex, values, destOffsetIn32BitValues, ROOT_CONSTANT_COUNT, method),
    );
    this.words.set(words, destOffsetIn32BitValues as number);
  }

  /** Set*Root{ConstantBuffer,ShaderResource,UnorderedAccess}View. */
  setDescriptor(method: string, rootParameterIndex: unknown, bufferLocation: unknown): void {
    const problem: D3D12Error | undefined = validateRootDescriptor(
      method,
      rootParameterIndex,
      bufferLocation,
      ROOT_DESCRIPTOR_COUNT,
      ROOT_CONSTANT_COUNT,
    );
    if (problem) throw problem;
    writeDescriptor(this.words, rootParameterIndex as number, bufferLocation as bigint);
  }

  /** What a dispatch or draw recorded now sees (a copy). */
  snapshot(): Uint32Array {
    return this.words.slice();
  }

  /** Reset: every argument back to 0. */
  clear(): void {
    this.words = new Uint32Array(ROOT_ARGUMENT_WORDS);
  }
}

/** Writes root descriptor `index` (1-based) of a list's root arguments: low word, then high word. */
function writeDescriptor(root: Uint32Array, index: number, address: bigint): void {
  const at = ROOT_CONSTANT_COUNT + 2 * (index - 1);
  root[at] = Number(address & 0xffffffffn);
  root[at + 1] = Number(address >> 32n);
}

/** The root descriptors' addresses of recorded root arguments (for what a list is known to use). */
export function rootDescriptorAddresses(root: Uint32Array): bigint[] {
  const addresses: bigint[] = [];
  for (let i = 0; i < ROOT_DESCRIPTOR_COUNT; i++) {
    const at = ROOT_CONSTANT_COUNT + 2 * i;
    const address = (BigInt(root[at + 1] ?? 0) << 32n) | BigInt(root[at] ?? 0);
    if (address !== 0n) addresses.push(address);
  }
  return addresses;
}

/** The one value of a Set*Root32BitConstant call, checked as `srcData` (not as element 0 of an array). */
function singleConstant(method: string, value: unknown): number[] {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < -(2 ** 31) || value > 0xffffffff) {
    throw invalidArg(method, 'srcData', `must be a 32-bit integer, got ${show(value)}`);
  }
  return [value];
}
