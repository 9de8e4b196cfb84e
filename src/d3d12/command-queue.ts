/**
 * CommandQueue (ID3D12CommandQueue): executes command lists, signals and waits on fences, and
 * changes tile mappings, all in order. Every emulated queue feeds the one in-order WebGPU queue.
 *
 * Each call is validated when it is made and then becomes an operation of this queue. Operations run
 * at once, in call order, unless a wait() holds the queue: a wait on a fence value not yet reached
 * keeps this queue's later operations (executions, signals, mapping changes) back until another
 * queue's signal or a CPU signal reaches it, without holding back other queues.
 * Resource states are tracked in call order: executeCommandLists checks and applies each list's
 * states when it is called, so its errors are thrown to the caller.
 */
import type { TileCopyFlag } from '../validation/command-list.js';
import {
  applyTileMappings,
  copyTileMappings,
  mapTileRange,
  NULL_HEAP,
  type TileMappingTable,
} from '../memory/tile-mappings.js';
import { singleRangeStart, validateCopyTileMappings, validateUpdateTileMappings } from '../validation/tile-mappings.js';
import type { GraphicsCommandList } from './command-list.js';
import {
  commandName,
  executableCommands,
  type CpuVisibleWrite,
  type RecordedCommand,
} from '../commands/recorded-commands.js';
import type { SubmittedList } from '../emulator/fault-report.js';
import type { ListUse, WorkUse } from '../emulator/deferred-release.js';
import { decayAfterExecution, type Touched } from '../commands/resource-states.js';
import { D3D12Error, invalidArg, orThrow, show } from '../api/errors.js';
import { TIMESTAMP_FREQUENCY, timestampsSupported } from '../gpu/queries.js';
import type { Fence } from './fence.js';
import { checkFenceValue } from './fence.js';
import type { Heap } from './heap.js';
import type { Resource } from './resource.js';
import type {
  CommandListType,
  CommandQueueDesc,
  TileMappingFlag,
  TileRangeFlag,
  TiledResourceCoordinate,
  TileRegionSize,
} from '../api/types.js';
import type { ExecutableList } from '../gpu/executor.js';
import type { DeviceContext } from '../emulator/device-context.js';
import type { GpuBackend } from '../emulator/gpu-backend.js';

export type { TileCopyFlag };

/** Executions on every queue so far: an execution changes resource states, which checks read. */
let executions = 0;

/** The names of a closed list's commands, by its commands array (which a reset replaces): a list executed again names them again for free. */
const names = new WeakMap<readonly RecordedCommand[], readonly string[]>();
function commandNames(commands: readonly RecordedCommand[]): readonly string[] {
  let named = names.get(commands);
  if (!named || named.length !== commands.length) {
    named = commands.map(commandName);
    names.set(commands, named);
  }
  return named;
}

interface Operation {
  call: string;
  run: () => void;
  /** An execution: its lists and what they use (see deferred-release.ts). */
  uses?: readonly ListUse[];
}

export class CommandQueue {
  private readonly pending: Operation[] = [];
  /** The wait holding this queue, if any. */
  private blockedBy: { fence: Fence; value: number; stopWatching: () => void } | undefined;

  /** @internal Created by Device.createCommandQueue; `owner` is its device's context. */
  constructor(
    private readonly owner: DeviceContext,
    private readonly desc: Required<CommandQueueDesc>,
  ) {}

  getDesc(): Required<CommandQueueDesc> {
    return structuredClone(this.desc);
  }

  get type(): CommandListType {
    return this.desc.type;
  }

  /** @internal Whether operations are held behind a wait. */
  get holdsWork(): boolean {
    return this.pending.length > 0;
  }

  /** @internal The executions held behind a wait, with what their lists use; undefined if none. */
  heldWork(): WorkUse | undefined {
    const lists = this.pending.flatMap((operation) => operation.uses ?? []);
    return lists.length > 0 ? { state: 'waiting', lists } : undefined;
  }

  /** Runs an operation now, or after the wait that holds this queue. */
  private enqueue(call: string, run: () => void, uses?: readonly ListUse[]): void {
    if (this.blockedBy || this.pending.length > 0) this.pending.push({ call, run, uses });
    else this.runOperation({ call, run });
  }

  private runOperation(operation: Operation): void {
    try {
      operation.run();
    } catch (error) {
      // Its call returned long ago; the device reports the failure (and stops accepting work).
      this.owner.removal.recordFailure(operation.call, error);
    }
  }

