/**
 * Device (ID3D12Device): creates heaps, resources and queues, answers capability and layout queries.
 *
 * Invariants: every call validates all its arguments (src/validation/) before it changes anything,
 * so a call that throws leaves the device as it was; heap and resource ids are unique per device and
 * never reused; every live resource owns a distinct, non-zero range of the virtual address space.
 */
import { validateCreateCommandList, validateCreateCommandQueue } from '../validation/device.js';
import type { QueryHeapDesc } from '../validation/query.js';
import { validateResourceList } from '../validation/tile-validation.js';
import { D3D12Error, orThrow } from '../api/errors.js';
import type { CommandListType, CommandQueueDesc } from '../api/types.js';
import type { TileMappingValidation, UnmappedAccessReport } from '../api/types.js';
import { GraphicsCommandList } from './command-list.js';
import { CommandQueue } from './command-queue.js';
import { checkFenceValue, Fence } from './fence.js';
import type { ComputePipelineStateDesc, GraphicsPipelineStateDesc, PipelineState } from './pipeline-state.js';
import { createComputePipelineState, createGraphicsPipelineState } from '../emulator/pipeline-creation.js';
import { createSwapChain, type SwapChain } from './swap-chain.js';
import type { QueryHeap } from './query-heap.js';
import { textureDescriptor } from '../emulator/texture-descriptor.js';
import type { Resource } from './resource.js';
import type { FaultReport } from '../emulator/fault-report.js';
import { validateTileMappings } from '../emulator/tile-validation.js';
import { readUnmappedAccesses } from '../emulator/unmapped-access.js';
import type {
  ConstantBufferViewDesc,
  CpuDescriptorHandle,
  DepthStencilViewDesc,
  DescriptorHeapDesc,
  DescriptorHeapType,
  RenderTargetViewDesc,
  SamplerDesc,
  ShaderResourceViewDesc,
  UnorderedAccessViewDesc,
  VersionedRootSignatureDesc,
} from '../api/binding-types.js';
import type { RootSignature } from './root-signature.js';
import type { CommandAllocator } from './command-allocator.js';
import { checkNodeMask } from '../validation/device.js';
import type { DescriptorHeap } from './descriptor-heap.js';
import { descriptorIncrement } from '../emulator/descriptor-encoding.js';
import {
  createConstantBufferView,
  createDepthStencilView,
  createRenderTargetView,
  createResourceView,
  createSampler,
  type ViewOwner,
} from '../emulator/descriptor-views.js';
import { validateDescriptorHeapType } from '../validation/descriptor-heap.js';
import type { BackBuffer } from './swap-chain.js';
import { DeviceMemory } from './device-memory.js';

/** CopyDescriptors' argument paths, as copyDescriptorsSimple's arguments. */
const SIMPLE_COPY_ARGUMENTS: Record<string, string> = {
  'destDescriptorRangeStarts[0]': 'destDescriptorRangeStart',
  'srcDescriptorRangeStarts[0]': 'srcDescriptorRangeStart',
  'destDescriptorRangeSizes[0]': 'numDescriptors',
  'srcDescriptorRangeSizes[0]': 'numDescriptors',
};

/**
 * The facade: each method validates its arguments and calls the machinery (src/emulator/) through
 * the device's context, which the device's queues and command lists share.
 */
export class Device extends DeviceMemory {
  createCommandQueue(desc: CommandQueueDesc): CommandQueue {
    this.context.removal.check('createCommandQueue');
    const queue = new CommandQueue(this.context, orThrow(validateCreateCommandQueue(desc)));
    this.context.queues.add(queue);
    return queue;
  }

