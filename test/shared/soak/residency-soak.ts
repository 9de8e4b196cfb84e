/**
 * Residency soak (data integrity under paging): a device with a small LOCAL budget holds about four
 * times that budget in tracked heaps (some created not resident), committed buffers and reserved
 * buffers whose tiles map into several heaps. Hundreds of seeded random command lists each touch a
 * random subset of the buffers (copies from UPLOAD buffers, copies between the buffers, copyTiles,
 * a read-modify-write compute shader) and go through ResidencyManager.executeCommandLists with a
 * residency set holding exactly the heaps and committed resources the list touches (for a reserved
 * buffer, the heaps its touched tiles map to), often several lists per call so that batches split.
 * A CPU copy of every byte follows along (heap memory as byte arrays; reserved buffers through the
 * runner's own model of their tile mappings; NULL tiles read 0 and drop writes). At random
 * checkpoints and at the end every buffer, and every heap as a whole (through a reserved "probe"
 * buffer mapped onto it), is read back through READBACK buffers, in lists whose residency sets name
 * what they read, and compared byte for byte with the CPU copy.
 *
 * Also checked: the device is never removed (a list whose set misses a heap would fault), LOCAL usage
 * never exceeds the pool, and the CPU page table says what the runner's mapping model says. The
 * summary counts the manager's and the device's paging, for the caller to judge.
 *
 * D3D12 rules the runner keeps: buffers start each list in COMMON (implicit promotion for copies, an
 * explicit COMMON -> UNORDERED_ACCESS transition for dispatches), take transition barriers between
 * uses in one list (UAV barriers between dispatches) and end each list back in COMMON, so that
 * several lists of one call (no decay between them) each find COMMON; no two buffers share memory
 * and every heap page holds at most one reserved tile (no command writes memory it reads or writes
 * twice); tile mappings change only between calls; UPLOAD buffers are released after a fence says
 * the list that read them completed. UPLOAD and READBACK buffers are not tracked (they stay resident).
 *
 * The device, the seeded generator, the step loop and its checkpoints are soak-driver.ts's, shared
 * with the paging soak; this file is the residency soak's runner and its plan for the driver.
 */
import {
  type CommandQueue,
  type Device,
  type Fence,
  type GraphicsCommandList,
  type Heap,
  type Pageable,
  type PipelineState,
  type ResidencyManager,
  type ResidencySet,
  type ResidencyStats,
  type Resource,
} from '../../../src/index.js';
import type { Random } from '../../../src/validate/random.js';
import { listStates } from './list-states.js';
import { driveSoak, type SoakPlan } from './soak-driver.js';
import { TILE } from '../d3d12-helpers.js';
import { getTileMappingForTesting } from '../../../src/testing/index.js';

const MIB = 2 ** 20;

/** The device: a 16 MiB LOCAL pool with a 4 MiB budget, and what the objects add up to. */
export const SOAK_LOCAL_POOL = 16 * MIB;
export const SOAK_LOCAL_BUDGET = 4 * MIB;
const NON_LOCAL_POOL = 8 * MIB;
/** Small, so that batches whose sets need more than both budgets together split. */
const NON_LOCAL_BUDGET = 2 * MIB;
/** Tracked bytes (heaps and committed resources) as a multiple of the LOCAL budget. */
const TRACKED_MULTIPLE = 4;
/**
 * UPLOAD memory (whole pages) in flight when a call's lists are planned, and the most one list
 * uploads: with at most 5 lists a call, NON_LOCAL usage stays within its budget.
 */
const MAX_UPLOAD_IN_FLIGHT = 768 * 1024;
const MAX_UPLOAD_PER_LIST = 200 * 1024;
const MAX_LISTS_PER_CALL = 5;
/** Bytes of one checkpoint READBACK buffer (items larger than this get one of their own). */
const READBACK_CHUNK = MIB;
/**
 * The manager's clock advances this much per executeCommandLists call: seeded rather than real time,
 * and enough for the grace period (1 s at full budget) to trim objects left idle for a few calls.
 */
const MS_PER_CALL = 250;

// ---- Options and results ----------------------------------------------------------------------

export interface SoakOptions {
  seed: number;
  /** Soak command lists to execute (default 320); initialization and checkpoint lists come on top. */
  lists?: number;
  /** Random checkpoints during the run (default 3); one more always comes at the end. */
  checkpoints?: number;
  /** device.setResidencyDebugBudget(bytes) before anything is created (0: maximum pressure). */
  debugBudget?: number | null;
}

export interface SoakDifference {
  /** 'memory': a byte read back differs; 'mapping': the CPU page table differs from the model. */
  kind: 'memory' | 'mapping';
  checkpoint: number;
  /** Soak lists executed before the checkpoint. */
  afterLists: number;
  object: string;
  resource: string;
  /** Byte offset in the object (memory) or tile (mapping). */
  offset: number;
  actual: string;
  expected: string;
}

export interface SoakSummary {
  seed: number;
  ok: boolean;
  debugBudget: number | null;
  /** Soak lists asked for, and executed (each touching a random subset). */
  requestedLists: number;
  lists: number;
  /** executeCommandLists calls of the soak lists, and how many of them had several lists. */
  calls: number;
  multiListCalls: number;
  initLists: number;
  checkpointLists: number;
  checkpoints: number;
  bytesCompared: number;
  objects: {
    heaps: number;
    notResidentHeaps: number;
    placed: number;
    committed: number;
    notResidentCommitted: number;
    reserved: number;
    probes: number;
  };
  /** Bytes of tracked heaps and committed resources, and that over the LOCAL budget. */
  trackedBytes: number;
  budgetMultiple: number;
  localBudget: number;
  localPool: number;
  maxLocalUsage: number;
  /** Soak calls in which the manager evicted or made something resident. */
  pagedCalls: number;
  /** Soak calls after which LOCAL usage exceeded the bytes of the call's sets (something else stayed resident). */
  residentOutsideBatch: number;
  counts: Record<string, number>;
  residency: ResidencyStats;
  paging: { evictions: number; evictedBytes: number; restores: number; restoredBytes: number };
  removedReason: string;
  milliseconds: number;
  difference?: SoakDifference;
  error?: string;
  /** The last operations before a failure. */
  trace?: string[];
}