  private drain(): void {
    while (!this.blockedBy && this.pending.length > 0) this.runOperation(this.pending.shift() as Operation);
    // Releases that waited for this queue's held work now wait for the GPU.
    if (!this.blockedBy) this.owner.releases.queueDrained();
  }

  /**
   * ID3D12CommandQueue::GetTimestampFrequency: ticks per second of resolved TIMESTAMP queries
   * (WebGPU's nanoseconds). Fails (E_FAIL, as D3D12 does on a queue without timestamps) when the
   * WebGPU device has no 'timestamp-query'.
   */
  getTimestampFrequency(): number {
    const call = 'getTimestampFrequency';
    const backend = this.owner.requireBackend(call);
    if (!timestampsSupported(backend.memory.device))
      throw new D3D12Error('E_FAIL', call, 'this', "the WebGPU device has no 'timestamp-query' feature");
    return TIMESTAMP_FREQUENCY;
  }

  /** ID3D12CommandQueue::ExecuteCommandLists. Lists must be closed and of this queue's type. */
  executeCommandLists(commandLists: GraphicsCommandList[]): void {
    const call = 'executeCommandLists';
    const backend = this.owner.requireBackend(call);
    const lists = this.checkLists(call, commandLists);
    this.execute(call, backend, lists, this.applyStates(call, lists));
  }

  /**
   * Everything executeCommandLists checks, without executing or changing anything (an emulator
   * addition, as a debug layer's check): throws what executeCommandLists would.
   */
  validateExecuteCommandLists(commandLists: GraphicsCommandList[]): void {
    this.dryRun('validateExecuteCommandLists', commandLists);
  }

  /**
   * validateExecuteCommandLists, then executeCommandLists of the lists it checked, with the caller's
   * work between the two (an emulator addition: the residency manager pages its batch there, so that
   * a call that would fail pages nothing, and the lists are checked once). Throws what
   * validateExecuteCommandLists throws, having called nothing; else calls `between` once, with
   * `execute(first, count)`: executeCommandLists of lists [first, first + count), valid while
   * `between` runs. The first execution, from list 0, with no execution on any queue since the
   * check, runs on the check already made (the states are those it saw: its verdict holds for a
   * prefix); any other (a batch split into calls, decay after each changing the states) is checked
   * as executeCommandLists checks its lists.
   */
  validateThenExecuteCommandLists(
    commandLists: GraphicsCommandList[],
    between: (execute: (first: number, count: number) => void) => void,
  ): void {
    if (typeof between !== 'function')
      throw invalidArg('validateThenExecuteCommandLists', 'between', `must be a function, got ${show(between)}`);
    const lists = this.dryRun('validateThenExecuteCommandLists', commandLists);
    const checkedAt = executions;
    let open = true;
    between((first, count) => {
      const call = 'executeCommandLists';
      if (!open) throw invalidArg(call, 'this', 'this execution was validated for a call that has returned');
      if (
        !Number.isInteger(first) ||
        !Number.isInteger(count) ||
        first < 0 ||
        count < 0 ||
        first + count > lists.length
      )
        throw invalidArg(
          call,
          'commandLists',
          `[${show(first)}, +${show(count)}) is not a range of the ${lists.length} lists validated`,
        );
      const backend = this.owner.requireBackend(call);
      const range = lists.slice(first, first + count);
      if (first === 0 && executions === checkedAt) {
        this.execute(
          call,
          backend,
          range,
          range.flatMap((list) => list.states.apply()),
        );
        return;
      }
      const checked = this.checkLists(call, range);
      this.execute(call, backend, checked, this.applyStates(call, checked));
    });
    open = false;
  }

  /** The checks of validateExecuteCommandLists, named as `call`: returns the lists, every state as it was. */
  private dryRun(call: string, commandLists: GraphicsCommandList[]): GraphicsCommandList[] {
    this.owner.requireBackend(call);
    const lists = this.checkLists(call, commandLists);
    const saved = this.saveStates(lists);
    this.applyStates(call, lists);
    this.restoreStates(saved);
    return lists;
  }

