/**
 * Differential test of emulated memory: a seeded random sequence of D3D12 operations (heaps, placed,
 * committed and reserved buffers, tile mappings, copies, copyTiles, dispatches of a read-modify-write
 * shader) runs on the GPU through the public API and, in the same order, on the CPU reference
 * executor (cpu-executor.ts). Every live buffer is read back through a READBACK buffer and compared
 * byte for byte with the CPU's prediction at random checkpoints and at the end. Runs in Node.js
 * (Dawn) and in the browser; the result is a small JSON summary naming the seed.
 *
 * What the generator keeps D3D12-legal (so the GPU's answer is defined):
 *   - no command writes two addresses that share memory (REUSE_SINGLE_TILE, tiles mapped to one
 *     heap page, aliased placed buffers), and no copy reads memory it writes: checked in physical
 *     heap words against the runner's own model of the mappings at execution time;
 *   - a tile-mapping change while a list is recorded but not executed is made only if the pending
 *     commands stay hazard-free under the new mapping; otherwise the batch is executed first;
 *   - resource states: buffers start each list in COMMON (each list is its own executeCommandLists
 *     call, after which buffers decay); within a list the runner adds the
 *     transition (and UAV) barriers a D3D12 app needs between COPY_DEST, COPY_SOURCE and
 *     UNORDERED_ACCESS;
 *   - UPLOAD buffers are written once, before the list that reads them executes, and released after
 *     a fence says that list completed; heaps are released only after every reserved tile mapped into
 *     them is mapped NULL.
 */
import { createDevice, type CommandQueue, type Device, type Fence, type GraphicsCommandList, type Heap, type PipelineState, type Resource, type TileMappingFlag, type TileRangeFlag } from '../../../src/index.js';
import { Random } from '../random.js';
import { CpuExecutor, TILE } from './cpu-executor.js';

/** Bytes from a seed: the data an operation uploads, reproducible from the trace alone. */
export function dataBytes(length: number, seed: number): Uint8Array {
  const random = new Random(seed);
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i += 4) {
    const word = random.next();
    for (let j = 0; j < 4 && i + j < length; j++) bytes[i + j] = (word >>> (8 * j)) & 0xff;
  }
  return bytes;
}

/** Parses a seed given as decimal or 0x hex (an environment variable); undefined when absent. */
export function parseSeed(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seed = Number(value.trim());
  if (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 32) throw new Error(`D3D12_DIFFERENTIAL_SEED must be an integer in [0, 2^32), got ${JSON.stringify(value)}`);
  return seed;
}

// ---- Operations -------------------------------------------------------------------------------

interface RangeSpec {
  flag: TileRangeFlag;
  heapStart: number;
  count: number;
}

/** One generated operation; resources and heaps are named by the runner ('B3', 'H2'). */
export type Operation =
  | { kind: 'createHeap'; tiles: number }
  | { kind: 'createPlaced'; heap: string; heapTile: number; width: number }
  | { kind: 'createCommitted'; width: number }
  | { kind: 'createReserved'; width: number }
  | { kind: 'releaseBuffer'; buffer: string }
  | { kind: 'releaseHeap'; heap: string }
  /** regions null: D3D12's defaults (the whole resource, one range). */
  | { kind: 'updateTileMappings'; buffer: string; regions: { x: number; numTiles: number }[] | null; heap: string | null; ranges: RangeSpec[]; flags: TileMappingFlag }
  | { kind: 'copyTileMappings'; dst: string; dstX: number; src: string; srcX: number; numTiles: number }
  /** A new UPLOAD buffer of `uploadWidth` bytes of dataBytes(uploadWidth, data), copied from srcOffset. */
  | { kind: 'uploadCopy'; dst: string; dstOffset: number; uploadWidth: number; srcOffset: number; numBytes: number; data: number }
  | { kind: 'copy'; dst: string; dstOffset: number; src: string; srcOffset: number; numBytes: number }
  /** buffer null: a new UPLOAD buffer of bufferOffset + numTiles tiles of dataBytes(…, data). */
  | { kind: 'copyTiles'; tiled: string; x: number; numTiles: number; buffer: string | null; bufferOffset: number; toTiles: boolean; data: number }
  | { kind: 'dispatch'; buffer: string; offset: number; words: number; seed: number }
  | { kind: 'newList' }
  | { kind: 'execute' }
  | { kind: 'wait' }
  | { kind: 'checkpoint' };

export function describeOperation(op: Operation): string {
  const { kind, ...rest } = op;
  return `${kind} ${JSON.stringify(rest)}`;
}

// ---- Results ----------------------------------------------------------------------------------

export interface Difference {
  /** 'memory': a byte read back differs; 'mapping': the CPU page table differs from the runner's model. */
  kind: 'memory' | 'mapping';
  checkpoint: number;
  /** Operations applied before the comparison. */
  afterOperation: number;
  buffer: string;
  resource: string;
  /** Byte offset in the buffer (memory) or tile index (mapping). */
  offset: number;
  actual: string;
  expected: string;
}

export interface DifferentialSummary {
  seed: number;
  ok: boolean;
  tiledResourcesTier: 2 | 3;
  /** Operations applied, excluding executes, waits and checkpoints (counted in `counts`). */
  operations: number;
  counts: Record<string, number>;
  checkpoints: number;
  bytesCompared: number;
  commandLists: number;
  milliseconds: number;
  difference?: Difference;
  /** A call that threw, or faults the GPU logged. */
  error?: string;
  /** The last operations before a failure. */
  trace?: string[];
}

