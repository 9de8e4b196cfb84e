/**
 * GraphicsCommandList (ID3D12GraphicsCommandList): records commands for a queue of its type. Every
 * command is validated as it is recorded (src/validation/command-list.ts) and kept as a plain
 * record; copies are resolved to jobs between GPU virtual addresses, dispatches keep a snapshot of
 * the root constants. Resource states are tracked per subresource (resource-states.ts). What a
 * command becomes is built beside it: copies in buffer-copies.ts and texture-copies.ts, UAV clears
 * in uav-clears.ts, draws in draw-state.ts (with the target, viewport and scissor they draw with);
 * which pipeline states a list takes, in list-pipelines.ts.
 *
 * Rules: a list starts open; recording into a closed list, or closing a closed one, is an error;
 * executing an open list is an error (CommandQueue); reset() reopens a list, even one that was
 * executed and may still be running (as D3D12 allows, the recorded commands were handed over).
 */
import { validateBarriers, validateDispatch, type TileCopyFlag } from '../validation/command-list.js';
import { bufferRegionCopy, queryResolveCopy, resourceCopy, tileCopy, type CopyCommand } from './buffer-copies.js';
import { cpuAccessible } from '../validation/heap.js';
import { invalidArg, orThrow, show, type D3D12Error } from '../api/errors.js';
import type { PipelineState } from './pipeline-state.js';
import type { QueryHeap } from './query-heap.js';
import { validateEndQuery, type QueryType } from '../validation/query.js';
import type { BackBuffer } from './swap-chain.js';
import { DrawState } from './draw-state.js';
import { pipelineProblem } from './list-pipelines.js';

import { ListStateTracker, type ResourceBarrier } from './resource-states.js';
import { RootArguments } from './root-arguments.js';
import { textureCopyCommand, type TextureCopyLocation } from './texture-copies.js';
import { validateDiscardResource } from '../validation/discard-resource.js';
import type { CpuVisibleWrite, RecordedCommand } from './recorded-commands.js';
import type { Resource } from './resource.js';
import {
  RESOURCE_STATE_BITS,
  type Box,
  type CommandListType,
  type DiscardRegion,
  type Rect,
  type TiledResourceCoordinate,
  type TileRegionSize,
  type UnorderedAccessViewDesc,
  type Viewport,
} from '../api/types.js';
import { validateClearUnorderedAccessView, type UavClearKind } from '../validation/uav-clear.js';
import { uavClearCommand } from './uav-clears.js';

export type { ResourceBarrier } from './resource-states.js';

/** What a command list needs of its device. */
export interface ListOwner {
  ownResource(value: unknown): Resource | undefined;
  ownPipelineState(value: unknown): PipelineState | undefined;
  ownQueryHeap(value: unknown): QueryHeap | undefined;
  readonly maxThreadGroupsPerDimension: number;
}

const { UNORDERED_ACCESS } = RESOURCE_STATE_BITS;

export class GraphicsCommandList {
  private open = true;
  private commandList: RecordedCommand[] = [];
  private tracker = new ListStateTracker();
  private pipeline: PipelineState | undefined;
  private readonly root = new RootArguments();
  /** D3D12 keeps compute and graphics root arguments apart. */
  private readonly graphicsRoot = new RootArguments();
  /** The render target, viewport and scissor drawInstanced draws with. */
  private readonly draws = new DrawState();
  private name = '';
  /** The owner's checks that a value is its resource or query heap, as the copy builders take them. */
  private readonly owns = {
    ownResource: (value: unknown): Resource | undefined => this.owner.ownResource(value),
    ownQueryHeap: (value: unknown): QueryHeap | undefined => this.owner.ownQueryHeap(value),
  };

  /** @internal Created by Device.createCommandList. */
  constructor(
    private readonly owner: ListOwner,
    /** Unique among the device's objects of its kind and never reused (an emulator addition): memory statistics, fault reports and info-queue messages name objects by it. */
    readonly id: number,
    readonly type: CommandListType,
  ) {}

  get label(): string {
    return `${this.type} command list #${this.id}${this.name ? ` '${this.name}'` : ''}`;
  }

  setName(name: string): void {
    if (typeof name !== 'string')
      throw invalidArg('GraphicsCommandList.setName', 'name', `must be a string, got ${show(name)}`);
    this.name = name;
  }