  /** Executes checked lists whose states were applied (`touched`): decay, then the lists' commands as they are now. */
  private execute(call: string, backend: GpuBackend, lists: readonly GraphicsCommandList[], touched: Touched[]): void {
    executions++;
    // Decay happens when the whole call is done, not between its lists.
    decayAfterExecution(touched, this.desc.type === 'COPY');
    // The commands recorded now are what runs, even if a list is reset and re-recorded meanwhile:
    // each becomes its executable form here, once (see src/commands/recorded-commands.ts).
    const executable: ExecutableList[] = [];
    const writes: CpuVisibleWrite[] = [];
    const described = new Map<number, SubmittedList>();
    const uses: ListUse[] = [];
    const uavClearPipeline = (): GPUComputePipeline => backend.uavClearPipeline();
    for (const list of lists) {
      described.set(list.id, { label: list.label, commands: commandNames(list.commands) });
      // What the list is known to use: what its copies and barriers name, and what its root
      // descriptors point into (shaders reach other memory by address alone).
      const used = new Set(list.states.resources());
      for (const command of list.commands) {
        if (command.kind !== 'dispatch' && command.kind !== 'draw') continue;
        for (const resource of this.owner.objects.resourcesAt(command.addresses)) used.add(resource);
        for (const resource of command.memory) used.add(resource);
      }
      uses.push({ id: list.id, label: list.label, resources: used });
      executable.push({ id: list.id, commands: executableCommands(list.commands, writes, uavClearPipeline, call) });
    }
    this.enqueue(call, () => backend.execute(executable, writes, described, uses), uses);
  }

  private checkLists(call: string, commandLists: GraphicsCommandList[]): GraphicsCommandList[] {
    this.owner.removal.check(call);
    if (!Array.isArray(commandLists))
      throw invalidArg(call, 'commandLists', `must be an array of command lists, got ${show(commandLists)}`);
    const lists: GraphicsCommandList[] = [];
    commandLists.forEach((value, i) => {
      const list = this.owner.ownCommandList(value);
      if (!list) throw invalidArg(call, `commandLists[${i}]`, 'must be a command list created by this device');
      if (list.isOpen) throw invalidArg(call, `commandLists[${i}]`, `${list.label} is still open; close() it first`);
      if (list.type !== this.desc.type)
        throw invalidArg(call, `commandLists[${i}]`, `${list.label} cannot run on a ${this.desc.type} queue`);
      for (const resource of list.states.resources()) {
        if (resource.released)
          throw invalidArg(call, `commandLists[${i}]`, `${list.label} uses ${resource.label}, which was released`);
      }
      for (const command of list.commands) {
        if ((command.kind === 'clear' || command.kind === 'draw') && !command.target.current) {
          throw invalidArg(
            call,
            `commandLists[${i}]`,
            `${list.label} draws into ${command.target.label}, which was presented`,
          );
        }
        if ((command.kind === 'timestamp' || command.kind === 'resolve') && command.heap.released) {
          throw invalidArg(call, `commandLists[${i}]`, `${list.label} uses ${command.heap.label}, which was released`);
        }
      }
      lists.push(list);
    });
    return lists;
  }

  private saveStates(lists: readonly GraphicsCommandList[]): Map<Resource, number[]> {
    const saved = new Map<Resource, number[]>();
    for (const list of lists)
      for (const resource of list.states.resources())
        if (!saved.has(resource)) saved.set(resource, [...resource.states]);
    return saved;
  }

  private restoreStates(saved: Map<Resource, number[]>): void {
    for (const [resource, states] of saved) resource.restoreStates(states);
  }

  /**
   * States, in call order: checks every list against the states the lists before it leave and applies
   * it; if one fails, puts every state back and throws.
   */
  private applyStates(call: string, lists: readonly GraphicsCommandList[]): Touched[] {
    const saved = this.saveStates(lists);
    const touched: Touched[] = [];
    for (let i = 0; i < lists.length; i++) {
      const list = lists[i] as GraphicsCommandList;
      const problem = list.states.check();
      if (problem) {
        this.restoreStates(saved);
        throw invalidArg(call, `commandLists[${i}]`, `${list.label}: ${problem}`);
      }
      touched.push(...list.states.apply());
    }
    return touched;
  }

  /** ID3D12CommandQueue::Signal: the fence reaches `value` once the work before it has completed. */
  signal(fence: Fence, value: number): void {
    this.owner.removal.check('signal');
    const own = this.owner.ownFence(fence);
    if (!own) throw invalidArg('signal', 'fence', 'must be a fence created by this device');
    checkFenceValue('signal', 'value', value);
    const backend = this.owner.backend;
    this.enqueue('signal', () => {
      // Register the completion before reaching the value: reaching it can release other queues,
      // whose own signals must complete after this one.
      own.completeAfter(backend?.workDone(), value);
      own.reach(value);
    });
  }

