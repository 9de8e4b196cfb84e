/**
 * The differential runner's state and the operations that create, release, map and page: each is
 * applied to the device through the public API and, in the same order, to the run's own model
 * (world.ts) and the CPU reference. Commands recorded into lists (copies, copyTiles, dispatches) and
 * CPU writes are in commands.ts; what is legal to generate is in generate.ts.
 *
 * Invariants:
 *   - the model changes only after the call it mirrors returned, so a call that throws leaves the
 *     model as the emulator should have left itself (unchanged);
 *   - a recorded command never executes against memory that is evicted or released, and a mapping
 *     change while commands are recorded is made only if they stay legal under it (else the batch
 *     executes first);
 *   - heaps are released only when resident, after every reserved tile mapped into them is NULL.
 */
import type { CommandQueue } from '../../d3d12/command-queue.js';
import type { Device } from '../../d3d12/device.js';
import type { Fence } from '../../d3d12/fence.js';
import type { PipelineState } from '../../d3d12/pipeline-state.js';
import type { HeapProperties } from '../../api/types.js';
import { dataBytes, TILE } from '../bytes.js';
import type { Random } from '../random.js';
import { bufferGrid, coordinateOf, regionTiles, textureGrid } from '../tile-regions.js';
import { coverageOf } from './coverage.js';
import type { CpuReferenceBugForTesting } from '../types.js';
import { Batch } from './batch.js';
import { CpuReference } from './cpu-reference.js';
import { describeOperation, type CpuAccess, type Operation } from './operations.js';
import {
  isReserved,
  memoriesOf,
  type HeapEntry,
  type Memory,
  type ResourceEntry,
  type Slot,
  type Slots,
  type SlotsOf,
} from './world.js';

const CUSTOM_L0: HeapProperties = { type: 'CUSTOM', cpuPageProperty: 'WRITE_BACK', memoryPoolPreference: 'L0' };
const CUSTOM_WC_L0: HeapProperties = { type: 'CUSTOM', cpuPageProperty: 'WRITE_COMBINE', memoryPoolPreference: 'L0' };

/** A failure of the run itself (not a mismatch): a broken invariant of the model. */
export class RunnerError extends Error {}

/** What the runner calls around operations: the plant hooks and the checks after a mapping change. */
export interface RunnerHooks {
  /** Right before queue.updateTileMappings of `entry` with new slots `slots` (drop-write plants here). */
  beforeUpdateTileMappings(entry: ResourceEntry, slots: Slots): void;
  /** After a mapping change of `entry`: the CPU page table must say what the model says. */
  mappingChanged(entry: ResourceEntry): void;
}

export class RunnerState {
  readonly cpu: CpuReference;
  readonly batch: Batch;
  readonly heaps: HeapEntry[] = [];
  readonly entries: ResourceEntry[] = [];
  readonly memories: Memory[] = [];
  private readonly byName = new Map<string, HeapEntry | ResourceEntry>();
  private readonly next = { H: 1, B: 1, T: 1, U: 1 };
  readonly trace: string[] = [];
  readonly counts: Record<string, number> = {};
  operations = 0;
  /** Commands to record before the batch executes (drawn again after each execution). */
  batchTarget: number;

  constructor(
    readonly device: Device,
    readonly queue: CommandQueue,
    fence: Fence,
    readonly pipeline: PipelineState,
    readonly random: Random,
    tier: number,
    bug: CpuReferenceBugForTesting | undefined,
    readonly hooks: RunnerHooks,
  ) {
    this.batchTarget = random.int(1, 8);
    this.cpu = new CpuReference(tier, bug);
    this.batch = new Batch(device, queue, fence, (upload) => this.dropEntry(upload));
  }

  count(kind: string, by = 1): void {
    this.counts[kind] = (this.counts[kind] ?? 0) + by;
  }

  // -- lookups --

  heapNamed(name: string): HeapEntry {
    const entry = this.byName.get(name);
    if (!entry || !('placed' in entry)) throw new RunnerError(`no heap ${name}`);
    return entry;
  }

