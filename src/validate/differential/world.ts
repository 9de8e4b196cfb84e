/**
 * The differential run's own model of what exists: memories (the memory of a heap, explicit or the
 * implicit heap of a committed buffer) with their residency counts, heaps, resources and, for
 * reserved resources, where each tile maps. It is kept from the operations alone, never read from the
 * emulator, so the run can compare the emulator's CPU page table, its residency and the GPU's bytes
 * with an independent prediction.
 *
 * Invariants:
 *   - a memory is resident exactly while its residency count is above 0 (maps are transient here:
 *     map() pages an evicted heap in and the last unmap pages it out again);
 *   - a segment is a range of a memory's bytes, widened to whole 4-byte words (the GPU copies and
 *     shaders move words), so two commands race exactly when their segments overlap;
 *   - a slot names a live heap: heaps are released only after every tile mapped into them is NULL.
 */
import type { Heap } from '../../d3d12/heap.js';
import type { Resource } from '../../d3d12/resource.js';
import { roundUp, TILE } from '../bytes.js';
import type { TileGrid } from '../tile-regions.js';
import type { CpuAccess } from './operations.js';

export interface Memory {
  /** The heap's name, or the committed buffer's. */
  name: string;
  pages: number;
  /** MakeResident minus Evict calls (D3D12's residency reference count, 1 at creation). */
  refs: number;
  released: boolean;
  /** What evict/makeResident take: the heap, or the committed resource. */
  pageable: Heap | Resource;
  access: CpuAccess;
}

export interface HeapEntry {
  name: string;
  heap: Heap;
  memory: Memory;
  tiles: number;
  custom: boolean;
  released: boolean;
  /** Live placed buffers (they keep the heap's memory). */
  placed: Set<ResourceEntry>;
}

export interface Slot {
  heap: HeapEntry;
  tile: number;
}

export type Slots = (Slot | null)[];

/** placed/committed: buffers in a heap's memory; reserved: a reserved buffer; texture: a reserved texture; upload: a transient UPLOAD buffer of one batch. */
export type EntryKind = 'placed' | 'committed' | 'reserved' | 'texture' | 'upload';

export interface ResourceEntry {
  name: string;
  resource: Resource;
  kind: EntryKind;
  access: CpuAccess;
  /** Bytes (a texture: its tiles × 64 KiB, the bytes copyTiles moves). */
  width: number;
  tiles: number;
  /** placed, committed, upload: the memory and the page of the resource's first byte. */
  memory?: Memory;
  heapTile: number;
  heap?: HeapEntry;
  /** reserved, texture: the mapping of each tile, and the tile grid. */
  slots?: Slots;
  grid?: TileGrid;
  /** The fence value of the last submitted batch that used it (0: none). */
  lastUse: number;
}

export interface Segment {
  memory: Memory;
  start: number;
  end: number;
}

export type SlotsOf = (entry: ResourceEntry) => Slots | undefined;

export const isReserved = (entry: ResourceEntry): boolean => entry.kind === 'reserved' || entry.kind === 'texture';
export const isBuffer = (entry: ResourceEntry): boolean => entry.kind !== 'texture';
export const resident = (memory: Memory): boolean => memory.refs > 0 && !memory.released;

/** The memory page behind resource tile `tile` (reserved: under `slotsOf`, else the current slots); null for a NULL tile. */
export function physical(
  entry: ResourceEntry,
  tile: number,
  slotsOf?: SlotsOf,
): { memory: Memory; page: number } | null {
  if (isReserved(entry)) {
    const slot = ((slotsOf?.(entry) ?? entry.slots) as Slots)[tile] ?? null;
    return slot ? { memory: slot.heap.memory, page: slot.tile } : null;
  }
  return { memory: entry.memory as Memory, page: entry.heapTile + tile };
}

/** The memory words behind bytes [offset, offset + length) of a resource (NULL tiles: none). */
export function segments(entry: ResourceEntry, offset: number, length: number, slotsOf?: SlotsOf): Segment[] {
  const out: Segment[] = [];
  let at = offset;
  while (at < offset + length) {
    const tile = Math.floor(at / TILE);
    const inTile = at - tile * TILE;
    const count = Math.min(offset + length - at, TILE - inTile);
    const page = physical(entry, tile, slotsOf);
    if (page) {
      const start = page.page * TILE + inTile;
      out.push({ memory: page.memory, start: Math.floor(start / 4) * 4, end: roundUp(start + count, 4) });
    }
    at += count;
  }
  return out;
}

/** The memory behind whole tiles of a reserved resource. */
export function tileSegments(entry: ResourceEntry, tiles: readonly number[], slotsOf?: SlotsOf): Segment[] {
  return tiles.flatMap((tile) => segments(entry, tile * TILE, TILE, slotsOf));
}

function overlaps(a: Segment[], b: Segment[]): boolean {
  return a.some((x) => b.some((y) => x.memory === y.memory && x.start < y.end && y.start < x.end));
}

function overlapsItself(a: Segment[]): boolean {
  for (let i = 0; i < a.length; i++) {
    for (let j = i + 1; j < a.length; j++) {
      const x = a[i] as Segment;
      const y = a[j] as Segment;
      if (x.memory === y.memory && x.start < y.end && y.start < x.end) return true;
    }
  }
  return false;
}

/**
 * A command that writes `dst` and reads `src` is defined by D3D12 when no two written words share
 * memory and nothing read is written, and it can run when all its memory is resident.
 */
export function legal(dst: Segment[], src: Segment[]): boolean {
  return (
    !overlapsItself(dst) &&
    !overlaps(dst, src) &&
    dst.every((s) => resident(s.memory)) &&
    src.every((s) => resident(s.memory))
  );
}

/** The memories a resource's bytes live in now (reserved: every heap a tile maps to). */
export function memoriesOf(entry: ResourceEntry): Set<Memory> {
  if (!isReserved(entry)) return new Set([entry.memory as Memory]);
  return new Set((entry.slots as Slots).flatMap((slot) => (slot ? [slot.heap.memory] : [])));
}

/** The resources whose bytes share memory with a buffer in a heap (itself, and every buffer placed in the same heap). */
export function aliasesOf(entry: ResourceEntry): ResourceEntry[] {
  return entry.heap ? [...entry.heap.placed] : [entry];
}
