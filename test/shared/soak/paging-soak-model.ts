/**
 * The CPU model of the paging soak (test/shared/soak/paging-soak.ts): what every byte of every
 * pageable object should hold, and what the application knows about residency.
 *
 * A *store* is one pageable object (an explicit heap, or a committed resource and its implicit
 * heap) with a CPU copy of its bytes (new memory is zeroed, as D3D12 heaps without
 * CREATE_NOT_ZEROED are). A *buffer* is a resource the soak uses: placed and committed buffers
 * point into one store from a page on; reserved buffers (and the reserved "probes" that map a whole
 * DEFAULT heap page for page) point into stores tile by tile through the runner's own model of
 * their tile mappings, where a NULL tile reads 0 and drops writes (tiled resources tier 2 and up).
 *
 * Residency, as the application sees it (D3D12's reference counts): an untracked store's `count`
 * is every reference the application holds (1 at creation, 0 with CREATE_NOT_RESIDENT, +1 per
 * MakeResident, -1 per Evict); a store tracked by the residency manager holds one reference that is
 * the manager's, and `count` counts the application's own MakeResident calls on top ("pins").
 */
import type { Heap, Pageable, Resource } from '../../../src/index.js';
import type { Random } from '../../../src/validate/random.js';
import { TILE } from '../d3d12-helpers.js';

export type StoreType = 'DEFAULT' | 'UPLOAD' | 'WRITE_BACK' | 'WRITE_COMBINE';

export interface Store {
  name: string;
  pageable: Pageable;
  /** The heap whose reference count and residency the device keeps (a committed resource's implicit heap). */
  heap: Heap;
  type: StoreType;
  committed: boolean;
  /** Tracked by the residency manager (beginTrackingObject). */
  tracked: boolean;
  pages: number;
  /** Bytes a resource can reach: the whole heap, or a committed buffer's width. */
  usable: number;
  /** The CPU copy of the memory (whole pages). */
  bytes: Uint8Array;
  /** Heaps that hold reserved tiles: the tile mapped to each page, if any (at most one per page). */
  owners: (string | null)[] | null;
  /** The application's references (see the header). */
  count: number;
  /** Persistent maps the application holds on buffers of the store (it keeps a reference meanwhile). */
  maps: number;
  /** Fence value of the last command list that touched the store (0: none). */
  lastUse: number;
  /** Value on the residency fence of an enqueueMakeResident the application has not waited for (0: none). */
  pending: number;
  /** CPU-written since the last command list that touched it. */
  dirty: boolean;
  /** ... and paged out since that write, before any GPU work read it. */
  dirtyEvicted: boolean;
}

export interface Slot {
  store: Store;
  page: number;
}

export type BufferKind = 'placed' | 'committed' | 'reserved' | 'probe';

export interface SoakBuffer {
  name: string;
  resource: Resource;
  kind: BufferKind;
  width: number;
  tiles: number;
  /** Placed, committed and placed probes: the store and its first page. */
  store: Store | null;
  firstPage: number;
  /** Reserved buffers and reserved probes: the model of the tile mappings. */
  slots: (Slot | null)[] | null;
  /** In CPU-accessible memory: map() works. */
  cpu: boolean;
  /** The GPU may write it (not UPLOAD, whose state is fixed at GENERIC_READ). */
  writable: boolean;
  uav: boolean;
  /** Fence value of the last command list that used it. */
  lastUse: number;
  /** Shares memory with a probe: needs an aliasing barrier before its first use after a checkpoint. */
  aliased: boolean;
  aliasGeneration: number;
}

/** Where a buffer tile's bytes are. */
export interface Physical {
  store: Store;
  page: number;
}

export const roundUp = (n: number, to: number): number => Math.ceil(n / to) * to;
export const hex = (byte: number | undefined): string => `0x${(byte ?? 0).toString(16).padStart(2, '0')}`;

export function randomBytes(random: Random, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  const words = new Uint32Array(bytes.buffer, 0, Math.floor(length / 4));
  for (let i = 0; i < words.length; i++) words[i] = random.next();
  for (let i = words.length * 4; i < length; i++) bytes[i] = random.next() & 0xff;
  return bytes;
}