  entryNamed(name: string): ResourceEntry {
    const entry = this.byName.get(name);
    if (!entry || 'placed' in entry) throw new RunnerError(`no resource ${name}`);
    return entry;
  }

  /** A heap or committed resource's memory, by the name evict/makeResident take. */
  memoryNamed(name: string): Memory {
    const memory = this.memories.find((m) => m.name === name && !m.released);
    if (!memory) throw new RunnerError(`no pageable ${name}`);
    return memory;
  }

  /** Live resources the run compares (transient UPLOAD buffers left out). */
  live(filter: (e: ResourceEntry) => boolean = () => true): ResourceEntry[] {
    return this.entries.filter((e) => e.kind !== 'upload' && filter(e));
  }

  liveHeaps(): HeapEntry[] {
    return this.heaps.filter((h) => !h.released);
  }

  /** Memories evict and makeResident may name: live heaps and committed resources. */
  pageables(): Memory[] {
    return this.memories.filter((m) => !m.released && !this.heaps.some((h) => h.memory === m && h.released));
  }

  // -- creation and release --

  private name(prefix: keyof RunnerState['next']): string {
    return `${prefix}${this.next[prefix]++}`;
  }

  private addEntry(entry: Omit<ResourceEntry, 'name' | 'lastUse'>, prefix: 'B' | 'T' | 'U'): ResourceEntry {
    const added: ResourceEntry = { ...entry, name: this.name(prefix), lastUse: 0 };
    added.resource.setName(added.name);
    this.entries.push(added);
    this.byName.set(added.name, added);
    return added;
  }

  private addMemory(name: string, pages: number, pageable: Memory['pageable'], access: CpuAccess): Memory {
    const memory: Memory = { name, pages, refs: 1, released: false, pageable, access };
    this.memories.push(memory);
    return memory;
  }

  /** Releases a resource and forgets it (its implicit memory with it). */
  dropEntry(entry: ResourceEntry): void {
    entry.resource.release();
    this.entries.splice(this.entries.indexOf(entry), 1);
    this.byName.delete(entry.name);
    entry.heap?.placed.delete(entry);
    if (entry.kind === 'committed' || entry.kind === 'upload') this.retireMemory(entry.memory as Memory);
    if (entry.heap?.released && entry.heap.placed.size === 0) this.retireMemory(entry.heap.memory);
  }

  /** Memory gone for good: a released committed resource's, or a released heap's once no placed buffer keeps it. */
  private retireMemory(memory: Memory): void {
    memory.released = true;
    const index = this.memories.indexOf(memory);
    if (index >= 0) this.memories.splice(index, 1);
    this.cpu.forget(memory);
  }

  /** A committed UPLOAD buffer holding dataBytes(width, data), read by the open batch. */
  createUpload(width: number, data: number): ResourceEntry {
    const resource = this.device.createCommittedResource(
      { type: 'UPLOAD' },
      [],
      { dimension: 'BUFFER', width },
      'GENERIC_READ',
    );
    const bytes = dataBytes(width, data);
    resource.map().set(bytes);
    resource.unmap();
    const tiles = Math.ceil(width / TILE);
    const memory: Memory = { name: '', pages: tiles, refs: 1, released: false, pageable: resource, access: 'upload' };
    const upload = this.addEntry(
      { resource, kind: 'upload', access: 'upload', width, tiles, memory, heapTile: 0 },
      'U',
    );
    memory.name = upload.name;
    this.cpu.write(upload, 0, bytes);
    this.batch.addUpload(upload);
    return upload;
  }

  createHeap(op: Extract<Operation, { kind: 'createHeap' }>): void {
    const heap = this.device.createHeap({
      sizeInBytes: op.tiles * TILE,
      properties: op.custom ? CUSTOM_WC_L0 : { type: 'DEFAULT' },
    });
    const name = this.name('H');
    heap.setName(name);
    const entry: HeapEntry = {
      name,
      heap,
      memory: this.addMemory(name, op.tiles, heap, op.custom ? 'custom' : 'none'),
      tiles: op.tiles,
      custom: op.custom,
      released: false,
      placed: new Set(),
    };
    this.heaps.push(entry);
    this.byName.set(name, entry);
  }

