/**
 * GraphicsCommandList (ID3D12GraphicsCommandList): CommandListBase's recording, copies and barriers,
 * plus what runs shaders: pipeline states, root signatures and root arguments
 * (src/commands/root-arguments.ts), descriptor heaps and tables (src/commands/bound-heaps.ts),
 * dispatches, and on DIRECT lists drawing (src/commands/draw-state.ts: render targets, viewport,
 * scissor, the input assembler). Which pipeline states a list takes: src/commands/list-pipelines.ts.
 *
 * Rules (the debug layer's): a dispatch or draw runs a pipeline state whose root signature is the one
 * set for its kind (compute or graphics; none set and none in the pipeline: the fixed one); at most
 * one descriptor heap of each shader-visible type is set (setDescriptorHeaps); a table's descriptors
 * lie in the heap of its type set when it is set, and still when a dispatch or draw uses it.
 */
import { validateDispatch } from '../validation/command-list.js';
import { validateDrawInstanced } from '../validation/draw.js';
import { validateDrawIndexed } from '../validation/input-assembler.js';
import { D3D12Error, invalidArg, show } from '../api/errors.js';
import type {
  GpuDescriptorHandle,
  IaPrimitiveTopology,
  IndexBufferView,
  VertexBufferView,
} from '../api/binding-types.js';
import type { PipelineState } from './pipeline-state.js';
import type { BackBuffer } from './swap-chain.js';
import { DrawState } from '../commands/draw-state.js';
import { pipelineProblem } from '../commands/list-pipelines.js';
import { RootArguments } from '../commands/root-arguments.js';
import type { Rect, Viewport } from '../api/types.js';
import type { DescriptorHeap } from './descriptor-heap.js';
import type { RootSignature } from './root-signature.js';
import type { Resource } from './resource.js';
import { CommandListBase } from './command-list-base.js';
import { BoundHeaps } from '../commands/bound-heaps.js';
import { BackBuffer as BackBufferClass } from './swap-chain.js';

export type { ResourceBarrier } from '../commands/resource-states.js';
export type { ListOwner } from './command-list-base.js';

/** D3D12_RESOURCE_BARRIER and friends; a root parameter's kind of root descriptor. */
type RootViewKind = 'CBV' | 'SRV' | 'UAV';

export class GraphicsCommandList extends CommandListBase {
  private pipeline: PipelineState | undefined;
  private readonly root = new RootArguments();
  /** D3D12 keeps compute and graphics root arguments apart. */
  private readonly graphicsRoot = new RootArguments();
  /** The render target, viewport, scissor and input assembler state draws use. */
  private readonly draws = new DrawState();
  /** SetDescriptorHeaps: the shader-visible heap of each type. */
  private readonly heaps = new BoundHeaps();

  /** @internal What a list of this type can be created or reset with: null, or a pipeline state it can run. */
  checkInitialState(call: string, initialState: unknown): void {
    if (initialState === null || initialState === undefined) return;
    const problem = pipelineProblem(this, this.owner, call, 'initialState', initialState);
    if (problem) throw problem;
  }

  protected clearBindings(): void {
    this.pipeline = undefined;
    this.root.clear();
    this.graphicsRoot.clear();
    this.draws.clear();
    this.heaps.clear();
  }

  setPipelineState(pipelineState: PipelineState): void {
    this.recording('setPipelineState');
    const problem = pipelineProblem(this, this.owner, 'setPipelineState', 'pipelineState', pipelineState);
    if (problem) throw problem;
    this.pipeline = pipelineState;
    this.record({ kind: 'state', name: 'setPipelineState' });
  }

  // ---- root signatures, descriptor heaps and root arguments -----------------------------------

  setComputeRootSignature(rootSignature: RootSignature): void {
    this.setSignature('setComputeRootSignature', false, rootSignature);
  }

  setGraphicsRootSignature(rootSignature: RootSignature): void {
    this.setSignature('setGraphicsRootSignature', true, rootSignature);
  }