export interface DifferentialOptions {
  seed: number;
  /** Operations to run (at least this many; default 1000). */
  operations?: number;
  tiledResourcesTier?: 2 | 3;
  /** Probability of a checkpoint after each operation (default 1/150). */
  checkpointChance?: number;
}

/** A human-readable failure message naming the seed, or undefined when the run passed. */
export function describeFailure(summary: DifferentialSummary): string | undefined {
  if (summary.ok) return undefined;
  const lines = [`differential test failed: seed ${summary.seed} (0x${summary.seed.toString(16)}), tier ${summary.tiledResourcesTier}, after ${summary.operations} operations`];
  const d = summary.difference;
  if (d) {
    lines.push(
      d.kind === 'memory'
        ? `checkpoint ${d.checkpoint}: ${d.buffer} (${d.resource}) byte ${d.offset} is ${d.actual} on the GPU, predicted ${d.expected}`
        : `checkpoint ${d.checkpoint}: ${d.buffer} (${d.resource}) tile ${d.offset} maps to ${d.actual} in the CPU page table, the model says ${d.expected}`,
    );
  }
  if (summary.error) lines.push(summary.error);
  if (summary.trace) lines.push('last operations:', ...summary.trace.map((line) => `  ${line}`));
  lines.push(`reproduce: D3D12_DIFFERENTIAL_SEED=${summary.seed} npx vitest run --project gpu test/gpu/d3d12/differential.test.ts`);
  return lines.join('\n');
}

// ---- The runner -------------------------------------------------------------------------------

/** The read-modify-write shader: words [0, n) from the address in root descriptor 1 (a root UAV) become v * 3 + seed. */
export const RMW_SHADER = /* wgsl */ `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let words = d3d12_root_constant(2u);
  if (id.x >= words) {
    return;
  }
  let va = d3d12_address_add(d3d12_root_descriptor(1u), id.x * 4u);
  d3d12_store(va, d3d12_load(va) * 3u + d3d12_root_constant(3u));
}
`;

const MIB = 2 ** 20;
const LOCAL_BYTES = 32 * MIB;
const NON_LOCAL_BYTES = 16 * MIB;
const MAX_HEAPS = 8;
const MAX_HEAP_TILES = 8;
const MAX_BUFFERS = 20;
/** Bytes of live buffers (what a checkpoint reads back). */
const MAX_BUFFER_BYTES = 4 * MIB;
/** UPLOAD pages waiting for a fence before a wait is forced. */
const MAX_UPLOAD_TILES = 48;

interface HeapEntry {
  name: string;
  heap: Heap;
  tiles: number;
  released: boolean;
  /** Live placed buffers (they keep the heap's memory). */
  placed: Set<BufferEntry>;
}

interface Slot {
  heap: HeapEntry;
  tile: number;
}

type Slots = (Slot | null)[];

interface BufferEntry {
  name: string;
  resource: Resource;
  kind: 'placed' | 'committed' | 'reserved' | 'upload';
  width: number;
  tiles: number;
  /** placed: the heap and its first tile; committed/upload: the implicit heap. */
  heap?: HeapEntry;
  implicit?: Heap;
  heapTile: number;
  /** reserved: the runner's own model of the tile mappings. */
  slots?: Slots;
}

interface Segment {
  heap: Heap;
  /** Heap bytes, widened to whole 4-byte words. */
  start: number;
  end: number;
}

type SlotsOf = (buffer: BufferEntry) => Slots | undefined;

/** A command recorded but not executed yet. */
interface Pending {
  uses: Set<BufferEntry>;
  /** Whether the command is hazard-free under a mapping. */
  safe(slotsOf: SlotsOf): boolean;
  /** Its effect on the CPU executor, applied when its list is executed. */
  apply(): void;
}

type Access = 'COPY_SOURCE' | 'COPY_DEST' | 'UNORDERED_ACCESS';

interface Recorder {
  list: GraphicsCommandList;
  states: Map<Resource, Access>;
  pipelineSet: boolean;
  commands: number;
}

class Failure extends Error {}

const roundUp = (n: number, to: number): number => Math.ceil(n / to) * to;

function overlaps(a: Segment[], b: Segment[]): boolean {
  return a.some((x) => b.some((y) => x.heap === y.heap && x.start < y.end && y.start < x.end));
}

function overlapsItself(a: Segment[]): boolean {
  for (let i = 0; i < a.length; i++) {
    for (let j = i + 1; j < a.length; j++) {
      const x = a[i] as Segment;
      const y = a[j] as Segment;
      if (x.heap === y.heap && x.start < y.end && y.start < x.end) return true;
    }
  }
  return false;
}

function hex(bytes: Uint8Array, at: number): string {
  return `0x${(bytes[at] ?? 0).toString(16).padStart(2, '0')}`;
}

class DifferentialRunner {
  private readonly cpu = new CpuExecutor();
  private readonly heaps: HeapEntry[] = [];
  private readonly buffers: BufferEntry[] = [];
  private readonly byName = new Map<string, HeapEntry | BufferEntry>();
  private nextHeap = 1;
  private nextBuffer = 1;
  private nextUpload = 1;

  private readonly spareLists: GraphicsCommandList[] = [];
  private recorders: Recorder[] = [];
  private pending: Pending[] = [];
  private batchTarget: number;
  /** UPLOAD buffers of the open batch, then of submitted batches until their fence value completes. */
  private batchUploads: BufferEntry[] = [];
  private submittedUploads: { value: number; uploads: BufferEntry[] }[] = [];
  private fenceValue = 0;

  readonly trace: string[] = [];
  readonly counts: Record<string, number> = {};
  operations = 0;
  checkpoints = 0;
  bytesCompared = 0;
  commandLists = 0;
  difference: Difference | undefined;