/** A failure message naming the seed, the lists and the first difference; undefined when it passed. */
export function describeSoakFailure(summary: SoakSummary): string | undefined {
  if (summary.ok) return undefined;
  const lines = [
    `residency soak failed: seed ${summary.seed} (0x${summary.seed.toString(16)}), debug budget ${summary.debugBudget ?? 'none'}, ` +
      `after ${summary.lists} soak lists (${summary.calls} calls, ${summary.checkpoints} checkpoints, ${summary.bytesCompared} bytes compared), device ${summary.removedReason}`,
  ];
  const d = summary.difference;
  if (d) {
    lines.push(
      d.kind === 'memory'
        ? `checkpoint ${d.checkpoint} (after ${d.afterLists} lists): ${d.object} (${d.resource}) byte ${d.offset} is ${d.actual} on the GPU, the CPU copy says ${d.expected}`
        : `checkpoint ${d.checkpoint} (after ${d.afterLists} lists): ${d.object} (${d.resource}) tile ${d.offset} maps to ${d.actual} in the CPU page table, the model says ${d.expected}`,
    );
  }
  if (summary.error) lines.push(summary.error);
  if (summary.trace) lines.push('last operations:', ...summary.trace.map((line) => `  ${line}`));
  const budget = summary.debugBudget === null ? '' : ` D3D12_SOAK_DEBUG_BUDGET=${summary.debugBudget}`;
  lines.push(
    `reproduce: D3D12_SOAK_SEED=${summary.seed}${budget} D3D12_SOAK_LISTS=${summary.requestedLists} npx vitest run --project gpu test/gpu/stress/d3d12/residency-soak.test.ts -t D3D12_SOAK_SEED`,
  );
  return lines.join('\n');
}

/** One line for the test log: what ran, what was compared, how much paged. */
export function describeSoakRun(summary: SoakSummary): string {
  const r = summary.residency;
  return (
    `seed ${summary.seed}${summary.debugBudget === null ? '' : `, debug budget ${summary.debugBudget}`}: ${summary.lists} lists in ${summary.calls} calls ` +
    `(+${summary.initLists} init, +${summary.checkpointLists} checkpoint lists), ${summary.checkpoints} checkpoints, ${summary.bytesCompared} bytes compared; ` +
    `${(summary.trackedBytes / MIB).toFixed(2)} MiB tracked (${summary.budgetMultiple.toFixed(2)}x the budget), max LOCAL usage ${(summary.maxLocalUsage / MIB).toFixed(2)} MiB; ` +
    `manager: ${r.evictions} evictions (${r.trimmed} trimmed), ${r.madeResident} made resident, ${r.splits} splits, ${r.overBudgetBatches} over-budget batches; ` +
    `device: ${summary.paging.evictions} page-outs, ${summary.paging.restores} page-ins; ${summary.milliseconds} ms`
  );
}

// ---- The model --------------------------------------------------------------------------------

interface HeapEntry {
  name: string;
  heap: Heap;
  tiles: number;
  /** 'placed': holds placed buffers; 'tiles': holds the tiles of reserved buffers. */
  role: 'placed' | 'tiles';
  notResident: boolean;
  /** The CPU copy of the heap's memory (new heaps are zeroed). */
  bytes: Uint8Array;
  /** 'tiles' heaps: the reserved tile mapped to each page, if any (each page holds at most one). */
  owners: (string | null)[];
}

interface Slot {
  heap: HeapEntry;
  page: number;
}

interface BufferEntry {
  name: string;
  resource: Resource;
  kind: 'placed' | 'committed' | 'reserved' | 'probe';
  width: number;
  tiles: number;
  /** placed: its heap and first heap page. */
  heap?: HeapEntry;
  heapTile: number;
  /** committed: the CPU copy of its memory. */
  bytes?: Uint8Array;
  /** reserved and probe: the runner's model of the tile mappings. */
  slots?: (Slot | null)[];
}

/** Where a buffer tile's bytes are: a CPU copy, its page, and the pageable object that holds them. */
interface Physical {
  bytes: Uint8Array;
  page: number;
  pageable: Pageable;
}

/** One planned command; `upload` offsets are into the list's UPLOAD buffer. */
type Command =
  | { kind: 'uploadCopy'; dst: BufferEntry; dstOffset: number; uploadOffset: number; numBytes: number }
  | { kind: 'copy'; dst: BufferEntry; dstOffset: number; src: BufferEntry; srcOffset: number; numBytes: number }
  | {
      kind: 'copyTiles';
      tiled: BufferEntry;
      x: number;
      numTiles: number;
      buffer: BufferEntry | null;
      bufferOffset: number;
      toTiles: boolean;
    }
  | { kind: 'dispatch'; buffer: BufferEntry; offset: number; words: number; constant: number };

class Failure extends Error {}

const roundUp = (n: number, to: number): number => Math.ceil(n / to) * to;
const hex = (byte: number | undefined): string => `0x${(byte ?? 0).toString(16).padStart(2, '0')}`;

function randomBytes(random: Random, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  const words = new Uint32Array(bytes.buffer, 0, Math.floor(length / 4));
  for (let i = 0; i < words.length; i++) words[i] = random.next();
  for (let i = words.length * 4; i < length; i++) bytes[i] = random.next() & 0xff;
  return bytes;
}

function describeCommand(command: Command): string {
  switch (command.kind) {
    case 'uploadCopy':
      return `uploadCopy ${command.dst.name}+${command.dstOffset} <- upload+${command.uploadOffset} (${command.numBytes} bytes)`;
    case 'copy':
      return `copy ${command.dst.name}+${command.dstOffset} <- ${command.src.name}+${command.srcOffset} (${command.numBytes} bytes)`;
    case 'copyTiles':
      return `copyTiles ${command.toTiles ? 'to' : 'from'} ${command.tiled.name} tiles ${command.x}..${command.x + command.numTiles - 1} ${command.toTiles ? 'from' : 'to'} ${command.buffer?.name ?? 'upload'}+${command.bufferOffset}`;
    case 'dispatch':
      return `dispatch ${command.buffer.name}+${command.offset} (${command.words} words, c=0x${command.constant.toString(16)})`;
  }
}