  createPlaced(op: Extract<Operation, { kind: 'createPlaced' }>): void {
    const heap = this.heapNamed(op.heap);
    const resource = this.device.createPlacedResource(
      heap.heap,
      op.heapTile * TILE,
      { dimension: 'BUFFER', width: op.width, flags: ['ALLOW_UNORDERED_ACCESS'] },
      'COMMON',
    );
    const entry = this.addEntry(
      {
        resource,
        kind: 'placed',
        access: heap.custom ? 'custom' : 'none',
        width: op.width,
        tiles: Math.ceil(op.width / TILE),
        memory: heap.memory,
        heap,
        heapTile: op.heapTile,
      },
      'B',
    );
    heap.placed.add(entry);
  }

  createCommitted(op: Extract<Operation, { kind: 'createCommitted' }>): void {
    const flags: ['ALLOW_UNORDERED_ACCESS'] | [] =
      op.access === 'none' || op.access === 'custom' ? ['ALLOW_UNORDERED_ACCESS'] : [];
    const properties: HeapProperties =
      op.access === 'upload'
        ? { type: 'UPLOAD' }
        : op.access === 'readback'
          ? { type: 'READBACK' }
          : op.access === 'custom'
            ? CUSTOM_L0
            : { type: 'DEFAULT' };
    const state = op.access === 'upload' ? 'GENERIC_READ' : op.access === 'readback' ? 'COPY_DEST' : 'COMMON';
    const resource = this.device.createCommittedResource(
      properties,
      [],
      { dimension: 'BUFFER', width: op.width, flags },
      state,
    );
    const tiles = Math.ceil(op.width / TILE);
    const entry = this.addEntry(
      { resource, kind: 'committed', access: op.access, width: op.width, tiles, heapTile: 0 },
      'B',
    );
    entry.memory = this.addMemory(entry.name, tiles, resource, op.access);
  }

  createReserved(op: Extract<Operation, { kind: 'createReserved' }>): void {
    const resource = this.device.createReservedResource(
      { dimension: 'BUFFER', width: op.width, flags: ['ALLOW_UNORDERED_ACCESS'] },
      'COMMON',
    );
    const tiles = Math.ceil(op.width / TILE);
    this.addEntry(
      {
        resource,
        kind: 'reserved',
        access: 'none',
        width: op.width,
        tiles,
        heapTile: 0,
        slots: new Array<Slot | null>(tiles).fill(null),
        grid: bufferGrid(tiles),
      },
      'B',
    );
  }

  createTexture(op: Extract<Operation, { kind: 'createTexture' }>): void {
    const t = op.texture;
    const resource = this.device.createReservedResource(
      {
        dimension: t.dimension,
        width: t.width,
        height: t.height,
        depthOrArraySize: t.depth,
        mipLevels: t.mipLevels,
        format: t.format,
        layout: '64KB_UNDEFINED_SWIZZLE',
      },
      'COMMON',
    );
    const grid = textureGrid(this.device.getResourceTiling(resource));
    this.addEntry(
      {
        resource,
        kind: 'texture',
        access: 'none',
        width: grid.numTiles * TILE,
        tiles: grid.numTiles,
        heapTile: 0,
        slots: new Array<Slot | null>(grid.numTiles).fill(null),
        grid,
      },
      'T',
    );
  }

  release(op: Extract<Operation, { kind: 'release' }>): void {
    const entry = this.entryNamed(op.resource);
    if (this.batch.uses([entry])) this.executeBatch();
    this.dropEntry(entry);
  }

