/**
 * CommandListBase: what every command list records and how (ID3D12CommandList and the copy, query,
 * barrier and clear calls of ID3D12GraphicsCommandList, which GraphicsCommandList adds pipelines,
 * binding, dispatches and draws to). Every command is validated as it is recorded
 * (src/validation/command-list.ts) and kept as a plain record; copies are resolved to jobs between
 * GPU virtual addresses. Resource states are tracked per subresource (src/commands/resource-states.ts).
 * What a command becomes is built in src/commands/: copies in buffer-copies.ts and texture-copies.ts,
 * UAV clears in uav-clears.ts.
 *
 * Rules: a list starts open; recording into a closed list, or closing a closed one, is an error;
 * executing an open list is an error (CommandQueue); reset() reopens a list, even one that was
 * executed and may still be running (as D3D12 allows, the recorded commands were handed over).
 */
import { validateBarriers, type TileCopyFlag } from '../validation/command-list.js';
import {
  bufferRegionCopy,
  queryResolveCopy,
  resourceCopy,
  tileCopy,
  type CopyCommand,
} from '../commands/buffer-copies.js';
import { cpuAccessible } from '../validation/heap.js';
import { D3D12Error, invalidArg, orThrow, show } from '../api/errors.js';
import type { PipelineState } from './pipeline-state.js';
import type { QueryHeap } from './query-heap.js';
import { validateEndQuery, type QueryType } from '../validation/query.js';
import { ListStateTracker, type ResourceBarrier } from '../commands/resource-states.js';
import { textureCopyCommand, type TextureCopyLocation } from '../commands/texture-copies.js';
import { validateDiscardResource } from '../validation/discard-resource.js';
import type { CpuVisibleWrite, RecordedCommand } from '../commands/recorded-commands.js';
import type { Resource } from './resource.js';
import {
  RESOURCE_STATE_BITS,
  type Box,
  type CommandListType,
  type DiscardRegion,
  type Rect,
  type TiledResourceCoordinate,
  type TileRegionSize,
  type UavClearView,
} from '../api/types.js';
import { validateClearUnorderedAccessView, type UavClearKind } from '../validation/uav-clear.js';
import { uavClearCommand } from '../commands/uav-clears.js';
import type { DescriptorHeap, DescriptorRecord } from './descriptor-heap.js';
import type { RootSignature } from './root-signature.js';
import type { CommandAllocator } from './command-allocator.js';
import type { CpuDescriptorHandle, GpuDescriptorHandle } from '../api/binding-types.js';
import type { ViewPlan } from '../validation/views.js';
import { BackBuffer } from './swap-chain.js';

export type { ResourceBarrier } from '../commands/resource-states.js';

/** What a command list needs of its device. */
export interface ListOwner {
  /** The device's heaps and resources: the resource if it is one of them. */
  readonly objects: { ownResource(value: unknown): Resource | undefined };
  /** The device's query heaps, descriptor heaps and root signatures: the object if it is one of them. */
  readonly queryHeaps: { own(value: unknown): QueryHeap | undefined };
  readonly descriptorHeaps: { own(value: unknown): DescriptorHeap | undefined };
  readonly rootSignatures: { own(value: unknown): RootSignature | undefined };
  ownPipelineState(value: unknown): PipelineState | undefined;
  ownCommandAllocator(value: unknown): CommandAllocator | undefined;
  /** The descriptor a CPU handle names, of `type` (throws naming `argument` otherwise). */
  cpuDescriptor(
    call: string,
    argument: string,
    handle: unknown,
    type: 'RTV' | 'DSV' | 'CBV_SRV_UAV',
  ): DescriptorRecord | undefined;
  readonly maxThreadGroupsPerDimension: number;
}

const { UNORDERED_ACCESS } = RESOURCE_STATE_BITS;

export abstract class CommandListBase {
  private open = true;
  private commandList: RecordedCommand[] = [];
  protected tracker = new ListStateTracker();
  private name = '';
  /** The allocator the list records into (D3D12's), when it was given one. */
  private allocator: CommandAllocator | undefined;
  /** The owner's checks that a value is its resource or query heap, as the copy builders take them. */
  private readonly owns = {
    ownResource: (value: unknown): Resource | undefined => this.owner.objects.ownResource(value),
    ownQueryHeap: (value: unknown): QueryHeap | undefined => this.owner.queryHeaps.own(value),
  };