class SoakRunner {
  private readonly heaps: HeapEntry[] = [];
  /** Buffers the soak lists use (placed, committed, reserved). */
  private readonly buffers: BufferEntry[] = [];
  /** One reserved buffer per heap, mapped onto all of it: checkpoints read whole heaps through them. */
  private readonly probes: BufferEntry[] = [];
  private readonly spareLists: GraphicsCommandList[] = [];
  private readonly spareSets: ResidencySet[] = [];
  /** Bytes of each tracked object (what it counts against the budget while resident). */
  private readonly sizes = new Map<Pageable, number>();
  private uploadsInFlight: { value: number; upload: Resource; bytes: number }[] = [];
  private fenceValue = 0;
  now = 0;

  readonly trace: string[] = [];
  readonly counts: Record<string, number> = {};
  lists = 0;
  calls = 0;
  multiListCalls = 0;
  initLists = 0;
  checkpointLists = 0;
  checkpoints = 0;
  bytesCompared = 0;
  pagedCalls = 0;
  residentOutsideBatch = 0;
  maxLocalUsage = 0;
  trackedBytes = 0;
  notResidentCommitted = 0;
  difference: SoakDifference | undefined;

  constructor(
    private readonly device: Device,
    private readonly manager: ResidencyManager,
    private readonly queue: CommandQueue,
    private readonly fence: Fence,
    private readonly pipeline: PipelineState,
    private readonly random: Random,
  ) {}

  get objectCounts(): SoakSummary['objects'] {
    const count = (kind: BufferEntry['kind']): number => this.buffers.filter((b) => b.kind === kind).length;
    return {
      heaps: this.heaps.length,
      notResidentHeaps: this.heaps.filter((h) => h.notResident).length,
      placed: count('placed'),
      committed: count('committed'),
      notResidentCommitted: this.notResidentCommitted,
      reserved: count('reserved'),
      probes: this.probes.length,
    };
  }

  private count(kind: string, by = 1): void {
    this.counts[kind] = (this.counts[kind] ?? 0) + by;
  }

  private log(line: string): void {
    this.trace.push(line);
    if (this.trace.length > 200) this.trace.splice(0, this.trace.length - 100);
  }

  // -- the CPU copy --

  private physical(buffer: BufferEntry, tile: number): Physical | null {
    switch (buffer.kind) {
      case 'placed': {
        const heap = buffer.heap as HeapEntry;
        return { bytes: heap.bytes, page: buffer.heapTile + tile, pageable: heap.heap };
      }
      case 'committed':
        return { bytes: buffer.bytes as Uint8Array, page: tile, pageable: buffer.resource };
      default: {
        const slot = (buffer.slots as (Slot | null)[])[tile] ?? null;
        return slot ? { bytes: slot.heap.bytes, page: slot.page, pageable: slot.heap.heap } : null;
      }
    }
  }

  /** Calls `visit` for each tile-sized piece of buffer bytes [offset, offset + length). */
  private walk(
    buffer: BufferEntry,
    offset: number,
    length: number,
    visit: (physical: Physical | null, at: number, dataOffset: number, count: number) => void,
  ): void {
    let done = 0;
    while (done < length) {
      const tile = Math.floor((offset + done) / TILE);
      const inTile = offset + done - tile * TILE;
      const count = Math.min(length - done, TILE - inTile);
      const physical = this.physical(buffer, tile);
      visit(physical, physical ? physical.page * TILE + inTile : 0, done, count);
      done += count;
    }
  }

  read(buffer: BufferEntry, offset: number, length: number): Uint8Array {
    const out = new Uint8Array(length);
    this.walk(buffer, offset, length, (physical, at, dataOffset, count) => {
      if (physical) out.set(physical.bytes.subarray(at, at + count), dataOffset);
    });
    return out;
  }

  private write(buffer: BufferEntry, offset: number, bytes: Uint8Array): void {
    this.walk(buffer, offset, bytes.length, (physical, at, dataOffset, count) => {
      physical?.bytes.set(bytes.subarray(dataOffset, dataOffset + count), at);
    });
  }

  /** The pageable objects behind buffer bytes [offset, offset + length): what a residency set needs. */
  private pageables(buffer: BufferEntry, offset: number, length: number, into: Set<Pageable>): Set<Pageable> {
    this.walk(buffer, offset, length, (physical) => {
      if (physical) into.add(physical.pageable);
    });
    return into;
  }

  /** Memory identity of buffer bytes (CPU copy and byte range), to rule out overlapping copies. */
  private ranges(buffer: BufferEntry, offset: number, length: number): [Uint8Array, number, number][] {
    const out: [Uint8Array, number, number][] = [];
    this.walk(buffer, offset, length, (physical, at, _dataOffset, count) => {
      if (physical) out.push([physical.bytes, Math.floor(at / 4) * 4, roundUp(at + count, 4)]);
    });
    return out;
  }

  private overlap(a: BufferEntry, aOffset: number, b: BufferEntry, bOffset: number, length: number): boolean {
    const x = this.ranges(a, aOffset, length);
    const y = this.ranges(b, bOffset, length);
    return x.some(([bytes, start, end]) => y.some(([other, s, e]) => bytes === other && start < e && s < end));
  }

