/**
 * GraphicsCommandList (ID3D12GraphicsCommandList): records commands for a queue of its type. Every
 * command is validated as it is recorded (src/validation/command-list.ts) and kept as a plain
 * record; copies are resolved to jobs between GPU virtual addresses, dispatches keep a snapshot of
 * the root constants. Resource states are tracked per subresource (resource-states.ts).
 *
 * Rules: a list starts open; recording into a closed list, or closing a closed one, is an error;
 * executing an open list is an error (CommandQueue); reset() reopens a list, even one that was
 * executed and may still be running (as D3D12 allows, the recorded commands were handed over).
 */
import { chunkCopy, tileCopyJobs, type CopyJob } from '../gpu/copy-jobs.js';
import { TILE_SIZE } from '../memory/tiling.js';
import {
  sliceBytes,
  subresourcesOfTiles,
  validateBarriers,
  validateCopyBufferRegion,
  validateCopyResource,
  validateCopyTiles,
  validateDispatch,
  type TileCopyFlag,
} from '../validation/command-list.js';
import { cpuAccessible } from '../validation/heap.js';
import { invalidArg, orThrow, show, type D3D12Error } from '../api/errors.js';
import type { PipelineState } from './pipeline-state.js';
import type { QueryHeap } from './query-heap.js';
import { QUERY_RESULT_BYTES, validateEndQuery, validateResolveQueryData, type QueryType } from '../validation/query.js';
import { BackBuffer } from './swap-chain.js';
import {
  validateClearColor,
  validateDrawInstanced,
  validateScissorRects,
  validateViewportInTarget,
  validateViewports,
} from '../validation/draw.js';

import { ALL_SUBRESOURCES, ListStateTracker } from './resource-states.js';
import { RootArguments } from './root-arguments.js';
import { textureCopyCommand, type TextureCopyLocation } from './texture-copies.js';
import { validateDiscardResource } from '../validation/texture-copies.js';
import type { CpuVisibleWrite, RecordedCommand } from './recorded-commands.js';
import type { Resource } from './resource.js';
import {
  RESOURCE_STATE_BITS,
  type Box,
  type CommandListType,
  type DiscardRegion,
  type Rect,
  type ResourceStates,
  type TiledResourceCoordinate,
  type TileRegionSize,
  type UnorderedAccessViewDesc,
  type Viewport,
} from '../api/types.js';
import { validateClearUnorderedAccessView, type UavClearKind } from '../validation/uav-clear.js';
import { uavClearCommand } from './uav-clears.js';

/** D3D12_RESOURCE_BARRIER, by name. */
export type ResourceBarrier =
  | {
      type: 'TRANSITION';
      flags?: 'NONE' | 'BEGIN_ONLY' | 'END_ONLY';
      transition: { resource: Resource; subresource?: number; stateBefore: ResourceStates; stateAfter: ResourceStates };
    }
  | { type: 'UAV'; flags?: 'NONE'; uav: { resource: Resource | null } }
  | { type: 'ALIASING'; flags?: 'NONE'; aliasing: { resourceBefore: Resource | null; resourceAfter: Resource | null } };

/** What a command list needs of its device. */
export interface ListOwner {
  ownResource(value: unknown): Resource | undefined;
  ownPipelineState(value: unknown): PipelineState | undefined;
  ownQueryHeap(value: unknown): QueryHeap | undefined;
  readonly maxThreadGroupsPerDimension: number;
}

const { COPY_SOURCE, COPY_DEST, UNORDERED_ACCESS } = RESOURCE_STATE_BITS;