  constructor(
    private readonly device: Device,
    private readonly queue: CommandQueue,
    private readonly fence: Fence,
    private readonly pipeline: PipelineState,
    private readonly random: Random,
    private readonly checkpointChance: number,
  ) {
    this.batchTarget = random.int(1, 8);
  }

  // -- model helpers --

  private heapNamed(name: string): HeapEntry {
    const entry = this.byName.get(name);
    if (!entry || !('placed' in entry)) throw new Failure(`no heap ${name}`);
    return entry;
  }

  private bufferNamed(name: string): BufferEntry {
    const entry = this.byName.get(name);
    if (!entry || 'placed' in entry) throw new Failure(`no buffer ${name}`);
    return entry;
  }

  /** The heap page behind a buffer tile in the runner's model (reserved: under `slotsOf`). */
  private physical(buffer: BufferEntry, tile: number, slotsOf?: SlotsOf): { heap: Heap; page: number } | null {
    if (buffer.kind === 'reserved') {
      const slot = ((slotsOf?.(buffer) ?? buffer.slots) as Slots)[tile] ?? null;
      return slot ? { heap: slot.heap.heap, page: slot.tile } : null;
    }
    if (buffer.kind === 'placed') return { heap: (buffer.heap as HeapEntry).heap, page: buffer.heapTile + tile };
    return { heap: buffer.implicit as Heap, page: tile };
  }

  /** The heap words behind buffer bytes [offset, offset + length) (NULL tiles: none). */
  private segments(buffer: BufferEntry, offset: number, length: number, slotsOf?: SlotsOf): Segment[] {
    const out: Segment[] = [];
    let at = offset;
    while (at < offset + length) {
      const tile = Math.floor(at / TILE);
      const inTile = at - tile * TILE;
      const count = Math.min(offset + length - at, TILE - inTile);
      const page = this.physical(buffer, tile, slotsOf);
      if (page) {
        const start = page.page * TILE + inTile;
        out.push({ heap: page.heap, start: Math.floor(start / 4) * 4, end: roundUp(start + count, 4) });
      }
      at += count;
    }
    return out;
  }

  /** A command that writes `dst` and reads `src`: no two written words share memory, nothing read is written. */
  private static hazardFree(dst: Segment[], src: Segment[]): boolean {
    return !overlapsItself(dst) && !overlaps(dst, src);
  }

  private liveBuffers(filter: (b: BufferEntry) => boolean = () => true): BufferEntry[] {
    return this.buffers.filter((b) => b.kind !== 'upload' && filter(b));
  }

  private liveHeaps(): HeapEntry[] {
    return this.heaps.filter((h) => !h.released);
  }

  private bufferBytes(): number {
    return this.liveBuffers().reduce((sum, b) => sum + b.width, 0);
  }

  private count(kind: string): void {
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
  }

  // -- command lists --

  /** A list to record into: a spare one (executed, so closed) reset, or a new one. */
  private takeList(): GraphicsCommandList {
    const list = this.spareLists.pop();
    if (!list) return this.device.createCommandList('DIRECT');
    list.reset();
    return list;
  }

  private recorder(): Recorder {
    let current = this.recorders[this.recorders.length - 1];
    if (!current) {
      current = { list: this.takeList(), states: new Map(), pipelineSet: false, commands: 0 };
      this.recorders.push(current);
    }
    return current;
  }

  /** Puts a resource in the state a command needs, with the barriers a D3D12 app records. */
  private need(rec: Recorder, resource: Resource, access: Access): void {
    const current = rec.states.get(resource);
    if (current === access) {
      if (access === 'UNORDERED_ACCESS') rec.list.resourceBarrier([{ type: 'UAV', uav: { resource } }]);
      return;
    }
    if (current === undefined) {
      // Buffers start every list in COMMON and are promoted implicitly; a dispatch (bindless, so not
      // tracked by the emulator) gets an explicit transition instead.
      if (access === 'UNORDERED_ACCESS') rec.list.resourceBarrier([{ type: 'TRANSITION', transition: { resource, stateBefore: 'COMMON', stateAfter: 'UNORDERED_ACCESS' } }]);
    } else {
      rec.list.resourceBarrier([{ type: 'TRANSITION', transition: { resource, stateBefore: current, stateAfter: access } }]);
    }
    rec.states.set(resource, access);
  }

  private addPending(rec: Recorder, pending: Pending): void {
    rec.commands++;
    this.pending.push(pending);
  }

  /** Closes and executes the open batch; the CPU applies its commands in order. */
  private executeBatch(): void {
    const recorders = this.recorders.filter((r) => r.commands > 0);
    if (recorders.length === 0 && this.batchUploads.length === 0) return;
    for (const rec of this.recorders) rec.list.close();
    // One call per list: buffers decay to COMMON when an executeCommandLists call completes, not
    // between the lists of one call, and each list here assumes it starts in COMMON.
    for (const rec of recorders) this.queue.executeCommandLists([rec.list]);
    for (const pending of this.pending) pending.apply();
    this.commandLists += recorders.length;
    this.spareLists.push(...this.recorders.map((r) => r.list));
    this.recorders = [];
    this.pending = [];
    this.queue.signal(this.fence, ++this.fenceValue);
    if (this.batchUploads.length > 0) this.submittedUploads.push({ value: this.fenceValue, uploads: this.batchUploads });
    this.batchUploads = [];
    this.batchTarget = this.random.int(1, 8);
    this.count('executeCommandLists');
  }

