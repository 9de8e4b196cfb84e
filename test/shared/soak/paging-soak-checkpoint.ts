/**
 * Checkpoints of the paging soak (test/shared/soak/paging-soak.ts): every byte of every buffer and
 * every heap (through its probe) read back through READBACK buffers and compared with the CPU model,
 * CPU-visible memory read through map() as well; the CPU page table compared with the model of the
 * tile mappings; the device's residency reference counts compared with the application's.
 *
 * D3D12 rules kept: the readback lists go through the residency manager with sets naming what they
 * read; objects outside the manager get a MakeResident of the application's for the checkpoint and
 * an Evict once the lists completed; probes take an aliasing barrier before they read; CPU reads
 * wait for the fence and unmap with an empty written range (nothing written).
 */
import type { CommandQueue, Device, GraphicsCommandList, ResidencySet } from '../../../src/index.js';
import type { Random } from '../../../src/validate/random.js';
import {
  firstDifference,
  hex,
  locate,
  readModel,
  roundUp,
  storesOf,
  type Slot,
  type SoakBuffer,
  type Store,
} from './paging-soak-model.js';
import type { PagingSoakDifference, PagingSoakSummary } from './paging-soak-report.js';
import { getTileMappingForTesting } from '../../../src/testing/index.js';

/** Bytes of one READBACK buffer (an object larger than this gets one of its own). */
const READBACK_CHUNK = 2 ** 20;

/** What a checkpoint needs of the runner. */
export interface CheckpointHost {
  readonly device: Device;
  readonly queue: CommandQueue;
  readonly random: Random;
  readonly stores: readonly Store[];
  readonly buffers: readonly SoakBuffer[];
  readonly probes: readonly SoakBuffer[];
  readonly operations: number;
  readonly bytesCompared: { gpu: number; cpu: number; cpuRead: number };
  readonly differingByPath: { gpu: number; cpu: number };
  bytesDiffering: number;
  checkpoints: number;
  checkpointLists: number;
  /** Bumped after each checkpoint: buffers aliased by a probe need an aliasing barrier before their next use. */
  generation: number;
  difference: PagingSoakDifference | undefined;
  corrupted: PagingSoakSummary['corrupted'];
  log(line: string): void;
  fenceValue(): number;
  waitFor(value: number): Promise<void>;
  queueWaitFor(stores: Iterable<Store>): void;
  takeList(): GraphicsCommandList;
  takeSet(stores: Iterable<Store>): ResidencySet;
  executeManaged(lists: GraphicsCommandList[], sets: ResidencySet[], touched: Set<Store>): number;
  /** The application's Evict (after a fence wait); `counted`: a soak operation. */
  evict(stores: Store[], counted?: boolean): Promise<void>;
  checkResidency(store: Store, call: string): void;
  checkRemoved(): void;
}

export function describeDifference(
  host: CheckpointHost,
  kind: 'gpu' | 'cpu',
  checkpoint: number,
  item: SoakBuffer,
  offset: number,
  actual: number | undefined,
  expected: number | undefined,
): PagingSoakDifference {
  return {
    kind,
    checkpoint,
    afterOperations: host.operations,
    object: item.name,
    resource: item.resource.label,
    offset,
    location: locate(item, offset),
    actual: hex(actual),
    expected: hex(expected),
  };
}

function checkMappings(host: CheckpointHost, buffer: SoakBuffer): void {
  const slots = buffer.slots as (Slot | null)[];
  for (let tile = 0; tile < buffer.tiles; tile++) {
    const actual = getTileMappingForTesting(buffer.resource, tile);
    const expected = slots[tile] ?? null;
    const same =
      actual === null
        ? expected === null
        : expected !== null && actual.heap === expected.store.heap && actual.heapTileOffset === expected.page;
    if (!same) {
      host.difference ??= {
        kind: 'mapping',
        checkpoint: host.checkpoints,
        afterOperations: host.operations,
        object: buffer.name,
        resource: buffer.resource.label,
        offset: tile,
        location: '',
        actual: actual ? `${actual.heap.label} page ${actual.heapTileOffset}` : 'NULL',
        expected: expected ? `${expected.store.name} page ${expected.page}` : 'NULL',
      };
    }
  }
}

/** Reference counts balance: the device counts the application's references (and the manager's one, if tracked). */
export function checkCounts(host: CheckpointHost): void {
  for (const s of host.stores) {
    const extra = s.heap.residencyReferences - s.count;
    if (s.tracked ? extra !== 0 && extra !== 1 : extra !== 0) {
      throw new Error(
        `${s.name}: the device counts ${s.heap.residencyReferences} residency reference(s); the application holds ${s.count}${s.tracked ? ' and the manager at most 1' : ''}`,
      );
    }
    host.checkResidency(s, 'checkpoint');
  }
}

