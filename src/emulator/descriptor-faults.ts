/**
 * What a fault says about descriptors: the class of error D3D12's GPU-based validation reports. A
 * fault at an address inside a shader-visible descriptor heap (a descriptor read through a table:
 * its heap evicted, the descriptor never written, of another type than the shader reads, or its
 * resource released) names the descriptor heap and the descriptor's index; a register the root
 * signature does not bind, or a root binding read as a descriptor, names the register.
 *
 * The GPU's record carries what the WGSL prelude put in it (shaders/prelude/descriptors.wgsl): the
 * descriptor's word 0 (its kind code and NULL bit), and for a mismatch the kinds the shader reads.
 */
import type { DescriptorHeap } from '../d3d12/descriptor-heap.js';
import { preludeConstant as c } from '../gpu/prelude.js';
import type { FaultRecord } from './fault-record.js';

/** The descriptor a fault is at. */
export interface FaultDescriptor {
  heap: {
    id: number;
    name: string;
    label: string;
    /** The descriptor heap now: evicted (not resident), released, or resident. */
    state: 'evicted' | 'released' | 'resident';
  };
  /** The descriptor's index in its heap (what a GPU handle's offset / increment size gives). */
  index: number;
  /** What the CPU last wrote there, e.g. "SRV of placed resource #3 'albedo' (released)", or 'never written'. */
  holds: string;
}

/** The shader register a fault names (an unbound register, or a root binding read as a descriptor). */
export interface FaultRegister {
  /** As HLSL writes it: t3, s0, u1, b2. */
  register: string;
  space: number;
}

const KIND_NAMES: [string, string][] = [
  ['D3D12_DESC_SRV_TYPED_BUFFER', 'SRV of a typed buffer'],
  ['D3D12_DESC_SRV_RAW_BUFFER', 'SRV of a raw buffer'],
  ['D3D12_DESC_SRV_STRUCTURED_BUFFER', 'SRV of a structured buffer'],
  ['D3D12_DESC_SRV_TEXTURE2D', 'Texture2D SRV'],
  ['D3D12_DESC_SRV_TEXTURE2DARRAY', 'Texture2DArray SRV'],
  ['D3D12_DESC_UAV_TYPED_BUFFER', 'UAV of a typed buffer'],
  ['D3D12_DESC_UAV_RAW_BUFFER', 'UAV of a raw buffer'],
  ['D3D12_DESC_UAV_STRUCTURED_BUFFER', 'UAV of a structured buffer'],
  ['D3D12_DESC_UAV_TEXTURE2D', 'RWTexture2D UAV'],
  ['D3D12_DESC_UAV_TEXTURE2DARRAY', 'RWTexture2DArray UAV'],
  ['D3D12_DESC_CBV', 'CBV'],
  ['D3D12_DESC_SAMPLER', 'sampler'],
];

/** A descriptor kind code's name (0: never written). */
export function descriptorKindName(code: number): string {
  if (code === 0) return 'never written';
  return KIND_NAMES.find(([name]) => c(name) === code)?.[1] ?? `descriptor kind ${code}`;
}

/** What a shader reads, by the kind code the prelude passed (buffers: any of the three views). */
function readKindName(code: number): string | undefined {
  if (code === 0) return undefined;
  for (const view of ['SRV', 'UAV'])
    for (const shape of ['TYPED', 'RAW', 'STRUCTURED'])
      if (c(`D3D12_DESC_${view}_${shape}_BUFFER`) === code) return `buffer ${view} (typed, raw or structured)`;
  return descriptorKindName(code);
}

const REGISTER_LETTERS = ['t', 's', 'u', 'b'];

/** What descriptor `index` of `heap` holds, as the CPU wrote it. */
function holds(heap: DescriptorHeap, index: number): string {
  const record = heap.records[index];
  if (!record) return 'never written';
  if (record.kind === 'SRV' || record.kind === 'UAV') {
    if (!record.resource) return `NULL ${record.kind}`;
    return `${record.kind} of ${record.resource.label}${record.resource.released ? ' (released)' : ''}`;
  }
  return record.kind === 'CBV' || record.kind === 'SAMPLER' ? record.kind : `${record.kind}`;
}

export function describeDescriptor(heap: DescriptorHeap, index: number, name: string, label: string): FaultDescriptor {
  const memory = heap.memory?.heap;
  const state = heap.released || memory?.released ? 'released' : memory?.resident === false ? 'evicted' : 'resident';
  return { heap: { id: heap.id, name, label, state }, index, holds: holds(heap, index) };
}

/** The register an unbound-register record names (its entry: number | class << 24; its address: number, space). */
export function describeRegister(record: FaultRecord): FaultRegister {
  const letter = REGISTER_LETTERS[(record.entry >>> 24) & 3] ?? '?';
  return { register: `${letter}${record.entry & 0xffffff}`, space: Number(record.address >> 32n) };
}

/** What went wrong, in words, for the descriptor fault kinds (undefined for the others). */
export function descriptorFaultWords(record: FaultRecord, descriptor: FaultDescriptor | undefined): string | undefined {
  const at = descriptor ? `descriptor ${descriptor.index} of ${descriptor.heap.label}` : undefined;
  switch (record.kind) {
    case 'unbound-register': {
      const { register, space } = describeRegister(record);
      return `shader register ${register} (space ${space}) is not bound by the root signature: reads give 0, writes are dropped`;
    }
    case 'descriptor-uninitialized':
      return `${at ?? 'a descriptor'} was never written (an uninitialized descriptor): reads give 0, writes are dropped`;
    case 'descriptor-mismatch': {
      if (!descriptor) {
        // The record's address is the root binding's; its entry names the register.
        const { register } = describeRegister(record);
        return `shader register ${register} is a root descriptor, root constants or a static sampler where the shader reads a descriptor table's view: reads give 0, writes are dropped`;
      }
      const found = descriptorKindName(record.entry & 0xff);
      const wanted = [(record.entry >>> 16) & 0xff, record.entry >>> 24]
        .map(readKindName)
        .filter((name, i, all) => name !== undefined && all.indexOf(name) === i)
        .join(' or ');
      return `${at} holds a ${found} where the shader reads a ${wanted}: reads give 0, writes are dropped`;
    }
    case 'descriptor-released':
      return `${at ?? 'a descriptor'} (${descriptor?.holds ?? 'a view'}) describes a resource that was released: reads give 0, writes are dropped`;
    default:
      return undefined;
  }
}

/** Whether the record's address is a register (not a memory address). */
export function addressIsRegister(record: FaultRecord, inDescriptorHeap: boolean): boolean {
  return record.kind === 'unbound-register' || (record.kind === 'descriptor-mismatch' && !inDescriptorHeap);
}