  getName(): string {
    return this.name;
  }

  /** @internal */
  get isOpen(): boolean {
    return this.open;
  }

  /** @internal The commands recorded since the last reset. */
  get commands(): readonly RecordedCommand[] {
    return this.commandList;
  }

  /** @internal */
  get states(): ListStateTracker {
    return this.tracker;
  }

  private recording(method: string): void {
    if (!this.open)
      throw invalidArg(`GraphicsCommandList.${method}`, 'this', `${this.label} is closed; reset() it before recording`);
  }

  private record(command: RecordedCommand): void {
    this.commandList.push(command);
  }

  close(): void {
    if (!this.open) throw invalidArg('GraphicsCommandList.close', 'this', `${this.label} is already closed`);
    this.open = false;
  }

  /** Reopens the list with no commands; the commands executed before stay with their submission. */
  reset(initialState?: PipelineState | null): void {
    const call = 'GraphicsCommandList.reset';
    if (this.open) throw invalidArg(call, 'this', `${this.label} is open; close() it first`);
    this.checkInitialState(call, initialState);
    this.open = true;
    this.commandList = [];
    this.tracker = new ListStateTracker();
    this.pipeline = undefined;
    this.root.clear();
    this.graphicsRoot.clear();
    this.draws.clear();
    if (initialState) this.setPipelineState(initialState);
  }

  /** ID3D12GraphicsCommandList::EndQuery for a TIMESTAMP: the GPU's time when the commands before it are done. */
  endQuery(queryHeap: QueryHeap, type: QueryType, index: number): void {
    this.recording('endQuery');
    const heap = this.owner.ownQueryHeap(queryHeap);
    throwIf(validateEndQuery(heap, type, index, this.type));
    this.record({ kind: 'timestamp', heap: queryHeap, index });
  }

  /**
   * ID3D12GraphicsCommandList::ResolveQueryData: queries [startIndex, startIndex + numQueries) as
   * UINT64s into the destination buffer (in COPY_DEST) at an 8-byte aligned offset. Unmapped
   * destination tiles drop their bytes, as copies do.
   */
  resolveQueryData(
    queryHeap: QueryHeap,
    type: QueryType,
    startIndex: number,
    numQueries: number,
    destinationBuffer: Resource,
    alignedDestinationBufferOffset: number,
  ): void {
    this.recording('resolveQueryData');
    const { ownQueryHeap, ownResource } = this.owns;
    const copy = queryResolveCopy(
      ownQueryHeap,
      ownResource,
      queryHeap,
      type,
      startIndex,
      numQueries,
      destinationBuffer,
      alignedDestinationBufferOffset,
    );
    this.tracker.useAll('resolveQueryData', copy.uses);
    if (numQueries === 0) return;
    const { jobs, written } = copy;
    this.record({
      kind: 'resolve',
      heap: queryHeap,
      first: startIndex,
      count: numQueries,
      jobs,
      writes: this.writes(written),
    });
  }

  copyBufferRegion(
    dstBuffer: Resource,
    dstOffset: number,
    srcBuffer: Resource,
    srcOffset: number,
    numBytes: number,
  ): void {
    this.recording('copyBufferRegion');
    this.recordCopy(
      'copyBufferRegion',
      bufferRegionCopy(this.owns.ownResource, dstBuffer, dstOffset, srcBuffer, srcOffset, numBytes),
    );
  }

  copyResource(dstResource: Resource, srcResource: Resource): void {
    this.recording('copyResource');
    this.recordCopy('copyResource', resourceCopy(this.owns.ownResource, dstResource, srcResource));
  }

  /** ID3D12GraphicsCommandList::CopyTiles, between a reserved resource's tiles and a buffer laid out tile after tile. */
  copyTiles(
    tiledResource: Resource,
    tileRegionStartCoordinate: TiledResourceCoordinate,
    tileRegionSize: TileRegionSize,
    buffer: Resource,
    bufferStartOffsetInBytes: number,
    flags: TileCopyFlag | TileCopyFlag[],
  ): void {
    this.recording('copyTiles');
    const own = this.owns.ownResource;
    this.recordCopy(
      'copyTiles',
      tileCopy(own, tiledResource, tileRegionStartCoordinate, tileRegionSize, buffer, bufferStartOffsetInBytes, flags),
    );
  }