  private setSignature(method: string, graphics: boolean, rootSignature: unknown): void {
    this.rootCall(method, graphics);
    const own = this.owner.rootSignatures.own(rootSignature);
    if (!own)
      throw invalidArg(method, 'rootSignature', `must be a root signature of this device, got ${show(rootSignature)}`);
    if (own.released) throw invalidArg(method, 'rootSignature', `${own.label} was released`);
    (graphics ? this.graphicsRoot : this.root).setSignature(own);
    this.record({ kind: 'state', name: method });
  }

  /** ID3D12GraphicsCommandList::SetDescriptorHeaps: shader-visible heaps, at most one CBV_SRV_UAV and one SAMPLER. */
  setDescriptorHeaps(descriptorHeaps: DescriptorHeap[]): void {
    const method = 'setDescriptorHeaps';
    this.recording(method);
    if (this.type === 'COPY')
      throw invalidArg(method, 'this', `${this.label} is a COPY list, which binds no descriptors`);
    this.heaps.set(method, descriptorHeaps, (value) => this.owner.descriptorHeaps.own(value));
    this.record({ kind: 'state', name: method });
  }

  setComputeRootDescriptorTable(rootParameterIndex: number, baseDescriptor: GpuDescriptorHandle): void {
    this.setTable('setComputeRootDescriptorTable', false, rootParameterIndex, baseDescriptor);
  }

  setGraphicsRootDescriptorTable(rootParameterIndex: number, baseDescriptor: GpuDescriptorHandle): void {
    this.setTable('setGraphicsRootDescriptorTable', true, rootParameterIndex, baseDescriptor);
  }

  private setTable(method: string, graphics: boolean, index: unknown, baseDescriptor: unknown): void {
    this.rootCall(method, graphics);
    const root = graphics ? this.graphicsRoot : this.root;
    root.setTable(method, index, baseDescriptor, (sampler) => this.heaps.tableHeap(sampler));
    this.record({ kind: 'state', name: method });
  }

  /** Sets 32-bit root constants: root parameter 0 of the fixed root signature, or a 32BIT_CONSTANTS parameter of the one set. */
  setComputeRoot32BitConstants(
    rootParameterIndex: number,
    srcData: ArrayLike<number>,
    destOffsetIn32BitValues = 0,
  ): void {
    this.setConstants(
      'setComputeRoot32BitConstants',
      false,
      rootParameterIndex,
      srcData,
      destOffsetIn32BitValues,
      false,
    );
  }

  setComputeRoot32BitConstant(rootParameterIndex: number, srcData: number, destOffsetIn32BitValues: number): void {
    this.setConstants('setComputeRoot32BitConstant', false, rootParameterIndex, srcData, destOffsetIn32BitValues, true);
  }

  setGraphicsRoot32BitConstants(
    rootParameterIndex: number,
    srcData: ArrayLike<number>,
    destOffsetIn32BitValues = 0,
  ): void {
    this.setConstants(
      'setGraphicsRoot32BitConstants',
      true,
      rootParameterIndex,
      srcData,
      destOffsetIn32BitValues,
      false,
    );
  }

  setGraphicsRoot32BitConstant(rootParameterIndex: number, srcData: number, destOffsetIn32BitValues: number): void {
    this.setConstants('setGraphicsRoot32BitConstant', true, rootParameterIndex, srcData, destOffsetIn32BitValues, true);
  }

  private setConstants(
    method: string,
    graphics: boolean,
    index: unknown,
    srcData: unknown,
    offset: unknown,
    single: boolean,
  ): void {
    this.rootCall(method, graphics);
    (graphics ? this.graphicsRoot : this.root).setConstants(method, index, srcData, offset, single);
    this.record({ kind: 'state', name: method });
  }

  /** A root CBV: root descriptor `rootParameterIndex` (1 to 8 of the fixed root signature, or a CBV parameter of the one set). */
  setComputeRootConstantBufferView(rootParameterIndex: number, bufferLocation: bigint): void {
    this.setDescriptor('setComputeRootConstantBufferView', false, 'CBV', rootParameterIndex, bufferLocation);
  }