export function physical(buffer: SoakBuffer, tile: number): Physical | null {
  if (buffer.slots) return buffer.slots[tile] ?? null;
  return { store: buffer.store as Store, page: buffer.firstPage + tile };
}

/** Calls `visit` for each tile-sized piece of buffer bytes [offset, offset + length); `at` is the byte in the store. */
export function walk(
  buffer: SoakBuffer,
  offset: number,
  length: number,
  visit: (where: Physical | null, at: number, dataOffset: number, count: number) => void,
): void {
  let done = 0;
  while (done < length) {
    const tile = Math.floor((offset + done) / TILE);
    const inTile = offset + done - tile * TILE;
    const count = Math.min(length - done, TILE - inTile);
    const where = physical(buffer, tile);
    visit(where, where ? where.page * TILE + inTile : 0, done, count);
    done += count;
  }
}

export function readModel(buffer: SoakBuffer, offset: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  walk(buffer, offset, length, (where, at, dataOffset, count) => {
    if (where) out.set(where.store.bytes.subarray(at, at + count), dataOffset);
  });
  return out;
}

export function writeModel(buffer: SoakBuffer, offset: number, bytes: Uint8Array): void {
  walk(buffer, offset, bytes.length, (where, at, dataOffset, count) => {
    where?.store.bytes.set(bytes.subarray(dataOffset, dataOffset + count), at);
  });
}

/** The stores behind buffer bytes [offset, offset + length): what must be resident for a command on them. */
export function storesOf(buffer: SoakBuffer, offset: number, length: number, into: Set<Store>): Set<Store> {
  walk(buffer, offset, length, (where) => {
    if (where) into.add(where.store);
  });
  return into;
}

/** Whether two buffer ranges share memory (word-granular: the copy kernels move whole words). */
export function overlap(a: SoakBuffer, aOffset: number, b: SoakBuffer, bOffset: number, length: number): boolean {
  const ranges = (buffer: SoakBuffer, offset: number): [Store, number, number][] => {
    const out: [Store, number, number][] = [];
    walk(buffer, offset, length, (where, at, _dataOffset, count) => {
      if (where) out.push([where.store, Math.floor(at / 4) * 4, roundUp(at + count, 4)]);
    });
    return out;
  };
  const x = ranges(a, aOffset);
  const y = ranges(b, bOffset);
  return x.some(([store, start, end]) => y.some(([other, s, e]) => store === other && start < e && s < end));
}

/** The soak's read-modify-write shader on the model: word i becomes (v ^ c) * 0x9e3779b1 + i. */
export function applyRmw(buffer: SoakBuffer, offset: number, words: number, constant: number): void {
  const bytes = readModel(buffer, offset, words * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < words; i++) {
    const v = view.getUint32(i * 4, true);
    view.setUint32(i * 4, (Math.imul((v ^ constant) >>> 0, 0x9e3779b1) + i) >>> 0, true);
  }
  writeModel(buffer, offset, bytes);
}

/** The first byte where `actual` differs from `expected`, or -1. */
export function firstDifference(actual: Uint8Array, expected: Uint8Array): number {
  const n = Math.min(actual.length, expected.length);
  // Word compares first (fast), then the byte inside the first differing word.
  const words = Math.floor(n / 4);
  if (actual.byteOffset % 4 === 0 && expected.byteOffset % 4 === 0) {
    const a = new Uint32Array(actual.buffer, actual.byteOffset, words);
    const e = new Uint32Array(expected.buffer, expected.byteOffset, words);
    for (let i = 0; i < words; i++) {
      if (a[i] !== e[i]) {
        for (let b = i * 4; b < i * 4 + 4; b++) if (actual[b] !== expected[b]) return b;
      }
    }
    for (let b = words * 4; b < n; b++) if (actual[b] !== expected[b]) return b;
  } else {
    for (let b = 0; b < n; b++) if (actual[b] !== expected[b]) return b;
  }
  return actual.length === expected.length ? -1 : n;
}

/** The store byte behind byte `offset` of a buffer, for a difference report. */
export function locate(buffer: SoakBuffer, offset: number): string {
  const where = physical(buffer, Math.floor(offset / TILE));
  return where ? `${where.store.name} byte ${where.page * TILE + (offset % TILE)}` : 'a NULL tile';
}