  private applyCommand(command: Command, upload: Uint8Array): void {
    switch (command.kind) {
      case 'uploadCopy':
        this.write(
          command.dst,
          command.dstOffset,
          upload.subarray(command.uploadOffset, command.uploadOffset + command.numBytes),
        );
        break;
      case 'copy':
        this.write(command.dst, command.dstOffset, this.read(command.src, command.srcOffset, command.numBytes));
        break;
      case 'copyTiles': {
        const bytes = command.numTiles * TILE;
        const linear = command.buffer
          ? this.read(command.buffer, command.bufferOffset, bytes)
          : upload.subarray(command.bufferOffset, command.bufferOffset + bytes);
        if (command.toTiles) this.write(command.tiled, command.x * TILE, linear);
        else
          this.write(
            command.buffer as BufferEntry,
            command.bufferOffset,
            this.read(command.tiled, command.x * TILE, bytes),
          );
        break;
      }
      case 'dispatch': {
        const bytes = this.read(command.buffer, command.offset, command.words * 4);
        const words = new DataView(bytes.buffer);
        for (let i = 0; i < command.words; i++) {
          const v = words.getUint32(i * 4, true);
          words.setUint32(i * 4, (Math.imul((v ^ command.constant) >>> 0, 0x9e3779b1) + i) >>> 0, true);
        }
        this.write(command.buffer, command.offset, bytes);
        break;
      }
    }
  }

  // -- lists, sets, uploads --

  private takeList(): GraphicsCommandList {
    const list = this.spareLists.pop();
    if (!list) return this.device.createCommandList('DIRECT');
    list.reset();
    return list;
  }

  private takeSet(members: Iterable<Pageable>): ResidencySet {
    const set = this.spareSets.pop() ?? this.manager.createResidencySet();
    set.open();
    for (const member of members) set.insert(member);
    set.close();
    return set;
  }

  /** Executes through the manager, then signals the runner's fence; returns its value. */
  private execute(lists: GraphicsCommandList[], sets: ResidencySet[]): number {
    this.manager.executeCommandLists(this.queue, lists, sets);
    this.now += MS_PER_CALL;
    const usage = this.device.queryVideoMemoryInfo('LOCAL').currentUsage;
    this.maxLocalUsage = Math.max(this.maxLocalUsage, usage);
    if (usage > SOAK_LOCAL_POOL) throw new Failure(`LOCAL usage ${usage} exceeds the ${SOAK_LOCAL_POOL}-byte pool`);
    this.spareLists.push(...lists);
    this.spareSets.push(...sets);
    this.queue.signal(this.fence, ++this.fenceValue);
    return this.fenceValue;
  }

  /** An UPLOAD buffer holding `bytes`, released once the list that reads it completed (see settleUploads). */
  private createUpload(bytes: Uint8Array): Resource {
    const upload = this.device.createCommittedResource(
      { type: 'UPLOAD' },
      [],
      { dimension: 'BUFFER', width: Math.max(4, bytes.length) },
      'GENERIC_READ',
    );
    upload.map().set(bytes);
    upload.unmap();
    return upload;
  }

  /** Releases UPLOAD buffers whose lists completed; waits while more than `maxBytes` are in flight. */
  private async settleUploads(maxBytes: number): Promise<void> {
    let inFlight = this.releaseCompletedUploads();
    while (inFlight > maxBytes) {
      const oldest = this.uploadsInFlight[0] as (typeof this.uploadsInFlight)[number];
      await this.fence.setEventOnCompletion(oldest.value);
      this.checkRemoved();
      inFlight = this.releaseCompletedUploads();
    }
  }

  private releaseCompletedUploads(): number {
    const done = this.fence.getCompletedValue();
    for (const u of this.uploadsInFlight) if (u.value <= done) u.upload.release();
    this.uploadsInFlight = this.uploadsInFlight.filter((u) => u.value > done);
    return this.uploadsInFlight.reduce((sum, u) => sum + roundUp(Math.max(4, u.bytes), TILE), 0);
  }

  private checkRemoved(): void {
    const reason = this.device.getDeviceRemovedReason();
    if (reason !== 'S_OK')
      throw new Failure(
        `the device was removed (${reason}): ${this.device.getPageFaultReport()?.message ?? 'no report'}`,
      );
  }

  /**
   * Records `commands` into a list (with the barriers D3D12 needs), applies them to the CPU copy, and
   * returns the list with a residency set of exactly what the commands touch.
   */
  private record(
    commands: Command[],
    uploadBytes: Uint8Array,
    upload: Resource | null,
  ): { list: GraphicsCommandList; set: ResidencySet; touched: Set<Pageable> } {
    const list = this.takeList();
    const { need, states } = listStates(list);
    const members = new Set<Pageable>();
    let pipelineSet = false;
    for (const command of commands) {
      switch (command.kind) {
        case 'uploadCopy':
          need(command.dst.resource, 'COPY_DEST');
          list.copyBufferRegion(
            command.dst.resource,
            command.dstOffset,
            upload as Resource,
            command.uploadOffset,
            command.numBytes,
          );
          this.pageables(command.dst, command.dstOffset, command.numBytes, members);
          break;
        case 'copy':
          need(command.dst.resource, 'COPY_DEST');
          need(command.src.resource, 'COPY_SOURCE');
          list.copyBufferRegion(
            command.dst.resource,
            command.dstOffset,
            command.src.resource,
            command.srcOffset,
            command.numBytes,
          );
          this.pageables(command.dst, command.dstOffset, command.numBytes, members);
          this.pageables(command.src, command.srcOffset, command.numBytes, members);
          break;
        case 'copyTiles': {
          const bytes = command.numTiles * TILE;
          need(command.tiled.resource, command.toTiles ? 'COPY_DEST' : 'COPY_SOURCE');
          if (command.buffer) need(command.buffer.resource, command.toTiles ? 'COPY_SOURCE' : 'COPY_DEST');
          const flags = command.toTiles
            ? 'LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE'
            : 'SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER';
          list.copyTiles(
            command.tiled.resource,
            { x: command.x, y: 0, z: 0, subresource: 0 },
            { numTiles: command.numTiles },
            command.buffer?.resource ?? (upload as Resource),
            command.bufferOffset,
            flags,
          );
          this.pageables(command.tiled, command.x * TILE, bytes, members);
          if (command.buffer) this.pageables(command.buffer, command.bufferOffset, bytes, members);
          break;
        }
        case 'dispatch': {
          if (!pipelineSet) {
            list.setPipelineState(this.pipeline);
            pipelineSet = true;
          }
          need(command.buffer.resource, 'UNORDERED_ACCESS');
          const va = command.buffer.resource.getGPUVirtualAddress() + BigInt(command.offset);
          list.setComputeRootUnorderedAccessView(1, va);
          list.setComputeRoot32BitConstants(0, [command.words, command.constant], 2);
          list.dispatch(Math.ceil(command.words / 64));
          this.pageables(command.buffer, command.offset, command.words * 4, members);
          break;
        }
      }
      this.applyCommand(command, uploadBytes);
      this.count(command.kind);
    }
    // Back to COMMON: the next list of the same call (no decay in between) starts from there.
    const back = [...states].map(([resource, state]) => ({
      type: 'TRANSITION' as const,
      transition: { resource, stateBefore: state, stateAfter: 'COMMON' as const },
    }));
    if (back.length > 0) list.resourceBarrier(back);
    list.close();
    return { list, set: this.takeSet(members), touched: members };
  }