  /** Waits for everything submitted; releases the UPLOAD buffers it used. */
  private async waitIdle(): Promise<void> {
    this.queue.signal(this.fence, ++this.fenceValue);
    await this.fence.setEventOnCompletion(this.fenceValue);
    const done = this.fence.getCompletedValue();
    for (const batch of this.submittedUploads.filter((b) => b.value <= done)) {
      for (const upload of batch.uploads) this.dropBuffer(upload);
    }
    this.submittedUploads = this.submittedUploads.filter((b) => b.value > done);
    this.count('fenceWait');
  }

  private uploadTiles(): number {
    return this.submittedUploads.reduce((sum, b) => sum + b.uploads.reduce((s, u) => s + u.tiles, 0), 0) + this.batchUploads.reduce((s, u) => s + u.tiles, 0);
  }

  // -- resources --

  private addBuffer(entry: Omit<BufferEntry, 'name'>, prefix = 'B'): BufferEntry {
    const name = prefix === 'U' ? `U${this.nextUpload++}` : `B${this.nextBuffer++}`;
    const buffer = { ...entry, name };
    entry.resource.setName(name);
    this.buffers.push(buffer);
    this.byName.set(name, buffer);
    return buffer;
  }

  private dropBuffer(buffer: BufferEntry): void {
    buffer.resource.release();
    this.buffers.splice(this.buffers.indexOf(buffer), 1);
    this.byName.delete(buffer.name);
    buffer.heap?.placed.delete(buffer);
  }

  /** A committed UPLOAD buffer holding dataBytes(width, data), read by the open batch. */
  private createUpload(width: number, data: number): BufferEntry {
    const resource = this.device.createCommittedResource({ type: 'UPLOAD' }, [], { dimension: 'BUFFER', width }, 'GENERIC_READ');
    const bytes = dataBytes(width, data);
    resource.map().set(bytes);
    resource.unmap();
    const implicit = resource.getTileMappingForTesting(0)?.heap;
    const upload = this.addBuffer({ resource, kind: 'upload', width, tiles: Math.ceil(width / TILE), implicit, heapTile: 0 }, 'U');
    this.cpu.write(resource, 0, bytes);
    this.batchUploads.push(upload);
    return upload;
  }

  // -- tile mappings --