  /** Tracks a checked copy's states (all or none), then records it. */
  private recordCopy(name: string, copy: CopyCommand): void {
    this.tracker.useAll(name, copy.uses);
    this.record({ kind: 'copy', name, jobs: copy.jobs, phases: copy.phases, writes: this.writes(copy.written) });
  }

  /** The CPU-visible part of the bytes a command writes (read back after execution). */
  private writes(written: CopyCommand['written']): CpuVisibleWrite[] {
    const heap = written?.resource.heap;
    return written && heap && cpuAccessible(heap.desc.properties) ? [written] : [];
  }

  /**
   * ID3D12GraphicsCommandList::CopyTextureRegion: between a texture subresource and a footprint in a
   * buffer (GetCopyableFootprints), or two subresources; `srcBox` left out copies the whole source.
   */
  copyTextureRegion(
    dst: TextureCopyLocation,
    dstX: number,
    dstY: number,
    dstZ: number,
    src: TextureCopyLocation,
    srcBox?: Box | null,
  ): void {
    this.recording('copyTextureRegion');
    const copy = textureCopyCommand(this.owns.ownResource, dst, dstX, dstY, dstZ, src, srcBox);
    this.recordCopy('copyTextureRegion', copy);
  }

  /** ID3D12GraphicsCommandList::DiscardResource: changes no data; checks the states D3D12 requires (validation/texture-copies.ts). */
  discardResource(resource: Resource, region?: DiscardRegion | null): void {
    this.recording('discardResource');
    const discard = orThrow(validateDiscardResource(this.owner.ownResource(resource), region, this.type));
    this.tracker.useAll('discardResource', [['resource', resource, discard.subresources, discard.state]]);
    this.record({ kind: 'state', name: 'discardResource' });
  }

  /**
   * ID3D12GraphicsCommandList::ClearUnorderedAccessViewUint: the low bits of values[i] into channel i
   * of every element of the view (raw and structured buffer views: values[0] into every 32-bit
   * word), or of the rectangles given. D3D12's descriptor handles become `view`.
   */
  clearUnorderedAccessViewUint(
    resource: Resource,
    values: readonly [number, number, number, number],
    rects?: readonly Rect[] | null,
    view?: UnorderedAccessViewDesc | null,
  ): void {
    this.clearUav('clearUnorderedAccessViewUint', 'Uint', resource, values, rects, view);
  }

  /** ID3D12GraphicsCommandList::ClearUnorderedAccessViewFloat: the values converted to the view's FLOAT, UNORM or SNORM format. */
  clearUnorderedAccessViewFloat(
    resource: Resource,
    values: readonly [number, number, number, number],
    rects?: readonly Rect[] | null,
    view?: UnorderedAccessViewDesc | null,
  ): void {
    this.clearUav('clearUnorderedAccessViewFloat', 'Float', resource, values, rects, view);
  }

  private clearUav(
    call: string,
    kind: UavClearKind,
    resource: Resource,
    values: unknown,
    rects: unknown,
    view: unknown,
  ): void {
    this.recording(call);
    if (this.type === 'COPY')
      throw invalidArg(call, 'this', `${this.label} is a COPY list; UAV clears run on DIRECT and COMPUTE lists`);
    const plan = orThrow(
      validateClearUnorderedAccessView(call, kind, this.owner.ownResource(resource), values, rects, view),
    );
    this.tracker.useAll(call, [['resource', resource, plan.subresources, UNORDERED_ACCESS]]);
    this.record(uavClearCommand(call, resource, plan, (offset, length) => this.writes({ resource, offset, length })));
  }

  resourceBarrier(barriers: ResourceBarrier[]): void {
    this.recording('resourceBarrier');
    const checked = orThrow(validateBarriers(barriers, (value) => this.owner.ownResource(value)));
    this.tracker.barriers(checked);
    this.record({ kind: 'barrier' });
  }

  /** @internal What a list of this type can be created or reset with: null, or a pipeline state it can run. */
  checkInitialState(call: string, initialState: unknown): void {
    if (initialState === null || initialState === undefined) return;
    const problem = pipelineProblem(this, this.owner, call, 'initialState', initialState);
    if (problem) throw problem;
  }