  /** @internal Created by Device.createCommandList. */
  constructor(
    protected readonly owner: ListOwner,
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

  /** @internal The allocator it records into (undefined: none given). */
  get commandAllocator(): CommandAllocator | undefined {
    return this.allocator;
  }

  protected recording(method: string): void {
    if (!this.open)
      throw invalidArg(`GraphicsCommandList.${method}`, 'this', `${this.label} is closed; reset() it before recording`);
  }

  protected record(command: RecordedCommand): void {
    this.commandList.push(command);
  }

  close(): void {
    if (!this.open) throw invalidArg('GraphicsCommandList.close', 'this', `${this.label} is already closed`);
    this.open = false;
  }

  /** @internal Checks `allocator` for a list of this type (D3D12's CreateCommandList and Reset), undefined for none. */
  checkAllocator(call: string, allocator: unknown): CommandAllocator | undefined {
    if (allocator === undefined) return undefined;
    const own = this.owner.ownCommandAllocator(allocator);
    if (!own)
      throw invalidArg(call, 'commandAllocator', `must be a command allocator of this device, got ${show(allocator)}`);
    own.checkFor(call, this.type);
    return own;
  }

  /** @internal Starts recording into `allocator` (checked by checkAllocator). */
  useAllocator(allocator: CommandAllocator | undefined): void {
    this.allocator?.detach(this);
    this.allocator = allocator;
    allocator?.attach(this);
  }

  /**
   * Reopens the list with no commands; the commands executed before stay with their submission.
   * D3D12's Reset(pAllocator, pInitialState) or, without allocators, reset(pInitialState).
   */
  reset(commandAllocator: CommandAllocator, initialState?: PipelineState | null): void;
  reset(initialState?: PipelineState | null): void;
  reset(...args: unknown[]): void {
    const call = 'GraphicsCommandList.reset';
    if (this.open) throw invalidArg(call, 'this', `${this.label} is open; close() it first`);
    // D3D12's form names an allocator first; the shorter one only the initial state.
    const d3d12 = args.length >= 2 || this.owner.ownCommandAllocator(args[0]) !== undefined;
    const allocator = d3d12 ? this.checkAllocator(call, args[0] ?? null) : undefined;
    if (!d3d12) this.checkKeptAllocator(call);
    const state = d3d12 ? args[1] : args[0];
    this.checkInitialState(call, state);
    this.open = true;
    this.commandList = [];
    this.tracker = new ListStateTracker();
    this.useAllocator(allocator ?? this.allocator);
    this.clearBindings();
    this.startWith(state);
  }

  /**
   * @internal Sets the initial state checkInitialState accepted (create or reset); a COPY list
   * ignores the one it was given (src/commands/list-pipelines.ts).
   */
  startWith(initialState: unknown): void {
    if (initialState && this.type !== 'COPY') this.setPipelineState(initialState as PipelineState);
  }

  /**
   * The shorter reset keeps the allocator the list records into: D3D12's rules for it still hold (it
   * is live, and no other list is recording into it), as D3D12's Reset checks the allocator it names.
   */
  private checkKeptAllocator(call: string): void {
    try {
      this.allocator?.checkFor(call, this.type);
    } catch (error) {
      if (!(error instanceof D3D12Error)) throw error;
      throw invalidArg(
        call,
        'this',
        `${this.label} records into the allocator it was given, and ${error.rule}; reset(commandAllocator, initialState) names another`,
      );
    }
  }

  /** @internal What a list of this type can be created or reset with: null, or a pipeline state of the device it can run (a COPY list: any, ignored). */
  abstract checkInitialState(call: string, initialState: unknown): void;
  abstract setPipelineState(pipelineState: PipelineState): void;
  /** Reset: the pipeline, root arguments and draw state back to none. */
  protected abstract clearBindings(): void;

  /** ID3D12GraphicsCommandList::EndQuery for a TIMESTAMP: the GPU's time when the commands before it are done. */
  endQuery(queryHeap: QueryHeap, type: QueryType, index: number): void {
    this.recording('endQuery');
    const heap = this.owner.queryHeaps.own(queryHeap);
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
    const discard = orThrow(validateDiscardResource(this.owner.objects.ownResource(resource), region, this.type));
    this.tracker.useAll('discardResource', [['resource', resource, discard.subresources, discard.state]]);
    this.record({ kind: 'state', name: 'discardResource' });
  }

  /**
   * ID3D12GraphicsCommandList::ClearUnorderedAccessViewUint: the low bits of values[i] into channel i
   * of every element of the view (raw and structured buffer views: values[0] into every 32-bit
   * word), or of the rectangles given. D3D12's form names the view by its two descriptor handles
   * (ViewGPUHandleInCurrentHeap, ViewCPUHandle: a UAV of `resource`); the emulator's older form
   * (resource, values, rects, view) gives the view as a UavClearView.
   */
  clearUnorderedAccessViewUint(
    viewGPUHandleInCurrentHeap: GpuDescriptorHandle,
    viewCPUHandle: CpuDescriptorHandle,
    resource: Resource,
    values: readonly [number, number, number, number],
    rects?: readonly Rect[] | null,
  ): void;
  clearUnorderedAccessViewUint(
    resource: Resource,
    values: readonly [number, number, number, number],
    rects?: readonly Rect[] | null,
    view?: UavClearView | null,
  ): void;
  clearUnorderedAccessViewUint(...args: unknown[]): void {
    this.clearUav('clearUnorderedAccessViewUint', 'Uint', args);
  }

  /** ID3D12GraphicsCommandList::ClearUnorderedAccessViewFloat: the values converted to the view's FLOAT, UNORM or SNORM format. */
  clearUnorderedAccessViewFloat(
    viewGPUHandleInCurrentHeap: GpuDescriptorHandle,
    viewCPUHandle: CpuDescriptorHandle,
    resource: Resource,
    values: readonly [number, number, number, number],
    rects?: readonly Rect[] | null,
  ): void;
  clearUnorderedAccessViewFloat(
    resource: Resource,
    values: readonly [number, number, number, number],
    rects?: readonly Rect[] | null,
    view?: UavClearView | null,
  ): void;
  clearUnorderedAccessViewFloat(...args: unknown[]): void {
    this.clearUav('clearUnorderedAccessViewFloat', 'Float', args);
  }

  /** The clear's resource, values, rectangles and view, from either form of the call. */
  private clearArguments(call: string, args: unknown[]): [unknown, unknown, unknown, unknown] {
    const first = args[0] as { ptr?: unknown } | null | undefined;
    if (typeof first !== 'object' || first === null || typeof first.ptr !== 'bigint')
      return [args[0], args[1], args[2], args[3]];
    const [gpuHandle, cpuHandle, resource, values, rects] = args;
    const record = this.owner.cpuDescriptor(call, 'viewCPUHandle', cpuHandle, 'CBV_SRV_UAV');
    if (record?.kind !== 'UAV')
      throw invalidArg(
        call,
        'viewCPUHandle',
        `must name an unordered access view, got ${record ? `a ${record.kind}` : 'a descriptor never written'}`,
      );
    this.checkClearGpuHandle(call, gpuHandle);
    if (record.resource !== resource)
      throw invalidArg(
        call,
        'resource',
        `must be the view's resource, ${record.resource?.label ?? 'none (a NULL view)'}, got ${show(resource)}`,
      );
    return [resource, values, rects, uavClearView(record.plan)];
  }

  /** ViewGPUHandleInCurrentHeap: a descriptor of the shader-visible CBV_SRV_UAV heap set (GraphicsCommandList checks it). */
  protected abstract checkClearGpuHandle(call: string, handle: unknown): void;

  private clearUav(call: string, kind: UavClearKind, args: unknown[]): void {
    this.recording(call);
    if (this.type === 'COPY')
      throw invalidArg(call, 'this', `${this.label} is a COPY list; UAV clears run on DIRECT and COMPUTE lists`);
    const [resource, values, rects, view] = this.clearArguments(call, args);
    const plan = orThrow(
      validateClearUnorderedAccessView(call, kind, this.owner.objects.ownResource(resource), values, rects, view),
    );
    const own = resource as Resource;
    this.tracker.useAll(call, [['resource', own, plan.subresources, UNORDERED_ACCESS]]);
    this.record(uavClearCommand(call, own, plan, (offset, length) => this.writes({ resource: own, offset, length })));
  }

  resourceBarrier(barriers: ResourceBarrier[]): void {
    this.recording('resourceBarrier');
    const checked = orThrow(
      validateBarriers(
        barriers,
        (value) => this.owner.objects.ownResource(value),
        (value) => value instanceof BackBuffer,
      ),
    );
    this.tracker.barriers(checked);
    this.record({ kind: 'barrier' });
  }
}

/** A UAV descriptor's view as the clear reads it (UavClearView). */
function uavClearView(plan: ViewPlan): UavClearView {
  if (plan.shape === 'buffer') {
    return {
      format: plan.kind === 'structured' ? 'UNKNOWN' : plan.format,
      firstElement: plan.firstElement,
      numElements: plan.numElements,
      ...(plan.kind === 'structured' ? { structureByteStride: plan.elementBytes } : {}),
      flags: plan.kind === 'raw' ? 'RAW' : 'NONE',
    };
  }
  return {
    format: plan.format,
    mipSlice: plan.firstMip,
    ...(plan.shape === 'texture2darray' ? { firstArraySlice: plan.firstSlice, arraySize: plan.sliceCount } : {}),
  };
}

function throwIf(problem: D3D12Error | undefined): void {
  if (problem) throw problem;
}