  // -- setup --

  private addHeap(role: HeapEntry['role'], tiles: number, notResident: boolean): HeapEntry {
    const heap = this.device.createHeap({
      sizeInBytes: tiles * TILE,
      properties: { type: 'DEFAULT' },
      flags: [
        ...(this.random.chance(0.5) ? (['ALLOW_ONLY_BUFFERS'] as const) : []),
        ...(notResident ? (['CREATE_NOT_RESIDENT'] as const) : []),
      ],
    });
    const name = `H${this.heaps.length + 1}${role === 'tiles' ? 't' : 'p'}`;
    heap.setName(name);
    this.manager.beginTrackingObject(heap);
    this.sizes.set(heap, tiles * TILE);
    const entry: HeapEntry = {
      name,
      heap,
      tiles,
      role,
      notResident,
      bytes: new Uint8Array(tiles * TILE),
      owners: new Array<string | null>(tiles).fill(null),
    };
    this.heaps.push(entry);
    this.trackedBytes += tiles * TILE;
    // The probe: a reserved buffer mapped onto the whole heap, page for page.
    const probe = this.device.createReservedResource({ dimension: 'BUFFER', width: tiles * TILE }, 'COMMON');
    probe.setName(`${name} probe`);
    this.queue.updateTileMappings(probe, null, null, heap, ['NONE'], [0], null);
    this.probes.push({
      name: `${name} probe`,
      resource: probe,
      kind: 'probe',
      width: tiles * TILE,
      tiles,
      heapTile: 0,
      slots: Array.from({ length: tiles }, (_, page) => ({ heap: entry, page })),
    });
    return entry;
  }

  private addBuffer(entry: Omit<BufferEntry, 'name'>): BufferEntry {
    const prefix = { placed: 'P', committed: 'C', reserved: 'R', probe: 'X' }[entry.kind];
    const name = `${prefix}${this.buffers.filter((b) => b.kind === entry.kind).length + 1}`;
    entry.resource.setName(name);
    const buffer: BufferEntry = { ...entry, name };
    this.buffers.push(buffer);
    return buffer;
  }

  /** Writes random bytes over a random part of `target` (a probe or a committed buffer) in a list of its own. */
  private async initialize(target: BufferEntry): Promise<void> {
    const r = this.random;
    await this.settleUploads(0);
    const numBytes = r.int(Math.ceil(target.width / 3), target.width);
    const dstOffset = r.int(0, target.width - numBytes);
    const bytes = randomBytes(r, numBytes);
    const upload = this.createUpload(bytes);
    const { list, set } = this.record(
      [{ kind: 'uploadCopy', dst: target, dstOffset, uploadOffset: 0, numBytes }],
      bytes,
      upload,
    );
    this.log(`init ${target.name}+${dstOffset} (${numBytes} bytes)`);
    this.uploadsInFlight.push({ value: this.execute([list], [set]), upload, bytes: numBytes });
    this.initLists++;
  }

  /** Creates heaps, placed, committed and reserved buffers until the tracked bytes reach 4x the budget. */
  async setup(): Promise<void> {
    const r = this.random;
    const target = TRACKED_MULTIPLE * SOAK_LOCAL_BUDGET;
    // Heaps for the tiles of reserved buffers: about 4.5 MiB, a third created not resident.
    for (let i = 0; i < 6; i++) {
      const heap = this.addHeap('tiles', r.int(8, 16), r.chance(0.34));
      if (!heap.notResident || r.chance(0.5)) await this.initialize(this.probes[this.probes.length - 1] as BufferEntry);
    }
    // Heaps of placed buffers: 1-3 buffers each, in disjoint page ranges with gaps between them.
    for (let i = 0; i < 6; i++) {
      const heap = this.addHeap('placed', r.int(6, 14), r.chance(0.34));
      let page = r.int(0, 1);
      for (let n = r.int(1, 3); n > 0 && page < heap.tiles; n--) {
        const pages = r.int(1, Math.min(6, heap.tiles - page));
        const width = r.chance(0.3) ? pages * TILE : r.int((pages - 1) * TILE + 1, pages * TILE);
        const resource = this.device.createPlacedResource(
          heap.heap,
          page * TILE,
          { dimension: 'BUFFER', width, flags: ['ALLOW_UNORDERED_ACCESS'] },
          'COMMON',
        );
        this.addBuffer({ resource, kind: 'placed', width, tiles: pages, heap, heapTile: page });
        page += pages + r.int(0, 1);
      }
      if (!heap.notResident || r.chance(0.5)) await this.initialize(this.probes[this.probes.length - 1] as BufferEntry);
    }
    // Committed buffers up to the target.
    while (this.trackedBytes < target) {
      const width = r.int(TILE, 14 * TILE);
      const notResident = r.chance(0.25);
      const resource = this.device.createCommittedResource(
        { type: 'DEFAULT' },
        notResident ? ['CREATE_NOT_RESIDENT'] : [],
        { dimension: 'BUFFER', width, flags: ['ALLOW_UNORDERED_ACCESS'] },
        'COMMON',
      );
      this.manager.beginTrackingObject(resource);
      const tiles = Math.ceil(width / TILE);
      this.sizes.set(resource, tiles * TILE);
      this.trackedBytes += tiles * TILE;
      if (notResident) this.notResidentCommitted++;
      const buffer = this.addBuffer({
        resource,
        kind: 'committed',
        width,
        tiles,
        heapTile: 0,
        bytes: new Uint8Array(tiles * TILE),
      });
      if (!notResident || r.chance(0.5)) await this.initialize(buffer);
    }
    // Reserved buffers: tiles spread over the tile heaps (each heap page holds at most one tile), some NULL.
    const tileHeaps = this.heaps.filter((h) => h.role === 'tiles');
    const capacity = tileHeaps.reduce((sum, h) => sum + h.tiles, 0);
    let mapped = 0;
    for (let i = 0; i < 6; i++) {
      const tiles = r.int(3, 12);
      const width = r.chance(0.3) ? tiles * TILE : r.int((tiles - 1) * TILE + 1, tiles * TILE);
      const resource = this.device.createReservedResource(
        { dimension: 'BUFFER', width, flags: ['ALLOW_UNORDERED_ACCESS'] },
        'COMMON',
      );
      const buffer = this.addBuffer({
        resource,
        kind: 'reserved',
        width,
        tiles,
        heapTile: 0,
        slots: new Array<Slot | null>(tiles).fill(null),
      });
      const targets: (Slot | null)[] = [];
      for (let tile = 0; tile < tiles; tile++) {
        if (r.chance(0.12) || mapped >= capacity - 12) {
          targets.push(null);
          continue;
        }
        const slot = this.freePage(tileHeaps) as Slot; // setup leaves 12 pages free
        // Taken now, so that no two tiles get one page (remap sets the owners for good).
        slot.heap.owners[slot.page] = `${buffer.name}[${tile}]`;
        targets.push(slot);
        mapped++;
      }
      for (const slot of targets) if (slot) slot.heap.owners[slot.page] = null;
      this.remap(
        buffer,
        targets.map((slot, tile) => ({ tile, slot })),
      );
    }
  }