  setPipelineState(pipelineState: PipelineState): void {
    this.recording('setPipelineState');
    const problem = pipelineProblem(this, this.owner, 'setPipelineState', 'pipelineState', pipelineState);
    if (problem) throw problem;
    this.pipeline = pipelineState;
    this.record({ kind: 'state', name: 'setPipelineState' });
  }

  /** Sets root constants [destOffset, destOffset + srcData.length) of the one root parameter (index 0). */
  setComputeRoot32BitConstants(
    rootParameterIndex: number,
    srcData: ArrayLike<number>,
    destOffsetIn32BitValues = 0,
  ): void {
    const method = 'setComputeRoot32BitConstants';
    this.setRoot(method, false, (root) =>
      root.setConstants(method, rootParameterIndex, srcData, destOffsetIn32BitValues, false),
    );
  }

  setComputeRoot32BitConstant(rootParameterIndex: number, srcData: number, destOffsetIn32BitValues: number): void {
    const method = 'setComputeRoot32BitConstant';
    this.setRoot(method, false, (root) =>
      root.setConstants(method, rootParameterIndex, srcData, destOffsetIn32BitValues, true),
    );
  }

  /** ID3D12GraphicsCommandList::SetComputeRootConstantBufferView: root descriptor `rootParameterIndex` (1 to 8) is `bufferLocation`. */
  setComputeRootConstantBufferView(rootParameterIndex: number, bufferLocation: bigint): void {
    this.setDescriptor('setComputeRootConstantBufferView', false, rootParameterIndex, bufferLocation);
  }

  /** ID3D12GraphicsCommandList::SetComputeRootShaderResourceView (a root SRV: d3d12_root_descriptor in WGSL). */
  setComputeRootShaderResourceView(rootParameterIndex: number, bufferLocation: bigint): void {
    this.setDescriptor('setComputeRootShaderResourceView', false, rootParameterIndex, bufferLocation);
  }

  /** ID3D12GraphicsCommandList::SetComputeRootUnorderedAccessView (a root UAV: d3d12_root_descriptor in WGSL). */
  setComputeRootUnorderedAccessView(rootParameterIndex: number, bufferLocation: bigint): void {
    this.setDescriptor('setComputeRootUnorderedAccessView', false, rootParameterIndex, bufferLocation);
  }

  /**
   * A root-argument call: checks the list takes it (graphics: a DIRECT list; compute: not a COPY
   * list), sets the compute or graphics root arguments (D3D12 keeps them apart), and counts it.
   */
  private setRoot(method: string, graphics: boolean, set: (root: RootArguments) => void): void {
    if (graphics) this.drawing(method);
    else {
      this.recording(method);
      // Root descriptors need a root signature; root constants are named as such.
      const missing = method.endsWith('View') ? 'root signature' : 'root constants';
      if (this.type === 'COPY')
        throw invalidArg(method, 'this', `${this.label} is a COPY list, which has no ${missing}`);
    }
    set(graphics ? this.graphicsRoot : this.root);
    this.record({ kind: 'state', name: method });
  }

  private setDescriptor(method: string, graphics: boolean, rootParameterIndex: unknown, bufferLocation: unknown): void {
    this.setRoot(method, graphics, (root) => root.setDescriptor(method, rootParameterIndex, bufferLocation));
  }

  dispatch(threadGroupCountX: number, threadGroupCountY = 1, threadGroupCountZ = 1): void {
    this.recording('dispatch');
    if (this.type === 'COPY')
      throw invalidArg('dispatch', 'this', `${this.label} is a COPY list, which cannot dispatch`);
    throwIf(
      validateDispatch(threadGroupCountX, threadGroupCountY, threadGroupCountZ, this.owner.maxThreadGroupsPerDimension),
    );
    if (!this.pipeline) throw invalidArg('dispatch', 'this', 'no pipeline state is set (setPipelineState)');
    if (this.pipeline.kind !== 'compute')
      throw invalidArg('dispatch', 'this', `the pipeline state set is ${this.pipeline.label}, not a compute one`);
    this.record({
      kind: 'dispatch',
      pipeline: this.pipeline,
      root: this.root.snapshot(),
      groups: [threadGroupCountX, threadGroupCountY, threadGroupCountZ],
    });
  }