export class GraphicsCommandList {
  private open = true;
  private commandList: RecordedCommand[] = [];
  private tracker = new ListStateTracker();
  private pipeline: PipelineState | undefined;
  private readonly root = new RootArguments();
  /** D3D12 keeps compute and graphics root arguments apart. */
  private readonly graphicsRoot = new RootArguments();
  private renderTarget: BackBuffer | undefined;
  private viewport: Viewport | undefined;
  private scissor: Rect | undefined;
  private name = '';

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
    this.renderTarget = undefined;
    this.viewport = undefined;
    this.scissor = undefined;
    if (initialState) this.setPipelineState(initialState);
  }

  private cpuVisibleWrite(resource: Resource, offset: number, length: number): CpuVisibleWrite[] {
    return resource.heap && cpuAccessible(resource.heap.desc.properties) ? [{ resource, offset, length }] : [];
  }

  /** Applies a command's state changes all at once, or none of them if one fails. */
  private changeStates(change: (tracker: ListStateTracker) => D3D12Error | undefined): void {
    this.tracker.begin();
    const problem = change(this.tracker);
    if (problem) {
      this.tracker.rollback();
      throw problem;
    }
    this.tracker.commit();
  }

  private copyStates(call: string, uses: [string, Resource, number[] | number, number][]): void {
    this.changeStates((tracker) => {
      for (const [argument, resource, subresources, access] of uses) {
        for (const subresource of typeof subresources === 'number' ? [subresources] : subresources) {
          const problem = tracker.use(call, argument, resource, subresource, access);
          if (problem) return problem;
        }
      }
      return undefined;
    });
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
    const call = 'resolveQueryData';
    this.recording(call);
    const heap = this.owner.ownQueryHeap(queryHeap);
    const destination = this.owner.ownResource(destinationBuffer);
    throwIf(validateResolveQueryData(heap, type, startIndex, numQueries, destination, alignedDestinationBufferOffset));
    this.copyStates(call, [['destinationBuffer', destinationBuffer, 0, COPY_DEST]]);
    if (numQueries === 0) return;
    const bytes = numQueries * QUERY_RESULT_BYTES;
    const jobs = chunkCopy(
      destinationBuffer.virtualRange.address + BigInt(alignedDestinationBufferOffset),
      queryHeap.results.virtualRange.address + BigInt(startIndex * QUERY_RESULT_BYTES),
      bytes,
    );
    this.record({
      kind: 'resolve',
      heap: queryHeap,
      first: startIndex,
      count: numQueries,
      jobs,
      writes: this.cpuVisibleWrite(destinationBuffer, alignedDestinationBufferOffset, bytes),
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
    const dst = this.owner.ownResource(dstBuffer);
    const src = this.owner.ownResource(srcBuffer);
    throwIf(validateCopyBufferRegion(dst, dstOffset, src, srcOffset, numBytes));
    // **Chosen**: a copy between two regions of one buffer needs that buffer in COPY_DEST (it is
    // written; COPY_DEST and COPY_SOURCE cannot be held together).
    this.copyStates(
      'copyBufferRegion',
      dstBuffer === srcBuffer
        ? [['dstBuffer', dstBuffer, 0, COPY_DEST]]
        : [
            ['dstBuffer', dstBuffer, 0, COPY_DEST],
            ['srcBuffer', srcBuffer, 0, COPY_SOURCE],
          ],
    );
    const jobs = chunkCopy(
      dstBuffer.virtualRange.address + BigInt(dstOffset),
      srcBuffer.virtualRange.address + BigInt(srcOffset),
      numBytes,
    );
    this.record({
      kind: 'copy',
      name: 'copyBufferRegion',
      jobs,
      phases: 1,
      writes: this.cpuVisibleWrite(dstBuffer, dstOffset, numBytes),
    });
  }

  copyResource(dstResource: Resource, srcResource: Resource): void {
    this.recording('copyResource');
    const dst = this.owner.ownResource(dstResource);
    const src = this.owner.ownResource(srcResource);
    throwIf(validateCopyResource(dst, src));
    this.copyStates('copyResource', [
      ['dstResource', dstResource, ALL_SUBRESOURCES, COPY_DEST],
      ['srcResource', srcResource, ALL_SUBRESOURCES, COPY_SOURCE],
    ]);
    const jobs: CopyJob[] = [];
    const bytes = dstResource.desc.dimension === 'BUFFER' ? dstResource.desc.width : sliceBytes(dstResource.layout);
    for (let slice = 0; slice < dstResource.layout.arraySize; slice++) {
      chunkCopy(
        dstResource.virtualRange.address + BigInt(slice * dstResource.layout.slicePitch),
        srcResource.virtualRange.address + BigInt(slice * srcResource.layout.slicePitch),
        bytes,
        jobs,
      );
    }
    this.record({
      kind: 'copy',
      name: 'copyResource',
      jobs,
      phases: 1,
      writes: this.cpuVisibleWrite(dstResource, 0, dstResource.layout.sizeInBytes),
    });
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
    const plan = orThrow(
      validateCopyTiles(
        this.owner.ownResource(tiledResource),
        tileRegionStartCoordinate,
        tileRegionSize,
        this.owner.ownResource(buffer),
        bufferStartOffsetInBytes,
        flags,
      ),
    );
    this.copyStates('copyTiles', [
      [
        'tiledResource',
        tiledResource,
        subresourcesOfTiles(tiledResource.layout, plan.spans),
        plan.toTiles ? COPY_DEST : COPY_SOURCE,
      ],
      ['buffer', buffer, 0, plan.toTiles ? COPY_SOURCE : COPY_DEST],
    ]);
    const jobs = tileCopyJobs(
      tiledResource.layout,
      tiledResource.virtualRange.address,
      plan.spans,
      plan.toTiles,
      buffer.virtualRange.address + BigInt(bufferStartOffsetInBytes),
    );
    // Tile jobs into a buffer at an unaligned offset share a word at each tile boundary.
    const phases = !plan.toTiles && bufferStartOffsetInBytes % 4 !== 0 ? 2 : 1;
    const writes = plan.toTiles ? [] : this.cpuVisibleWrite(buffer, bufferStartOffsetInBytes, jobs.length * TILE_SIZE);
    this.record({ kind: 'copy', name: 'copyTiles', jobs, phases, writes });
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
    const copy = textureCopyCommand((value) => this.owner.ownResource(value), dst, dstX, dstY, dstZ, src, srcBox);
    this.copyStates('copyTextureRegion', copy.uses);
    const { resource, offset, length } = copy.written;
    this.record({
      kind: 'copy',
      name: 'copyTextureRegion',
      jobs: copy.jobs,
      phases: copy.phases,
      writes: this.cpuVisibleWrite(resource, offset, length),
    });
  }

  /** ID3D12GraphicsCommandList::DiscardResource: changes no data; checks the states D3D12 requires (validation/texture-copies.ts). */
  discardResource(resource: Resource, region?: DiscardRegion | null): void {
    this.recording('discardResource');
    const discard = orThrow(validateDiscardResource(this.owner.ownResource(resource), region, this.type));
    this.copyStates('discardResource', [['resource', resource, discard.subresources, discard.state]]);
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
    this.copyStates(call, [['resource', resource, plan.subresources, UNORDERED_ACCESS]]);
    this.record(
      uavClearCommand(call, resource, plan, (offset, length) => this.cpuVisibleWrite(resource, offset, length)),
    );
  }

  resourceBarrier(barriers: ResourceBarrier[]): void {
    this.recording('resourceBarrier');
    const checked = orThrow(validateBarriers(barriers, (value) => this.owner.ownResource(value)));
    this.changeStates((tracker) => {
      for (const barrier of checked) {
        if (barrier.type !== 'TRANSITION') continue;
        // A split barrier's BEGIN_ONLY half checks stateBefore; its END_ONLY half makes the change.
        const problem = tracker.transition(
          'resourceBarrier',
          barrier.resource as Resource,
          barrier.subresource,
          barrier.before,
          barrier.after,
          barrier.flags !== 'BEGIN_ONLY',
        );
        if (problem) return problem;
      }
      return undefined;
    });
    this.record({ kind: 'barrier' });
  }

  /** @internal What a list of this type can be created or reset with: null, or a pipeline state it can run. */
  checkInitialState(call: string, initialState: unknown): void {
    if (initialState === null || initialState === undefined) return;
    const problem = this.pipelineProblem(call, 'initialState', initialState);
    if (problem) throw problem;
  }

  private pipelineProblem(call: string, argument: string, value: unknown): D3D12Error | undefined {
    // setPipelineState on a COPY list: the list is at fault; an initial state for one: the state is.
    if (this.type === 'COPY')
      return argument === 'pipelineState'
        ? invalidArg(call, 'this', `${this.label} is a COPY list, which cannot run shaders`)
        : invalidArg(call, argument, `${this.label} is a COPY list, which cannot run shaders (pass null)`);
    const pipeline = this.owner.ownPipelineState(value);
    if (!pipeline) return invalidArg(call, argument, 'must be a pipeline state created by this device');
    // A compute list holds compute state only (D3D12's debug layer refuses a graphics PSO there).
    if (this.type === 'COMPUTE' && pipeline.kind !== 'compute')
      return invalidArg(
        call,
        argument,
        `${pipeline.label} is a graphics pipeline state; ${this.label} runs compute pipeline states only`,
      );
    return undefined;
  }

  setPipelineState(pipelineState: PipelineState): void {
    this.recording('setPipelineState');
    const problem = this.pipelineProblem('setPipelineState', 'pipelineState', pipelineState);
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
    this.computeConstants('setComputeRoot32BitConstants', rootParameterIndex, srcData, destOffsetIn32BitValues, false);
  }

  setComputeRoot32BitConstant(rootParameterIndex: number, srcData: number, destOffsetIn32BitValues: number): void {
    this.computeConstants('setComputeRoot32BitConstant', rootParameterIndex, srcData, destOffsetIn32BitValues, true);
  }

  /** `single`: srcData is the one value of Set*Root32BitConstant (checked as `srcData`). */
  private computeConstants(
    method: string,
    rootParameterIndex: number,
    srcData: unknown,
    destOffsetIn32BitValues: number,
    single: boolean,
  ): void {
    this.recording(method);
    if (this.type === 'COPY')
      throw invalidArg(method, 'this', `${this.label} is a COPY list, which has no root constants`);
    this.root.setConstants(method, rootParameterIndex, srcData, destOffsetIn32BitValues, single);
    this.record({ kind: 'state', name: method });
  }

  /** ID3D12GraphicsCommandList::SetComputeRootConstantBufferView: root descriptor `rootParameterIndex` (1 to 8) is `bufferLocation`. */
  setComputeRootConstantBufferView(rootParameterIndex: number, bufferLocation: bigint): void {
    this.computeDescriptor('setComputeRootConstantBufferView', rootParameterIndex, bufferLocation);
  }

  /** ID3D12GraphicsCommandList::SetComputeRootShaderResourceView (a root SRV: d3d12_root_descriptor in WGSL). */
  setComputeRootShaderResourceView(rootParameterIndex: number, bufferLocation: bigint): void {
    this.computeDescriptor('setComputeRootShaderResourceView', rootParameterIndex, bufferLocation);
  }

  /** ID3D12GraphicsCommandList::SetComputeRootUnorderedAccessView (a root UAV: d3d12_root_descriptor in WGSL). */
  setComputeRootUnorderedAccessView(rootParameterIndex: number, bufferLocation: bigint): void {
    this.computeDescriptor('setComputeRootUnorderedAccessView', rootParameterIndex, bufferLocation);
  }

  private computeDescriptor(method: string, rootParameterIndex: unknown, bufferLocation: unknown): void {
    this.recording(method);
    if (this.type === 'COPY')
      throw invalidArg(method, 'this', `${this.label} is a COPY list, which has no root signature`);
    this.root.setDescriptor(method, rootParameterIndex, bufferLocation);
    this.record({ kind: 'state', name: method });
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

  private backBuffer(method: string, argument: string, value: unknown): BackBuffer {
    const target = value;
    if (!(target instanceof BackBuffer)) {
      throw invalidArg(
        method,
        argument,
        `must be a back buffer from SwapChain.getCurrentBackBuffer() (render targets in heap memory are not emulated), got ${show(value)}`,
      );
    }
    if (!target.current)
      throw invalidArg(method, argument, `${target.label} was presented; draw into the current frame's back buffer`);
    return value as BackBuffer;
  }

  /** ID3D12GraphicsCommandList::OMSetRenderTargets with one render target (a back buffer), or none. */
  omSetRenderTargets(renderTargets: BackBuffer[]): void {
    const method = 'omSetRenderTargets';
    this.drawing(method);
    if (!Array.isArray(renderTargets) || renderTargets.length > 1)
      throw invalidArg(
        method,
        'renderTargets',
        `must be an array of at most one back buffer, got ${show(renderTargets)}`,
      );
    this.renderTarget =
      renderTargets[0] === undefined ? undefined : this.backBuffer(method, 'renderTargets[0]', renderTargets[0]);
    this.record({ kind: 'state', name: 'omSetRenderTargets' });
  }

  /** ID3D12GraphicsCommandList::ClearRenderTargetView (the whole target). */
  clearRenderTargetView(renderTarget: BackBuffer, colorRGBA: [number, number, number, number]): void {
    const method = 'clearRenderTargetView';
    this.drawing(method);
    const target = this.backBuffer(method, 'renderTargetView', renderTarget);
    const color = orThrow(validateClearColor(colorRGBA));
    this.record({ kind: 'clear', target, color });
  }

  /** Graphics root constants (root parameter 0), kept apart from the compute ones as in D3D12. */
  setGraphicsRoot32BitConstants(
    rootParameterIndex: number,
    srcData: ArrayLike<number>,
    destOffsetIn32BitValues = 0,
  ): void {
    this.graphicsConstants(
      'setGraphicsRoot32BitConstants',
      rootParameterIndex,
      srcData,
      destOffsetIn32BitValues,
      false,
    );
  }

  setGraphicsRoot32BitConstant(rootParameterIndex: number, srcData: number, destOffsetIn32BitValues: number): void {
    this.graphicsConstants('setGraphicsRoot32BitConstant', rootParameterIndex, srcData, destOffsetIn32BitValues, true);
  }

  private graphicsConstants(
    method: string,
    rootParameterIndex: number,
    srcData: unknown,
    destOffsetIn32BitValues: number,
    single: boolean,
  ): void {
    this.drawing(method);
    this.graphicsRoot.setConstants(method, rootParameterIndex, srcData, destOffsetIn32BitValues, single);
    this.record({ kind: 'state', name: method });
  }

  /** ID3D12GraphicsCommandList::SetGraphicsRootConstantBufferView (root parameters 1 to 8). */
  setGraphicsRootConstantBufferView(rootParameterIndex: number, bufferLocation: bigint): void {
    this.graphicsDescriptor('setGraphicsRootConstantBufferView', rootParameterIndex, bufferLocation);
  }

  /** ID3D12GraphicsCommandList::SetGraphicsRootShaderResourceView (a root SRV: d3d12_root_descriptor in WGSL). */
  setGraphicsRootShaderResourceView(rootParameterIndex: number, bufferLocation: bigint): void {
    this.graphicsDescriptor('setGraphicsRootShaderResourceView', rootParameterIndex, bufferLocation);
  }

  /** ID3D12GraphicsCommandList::SetGraphicsRootUnorderedAccessView (graphics stages read memory only here). */
  setGraphicsRootUnorderedAccessView(rootParameterIndex: number, bufferLocation: bigint): void {
    this.graphicsDescriptor('setGraphicsRootUnorderedAccessView', rootParameterIndex, bufferLocation);
  }

  private graphicsDescriptor(method: string, rootParameterIndex: unknown, bufferLocation: unknown): void {
    this.drawing(method);
    this.graphicsRoot.setDescriptor(method, rootParameterIndex, bufferLocation);
    this.record({ kind: 'state', name: method });
  }

  /**
   * ID3D12GraphicsCommandList::RSSetViewports (one viewport). Without one, draws cover the target
   * (D3D12 leaves that undefined). The viewport must lie inside the target (checked at drawInstanced).
   */
  rsSetViewports(viewports: Viewport[]): void {
    const method = 'rsSetViewports';
    this.drawing(method);
    this.viewport = orThrow(validateViewports(viewports));
    this.record({ kind: 'state', name: 'rsSetViewports' });
  }

  /** ID3D12GraphicsCommandList::RSSetScissorRects (one rectangle, clipped to the target). Without one, nothing is scissored. */
  rsSetScissorRects(rects: Rect[]): void {
    const method = 'rsSetScissorRects';
    this.drawing(method);
    this.scissor = orThrow(validateScissorRects(rects));
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
    throwIf(validateDrawInstanced(vertexCountPerInstance, instanceCount, startVertexLocation, startInstanceLocation));
    if (!this.pipeline || this.pipeline.kind !== 'graphics')
      throw invalidArg(method, 'this', 'no graphics pipeline state is set (setPipelineState)');
    if (!this.renderTarget) throw invalidArg(method, 'this', 'no render target is set (omSetRenderTargets)');
    if (!this.renderTarget.current) throw invalidArg(method, 'this', `${this.renderTarget.label} was presented`);
    if (this.pipeline.rtvFormat !== this.renderTarget.format) {
      throw invalidArg(
        method,
        'this',
        `${this.pipeline.label} renders to ${this.pipeline.rtvFormat ?? '?'} but ${this.renderTarget.label} is ${this.renderTarget.format} (RTVFormats[0] must match the render target)`,
      );
    }
    if (this.viewport)
      throwIf(validateViewportInTarget(this.viewport, this.renderTarget.width, this.renderTarget.height));
    this.record({
      kind: 'draw',
      pipeline: this.pipeline,
      root: this.graphicsRoot.snapshot(),
      target: this.renderTarget,
      viewport: this.viewport,
      scissor: this.scissor,
      vertices: [vertexCountPerInstance, instanceCount, startVertexLocation, startInstanceLocation],
    });
  }
}

function throwIf(problem: D3D12Error | undefined): void {
  if (problem) throw problem;
}