  async releaseHeap(op: Extract<Operation, { kind: 'releaseHeap' }>): Promise<void> {
    const heap = this.heapNamed(op.heap);
    // Map NULL every reserved tile that points into the heap first: a released heap's tiles are undefined.
    for (const entry of this.live(isReserved)) {
      const grid = entry.grid as NonNullable<ResourceEntry['grid']>;
      const tail = grid.tail;
      const tiles = (entry.slots as Slots).flatMap((slot, tile) =>
        slot?.heap === heap && !(tail && tile >= tail.first) ? [tile] : [],
      );
      const regions = tiles.map((tile) => ({ start: coordinateOf(grid, tile), size: { numTiles: 1 } }));
      // A packed tail is mapped as a whole: NULL all of it when any of its tiles is in the heap.
      if (tail && (entry.slots as Slots).slice(tail.first).some((slot) => slot?.heap === heap))
        regions.push({ start: coordinateOf(grid, tail.first), size: { numTiles: tail.count } });
      if (regions.length === 0) continue;
      const count = regions.reduce((sum, region) => sum + region.size.numTiles, 0);
      await this.apply({
        kind: 'updateTileMappings',
        resource: entry.name,
        regions,
        heap: null,
        ranges: [{ flag: 'NULL', heapStart: 0, count }],
        defaults: false,
        flags: 'NONE',
      });
    }
    heap.heap.release();
    heap.released = true;
    if (heap.placed.size === 0) this.retireMemory(heap.memory);
  }

  // -- mappings --

  /** The slots of `entry` after an updateTileMappings (the run's own model of D3D12's rules). */
  mappedSlots(op: Extract<Operation, { kind: 'updateTileMappings' }>, entry: ResourceEntry): Slots {
    const slots = [...(entry.slots as Slots)];
    const heap = op.heap === null ? undefined : this.heapNamed(op.heap);
    const grid = entry.grid as NonNullable<ResourceEntry['grid']>;
    const tiles =
      op.regions === null
        ? Array.from({ length: entry.tiles }, (_, i) => i)
        : op.regions.flatMap((region) => regionTiles(grid, region.start, region.size));
    let next = 0;
    for (const range of op.ranges) {
      for (let i = 0; i < range.count; i++) {
        const tile = tiles[next++] as number;
        if (range.flag === 'NULL') slots[tile] = null;
        else if (range.flag === 'NONE') slots[tile] = { heap: heap as HeapEntry, tile: range.heapStart + i };
        else if (range.flag === 'REUSE_SINGLE_TILE') slots[tile] = { heap: heap as HeapEntry, tile: range.heapStart };
      }
    }
    return slots;
  }

  /** copyTileMappings: every source mapping is read before any is written (the regions may overlap). */
  copiedSlots(op: Extract<Operation, { kind: 'copyTileMappings' }>): Slots {
    const dst = this.entryNamed(op.dst);
    const src = this.entryNamed(op.src);
    const slots = [...(dst.slots as Slots)];
    const srcTiles = regionTiles(src.grid as NonNullable<ResourceEntry['grid']>, op.srcStart, op.size);
    const dstTiles = regionTiles(dst.grid as NonNullable<ResourceEntry['grid']>, op.dstStart, op.size);
    const saved = srcTiles.map((tile) => (src.slots as Slots)[tile] ?? null);
    dstTiles.forEach((tile, i) => (slots[tile] = saved[i] ?? null));
    return slots;
  }

  /** Before a mapping change of `entry` to `slots`: recorded commands that would break under it execute first. */
  beforeRemap(entry: ResourceEntry, slots: Slots): void {
    const affected = this.batch.pending.filter((p) => p.uses.has(entry));
    if (affected.length === 0) return;
    const slotsOf: SlotsOf = (e) => (e === entry ? slots : e.slots);
    if (affected.every((p) => p.safe(slotsOf))) {
      this.count('remapWhilePending');
      return;
    }
    this.executeBatch();
  }