  // ---- drawing (DIRECT lists) -------------------------------------------------------------------

  private drawing(method: string): void {
    this.recording(method);
    if (this.type !== 'DIRECT')
      throw invalidArg(method, 'this', `${this.label} is a ${this.type} list; only DIRECT lists draw`);
  }

  /** ID3D12GraphicsCommandList::OMSetRenderTargets with one render target (a back buffer), or none. */
  omSetRenderTargets(renderTargets: BackBuffer[]): void {
    const method = 'omSetRenderTargets';
    this.drawing(method);
    this.draws.setRenderTargets(method, renderTargets);
    this.record({ kind: 'state', name: 'omSetRenderTargets' });
  }

  /** ID3D12GraphicsCommandList::ClearRenderTargetView (the whole target). */
  clearRenderTargetView(renderTarget: BackBuffer, colorRGBA: [number, number, number, number]): void {
    const method = 'clearRenderTargetView';
    this.drawing(method);
    this.record(this.draws.clearCommand(method, renderTarget, colorRGBA));
  }

  /** Graphics root constants (root parameter 0), kept apart from the compute ones as in D3D12. */
  setGraphicsRoot32BitConstants(
    rootParameterIndex: number,
    srcData: ArrayLike<number>,
    destOffsetIn32BitValues = 0,
  ): void {
    const method = 'setGraphicsRoot32BitConstants';
    this.setRoot(method, true, (root) =>
      root.setConstants(method, rootParameterIndex, srcData, destOffsetIn32BitValues, false),
    );
  }

  setGraphicsRoot32BitConstant(rootParameterIndex: number, srcData: number, destOffsetIn32BitValues: number): void {
    const method = 'setGraphicsRoot32BitConstant';
    this.setRoot(method, true, (root) =>
      root.setConstants(method, rootParameterIndex, srcData, destOffsetIn32BitValues, true),
    );
  }

  /** ID3D12GraphicsCommandList::SetGraphicsRootConstantBufferView (root parameters 1 to 8). */
  setGraphicsRootConstantBufferView(rootParameterIndex: number, bufferLocation: bigint): void {
    this.setDescriptor('setGraphicsRootConstantBufferView', true, rootParameterIndex, bufferLocation);
  }

  /** ID3D12GraphicsCommandList::SetGraphicsRootShaderResourceView (a root SRV: d3d12_root_descriptor in WGSL). */
  setGraphicsRootShaderResourceView(rootParameterIndex: number, bufferLocation: bigint): void {
    this.setDescriptor('setGraphicsRootShaderResourceView', true, rootParameterIndex, bufferLocation);
  }

  /** ID3D12GraphicsCommandList::SetGraphicsRootUnorderedAccessView (graphics stages read memory only here). */
  setGraphicsRootUnorderedAccessView(rootParameterIndex: number, bufferLocation: bigint): void {
    this.setDescriptor('setGraphicsRootUnorderedAccessView', true, rootParameterIndex, bufferLocation);
  }

  /**
   * ID3D12GraphicsCommandList::RSSetViewports (one viewport). Without one, draws cover the target
   * (D3D12 leaves that undefined). The viewport must lie inside the target (checked at drawInstanced).
   */
  rsSetViewports(viewports: Viewport[]): void {
    const method = 'rsSetViewports';
    this.drawing(method);
    this.draws.setViewports(viewports);
    this.record({ kind: 'state', name: 'rsSetViewports' });
  }

  /** ID3D12GraphicsCommandList::RSSetScissorRects (one rectangle, clipped to the target). Without one, nothing is scissored. */
  rsSetScissorRects(rects: Rect[]): void {
    const method = 'rsSetScissorRects';
    this.drawing(method);
    this.draws.setScissorRects(rects);
    this.record({ kind: 'state', name: 'rsSetScissorRects' });
  }

  /** ID3D12GraphicsCommandList::DrawInstanced: vertices come from memory, pulled by the vertex shader. */
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
    this.record(this.draws.drawCommand(method, this.pipeline, this.graphicsRoot.snapshot(), vertices));
  }
}

function throwIf(problem: D3D12Error | undefined): void {
  if (problem) throw problem;
}