  /** ID3D12Device::CreateCommandList (the list starts open, as D3D12's does). */
  /**
   * ID3D12Device::CreateCommandList(nodeMask, type, pCommandAllocator, pInitialState), or the
   * emulator's shorter createCommandList(type, initialState). The list starts open, as D3D12's does.
   */
  createCommandList(
    nodeMask: number,
    type: CommandListType,
    commandAllocator: CommandAllocator,
    initialState?: PipelineState | null,
  ): GraphicsCommandList;
  createCommandList(type: CommandListType, initialState?: PipelineState | null): GraphicsCommandList;
  createCommandList(...args: unknown[]): GraphicsCommandList {
    const call = 'createCommandList';
    this.context.removal.check(call);
    const d3d12 = typeof args[0] === 'number';
    const [type, allocator, initialState] = d3d12 ? [args[1], args[2], args[3]] : [args[0], undefined, args[1]];
    if (d3d12) orThrow(checkNodeMask(call, args[0]));
    orThrow(validateCreateCommandList(type));
    const list = new GraphicsCommandList(this.context, this.context.nextObjectId(), type as CommandListType);
    const own = d3d12 ? list.checkAllocator(call, allocator ?? null) : undefined;
    list.checkInitialState(call, initialState);
    list.useAllocator(own);
    this.context.commandLists.add(list);
    list.startWith(initialState);
    return list;
  }

  /** ID3D12Device::CreateCommandAllocator: lists of `type` record into it, one at a time. */
  createCommandAllocator(type: CommandListType): CommandAllocator {
    this.context.removal.check('createCommandAllocator');
    orThrow(validateCreateCommandList(type, 'createCommandAllocator'));
    return this.context.createCommandAllocator(type);
  }

  /**
   * ID3D12Device::CreateQueryHeap: TIMESTAMP (direct and compute lists) and COPY_QUEUE_TIMESTAMP
   * (copy lists) heaps, on a WebGPU device with 'timestamp-query'. Other types are not emulated.
   */
  createQueryHeap(desc: QueryHeapDesc): QueryHeap {
    this.context.removal.check('createQueryHeap');
    return this.context.queryHeaps.create(desc);
  }

  createFence(initialValue = 0): Fence {
    checkFenceValue('createFence', 'initialValue', initialValue);
    this.context.removal.check('createFence');
    const fence = new Fence(this.context.nextObjectId(), initialValue);
    this.context.fences.add(fence);
    return fence;
  }

  /**
   * ID3D12Device::CreateComputePipelineState: WGSL that uses the prelude (shaders/prelude/).
   * Compiles asynchronously; a compile error rejects with E_INVALIDARG quoting the compiler, with
   * line numbers counted in `desc.code`.
   */
  async createComputePipelineState(desc: ComputePipelineStateDesc): Promise<PipelineState> {
    this.context.removal.check('createComputePipelineState');
    const context = this.context;
    const state = await createComputePipelineState(
      this.gpuDevice,
      desc,
      context.settings.unmappedAccess,
      () => context.nextObjectId(),
      (value) => context.rootSignatures.own(value),
    );
    this.context.pipelines.add(state);
    this.context.backend?.pipelineCreated(desc.code, state);
    return state;
  }

  /**
   * ID3D12Device::CreateGraphicsPipelineState: a @vertex and a @fragment entry point over the
   * graphics prelude (memory read only), drawing into back buffers of `desc.rtvFormat`. Asynchronous,
   * like createComputePipelineState.
   */
  async createGraphicsPipelineState(desc: GraphicsPipelineStateDesc): Promise<PipelineState> {
    this.context.removal.check('createGraphicsPipelineState');
    const state = await createGraphicsPipelineState(
      this.gpuDevice,
      desc,
      { faults: this.context.settings.gpuValidation, unmappedAccess: this.context.settings.unmappedAccess },
      () => this.context.nextObjectId(),
      (value) => this.context.rootSignatures.own(value),
    );
    this.context.pipelines.add(state);
    this.context.backend?.pipelineCreated(desc.code, state);
    return state;
  }

  /** A swap chain over a WebGPU canvas context (IDXGIFactory::CreateSwapChainForHwnd's counterpart). */
  createSwapChain(
    context: GPUCanvasContext,
    desc: { format?: string; alphaMode?: GPUCanvasAlphaMode; bufferCount?: number } = {},
  ): SwapChain {
    this.context.removal.check('createSwapChain');
    return createSwapChain(this.gpuDevice, context, desc);
  }