  updateTileMappings(op: Extract<Operation, { kind: 'updateTileMappings' }>): void {
    const entry = this.entryNamed(op.resource);
    const slots = this.mappedSlots(op, entry);
    this.beforeRemap(entry, slots);
    const heap = op.heap === null ? null : this.heapNamed(op.heap).heap;
    const allNone = op.ranges.every((range) => range.flag === 'NONE');
    this.hooks.beforeUpdateTileMappings(entry, slots);
    this.queue.updateTileMappings(
      entry.resource,
      op.regions?.map((region) => region.start) ?? null,
      op.regions?.map((region) => region.size) ?? null,
      heap,
      op.defaults && allNone ? null : op.ranges.map((range) => range.flag),
      op.ranges.map((range) => range.heapStart),
      op.defaults ? null : op.ranges.map((range) => range.count),
      op.flags,
    );
    entry.slots = slots;
    this.hooks.mappingChanged(entry);
  }

  copyTileMappings(op: Extract<Operation, { kind: 'copyTileMappings' }>): void {
    const dst = this.entryNamed(op.dst);
    const src = this.entryNamed(op.src);
    const slots = this.copiedSlots(op);
    this.beforeRemap(dst, slots);
    this.queue.copyTileMappings(dst.resource, op.dstStart, src.resource, op.srcStart, op.size, op.flags);
    dst.slots = slots;
    this.hooks.mappingChanged(dst);
  }

  // -- residency --

  /** The resources whose bytes live (in part) in `memory`. */
  private residents(memory: Memory): ResourceEntry[] {
    return this.entries.filter((e) => memoriesOf(e).has(memory));
  }

  evict(op: Extract<Operation, { kind: 'evict' }>): void {
    const memory = this.memoryNamed(op.object);
    // Recorded commands run after the eviction: execute those that use the memory first.
    if (memory.refs === 1 && this.batch.uses(this.residents(memory))) this.executeBatch();
    this.device.evict([memory.pageable]);
    memory.refs--;
  }

  makeResident(op: Extract<Operation, { kind: 'makeResident' }>): void {
    const memory = this.memoryNamed(op.object);
    this.device.makeResident([memory.pageable]);
    memory.refs++;
  }

  executeBatch(): void {
    if (!this.batch.execute()) return;
    this.count('executeCommandLists');
    this.batchTarget = this.random.int(1, 8);
  }

  /** Applies one operation to the device and the CPU reference (commands: see commands.ts). */
  async apply(op: Operation): Promise<void> {
    this.trace.push(`#${this.operations} ${describeOperation(op)}`);
    if (this.trace.length > 200) this.trace.splice(0, this.trace.length - 100);
    if (op.kind !== 'execute' && op.kind !== 'wait' && op.kind !== 'checkpoint') this.count(op.kind);
    for (const variant of coverageOf(
      op,
      (name) => this.entries.find((e) => e.name === name),
      (name) => this.heaps.some((h) => h.name === name),
    ))
      this.count(variant);
    await this.applyKind(op);
  }

  /** Overridden by the full runner (commands.ts), which adds the recorded commands and CPU writes. */
  protected async applyKind(op: Operation): Promise<void> {
    switch (op.kind) {
      case 'createHeap':
        return this.createHeap(op);
      case 'createPlaced':
        return this.createPlaced(op);
      case 'createCommitted':
        return this.createCommitted(op);
      case 'createReserved':
        return this.createReserved(op);
      case 'createTexture':
        return this.createTexture(op);
      case 'release':
        return this.release(op);
      case 'releaseHeap':
        return this.releaseHeap(op);
      case 'updateTileMappings':
        return this.updateTileMappings(op);
      case 'copyTileMappings':
        return this.copyTileMappings(op);
      case 'evict':
        return this.evict(op);
      case 'makeResident':
        return this.makeResident(op);
      case 'newList':
        return this.batch.newList();
      case 'execute':
        return this.executeBatch();
      case 'wait':
        this.executeBatch();
        return this.batch.waitIdle();
      default:
        throw new RunnerError(`${op.kind} is applied by the command runner`);
    }
  }
}
