/**
 * A list's root arguments, for compute or for graphics (D3D12 keeps them apart). Each dispatch or draw
 * records a snapshot of the words (the prelude's D3D12DispatchInfo.root).
 *
 * Without a root signature set: the emulator's fixed one, root parameter 0 holding ROOT_CONSTANT_COUNT
 * 32-bit constants and parameters 1 to ROOT_DESCRIPTOR_COUNT a root descriptor each (words 0-63, then
 * two per address from word 64; d3d12_root_constant and d3d12_root_descriptor in WGSL).
 * With one (Set*RootSignature): its parameters in order (src/validation/root-signature.ts lays them
 * out), set by Set*Root32BitConstant(s), Set*Root*View and Set*RootDescriptorTable against it.
 *
 * Invariants: setting another root signature clears every argument, as D3D12 forgets them; a
 * refused call changes nothing.
 */
import { invalidArg, orThrow, show, type D3D12Error } from '../api/errors.js';
import { preludeConstant } from '../gpu/prelude.js';
import { validateRootConstants, validateRootDescriptor } from '../validation/command-list.js';
import {
  validateSignatureConstants,
  validateSignatureDescriptor,
  validateSignatureTable,
  type TableHeap,
} from '../validation/root-arguments.js';
import type { RootSignature } from '../d3d12/root-signature.js';

/** Root parameter 0: this many 32-bit constants (prelude: D3D12_ROOT_CONSTANT_COUNT). */
export const ROOT_CONSTANT_COUNT = preludeConstant('D3D12_ROOT_CONSTANT_COUNT');
/** Root parameters 1 to this: root descriptors, a GPU virtual address each (prelude: D3D12_ROOT_DESCRIPTOR_COUNT). */
export const ROOT_DESCRIPTOR_COUNT = preludeConstant('D3D12_ROOT_DESCRIPTOR_COUNT');
/** The fixed root signature's words: the constants, then two words per descriptor. */
const FIXED_WORDS = ROOT_CONSTANT_COUNT + 2 * ROOT_DESCRIPTOR_COUNT;

const address = (words: Uint32Array, at: number): bigint =>
  (BigInt(words[at + 1] ?? 0) << 32n) | BigInt(words[at] ?? 0);

function writeAddress(words: Uint32Array, at: number, value: bigint): void {
  words[at] = Number(value & 0xffffffffn);
  words[at + 1] = Number(value >> 32n);
}

export class RootArguments {
  private words = new Uint32Array(FIXED_WORDS);
  private signature: RootSignature | undefined;

  /** The root signature set (undefined: the fixed one). */
  get rootSignature(): RootSignature | undefined {
    return this.signature;
  }

  /** Set*RootSignature: another root signature clears every argument. */
  setSignature(signature: RootSignature): void {
    if (signature === this.signature) return;
    this.signature = signature;
    this.words = new Uint32Array(signature.layout.words);
  }

  /** Set*Root32BitConstants (or, `single`, Set*Root32BitConstant's one value, checked as `srcData`). */
  setConstants(
    method: string,
    rootParameterIndex: unknown,
    srcData: unknown,
    destOffsetIn32BitValues: unknown,
    single: boolean,
  ): void {
    const values = single ? singleConstant(method, srcData) : srcData;
    if (!this.signature) {
      const words = orThrow(
        validateRootConstants(rootParameterIndex, values, destOffsetIn32BitValues, ROOT_CONSTANT_COUNT, method),
      );
      this.words.set(words, destOffsetIn32BitValues as number);
      return;
    }
    if (!Array.isArray(values) && !ArrayBuffer.isView(values))
      throw invalidArg(method, 'srcData', `must be an array of 32-bit values, got ${show(values)}`);
    const list = Array.from(values as ArrayLike<unknown>);
    const checked = orThrow(
      validateSignatureConstants(
        method,
        this.signature.layout.parameters,
        rootParameterIndex,
        list,
        destOffsetIn32BitValues,
      ),
    );
    this.words.set(checked.values, checked.word);
  }

  /** Set*Root{ConstantBuffer,ShaderResource,UnorderedAccess}View: `kind` is the method's. */
  setDescriptor(
    method: string,
    kind: 'CBV' | 'SRV' | 'UAV',
    rootParameterIndex: unknown,
    bufferLocation: unknown,
  ): void {
    if (!this.signature) {
      const problem: D3D12Error | undefined = validateRootDescriptor(
        method,
        rootParameterIndex,
        bufferLocation,
        ROOT_DESCRIPTOR_COUNT,
        ROOT_CONSTANT_COUNT,
      );
      if (problem) throw problem;
      writeAddress(
        this.words,
        ROOT_CONSTANT_COUNT + 2 * ((rootParameterIndex as number) - 1),
        bufferLocation as bigint,
      );
      return;
    }
    const word = orThrow(
      validateSignatureDescriptor(method, this.signature.layout.parameters, rootParameterIndex, kind, bufferLocation),
    );
    writeAddress(this.words, word, bufferLocation as bigint);
  }

  /** Set*RootDescriptorTable: `heapOf` answers the descriptor heap of a kind that setDescriptorHeaps set. */
  setTable(
    method: string,
    rootParameterIndex: unknown,
    baseDescriptor: unknown,
    heapOf: (sampler: boolean) => TableHeap | undefined,
  ): void {
    if (!this.signature)
      throw invalidArg(
        method,
        'this',
        "no root signature is set (descriptor tables are a root signature's parameters)",
      );
    const table = orThrow(
      validateSignatureTable(method, this.signature.layout.parameters, rootParameterIndex, baseDescriptor, heapOf),
    );
    writeAddress(this.words, table.word, table.address);
  }

  /** What a dispatch or draw recorded now sees (a copy). */
  snapshot(): Uint32Array {
    return this.words.slice();
  }

  /** The root descriptors' addresses set now (what shaders reach without a descriptor). */
  rootAddresses(): bigint[] {
    const found: bigint[] = [];
    if (!this.signature) {
      for (let i = 0; i < ROOT_DESCRIPTOR_COUNT; i++) found.push(address(this.words, ROOT_CONSTANT_COUNT + 2 * i));
    } else {
      for (const parameter of this.signature.layout.parameters)
        if (parameter.type === 'CBV' || parameter.type === 'SRV' || parameter.type === 'UAV')
          found.push(address(this.words, parameter.word));
    }
    return found.filter((value) => value !== 0n);
  }

  /** The tables set now: their address, and whether they are SAMPLER tables. */
  tables(): { parameter: number; address: bigint; sampler: boolean }[] {
    const parameters = this.signature?.layout.parameters ?? [];
    return parameters.flatMap((parameter, index) =>
      parameter.type === 'DESCRIPTOR_TABLE'
        ? [
            {
              parameter: index,
              address: address(this.words, parameter.word),
              sampler: parameter.ranges[0]?.type === 'SAMPLER',
            },
          ]
        : [],
    );
  }

  /** Reset: no root signature, every argument 0. */
  clear(): void {
    this.signature = undefined;
    this.words = new Uint32Array(FIXED_WORDS);
  }
}

/** The one value of a Set*Root32BitConstant call, checked as `srcData` (not as element 0 of an array). */
function singleConstant(method: string, value: unknown): number[] {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < -(2 ** 31) || value > 0xffffffff) {
    throw invalidArg(method, 'srcData', `must be a 32-bit integer, got ${show(value)}`);
  }
  return [value];
}