  /**
   * ID3D12Device::CreateRootSignature: `blobWithRootSignature` is what serializeVersionedRootSignature
   * made (D3D12SerializeVersionedRootSignature's blob), or the description itself.
   */
  createRootSignature(nodeMask: number, blobWithRootSignature: Uint8Array | VersionedRootSignatureDesc): RootSignature {
    this.context.removal.check('createRootSignature');
    return this.context.rootSignatures.create(nodeMask, blobWithRootSignature);
  }

  // ---- descriptors (see emulator/descriptor-heaps.ts, descriptor-views.ts) ----------------------

  /** ID3D12Device::CreateDescriptorHeap: shader-visible heaps live in emulated memory and page like heaps. */
  createDescriptorHeap(desc: DescriptorHeapDesc): DescriptorHeap {
    this.context.removal.check('createDescriptorHeap');
    return this.context.descriptorHeaps.create(desc);
  }

  getDescriptorHandleIncrementSize(descriptorHeapType: DescriptorHeapType): number {
    return descriptorIncrement(
      orThrow(validateDescriptorHeapType('getDescriptorHandleIncrementSize', 'descriptorHeapType', descriptorHeapType)),
    );
  }

  private get views(): ViewOwner {
    const context = this.context;
    return {
      descriptorHeaps: context.descriptorHeaps,
      ownResource: (value) => context.objects.ownResource(value),
      checkNotRemoved: (call) => context.removal.check(call),
    };
  }

  /** null `desc`: the whole texture in its own format; null `resource` (with a desc): a NULL view, reading 0. */
  createShaderResourceView(
    resource: Resource | null,
    desc: ShaderResourceViewDesc | null,
    destDescriptor: CpuDescriptorHandle,
  ): void {
    createResourceView(this.views, 'SRV', resource, null, desc, destDescriptor);
  }

  /** `counterResource` must be null: UAV counters are not emulated. */
  createUnorderedAccessView(
    resource: Resource | null,
    counterResource: Resource | null,
    desc: UnorderedAccessViewDesc | null,
    destDescriptor: CpuDescriptorHandle,
  ): void {
    createResourceView(this.views, 'UAV', resource, counterResource, desc, destDescriptor);
  }

  createConstantBufferView(desc: ConstantBufferViewDesc | null, destDescriptor: CpuDescriptorHandle): void {
    createConstantBufferView(this.views, desc, destDescriptor);
  }

  createSampler(desc: SamplerDesc, destDescriptor: CpuDescriptorHandle): void {
    createSampler(this.views, desc, destDescriptor);
  }

  /** Render targets are swap-chain back buffers (SwapChain.getBuffer). */
  createRenderTargetView(
    resource: BackBuffer | null,
    desc: RenderTargetViewDesc | null,
    destDescriptor: CpuDescriptorHandle,
  ): void {
    createRenderTargetView(this.views, resource, desc, destDescriptor);
  }

  createDepthStencilView(
    resource: Resource | null,
    desc: DepthStencilViewDesc | null,
    destDescriptor: CpuDescriptorHandle,
  ): void {
    createDepthStencilView(this.views, resource, desc, destDescriptor);
  }

  /** ID3D12Device::CopyDescriptors, each pointer and count pair an array; null sizes: one descriptor per range. */
  copyDescriptors(
    destDescriptorRangeStarts: CpuDescriptorHandle[],
    destDescriptorRangeSizes: number[] | null,
    srcDescriptorRangeStarts: CpuDescriptorHandle[],
    srcDescriptorRangeSizes: number[] | null,
    descriptorHeapsType: DescriptorHeapType,
  ): void {
    const call = 'copyDescriptors';
    this.context.removal.check(call);
    const type = orThrow(validateDescriptorHeapType(call, 'descriptorHeapsType', descriptorHeapsType));
    this.context.descriptorHeaps.copy(
      call,
      destDescriptorRangeStarts,
      destDescriptorRangeSizes,
      srcDescriptorRangeStarts,
      srcDescriptorRangeSizes,
      type,
    );
  }