  /** A root SRV (d3d12_root_descriptor in WGSL without a root signature, d3d12_t with one). */
  setComputeRootShaderResourceView(rootParameterIndex: number, bufferLocation: bigint): void {
    this.setDescriptor('setComputeRootShaderResourceView', false, 'SRV', rootParameterIndex, bufferLocation);
  }

  setComputeRootUnorderedAccessView(rootParameterIndex: number, bufferLocation: bigint): void {
    this.setDescriptor('setComputeRootUnorderedAccessView', false, 'UAV', rootParameterIndex, bufferLocation);
  }

  setGraphicsRootConstantBufferView(rootParameterIndex: number, bufferLocation: bigint): void {
    this.setDescriptor('setGraphicsRootConstantBufferView', true, 'CBV', rootParameterIndex, bufferLocation);
  }

  setGraphicsRootShaderResourceView(rootParameterIndex: number, bufferLocation: bigint): void {
    this.setDescriptor('setGraphicsRootShaderResourceView', true, 'SRV', rootParameterIndex, bufferLocation);
  }

  /** A root UAV for graphics (graphics stages read memory only here). */
  setGraphicsRootUnorderedAccessView(rootParameterIndex: number, bufferLocation: bigint): void {
    this.setDescriptor('setGraphicsRootUnorderedAccessView', true, 'UAV', rootParameterIndex, bufferLocation);
  }

  private setDescriptor(
    method: string,
    graphics: boolean,
    kind: RootViewKind,
    index: unknown,
    location: unknown,
  ): void {
    this.rootCall(method, graphics);
    (graphics ? this.graphicsRoot : this.root).setDescriptor(method, kind, index, location);
    this.record({ kind: 'state', name: method });
  }

  /** A root-argument call: graphics ones on DIRECT lists, compute ones on any list but COPY. */
  private rootCall(method: string, graphics: boolean): void {
    if (graphics) this.drawing(method);
    else {
      this.recording(method);
      // Root descriptors need a root signature; root constants are named as such.
      const missing = method.endsWith('View') ? 'root signature' : 'root constants';
      if (this.type === 'COPY')
        throw invalidArg(method, 'this', `${this.label} is a COPY list, which has no ${missing}`);
    }
  }

  /**
   * What a dispatch or draw with `pipeline` uses of the root arguments: checks the pipeline's root
   * signature is the one set, and that the tables set lie in the descriptor heaps set now. Answers
   * the root descriptors' addresses and the descriptor heaps' memory (what the list is known to use).
   */
  private rootUse(
    method: string,
    pipeline: PipelineState,
    root: RootArguments,
  ): { addresses: bigint[]; memory: Resource[] } {
    const set = root.rootSignature;
    const own = pipeline.rootSignature;
    if (own && !set)
      throw invalidArg(
        method,
        'this',
        `${pipeline.label} was made with ${own.label}, and no root signature is set (set*RootSignature)`,
      );
    if (!own && set)
      throw invalidArg(
        method,
        'this',
        `${set.label} is set, and ${pipeline.label} has no root signature (the fixed one)`,
      );
    if (own && set && !own.matches(set))
      throw invalidArg(
        method,
        'this',
        `${pipeline.label} was made with ${own.label}, whose description differs from ${set.label}, the one set`,
      );
    const memory = this.heaps.tablesMemory(method, root.tables());
    return { addresses: root.rootAddresses(), memory };
  }

