/**
 * DescriptorHeap (ID3D12DescriptorHeap): numDescriptors descriptors of one type, each
 * `incrementSize` bytes, addressed by CPU handles (writes: Create*View, CopyDescriptors) and, in a
 * shader-visible heap, by GPU handles (descriptor tables).
 *
 * Invariants: the heap's CPU copy (`words`) holds every descriptor as the GPU reads it, and is the
 * authority: a shader-visible heap's memory is an internal DEFAULT buffer (`memory`, pageable like
 * a committed resource) that receives the descriptors written since the last submission before the
 * next one (src/emulator/descriptor-heaps.ts). `records` says what each descriptor describes, for
 * the calls that read a descriptor on the CPU (render targets, UAV clears) and for fault reports.
 * CPU handles count bytes from `cpuBase`, a range no other heap of the process uses.
 */
import type { DescriptorHeapType, CpuDescriptorHandle, GpuDescriptorHandle } from '../api/binding-types.js';
import { invalidArg } from '../api/errors.js';
import type { ConstantBufferPlan, ViewPlan } from '../validation/views.js';
import type { SamplerPlan } from '../validation/samplers.js';
import { shaderVisible, type FullDescriptorHeapDesc } from '../validation/descriptor-heap.js';
import { DeviceChild } from './device-child.js';
import type { Resource } from './resource.js';
import type { BackBuffer } from './swap-chain.js';

/** What one descriptor describes, as the CPU knows it. */
export type DescriptorRecord =
  | { kind: 'SRV' | 'UAV'; resource: Resource | null; plan: ViewPlan }
  | { kind: 'CBV'; plan: ConstantBufferPlan }
  | { kind: 'SAMPLER'; plan: SamplerPlan }
  | { kind: 'RTV'; target: BackBuffer | null; format: string }
  | { kind: 'DSV'; resource: Resource | null; format: string };

export class DescriptorHeap extends DeviceChild {
  /** @internal The descriptors as the GPU reads them (incrementSize / 4 words each). */
  readonly words: Uint32Array;
  /** @internal What each descriptor describes (undefined: never written). */
  readonly records: (DescriptorRecord | undefined)[];
  /** @internal Descriptors written since they were last sent to the GPU: [dirtyFrom, dirtyTo). */
  dirtyFrom = Infinity;
  /** @internal The end of that range (see dirtyFrom). */
  dirtyTo = 0;

  /** @internal Created by Device.createDescriptorHeap. */
  constructor(
    /** Unique among the device's objects of its kind and never reused (an emulator addition): memory statistics, fault reports and info-queue messages name objects by it. */
    readonly id: number,
    /** @internal The validated description (getDesc returns a copy). */
    readonly desc: FullDescriptorHeapDesc,
    /** @internal Bytes per descriptor (GetDescriptorHandleIncrementSize). */
    readonly incrementSize: number,
    /** @internal The first descriptor's CPU handle. */
    readonly cpuBase: number,
    /** @internal A shader-visible heap's GPU memory: an internal DEFAULT buffer. */
    readonly memory: Resource | undefined,
    /** Frees the heap's memory once no GPU work may read it. */
    private readonly onRelease: (heap: DescriptorHeap) => void,
    creator: object,
  ) {
    super(creator);
    this.words = new Uint32Array((desc.numDescriptors * incrementSize) / 4);
    this.records = new Array<DescriptorRecord | undefined>(desc.numDescriptors);
  }

  get label(): string {
    return `descriptor heap #${this.id} (${this.desc.type}${shaderVisible(this.desc) ? ', shader-visible' : ''})${this.nameSuffix}`;
  }

  protected get interfaceName(): string {
    return 'DescriptorHeap';
  }

  /** @internal */
  get type(): DescriptorHeapType {
    return this.desc.type;
  }

  getDesc(): FullDescriptorHeapDesc {
    this.live('getDesc');
    return { ...this.desc, flags: [...this.desc.flags] };
  }

  getCPUDescriptorHandleForHeapStart(): CpuDescriptorHandle {
    this.live('getCPUDescriptorHandleForHeapStart');
    return { ptr: this.cpuBase };
  }

  /** The first descriptor's GPU handle: shader-visible heaps only (D3D12's debug layer reports the others). */
  getGPUDescriptorHandleForHeapStart(): GpuDescriptorHandle {
    this.live('getGPUDescriptorHandleForHeapStart');
    if (!this.memory)
      throw invalidArg(
        'DescriptorHeap.getGPUDescriptorHandleForHeapStart',
        'this',
        `${this.label} is not shader-visible: it has no GPU handles (create it with flags SHADER_VISIBLE)`,
      );
    return { ptr: this.memory.getGPUVirtualAddress() };
  }

  /** COM Release: a shader-visible heap's memory goes once no GPU work may read it. */
  release(): void {
    this.markReleased();
    this.onRelease(this);
  }

  /** @internal Writes descriptor `index` (its words and what it describes). */
  write(index: number, words: Uint32Array, record: DescriptorRecord): void {
    this.words.set(words, (index * this.incrementSize) / 4);
    this.records[index] = record;
    this.markDirty(index, index + 1);
  }

  /** @internal Descriptors [from, to) changed: the next submission sends them. */
  markDirty(from: number, to: number): void {
    if (!this.memory) return;
    this.dirtyFrom = Math.min(this.dirtyFrom, from);
    this.dirtyTo = Math.max(this.dirtyTo, to);
  }
}