  /** ID3D12CommandQueue::Wait: this queue's later work waits until the fence reaches `value`. */
  wait(fence: Fence, value: number): void {
    this.owner.removal.check('wait');
    const own = this.owner.ownFence(fence);
    if (!own) throw invalidArg('wait', 'fence', 'must be a fence created by this device');
    checkFenceValue('wait', 'value', value);
    this.enqueue('wait', () => {
      if (own.reachedValue >= value) return;
      const stopWatching = own.watch(() => {
        // Only the wait that holds the queue now may release it.
        if (this.blockedBy?.stopWatching !== stopWatching || own.reachedValue < value) return;
        stopWatching();
        this.blockedBy = undefined;
        this.drain();
      });
      this.blockedBy = { fence: own, value, stopWatching };
    });
  }

  /**
   * ID3D12CommandQueue::UpdateTileMappings. Null arrays take D3D12's defaults (see
   * src/validation/tile-mappings.ts); `heap` may be null when every range is NULL or SKIP.
   */
  updateTileMappings(
    resource: Resource,
    regionStartCoordinates: TiledResourceCoordinate[] | null,
    regionSizes: TileRegionSize[] | null,
    heap: Heap | null,
    rangeFlags: TileRangeFlag[] | null,
    heapRangeStartOffsets: number[] | null,
    rangeTileCounts: number[] | null,
    flags: TileMappingFlag | TileMappingFlag[] = 'NONE',
  ): void {
    this.owner.removal.check('updateTileMappings');
    const heapGiven = heap !== null && heap !== undefined;
    const heapView = heapGiven ? this.owner.objects.ownHeap(heap) : undefined;
    const own = this.owner.objects.ownResource(resource);
    // A streamer's per-tile call, applied at once when no earlier operation waits (see singleRangeStart).
    const start = singleRangeStart(
      own,
      regionStartCoordinates,
      regionSizes,
      heapView,
      rangeFlags,
      heapRangeStartOffsets,
      rangeTileCounts,
      flags,
    );
    if (start >= 0 && !this.blockedBy && this.pending.length === 0) {
      const count = (regionSizes as TileRegionSize[])[0]?.numTiles as number;
      const heapTile = (heapRangeStartOffsets as number[])[0] as number;
      try {
        mapTileRange(resource.tileMappings as TileMappingTable, start, count, (heapView as Heap).id, heapTile);
        const heap = heapView as Heap;
        this.owner.backend?.backing.writeSegment(resource, heap.id, heap.memory, start, count, 'NONE', heapTile);
      } catch (error) {
        this.owner.removal.recordFailure('updateTileMappings', error);
      }
      return;
    }
    const plan = orThrow(
      validateUpdateTileMappings(
        own,
        regionStartCoordinates,
        regionSizes,
        heapView,
        heapGiven,
        rangeFlags,
        heapRangeStartOffsets,
        rangeTileCounts,
        flags,
      ),
    );
    const heapId = heapView?.id ?? NULL_HEAP;
    this.enqueue('updateTileMappings', () => {
      // SKIP ranges change nothing: neither the table nor the page table.
      const segments = applyTileMappings(plan.table, plan.regions, plan.ranges, heapId);
      this.owner.backend?.backing.writeSegments(resource, heapId, segments);
    });
  }

  /** ID3D12CommandQueue::CopyTileMappings: as if the source mappings were copied through a temporary. */
  copyTileMappings(
    dstResource: Resource,
    dstRegionStartCoordinate: TiledResourceCoordinate,
    srcResource: Resource,
    srcRegionStartCoordinate: TiledResourceCoordinate,
    regionSize: TileRegionSize,
    flags: TileMappingFlag | TileMappingFlag[] = 'NONE',
  ): void {
    this.owner.removal.check('copyTileMappings');
    const plan = orThrow(
      validateCopyTileMappings(
        this.owner.objects.ownResource(dstResource),
        dstRegionStartCoordinate,
        this.owner.objects.ownResource(srcResource),
        srcRegionStartCoordinate,
        regionSize,
        flags,
        (id) => this.owner.objects.heapById(id),
      ),
    );
    this.enqueue('copyTileMappings', () => {
      copyTileMappings(plan.dst, plan.dstRegion, plan.src, plan.srcRegion);
      this.owner.backend?.backing.writeTiles(dstResource, plan.dstRegion);
    });
  }
}