/** Flips one model byte (options.corrupt) that a checkpoint reads: the checkpoint must report it. */
export function corruptModel(host: CheckpointHost, type: 'DEFAULT' | 'CPU'): void {
  const r = host.random;
  const store = r.pick(host.stores.filter((s) => (type === 'DEFAULT' ? s.type === 'DEFAULT' : s.type !== 'DEFAULT')));
  const at = r.int(0, store.usable - 1);
  const from = store.bytes[at] as number;
  store.bytes[at] = from ^ (1 << r.int(0, 7));
  host.corrupted = { location: `${store.name} byte ${at}`, from: hex(from), to: hex(store.bytes[at]) };
  host.log(`corrupted the model: ${host.corrupted.location} ${host.corrupted.from} -> ${host.corrupted.to}`);
}

function compare(host: CheckpointHost, kind: 'gpu' | 'cpu', item: SoakBuffer, actual: Uint8Array): void {
  const expected = readModel(item, 0, item.width);
  const at = firstDifference(actual, expected);
  if (at >= 0) {
    host.difference ??= describeDifference(host, kind, host.checkpoints, item, at, actual[at], expected[at]);
    let differing = 0;
    for (let i = at; i < item.width; i++) if (actual[i] !== expected[i]) differing++;
    host.bytesDiffering += differing;
    host.differingByPath[kind] += differing;
  }
  host.bytesCompared[kind] += item.width;
}

export async function checkpoint(host: CheckpointHost): Promise<void> {
  host.checkpoints++;
  host.log(`checkpoint ${host.checkpoints}`);
  await host.waitFor(host.fenceValue());
  for (const b of [...host.buffers, ...host.probes]) if (b.slots) checkMappings(host, b);
  if (host.difference) return;
  checkCounts(host);
  // Untracked objects without a reference get one for the readback, and lose it again after.
  const raised = host.stores.filter((s) => !s.tracked && s.count === 0);
  if (raised.length > 0) host.device.makeResident(raised.map((s) => s.pageable));
  for (const s of raised) s.count++;
  host.queueWaitFor(host.stores);
  const items = [...host.buffers, ...host.probes];
  for (let next = 0; next < items.length;) {
    const chunk: { item: SoakBuffer; offset: number }[] = [];
    let bytes = 0;
    while (next < items.length && (chunk.length === 0 || bytes + (items[next] as SoakBuffer).width <= READBACK_CHUNK)) {
      const item = items[next++] as SoakBuffer;
      chunk.push({ item, offset: bytes });
      bytes += roundUp(item.width, 256);
    }
    const readback = host.device.createCommittedResource(
      { type: 'READBACK' },
      [],
      { dimension: 'BUFFER', width: bytes },
      'COPY_DEST',
    );
    const touched = new Set<Store>();
    const lists: GraphicsCommandList[] = [];
    const sets: ResidencySet[] = [];
    for (const { item, offset } of chunk) {
      const list = host.takeList();
      list.setName(`checkpoint ${host.checkpoints}: ${item.name}`);
      if (item.aliased)
        list.resourceBarrier([{ type: 'ALIASING', aliasing: { resourceBefore: null, resourceAfter: item.resource } }]);
      list.copyBufferRegion(readback, offset, item.resource, 0, item.width);
      list.close();
      const stores = storesOf(item, 0, item.width, new Set());
      for (const s of stores) touched.add(s);
      lists.push(list);
      sets.push(host.takeSet(stores));
    }
    await host.waitFor(host.executeManaged(lists, sets, touched));
    host.checkpointLists += lists.length;
    const actual = readback.map();
    for (const { item, offset } of chunk) compare(host, 'gpu', item, actual.subarray(offset, offset + item.width));
    readback.unmap(0, { begin: 0, end: 0 });
    readback.release();
  }
  // The GPU has read every store now: no CPU write is still unread.
  for (const s of host.stores) s.dirty = s.dirtyEvicted = false;
  // CPU-visible memory through map(), made resident by the application where the manager let it go.
  const cpuItems = items.filter((item) => item.cpu);
  const pinned = [...new Set(cpuItems.map((item) => item.store as Store))].filter((s) => !s.heap.resident);
  if (pinned.length > 0) host.device.makeResident(pinned.map((s) => s.pageable));
  for (const s of pinned) s.count++;
  for (const item of cpuItems) {
    const view = item.resource.map(0, null);
    compare(host, 'cpu', item, view);
    item.resource.unmap(0, { begin: 0, end: 0 });
  }
  if (pinned.length > 0) await host.evict(pinned, false);
  host.generation++;
  if (raised.length > 0) await host.evict(raised, false);
  const faults = await host.device.readFaults();
  if (faults.length > 0) throw new Error(`the GPU logged ${faults.length} fault(s), first: ${faults[0]?.message}`);
  host.checkRemoved();
}