  dispatch(threadGroupCountX: number, threadGroupCountY = 1, threadGroupCountZ = 1): void {
    this.recording('dispatch');
    if (this.type === 'COPY')
      throw invalidArg('dispatch', 'this', `${this.label} is a COPY list, which cannot dispatch`);
    const problem = validateDispatch(
      threadGroupCountX,
      threadGroupCountY,
      threadGroupCountZ,
      this.owner.maxThreadGroupsPerDimension,
    );
    if (problem) throw problem;
    if (!this.pipeline) throw invalidArg('dispatch', 'this', 'no pipeline state is set (setPipelineState)');
    if (this.pipeline.kind !== 'compute')
      throw invalidArg('dispatch', 'this', `the pipeline state set is ${this.pipeline.label}, not a compute one`);
    const uses = this.rootUse('dispatch', this.pipeline, this.root);
    this.record({
      kind: 'dispatch',
      pipeline: this.pipeline,
      root: this.root.snapshot(),
      groups: [threadGroupCountX, threadGroupCountY, threadGroupCountZ],
      ...uses,
    });
  }

  /** ViewGPUHandleInCurrentHeap of a UAV clear: a descriptor of the CBV_SRV_UAV heap set. */
  protected checkClearGpuHandle(call: string, handle: unknown): void {
    this.heaps.checkClearHandle(call, handle);
  }

  // ---- drawing (DIRECT lists) -------------------------------------------------------------------

  private drawing(method: string): void {
    this.recording(method);
    if (this.type !== 'DIRECT')
      throw invalidArg(method, 'this', `${this.label} is a ${this.type} list; only DIRECT lists draw`);
  }

  /** A render target given by its RTV descriptor (a CPU handle) or as the back buffer itself. */
  private renderTarget(method: string, argument: string, value: unknown): BackBuffer | null {
    if (value instanceof BackBufferClass) return value;
    if (typeof value !== 'object' || value === null || !('ptr' in value))
      throw invalidArg(
        method,
        argument,
        `must be an RTV's D3D12_CPU_DESCRIPTOR_HANDLE, or a back buffer from SwapChain.getCurrentBackBuffer(); got ${show(value)} (render targets are swap chain buffers)`,
      );
    const record = this.owner.cpuDescriptor(method, argument, value, 'RTV');
    if (record?.kind !== 'RTV')
      throw invalidArg(method, argument, 'names an RTV descriptor never written (createRenderTargetView)');
    return record.target;
  }

  /**
   * ID3D12GraphicsCommandList::OMSetRenderTargets: RTV descriptors (CPU handles; one render target,
   * a swap chain's back buffer) or back buffers; `rtsSingleHandleToDescriptorRange` as D3D12's.
   * Depth-stencil targets are not emulated (DXGI_ERROR_UNSUPPORTED).
   */
  omSetRenderTargets(
    renderTargets: unknown[],
    rtsSingleHandleToDescriptorRange = false,
    depthStencilDescriptor: unknown = null,
  ): void {
    const method = 'omSetRenderTargets';
    this.drawing(method);
    if (depthStencilDescriptor !== null && depthStencilDescriptor !== undefined)
      throw new D3D12Error(
        'DXGI_ERROR_UNSUPPORTED',
        method,
        'depthStencilDescriptor',
        'depth-stencil targets in heap memory are not emulated: pass null',
      );
    if (typeof rtsSingleHandleToDescriptorRange !== 'boolean')
      throw invalidArg(
        method,
        'rtsSingleHandleToDescriptorRange',
        `must be true or false, got ${show(rtsSingleHandleToDescriptorRange)}`,
      );
    const targets = Array.isArray(renderTargets)
      ? renderTargets.map((value, i) => this.renderTarget(method, `renderTargets[${i}]`, value))
      : renderTargets;
    this.draws.setRenderTargets(method, Array.isArray(targets) ? targets.filter((t) => t !== null) : targets);
    this.record({ kind: 'state', name: method });
  }

  /** ID3D12GraphicsCommandList::ClearRenderTargetView of the whole target (rects: none or empty). */
  clearRenderTargetView(
    renderTargetView: unknown,
    colorRGBA: [number, number, number, number],
    rects: readonly Rect[] | null = null,
  ): void {
    const method = 'clearRenderTargetView';
    this.drawing(method);
    if (rects !== null && (!Array.isArray(rects) || rects.length > 0))
      throw invalidArg(
        method,
        'rects',
        `must be null or empty: clears of the whole target are emulated, got ${show(rects)}`,
      );
    this.record(
      this.draws.clearCommand(method, this.renderTarget(method, 'renderTargetView', renderTargetView), colorRGBA),
    );
  }