  /** A random free page of a random tile heap, or null when every page holds a tile. */
  private freePage(tileHeaps: HeapEntry[]): Slot | null {
    const r = this.random;
    const withRoom = tileHeaps.filter((h) => h.owners.includes(null));
    if (withRoom.length === 0) return null;
    const heap = r.pick(withRoom);
    const free = heap.owners.flatMap((owner, page) => (owner === null ? [page] : []));
    return { heap, page: r.pick(free) };
  }

  /** Maps tiles of a reserved buffer (queue updateTileMappings, one call per heap) and updates the model. */
  private remap(buffer: BufferEntry, changes: { tile: number; slot: Slot | null }[]): void {
    const slots = buffer.slots as (Slot | null)[];
    for (const { tile } of changes) {
      const old = slots[tile];
      if (old) old.heap.owners[old.page] = null;
    }
    const byHeap = new Map<HeapEntry | null, { tile: number; slot: Slot | null }[]>();
    for (const change of changes) {
      const key = change.slot?.heap ?? null;
      byHeap.set(key, [...(byHeap.get(key) ?? []), change]);
    }
    for (const [heap, group] of byHeap) {
      this.queue.updateTileMappings(
        buffer.resource,
        group.map(({ tile }) => ({ x: tile, y: 0, z: 0, subresource: 0 })),
        group.map(() => ({ numTiles: 1 })),
        heap?.heap ?? null,
        group.map(() => (heap ? 'NONE' : 'NULL')),
        group.map(({ slot }) => slot?.page ?? 0),
        group.map(() => 1),
      );
    }
    for (const { tile, slot } of changes) {
      slots[tile] = slot;
      if (!slot) continue;
      // The runner's own invariant (no command may write one page through two tiles).
      const owner = slot.heap.owners[slot.page];
      if (owner !== null) throw new Failure(`runner bug: ${slot.heap.name} page ${slot.page} already holds ${owner}`);
      slot.heap.owners[slot.page] = `${buffer.name}[${tile}]`;
    }
    this.log(
      `remap ${buffer.name}: ${changes.map(({ tile, slot }) => `${tile}->${slot ? `${slot.heap.name}:${slot.page}` : 'NULL'}`).join(' ')}`,
    );
  }

  // -- the soak --

  /** Moves 1-3 tiles of a random reserved buffer to free pages (maybe in another heap) or to NULL. */
  private randomRemap(): void {
    const r = this.random;
    const buffer = r.pick(this.buffers.filter((b) => b.kind === 'reserved'));
    const tileHeaps = this.heaps.filter((h) => h.role === 'tiles');
    const changes: { tile: number; slot: Slot | null }[] = [];
    const tiles = new Set<number>();
    for (let n = r.int(1, Math.min(3, buffer.tiles)); n > 0; n--) tiles.add(r.int(0, buffer.tiles - 1));
    for (const tile of tiles) {
      const current = (buffer.slots as (Slot | null)[])[tile];
      const slot = current && r.chance(0.3) ? null : this.freePage(tileHeaps);
      // Reserve the page now so two changes of one remap never take the same page.
      if (slot) slot.heap.owners[slot.page] = `${buffer.name}[${tile}]`;
      changes.push({ tile, slot });
    }
    for (const { slot } of changes) if (slot) slot.heap.owners[slot.page] = null;
    this.remap(buffer, changes);
    this.count('remap');
  }