  copyDescriptorsSimple(
    numDescriptors: number,
    destDescriptorRangeStart: CpuDescriptorHandle,
    srcDescriptorRangeStart: CpuDescriptorHandle,
    descriptorHeapsType: DescriptorHeapType,
  ): void {
    const call = 'copyDescriptorsSimple';
    this.context.removal.check(call);
    const type = orThrow(validateDescriptorHeapType(call, 'descriptorHeapsType', descriptorHeapsType));
    try {
      this.context.descriptorHeaps.copy(
        call,
        [destDescriptorRangeStart],
        [numDescriptors],
        [srcDescriptorRangeStart],
        [numDescriptors],
        type,
      );
    } catch (error) {
      // The copy checks CopyDescriptors' arrays; an error names this call's own argument.
      const own = SIMPLE_COPY_ARGUMENTS[error instanceof D3D12Error ? error.argument : ''];
      if (error instanceof D3D12Error && own) throw new D3D12Error(error.hresult, call, own, error.rule);
      throw error;
    }
  }

  /**
   * A texture descriptor for the prelude's d3d12_tex2d_* functions (the emulator's stand-in for a
   * shader resource view): copy the words into a buffer and pass the buffer's address to shaders.
   */
  writeTextureDescriptor(resource: Resource): Uint32Array {
    const own = this.context.objects.ownResource(resource);
    const words = textureDescriptor('writeTextureDescriptor', own);
    // A texture whose descriptor is written may be read through it: it gets a mirror where it can.
    if (own) this.context.backend?.textureDescribed(own, words);
    return words;
  }

  /**
   * Waits for the work submitted so far and returns the page faults it caused (then forgets them):
   * each names the address, the resource and tile or the heap, and the command list and command.
   */
  async readFaults(): Promise<FaultReport[]> {
    if (!this.context.backend) return [];
    await this.context.backend.settle();
    return this.context.removal.takeFaults();
  }

  /**
   * With gpuValidation: { unmappedAccess: true }: the accesses to NULL tiles of reserved resources
   * recorded since the last call, after the work submitted so far (then clears them). Rejects with
   * DXGI_ERROR_INVALID_CALL on a device without the option (see unmapped-access.ts).
   */
  readUnmappedAccesses(): Promise<UnmappedAccessReport> {
    return readUnmappedAccesses(this.context.settings.unmappedAccess, this.context.backend?.unmappedAccesses);
  }

  /**
   * GPU-side validation of tile mappings (an emulator addition): one dispatch reads the GPU's page
   * table for every page of `resources` (left out: every live resource) and compares it with what
   * the API was told, at this point in the queue. Resolves with each page that differs, decoded
   * (see tile-validation.ts).
   */
  async validateTileMappings(resources?: Resource[]): Promise<TileMappingValidation> {
    const call = 'validateTileMappings';
    const { memory } = this.context.requireBackend(call);
    const list =
      orThrow(validateResourceList(call, resources, (value) => this.context.objects.ownResource(value))) ??
      [...this.context.objects.live].filter((resource) => !resource.released);
    return validateTileMappings(
      {
        memory,
        heapById: (id) => this.context.objects.heapById(id),
        heaps: () => this.context.objects.heapsWithMemory(),
      },
      list,
    );
  }

  /** Frees the GPU memory (the WebGPU device itself stays the caller's); the device is removed. */
  destroy(): void {
    // Later calls fail as on a removed device, and no fence is left waiting.
    this.context.removal.remove('DXGI_ERROR_DEVICE_REMOVED', 'Device.destroy() was called', []);
    this.context.queryHeaps.destroyAll();
    this.context.backend?.destroy();
    this.context.backend = undefined;
  }
}