  /** The slots of `buffer` after an updateTileMappings (the runner's own model of D3D12's rules). */
  private mappedSlots(op: Extract<Operation, { kind: 'updateTileMappings' }>, buffer: BufferEntry): Slots {
    const slots = [...(buffer.slots as Slots)];
    const heap = op.heap === null ? undefined : this.heapNamed(op.heap);
    const tiles: number[] = [];
    for (const region of op.regions ?? [{ x: 0, numTiles: buffer.tiles }]) for (let i = 0; i < region.numTiles; i++) tiles.push(region.x + i);
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

  private copiedSlots(op: Extract<Operation, { kind: 'copyTileMappings' }>): Slots {
    const dst = this.bufferNamed(op.dst);
    const src = this.bufferNamed(op.src);
    const slots = [...(dst.slots as Slots)];
    const saved = (src.slots as Slots).slice(op.srcX, op.srcX + op.numTiles);
    saved.forEach((slot, i) => (slots[op.dstX + i] = slot));
    return slots;
  }

  /**
   * Before a mapping change of `buffer` to `slots`: if a recorded, unexecuted command uses the buffer
   * and would race under the new mapping, execute the batch first.
   */
  private beforeRemap(buffer: BufferEntry, slots: Slots): void {
    const affected = this.pending.filter((p) => p.uses.has(buffer));
    if (affected.length === 0) return;
    const slotsOf: SlotsOf = (b) => (b === buffer ? slots : b.slots);
    if (affected.every((p) => p.safe(slotsOf))) {
      this.count('remapWhilePending');
      return;
    }
    this.executeBatch();
  }

  /** The CPU page table must say what the runner's model says. */
  private checkMappings(buffer: BufferEntry): Difference | undefined {
    for (let tile = 0; tile < buffer.tiles; tile++) {
      const actual = buffer.resource.getTileMappingForTesting(tile);
      const expected = this.physical(buffer, tile);
      const same = actual === null ? expected === null : expected !== null && actual.heap === expected.heap && actual.heapTileOffset === expected.page;
      if (!same) {
        const show = (m: { heap: Heap; page: number } | null): string => (m ? `${m.heap.label} tile ${m.page}` : 'NULL');
        return {
          kind: 'mapping',
          checkpoint: this.checkpoints,
          afterOperation: this.operations,
          buffer: buffer.name,
          resource: buffer.resource.label,
          offset: tile,
          actual: show(actual && { heap: actual.heap, page: actual.heapTileOffset }),
          expected: show(expected),
        };
      }
    }
    return undefined;
  }

  // -- generation --

  /** Generates one operation that is legal now, or undefined when the chosen kind cannot be made. */
  generate(): Operation | undefined {
    const r = this.random;
    const heaps = this.liveHeaps();
    const buffers = this.liveBuffers();
    const reserved = this.liveBuffers((b) => b.kind === 'reserved');
    const roomForBuffer = buffers.length < MAX_BUFFERS && this.bufferBytes() < MAX_BUFFER_BYTES - 6 * TILE;
    const heldHeaps = this.heaps.filter((h) => !h.released || h.placed.size > 0).length;
    const weights: [Operation['kind'] | 'none', number][] = [
      ['createHeap', heldHeaps < MAX_HEAPS ? (heaps.length < 2 ? 10 : 2) : 0],
      ['createPlaced', roomForBuffer && heaps.length > 0 ? (buffers.length < 4 ? 8 : 3) : 0],
      ['createCommitted', roomForBuffer ? (buffers.length < 4 ? 6 : 2) : 0],
      ['createReserved', roomForBuffer ? (reserved.length < 2 ? 10 : 3) : 0],
      ['releaseBuffer', buffers.length > 8 ? 1 : 0],
      ['releaseHeap', heaps.length > 3 ? 0.6 : 0],
      ['updateTileMappings', reserved.length > 0 ? 9 : 0],
      ['copyTileMappings', reserved.length > 0 ? 3 : 0],
      ['uploadCopy', buffers.length > 0 ? 12 : 0],
      ['copy', buffers.length > 1 ? 12 : 0],
      ['copyTiles', reserved.length > 0 ? 6 : 0],
      ['dispatch', buffers.length > 0 ? 10 : 0],
      ['newList', this.pending.length > 0 ? 1 : 0],
    ];
    const index = r.weighted(weights.map(([, w]) => w));
    const kind = (weights[index] as [Operation['kind'], number])[0];
    for (let attempt = 0; attempt < 12; attempt++) {
      const op = this.generateKind(kind, heaps, buffers, reserved);
      if (op) return op;
      // A hazard (aliased memory) or no fitting buffer: draw the arguments again.
      this.count('regenerated');
    }
    return undefined;
  }

  private generateKind(kind: Operation['kind'], heaps: HeapEntry[], buffers: BufferEntry[], reserved: BufferEntry[]): Operation | undefined {
    const r = this.random;
    switch (kind) {
      case 'createHeap':
        return { kind, tiles: r.int(1, MAX_HEAP_TILES) };
      case 'createPlaced': {
        const heap = r.pick(heaps);
        const heapTile = r.int(0, heap.tiles - 1);
        return { kind, heap: heap.name, heapTile, width: r.size((heap.tiles - heapTile) * TILE) };
      }
      case 'createCommitted':
        return { kind, width: r.size(3 * TILE) };
      case 'createReserved': {
        const tiles = r.int(1, 6);
        return { kind, width: r.int((tiles - 1) * TILE + 1, tiles * TILE) };
      }
      case 'releaseBuffer':
        return { kind, buffer: r.pick(buffers).name };
      case 'releaseHeap':
        return { kind, heap: r.pick(heaps).name };
      case 'updateTileMappings':
        return this.generateUpdate(r.pick(reserved), heaps);
      case 'copyTileMappings': {
        const dst = r.pick(reserved);
        const src = r.chance(0.3) ? dst : r.pick(reserved);
        const numTiles = r.int(1, Math.min(dst.tiles, src.tiles));
        return { kind, dst: dst.name, dstX: r.int(0, dst.tiles - numTiles), src: src.name, srcX: r.int(0, src.tiles - numTiles), numTiles };
      }
      case 'uploadCopy': {
        const dst = r.pick(buffers);
        const numBytes = r.chance(0.02) ? 0 : r.size(dst.width);
        const dstOffset = r.int(0, dst.width - numBytes);
        const srcOffset = r.chance(0.5) ? 0 : r.int(0, 300);
        const op: Operation = { kind, dst: dst.name, dstOffset, uploadWidth: Math.max(1, srcOffset + numBytes + r.int(0, 9)), srcOffset, numBytes, data: r.next() };
        return DifferentialRunner.hazardFree(this.segments(dst, dstOffset, numBytes), []) ? op : undefined;
      }
      case 'copy': {
        const dst = r.pick(buffers);
        // Not dst itself: one buffer cannot be COPY_DEST and COPY_SOURCE in one command (state tracking refuses it).
        const src = r.pick(buffers.filter((b) => b !== dst));
        const numBytes = r.chance(0.02) ? 0 : r.size(Math.min(dst.width, src.width));
        const dstOffset = r.int(0, dst.width - numBytes);
        const srcOffset = r.int(0, src.width - numBytes);
        const ok = DifferentialRunner.hazardFree(this.segments(dst, dstOffset, numBytes), this.segments(src, srcOffset, numBytes));
        return ok ? { kind, dst: dst.name, dstOffset, src: src.name, srcOffset, numBytes } : undefined;
      }
      case 'copyTiles': {
        const tiled = r.pick(reserved);
        const numTiles = r.int(1, Math.min(3, tiled.tiles));
        const x = r.int(0, tiled.tiles - numTiles);
        const toTiles = r.chance(0.5);
        const bytes = numTiles * TILE;
        const candidates = buffers.filter((b) => b !== tiled && b.width >= bytes);
        const fromUpload = toTiles && (candidates.length === 0 || r.chance(0.5));
        if (!fromUpload && candidates.length === 0) return undefined;
        const buffer = fromUpload ? null : r.pick(candidates);
        const room = buffer ? buffer.width - bytes : 300;
        const bufferOffset = r.chance(0.4) ? 0 : r.chance(0.5) ? r.int(0, Math.min(room, 16)) : r.int(0, room);
        const tileSegments = this.segments(tiled, x * TILE, bytes);
        const bufferSegments = buffer ? this.segments(buffer, bufferOffset, bytes) : [];
        const ok = toTiles ? DifferentialRunner.hazardFree(tileSegments, bufferSegments) : DifferentialRunner.hazardFree(bufferSegments, tileSegments);
        return ok ? { kind, tiled: tiled.name, x, numTiles, buffer: buffer?.name ?? null, bufferOffset, toTiles, data: r.next() } : undefined;
      }
      case 'dispatch': {
        const candidates = buffers.filter((b) => b.width >= 4);
        if (candidates.length === 0) return undefined;
        const buffer = r.pick(candidates);
        const maxWords = Math.floor(buffer.width / 4);
        const words = r.size(maxWords);
        const offset = 4 * r.int(0, maxWords - words);
        return DifferentialRunner.hazardFree(this.segments(buffer, offset, words * 4), []) ? { kind, buffer: buffer.name, offset, words, seed: r.next() } : undefined;
      }
      case 'newList':
        return { kind };
      default:
        return undefined;
    }
  }

  private generateUpdate(buffer: BufferEntry, heaps: HeapEntry[]): Operation {
    const r = this.random;
    const heap = heaps.length > 0 && r.chance(0.9) ? r.pick(heaps) : undefined;
    const flags: TileMappingFlag = 'NONE';
    const rangeFor = (count: number): RangeSpec => {
      const choices: [TileRangeFlag, number][] = [
        ['NONE', heap && heap.tiles >= count ? 5 : 0],
        ['REUSE_SINGLE_TILE', heap ? 1.5 : 0],
        ['NULL', 1.5],
        ['SKIP', 1],
      ];
      const flag = (choices[r.weighted(choices.map(([, w]) => w))] as [TileRangeFlag, number])[0];
      const heapStart = !heap ? 0 : flag === 'NONE' ? r.int(0, heap.tiles - count) : flag === 'REUSE_SINGLE_TILE' ? r.int(0, heap.tiles - 1) : 0;
      return { flag, heapStart, count };
    };
    if (r.chance(0.15)) {
      // D3D12's defaults: no coordinates and sizes (the whole resource), one range.
      return { kind: 'updateTileMappings', buffer: buffer.name, regions: null, heap: heap?.name ?? null, ranges: [rangeFor(buffer.tiles)], flags };
    }
    // Up to three disjoint regions, in random order.
    const regions: { x: number; numTiles: number }[] = [];
    const taken = new Array<boolean>(buffer.tiles).fill(false);
    for (let i = 0, n = r.int(1, 3); i < n; i++) {
      const x = r.int(0, buffer.tiles - 1);
      const numTiles = r.int(1, buffer.tiles - x);
      if (taken.slice(x, x + numTiles).some(Boolean)) continue;
      taken.fill(true, x, x + numTiles);
      regions.push({ x, numTiles });
    }
    let total = regions.reduce((sum, region) => sum + region.numTiles, 0);
    const ranges: RangeSpec[] = [];
    while (total > 0) {
      const count = ranges.length === 3 ? total : r.int(1, total);
      ranges.push(rangeFor(count));
      total -= count;
    }
    return { kind: 'updateTileMappings', buffer: buffer.name, regions, heap: heap?.name ?? null, ranges, flags };
  }

  // -- application --

  /** Applies one operation to the device and the CPU executor. */
  async apply(op: Operation): Promise<void> {
    this.trace.push(`#${this.operations} ${describeOperation(op)}`);
    if (op.kind !== 'execute' && op.kind !== 'wait') this.count(op.kind);
    const uav: ['ALLOW_UNORDERED_ACCESS'] = ['ALLOW_UNORDERED_ACCESS'];
    switch (op.kind) {
      case 'createHeap': {
        const heap = this.device.createHeap({ sizeInBytes: op.tiles * TILE, properties: { type: 'DEFAULT' } });
        const name = `H${this.nextHeap++}`;
        heap.setName(name);
        const entry: HeapEntry = { name, heap, tiles: op.tiles, released: false, placed: new Set() };
        this.heaps.push(entry);
        this.byName.set(name, entry);
        break;
      }
      case 'createPlaced': {
        const heap = this.heapNamed(op.heap);
        const resource = this.device.createPlacedResource(heap.heap, op.heapTile * TILE, { dimension: 'BUFFER', width: op.width, flags: uav }, 'COMMON');
        const buffer = this.addBuffer({ resource, kind: 'placed', width: op.width, tiles: Math.ceil(op.width / TILE), heap, heapTile: op.heapTile });
        heap.placed.add(buffer);
        break;
      }
      case 'createCommitted': {
        const resource = this.device.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width: op.width, flags: uav }, 'COMMON');
        this.addBuffer({ resource, kind: 'committed', width: op.width, tiles: Math.ceil(op.width / TILE), implicit: resource.getTileMappingForTesting(0)?.heap, heapTile: 0 });
        break;
      }
      case 'createReserved': {
        const resource = this.device.createReservedResource({ dimension: 'BUFFER', width: op.width, flags: uav }, 'COMMON');
        const tiles = Math.ceil(op.width / TILE);
        this.addBuffer({ resource, kind: 'reserved', width: op.width, tiles, heapTile: 0, slots: new Array<Slot | null>(tiles).fill(null) });
        break;
      }
      case 'releaseBuffer': {
        const buffer = this.bufferNamed(op.buffer);
        if (this.pending.some((p) => p.uses.has(buffer))) this.executeBatch();
        this.dropBuffer(buffer);
        break;
      }
      case 'releaseHeap': {
        const heap = this.heapNamed(op.heap);
        // Map NULL every reserved tile that points into the heap first: a released heap's tiles are undefined.
        for (const buffer of this.liveBuffers((b) => b.kind === 'reserved')) {
          const regions = (buffer.slots as Slots).flatMap((slot, x) => (slot?.heap === heap ? [{ x, numTiles: 1 }] : []));
          if (regions.length === 0) continue;
          await this.apply({ kind: 'updateTileMappings', buffer: buffer.name, regions, heap: null, ranges: [{ flag: 'NULL', heapStart: 0, count: regions.length }], flags: 'NONE' });
        }
        heap.heap.release();
        heap.released = true;
        break;
      }
      case 'updateTileMappings': {
        const buffer = this.bufferNamed(op.buffer);
        const slots = this.mappedSlots(op, buffer);
        this.beforeRemap(buffer, slots);
        const heap = op.heap === null ? null : this.heapNamed(op.heap).heap;
        if (op.regions === null) {
          const range = op.ranges[0] as RangeSpec;
          this.queue.updateTileMappings(buffer.resource, null, null, heap, [range.flag], [range.heapStart], null, op.flags);
        } else {
          this.queue.updateTileMappings(
            buffer.resource,
            op.regions.map((region) => ({ x: region.x, y: 0, z: 0, subresource: 0 })),
            op.regions.map((region) => ({ numTiles: region.numTiles })),
            heap,
            op.ranges.map((range) => range.flag),
            op.ranges.map((range) => range.heapStart),
            op.ranges.map((range) => range.count),
            op.flags,
          );
        }
        buffer.slots = slots;
        this.difference ??= this.checkMappings(buffer);
        break;
      }
      case 'copyTileMappings': {
        const dst = this.bufferNamed(op.dst);
        const src = this.bufferNamed(op.src);
        const slots = this.copiedSlots(op);
        this.beforeRemap(dst, slots);
        this.queue.copyTileMappings(dst.resource, { x: op.dstX, y: 0, z: 0, subresource: 0 }, src.resource, { x: op.srcX, y: 0, z: 0, subresource: 0 }, { numTiles: op.numTiles });
        dst.slots = slots;
        this.difference ??= this.checkMappings(dst);
        break;
      }
      case 'uploadCopy': {
        const dst = this.bufferNamed(op.dst);
        const upload = this.createUpload(op.uploadWidth, op.data);
        const rec = this.recorder();
        this.need(rec, dst.resource, 'COPY_DEST');
        this.need(rec, upload.resource, 'COPY_SOURCE');
        rec.list.copyBufferRegion(dst.resource, op.dstOffset, upload.resource, op.srcOffset, op.numBytes);
        this.addPending(rec, {
          uses: new Set([dst]),
          safe: (slotsOf) => DifferentialRunner.hazardFree(this.segments(dst, op.dstOffset, op.numBytes, slotsOf), []),
          apply: () => this.cpu.copyBufferRegion(dst.resource, op.dstOffset, upload.resource, op.srcOffset, op.numBytes),
        });
        break;
      }
      case 'copy': {
        const dst = this.bufferNamed(op.dst);
        const src = this.bufferNamed(op.src);
        const rec = this.recorder();
        this.need(rec, dst.resource, 'COPY_DEST');
        this.need(rec, src.resource, 'COPY_SOURCE');
        rec.list.copyBufferRegion(dst.resource, op.dstOffset, src.resource, op.srcOffset, op.numBytes);
        this.addPending(rec, {
          uses: new Set([dst, src]),
          safe: (slotsOf) => DifferentialRunner.hazardFree(this.segments(dst, op.dstOffset, op.numBytes, slotsOf), this.segments(src, op.srcOffset, op.numBytes, slotsOf)),
          apply: () => this.cpu.copyBufferRegion(dst.resource, op.dstOffset, src.resource, op.srcOffset, op.numBytes),
        });
        break;
      }
      case 'copyTiles': {
        const tiled = this.bufferNamed(op.tiled);
        const bytes = op.numTiles * TILE;
        const buffer = op.buffer === null ? this.createUpload(op.bufferOffset + bytes, op.data) : this.bufferNamed(op.buffer);
        const rec = this.recorder();
        this.need(rec, tiled.resource, op.toTiles ? 'COPY_DEST' : 'COPY_SOURCE');
        this.need(rec, buffer.resource, op.toTiles ? 'COPY_SOURCE' : 'COPY_DEST');
        const flags = op.toTiles ? 'LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE' : 'SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER';
        rec.list.copyTiles(tiled.resource, { x: op.x, y: 0, z: 0, subresource: 0 }, { numTiles: op.numTiles }, buffer.resource, op.bufferOffset, flags);
        this.addPending(rec, {
          uses: new Set([tiled, buffer]),
          safe: (slotsOf) => {
            const tileSegments = this.segments(tiled, op.x * TILE, bytes, slotsOf);
            const bufferSegments = this.segments(buffer, op.bufferOffset, bytes, slotsOf);
            return op.toTiles ? DifferentialRunner.hazardFree(tileSegments, bufferSegments) : DifferentialRunner.hazardFree(bufferSegments, tileSegments);
          },
          apply: () => this.cpu.copyTiles(tiled.resource, op.x, op.numTiles, buffer.resource, op.bufferOffset, op.toTiles),
        });
        break;
      }
      case 'dispatch': {
        const buffer = this.bufferNamed(op.buffer);
        const rec = this.recorder();
        if (!rec.pipelineSet) {
          rec.list.setPipelineState(this.pipeline);
          rec.pipelineSet = true;
        }
        this.need(rec, buffer.resource, 'UNORDERED_ACCESS');
        const va = buffer.resource.getGPUVirtualAddress() + BigInt(op.offset);
        rec.list.setComputeRootUnorderedAccessView(1, va);
        rec.list.setComputeRoot32BitConstant(0, op.words, 2);
        rec.list.setComputeRoot32BitConstant(0, op.seed, 3);
        rec.list.dispatch(Math.ceil(op.words / 64));
        this.addPending(rec, {
          uses: new Set([buffer]),
          safe: (slotsOf) => DifferentialRunner.hazardFree(this.segments(buffer, op.offset, op.words * 4, slotsOf), []),
          apply: () => this.cpu.readModifyWrite(buffer.resource, op.offset, op.words, op.seed),
        });
        break;
      }
      case 'newList':
        // The batch's next commands go to another list, executed in the same call.
        if (this.recorders.length > 0) this.recorders.push({ list: this.takeList(), states: new Map(), pipelineSet: false, commands: 0 });
        break;
      case 'execute':
        this.executeBatch();
        break;
      case 'wait':
        this.executeBatch();
        await this.waitIdle();
        break;
      case 'checkpoint':
        await this.checkpoint();
        break;
    }
  }

  /** Executes what is recorded, reads every live buffer back and compares it with the CPU executor. */
  async checkpoint(): Promise<void> {
    this.executeBatch();
    this.checkpoints++;
    const buffers = this.liveBuffers();
    for (const buffer of buffers) {
      this.difference ??= this.checkMappings(buffer);
      if (this.difference) return;
    }
    const offsets: number[] = [];
    let total = 0;
    for (const buffer of buffers) {
      offsets.push(total);
      total += roundUp(buffer.width, 256);
    }
    if (buffers.length > 0) {
      const readback = this.device.createCommittedResource({ type: 'READBACK' }, [], { dimension: 'BUFFER', width: total }, 'COPY_DEST');
      const list = this.takeList();
      buffers.forEach((buffer, i) => list.copyBufferRegion(readback, offsets[i] as number, buffer.resource, 0, buffer.width));
      list.close();
      this.queue.executeCommandLists([list]);
      this.spareLists.push(list);
      this.commandLists++;
      await this.waitIdle();
      const bytes = readback.map().slice();
      readback.unmap();
      readback.release();
      buffers.forEach((buffer, i) => {
        if (this.difference) return;
        const offset = offsets[i] as number;
        const actual = bytes.subarray(offset, offset + buffer.width);
        const expected = this.cpu.read(buffer.resource, 0, buffer.width);
        this.bytesCompared += buffer.width;
        for (let at = 0; at < buffer.width; at++) {
          if (actual[at] !== expected[at]) {
            this.difference = { kind: 'memory', checkpoint: this.checkpoints, afterOperation: this.operations, buffer: buffer.name, resource: buffer.resource.label, offset: at, actual: hex(actual, at), expected: hex(expected, at) };
            return;
          }
        }
      });
    } else {
      await this.waitIdle();
    }
    const faults = await this.device.readFaults();
    if (faults.length > 0) throw new Failure(`the GPU logged ${faults.length} fault(s), first: ${JSON.stringify(faults[0], (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`);
  }

  /** After an operation: maybe execute the batch, wait, or check. */
  async housekeeping(): Promise<void> {
    const r = this.random;
    if (this.pending.length >= this.batchTarget) {
      await this.apply({ kind: 'execute' });
      if (r.chance(0.25) || this.uploadTiles() > MAX_UPLOAD_TILES) await this.apply({ kind: 'wait' });
    } else if (this.uploadTiles() > MAX_UPLOAD_TILES) {
      await this.apply({ kind: 'wait' });
    }
    if (r.chance(this.checkpointChance)) await this.apply({ kind: 'checkpoint' });
  }
}