  /** Plans the commands of one list over a random subset of the buffers; returns them and the upload bytes. */
  private plan(): { commands: Command[]; upload: Uint8Array } {
    const r = this.random;
    const subset: BufferEntry[] = [];
    const pool = [...this.buffers];
    for (let n = r.int(1, 4); n > 0 && pool.length > 0; n--)
      subset.push(pool.splice(r.int(0, pool.length - 1), 1)[0] as BufferEntry);
    const commands: Command[] = [];
    const uploads: Uint8Array[] = [];
    let uploadBytes = 0;
    const takeUpload = (length: number): number => {
      const offset = uploadBytes + (r.chance(0.5) ? 0 : r.int(1, 7));
      const bytes = randomBytes(r, offset + length - uploadBytes);
      uploads.push(bytes);
      uploadBytes += bytes.length;
      return offset;
    };
    const size = (max: number): number => {
      const x = r.float();
      if (x < 0.2) return r.int(1, Math.min(max, 64));
      if (x < 0.5) return r.int(1, Math.min(max, 4096));
      if (x < 0.9) return r.int(1, Math.min(max, 100_000));
      return r.int(1, max);
    };
    const room = (): number => MAX_UPLOAD_PER_LIST - uploadBytes - 7;
    const reserved = subset.filter((b) => b.kind === 'reserved');
    for (let n = r.int(1, 6), attempts = 0; commands.length < n && attempts < 40; attempts++) {
      const kind = r.weighted([4, subset.length > 1 ? 4 : 0, reserved.length > 0 ? 2 : 0, 3]);
      if (kind === 0) {
        const dst = r.pick(subset);
        if (room() < 1) continue;
        const numBytes = Math.min(size(dst.width), room());
        const dstOffset = r.int(0, dst.width - numBytes);
        commands.push({ kind: 'uploadCopy', dst, dstOffset, uploadOffset: takeUpload(numBytes), numBytes });
      } else if (kind === 1) {
        const dst = r.pick(subset);
        const src = r.pick(subset.filter((b) => b !== dst));
        const numBytes = size(Math.min(dst.width, src.width));
        const dstOffset = r.int(0, dst.width - numBytes);
        const srcOffset = r.int(0, src.width - numBytes);
        if (this.overlap(dst, dstOffset, src, srcOffset, numBytes)) continue;
        commands.push({ kind: 'copy', dst, dstOffset, src, srcOffset, numBytes });
      } else if (kind === 2) {
        const tiled = r.pick(reserved);
        const numTiles = r.int(1, Math.min(3, tiled.tiles));
        const x = r.int(0, tiled.tiles - numTiles);
        const bytes = numTiles * TILE;
        const toTiles = r.chance(0.5);
        const candidates = subset.filter((b) => b !== tiled && b.width >= bytes);
        if (toTiles && bytes <= room() && (candidates.length === 0 || r.chance(0.5))) {
          commands.push({
            kind: 'copyTiles',
            tiled,
            x,
            numTiles,
            buffer: null,
            bufferOffset: takeUpload(bytes),
            toTiles,
          });
          continue;
        }
        if (candidates.length === 0) continue;
        const buffer = r.pick(candidates);
        const bufferOffset = r.chance(0.4) ? 0 : r.int(0, buffer.width - bytes);
        if (this.overlap(tiled, x * TILE, buffer, bufferOffset, bytes)) continue;
        commands.push({ kind: 'copyTiles', tiled, x, numTiles, buffer, bufferOffset, toTiles });
      } else {
        const buffer = r.pick(subset);
        const maxWords = Math.floor(buffer.width / 4);
        if (maxWords === 0) continue;
        const words = size(Math.min(maxWords, 32_768));
        const offset = 4 * r.int(0, maxWords - words);
        commands.push({ kind: 'dispatch', buffer, offset, words, constant: r.next() });
      }
    }
    const upload = new Uint8Array(uploadBytes);
    let at = 0;
    for (const bytes of uploads) {
      upload.set(bytes, at);
      at += bytes.length;
    }
    return { commands, upload };
  }

  /** One executeCommandLists call of 1-5 random lists (never more than `remaining`). */
  async step(remaining: number): Promise<void> {
    const r = this.random;
    await this.settleUploads(MAX_UPLOAD_IN_FLIGHT);
    if (r.chance(0.08)) this.randomRemap();
    const count = Math.min(remaining, 1 + r.weighted([5, 2, 2, 1, 1]));
    if (count > MAX_LISTS_PER_CALL) throw new Failure('runner bug: too many lists for one call');
    const lists: GraphicsCommandList[] = [];
    const sets: ResidencySet[] = [];
    const members: Set<Pageable>[] = [];
    const uploads: { upload: Resource; bytes: number }[] = [];
    for (let i = 0; i < count; i++) {
      const { commands, upload: bytes } = this.plan();
      const upload = bytes.length > 0 ? this.createUpload(bytes) : null;
      if (upload) uploads.push({ upload, bytes: bytes.length });
      const { list, set, touched } = this.record(commands, bytes, upload);
      members.push(touched);
      list.setName(`soak list ${this.lists + i + 1}`);
      this.log(`list ${this.lists + i + 1} (set of ${set.size}): ${commands.map(describeCommand).join('; ')}`);
      lists.push(list);
      sets.push(set);
    }
    const before = this.manager.getStats();
    const value = this.execute(lists, sets);
    const after = this.manager.getStats();
    if (after.evictions !== before.evictions || after.madeResident !== before.madeResident) this.pagedCalls++;
    // Whether anything outside the call's sets is still resident (never, at a debug budget of 0).
    const batch = new Set(members.flatMap((m) => [...m]));
    const batchBytes = [...batch].reduce((sum, pageable) => sum + (this.sizes.get(pageable) ?? 0), 0);
    if (this.device.queryVideoMemoryInfo('LOCAL').currentUsage > batchBytes) this.residentOutsideBatch++;
    for (const upload of uploads) this.uploadsInFlight.push({ value, ...upload });
    this.lists += count;
    this.calls++;
    if (count > 1) this.multiListCalls++;
  }

  // -- checkpoints --

  /** The CPU page table must say what the runner's model says. */
  private checkMappings(buffer: BufferEntry): SoakDifference | undefined {
    const slots = buffer.slots as (Slot | null)[];
    for (let tile = 0; tile < buffer.tiles; tile++) {
      const actual = getTileMappingForTesting(buffer.resource, tile);
      const expected = slots[tile] ?? null;
      const same =
        actual === null
          ? expected === null
          : expected !== null && actual.heap === expected.heap.heap && actual.heapTileOffset === expected.page;
      if (!same) {
        return {
          kind: 'mapping',
          checkpoint: this.checkpoints,
          afterLists: this.lists,
          object: buffer.name,
          resource: buffer.resource.label,
          offset: tile,
          actual: actual ? `${actual.heap.label} page ${actual.heapTileOffset}` : 'NULL',
          expected: expected ? `${expected.heap.name} page ${expected.page}` : 'NULL',
        };
      }
    }
    return undefined;
  }