  /**
   * ID3D12GraphicsCommandList::RSSetViewports (one viewport). Without one, draws cover the target
   * (D3D12 leaves that undefined). The viewport must lie inside the target (checked at drawInstanced).
   */
  rsSetViewports(viewports: Viewport[]): void {
    const method = 'rsSetViewports';
    this.drawing(method);
    this.draws.setViewports(viewports);
    this.record({ kind: 'state', name: method });
  }

  /** ID3D12GraphicsCommandList::RSSetScissorRects (one rectangle, clipped to the target). Without one, nothing is scissored. */
  rsSetScissorRects(rects: Rect[]): void {
    const method = 'rsSetScissorRects';
    this.drawing(method);
    this.draws.setScissorRects(rects);
    this.record({ kind: 'state', name: method });
  }

  /** ID3D12GraphicsCommandList::IASetPrimitiveTopology: of the pipeline's topology type at each draw. */
  iaSetPrimitiveTopology(primitiveTopology: IaPrimitiveTopology): void {
    const method = 'iaSetPrimitiveTopology';
    this.drawing(method);
    this.draws.setPrimitiveTopology(primitiveTopology);
    this.record({ kind: 'state', name: method });
  }

  /** ID3D12GraphicsCommandList::IASetVertexBuffers(StartSlot, NumViews, pViews): the views as an array (null entries unbind). */
  iaSetVertexBuffers(startSlot: number, views: (VertexBufferView | null)[]): void {
    const method = 'iaSetVertexBuffers';
    this.drawing(method);
    this.draws.setVertexBuffers(startSlot, views);
    this.record({ kind: 'state', name: method });
  }

  /** ID3D12GraphicsCommandList::IASetIndexBuffer (null: none). */
  iaSetIndexBuffer(view: IndexBufferView | null): void {
    const method = 'iaSetIndexBuffer';
    this.drawing(method);
    this.draws.setIndexBuffer(view);
    this.record({ kind: 'state', name: method });
  }

  /**
   * ID3D12GraphicsCommandList::DrawInstanced: the vertex shader reads vertices from memory (by
   * address, or through the input layout from the vertex buffers set).
   */
  drawInstanced(
    vertexCountPerInstance: number,
    instanceCount: number,
    startVertexLocation = 0,
    startInstanceLocation = 0,
  ): void {
    const method = 'drawInstanced';
    this.drawing(method);
    const vertices: [number, number, number, number] = [
      vertexCountPerInstance,
      instanceCount,
      startVertexLocation,
      startInstanceLocation,
    ];
    const problem = validateDrawInstanced(...vertices);
    if (problem) throw problem;
    this.recordDraw(method, vertices);
  }

  /** ID3D12GraphicsCommandList::DrawIndexedInstanced: indices from the index buffer set (R16 or R32), through the page table. */
  drawIndexedInstanced(
    indexCountPerInstance: number,
    instanceCount: number,
    startIndexLocation: number,
    baseVertexLocation: number,
    startInstanceLocation: number,
  ): void {
    const method = 'drawIndexedInstanced';
    this.drawing(method);
    const problem = validateDrawIndexed(
      indexCountPerInstance,
      instanceCount,
      startIndexLocation,
      baseVertexLocation,
      startInstanceLocation,
    );
    if (problem) throw problem;
    this.recordDraw(
      method,
      [indexCountPerInstance, instanceCount, 0, startInstanceLocation],
      [startIndexLocation, baseVertexLocation],
    );
  }

  private recordDraw(method: string, vertices: [number, number, number, number], indexed?: [number, number]): void {
    const command = this.draws.drawCommand(method, this.pipeline, this.graphicsRoot.snapshot(), vertices, indexed);
    // drawCommand refused a missing or compute pipeline.
    this.record({ ...command, ...this.rootUse(method, command.pipeline, this.graphicsRoot) });
  }
}