/**
 * Runs `options.operations` (default 1000) random operations from `options.seed` on a device over
 * `gpuDevice` and on the CPU executor, comparing all memory at random checkpoints and at the end.
 * Never throws for a mismatch or a failing call: the summary says what happened, with the seed.
 */
export async function runDifferential(gpuDevice: GPUDevice, options: DifferentialOptions): Promise<DifferentialSummary> {
  const started = performance.now();
  const seed = options.seed >>> 0;
  const tiledResourcesTier = options.tiledResourcesTier ?? 3;
  const target = options.operations ?? 1000;
  const device = await createDevice({ gpuDevice, localMemoryBytes: LOCAL_BYTES, nonLocalMemoryBytes: NON_LOCAL_BYTES, tiledResourcesTier });
  let runner: DifferentialRunner | undefined;
  let error: string | undefined;
  try {
    const pipeline = await device.createComputePipelineState({ code: RMW_SHADER, entryPoint: 'main', label: 'differential read-modify-write' });
    runner = new DifferentialRunner(device, device.createCommandQueue({ type: 'DIRECT' }), device.createFence(0), pipeline, new Random(seed), options.checkpointChance ?? 1 / 150);
    for (let idle = 0; runner.operations < target && !runner.difference; ) {
      const op = runner.generate();
      if (!op) {
        if (++idle > 10_000) throw new Error('the generator found no legal operation 10,000 times in a row');
        continue;
      }
      idle = 0;
      await runner.apply(op);
      if (op.kind !== 'newList') runner.operations++;
      if (!runner.difference) await runner.housekeeping();
    }
    if (!runner.difference) await runner.apply({ kind: 'checkpoint' });
  } catch (caught) {
    const at = runner ? `operation #${runner.operations}: ` : '';
    error = `${at}${caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught)}`;
  } finally {
    device.destroy();
  }
  const ok = !error && !runner?.difference;
  return {
    seed,
    ok,
    tiledResourcesTier,
    operations: runner?.operations ?? 0,
    counts: runner?.counts ?? {},
    checkpoints: runner?.checkpoints ?? 0,
    bytesCompared: runner?.bytesCompared ?? 0,
    commandLists: runner?.commandLists ?? 0,
    milliseconds: Math.round(performance.now() - started),
    ...(runner?.difference ? { difference: runner.difference } : {}),
    ...(error ? { error } : {}),
    ...(ok ? {} : { trace: runner?.trace.slice(-40) ?? [] }),
  };
}