  /**
   * Reads every buffer and every heap (through its probe) back and compares it with the CPU copy:
   * one list per object, its set naming what it reads, several lists per call.
   */
  async checkpoint(): Promise<void> {
    this.checkpoints++;
    await this.settleUploads(0);
    this.log(`checkpoint ${this.checkpoints} after ${this.lists} lists`);
    const items = [...this.buffers, ...this.probes];
    for (const item of items) {
      if (item.slots) this.difference ??= this.checkMappings(item);
      if (this.difference) return;
    }
    let next = 0;
    while (next < items.length && !this.difference) {
      const chunk: { item: BufferEntry; offset: number }[] = [];
      let bytes = 0;
      while (
        next < items.length &&
        (chunk.length === 0 || bytes + (items[next] as BufferEntry).width <= READBACK_CHUNK)
      ) {
        const item = items[next++] as BufferEntry;
        chunk.push({ item, offset: bytes });
        bytes += roundUp(item.width, 256);
      }
      const readback = this.device.createCommittedResource(
        { type: 'READBACK' },
        [],
        { dimension: 'BUFFER', width: bytes },
        'COPY_DEST',
      );
      const lists: GraphicsCommandList[] = [];
      const sets: ResidencySet[] = [];
      for (const { item, offset } of chunk) {
        const list = this.takeList();
        list.setName(`checkpoint ${this.checkpoints}: ${item.name}`);
        list.copyBufferRegion(readback, offset, item.resource, 0, item.width);
        list.close();
        lists.push(list);
        sets.push(this.takeSet(this.pageables(item, 0, item.width, new Set())));
      }
      const value = this.execute(lists, sets);
      this.checkpointLists += lists.length;
      await this.fence.setEventOnCompletion(value);
      this.checkRemoved();
      const actual = readback.map();
      for (const { item, offset } of chunk) {
        const expected = this.read(item, 0, item.width);
        for (let at = 0; at < item.width; at++) {
          if (actual[offset + at] !== expected[at]) {
            this.difference = {
              kind: 'memory',
              checkpoint: this.checkpoints,
              afterLists: this.lists,
              object: item.name,
              resource: item.resource.label,
              offset: at,
              actual: hex(actual[offset + at]),
              expected: hex(expected[at]),
            };
            break;
          }
        }
        if (this.difference) break;
        this.bytesCompared += item.width;
      }
      readback.unmap();
      readback.release();
    }
    this.releaseCompletedUploads();
    const faults = await this.device.readFaults();
    if (faults.length > 0) throw new Failure(`the GPU logged ${faults.length} fault(s), first: ${faults[0]?.message}`);
    this.checkRemoved();
  }
}

/** The residency soak as the soak driver runs it: steps are soak lists (one call executes 1-5). */
function residencySoakPlan(options: SoakOptions): SoakPlan<SoakRunner> {
  return {
    seed: options.seed >>> 0,
    target: options.lists ?? 320,
    unit: 'soak lists',
    checkpoints: options.checkpoints ?? 3,
    localPool: SOAK_LOCAL_POOL,
    localBudget: SOAK_LOCAL_BUDGET,
    nonLocalPool: NON_LOCAL_POOL,
    nonLocalBudget: NON_LOCAL_BUDGET,
    debugBudget: options.debugBudget ?? null,
    pipelineLabel: 'soak read-modify-write',
    create: ({ device, manager, pipeline, random }) =>
      new SoakRunner(
        device,
        manager,
        device.createCommandQueue({ type: 'DIRECT' }),
        device.createFence(0),
        pipeline,
        random,
      ),
    done: (runner) => runner.lists,
    step: (runner, remaining) => runner.step(remaining),
    checkpoint: (runner) => runner.checkpoint(),
  };
}

/**
 * Runs the soak from `options.seed` on a device over `gpuDevice`. Never throws for a difference or a
 * failing call: the summary says what happened, naming the seed.
 */
export async function runResidencySoak(gpuDevice: GPUDevice, options: SoakOptions): Promise<SoakSummary> {
  const plan = residencySoakPlan(options);
  const { seed, runner, error, removedReason, residency, paging, ok, milliseconds } = await driveSoak(gpuDevice, plan);
  return {
    seed,
    ok,
    debugBudget: plan.debugBudget ?? null,
    requestedLists: plan.target,
    lists: runner?.lists ?? 0,
    calls: runner?.calls ?? 0,
    multiListCalls: runner?.multiListCalls ?? 0,
    initLists: runner?.initLists ?? 0,
    checkpointLists: runner?.checkpointLists ?? 0,
    checkpoints: runner?.checkpoints ?? 0,
    bytesCompared: runner?.bytesCompared ?? 0,
    objects: runner?.objectCounts ?? {
      heaps: 0,
      notResidentHeaps: 0,
      placed: 0,
      committed: 0,
      notResidentCommitted: 0,
      reserved: 0,
      probes: 0,
    },
    trackedBytes: runner?.trackedBytes ?? 0,
    budgetMultiple: (runner?.trackedBytes ?? 0) / SOAK_LOCAL_BUDGET,
    localBudget: SOAK_LOCAL_BUDGET,
    localPool: SOAK_LOCAL_POOL,
    maxLocalUsage: runner?.maxLocalUsage ?? 0,
    pagedCalls: runner?.pagedCalls ?? 0,
    residentOutsideBatch: runner?.residentOutsideBatch ?? 0,
    counts: runner?.counts ?? {},
    residency,
    paging,
    removedReason,
    milliseconds,
    ...(runner?.difference ? { difference: runner.difference } : {}),
    ...(error ? { error } : {}),
    ...(ok ? {} : { trace: runner?.trace.slice(-30) ?? [] }),
  };
}
