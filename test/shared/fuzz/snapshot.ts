/**
 * The API fuzzer's view of everything a failing call must leave as it was, and the bookkeeping
 * invariants every call must keep. Reads the library's internal fields where the public API does
 * not show the state (tests may; the library's own invariants are the contract checked here).
 *
 * A snapshot is a map from a key per object (main.heap#3, other.fence#2, main.manager#1) to the
 * object's state as JSON. Keys ending in '~' hold state that also changes by itself while GPU work
 * completes (fence completion, fault reports, removal by a failed readback). Nothing can complete
 * inside a synchronous call, and the runner lets the GPU finish before a call that returns a
 * promise, so every key is compared for every call.
 *
 * Invariants: `field` throws when an internal field it reads is gone, so a renamed field fails the
 * self-test loudly instead of silently weakening every check; two snapshots of unchanged state are
 * equal (everything is rendered in a fixed order).
 */
import type {
  CommandAllocator,
  DescriptorHeap,
  Device,
  Fence,
  GraphicsCommandList,
  Heap,
  QueryHeap,
  ResidencyManager,
  ResidencySet,
  Resource,
  RootSignature,
} from '../../../src/index.js';
import { trackedBy } from './catalogue-residency.js';
import type { DeviceWorld } from './pool.js';

export type Snapshot = Map<string, string>;

const SEGMENTS = ['LOCAL', 'NON_LOCAL'] as const;

/** An internal field of `object`, which must exist. */
export function field<T>(object: object, name: string): T {
  if (!(name in object)) {
    throw new Error(
      `fuzz snapshot: ${object.constructor.name}.${name} no longer exists; update test/shared/fuzz/snapshot.ts to the library's new internals`,
    );
  }
  return (object as Record<string, unknown>)[name] as T;
}

interface Allocator {
  freeUnits: number;
  unitCount: number;
}

interface Internals {
  heaps: Map<number, Heap>;
  live: Set<Resource>;
  allFences: Set<Fence>;
  queues: Set<object>;
  backend:
    | {
        backing: {
          allocators: Record<'LOCAL' | 'NON_LOCAL', Allocator>;
          heldPagesForTesting(segment: 'LOCAL' | 'NON_LOCAL'): number;
        };
      }
    | undefined;
  usage: Record<'LOCAL' | 'NON_LOCAL', number>;
}

function internals(device: Device): Internals {
  const context = field<object>(device, 'context');
  const residency = field<object>(context, 'residency');
  const objects = field<object>(context, 'objects');
  return {
    heaps: field(objects, 'heaps'),
    live: field(objects, 'live'),
    allFences: field(context, 'fences'),
    queues: field(context, 'queues'),
    backend: field(context, 'backend'),
    usage: field(residency, 'usage'),
  };
}

/** Releases that wait for GPU work or held queue work (deferred-release.ts). */
export function deferredReleases(device: Device): number {
  return field<number>(field<object>(field<object>(device, 'context'), 'releases'), 'pendingCount');
}

/** Releases handed to the GPU's completion: they run by themselves (a microtask) once it is done. */
export function releasesAwaitingGpu(device: Device): number {
  return field<number>(field<object>(field<object>(device, 'context'), 'releases'), 'awaitingGpu');
}

const queueIds = new WeakMap<object, number>();
let nextQueueId = 1;
function queueId(queue: object): number {
  let id = queueIds.get(queue);
  if (id === undefined) queueIds.set(queue, (id = nextQueueId++));
  return id;
}

/** The state of both devices and of every pooled object. */
export function takeSnapshot(worlds: readonly DeviceWorld[], name: (object: object) => string | undefined): Snapshot {
  const snapshot: Snapshot = new Map();
  const put = (key: string, value: unknown): void => void snapshot.set(key, JSON.stringify(value));
  for (const world of worlds) {
    const p = world.prefix || 'main.';
    const device = world.device;
    const inner = internals(device);
    const residency = field<object>(field<object>(device, 'context'), 'residency');
    const allocators = inner.backend?.backing.allocators;
    put(`${p}device`, {
      local: device.queryVideoMemoryInfo('LOCAL'),
      nonLocal: device.queryVideoMemoryInfo('NON_LOCAL'),
      paging: device.getPagingStats(),
      usage: inner.usage,
      debugBudget: field(residency, 'debugBudget'),
      freeAddresses: field<{ freeBytes: number }>(
        field<object>(field<object>(device, 'context'), 'objects'),
        'addressSpace',
      ).freeBytes,
      liveResources: inner.live.size,
      heaps: inner.heaps.size,
      queryHeaps: field<Set<unknown>>(field<object>(field<object>(device, 'context'), 'queryHeaps'), 'live').size,
      deferredReleases: deferredReleases(device),
      freePages: allocators ? SEGMENTS.map((s) => allocators[s].freeUnits) : null,
      descriptorHeaps: field<Map<number, unknown>>(
        field<object>(field<object>(device, 'context'), 'descriptorHeaps'),
        'byRange',
      ).size,
    });
    put(`${p}device~`, {
      removed: device.getDeviceRemovedReason(),
      faults: field<unknown[]>(field<object>(field<object>(device, 'context'), 'removal'), 'faultReports').length,
    });
    const pooledHeaps = new Set<Heap>([...world.heaps, ...world.releasedHeaps]);
    for (const heap of inner.heaps.values()) {
      // A released heap whose memory is gone and that the fuzz can no longer pass cannot change.
      if (heap.memoryFreed && !pooledHeaps.has(heap)) continue;
      put(`${p}heap#${heap.id}`, heapState(heap, [...inner.live].filter((resource) => resource.heap === heap).length));
    }
    for (const resource of new Set([...inner.live, ...world.everResources]))
      put(`${p}resource#${resource.id}`, resourceState(resource));
    for (const fence of inner.allFences) {
      put(`${p}fence#${fence.id}`, {
        reached: field(fence, 'reached'),
        watchers: field<Set<unknown>>(fence, 'watchers').size,
      });
      put(`${p}fence#${fence.id}~`, {
        completed: fence.getCompletedValue(),
        events: field<unknown[]>(fence, 'events').length,
        pending: field(fence, 'pendingCompletions'),
      });
    }
    for (const queue of inner.queues) {
      const blocked = field<{ fence: Fence; value: number } | undefined>(queue, 'blockedBy');
      put(`${p}queue#${queueId(queue)}`, {
        pending: field<unknown[]>(queue, 'pending').length,
        blockedBy: blocked ? [blocked.fence.id, blocked.value] : null,
      });
    }
    for (const list of world.lists) put(`${p}list#${list.id}`, listState(list));
    for (const heap of [...world.queryHeaps, ...world.releasedQueryHeaps])
      put(`${p}queryHeap#${heap.id}`, queryHeapState(heap));
    const descriptorHeaps: Record<string, unknown> = {};
    for (const heap of new Set([...world.descriptorHeaps, ...world.releasedDescriptorHeaps]))
      descriptorHeaps[`#${heap.id}`] = descriptorHeapState(heap);
    put(`${p}descriptorHeaps`, descriptorHeaps);
    // One key for all of a kind: these are small, and a key's upkeep costs more than its contents.
    const signatures: Record<string, unknown> = {};
    for (const signature of new Set([...world.rootSignatures, ...world.releasedRootSignatures]))
      signatures[`#${signature.id}`] = [signature.released, signature.getName()];
    put(`${p}rootSignatures`, signatures);
    const commandAllocators: Record<string, unknown> = {};
    for (const allocator of new Set([...world.allocators, ...world.releasedAllocators]))
      commandAllocators[`#${allocator.id}`] = allocatorState(allocator);
    put(`${p}allocators`, commandAllocators);
    if (world.swapChain) put(`${p}swapChain`, { current: world.swapChain.getCurrentBackBufferIndex() });
    for (const manager of world.managers) put(name(manager) ?? `${p}manager`, managerState(manager));
    for (const set of world.sets) put(name(set) ?? `${p}set#${set.id}`, setState(set));
  }
  return snapshot;
}

function heapState(heap: Heap, users: number): unknown {
  const memory = heap.memory;
  return {
    count: heap.residencyReferences,
    resident: heap.resident,
    demoted: heap.demoted,
    released: heap.released,
    priority: heap.residencyPriority,
    mapped: heap.residencyLocks,
    placed: heap.placedReferences,
    pages: memory ? memory.pages.length : null,
    evicted: heap.evicted !== undefined,
    users,
    name: heap.getName(),
  };
}

/** Tile tables this long are not rendered: only huge resources the pool released at once have them. */
const MAX_RENDERED_TILES = 4096;

function resourceState(resource: Resource): unknown {
  const table =
    resource.tileMappings && resource.tileMappings.numTiles <= MAX_RENDERED_TILES ? resource.tileMappings : undefined;
  return {
    states: resource.states,
    released: resource.released,
    mapCount: resource.mapCount,
    name: resource.getName(),
    heapIds: table ? Array.from(table.heapIds).join(',') : null,
    heapTiles: table ? Array.from(table.heapTiles).join(',') : null,
  };
}

/** A stable number per object (a descriptor's record is replaced on every write, kept by a copy). */
const objectIds = new WeakMap<object, number>();
let nextObjectId = 1;
function objectId(object: object | undefined): number {
  if (object === undefined) return 0;
  let id = objectIds.get(object);
  if (id === undefined) objectIds.set(object, (id = nextObjectId++));
  return id;
}

/** FNV-1a over 32-bit words: a descriptor heap's descriptors in one number. */
function hashWords(words: Uint32Array): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) hash = Math.imul(hash ^ (words[i] as number), 0x01000193) >>> 0;
  return hash;
}

/**
 * Whether it was released, its name, its descriptors (their words and what the CPU knows each
 * describes, as hashes) and the range the next submission sends. A released heap's descriptors are
 * out of every call's reach (its handles resolve to nothing): they are not read.
 */
function descriptorHeapState(heap: DescriptorHeap): unknown {
  if (heap.released) return [true, heap.getName()];
  const records = field<(object | undefined)[]>(heap, 'records');
  let recordHash = 0x811c9dc5;
  for (let i = 0; i < records.length; i++) recordHash = Math.imul(recordHash ^ objectId(records[i]), 0x01000193) >>> 0;
  return [
    false,
    heap.getName(),
    hashWords(field<Uint32Array>(heap, 'words')),
    recordHash,
    field<number>(heap, 'dirtyFrom'),
    field<number>(heap, 'dirtyTo'),
  ];
}

/** Whether it was released, its name, and the lists recording into it (open ones marked). */
function allocatorState(allocator: CommandAllocator): unknown {
  const lists = field<Set<{ isOpen: boolean; id: number }>>(allocator, 'lists');
  return [allocator.released, allocator.getName(), [...lists].map((list) => (list.isOpen ? -list.id : list.id))];
}

const address = (value: bigint | undefined): string | null => (value === undefined ? null : value.toString(16));

function listState(list: GraphicsCommandList): unknown {
  const tracker = list.states as unknown as object;
  const tracked = field<Map<Resource, Record<string, unknown[]>>>(tracker, 'tracked');
  const pipeline = field<{ id: number } | undefined>(list, 'pipeline');
  const draws = field<object>(list, 'draws');
  const signature = (root: string): number | null =>
    field<{ rootSignature: RootSignature | undefined }>(list, root).rootSignature?.id ?? null;
  const bound = field<Partial<Record<string, DescriptorHeap>>>(field<object>(list, 'heaps'), 'heaps');
  const vertexBuffers = field<({ bufferLocation: bigint; sizeInBytes: number; strideInBytes: number } | undefined)[]>(
    draws,
    'vertexBuffers',
  );
  const indexBuffer = field<{ bufferLocation: bigint; sizeInBytes: number; format: string } | undefined>(
    draws,
    'indexBuffer',
  );
  return {
    allocator: list.commandAllocator?.id ?? null,
    rootSignatures: [signature('root'), signature('graphicsRoot')],
    descriptorHeaps: [bound.CBV_SRV_UAV?.id ?? null, bound.SAMPLER?.id ?? null],
    topology: field(draws, 'topology') ?? null,
    vertexBuffers: Array.from(vertexBuffers, (view) =>
      view ? [address(view.bufferLocation), view.sizeInBytes, view.strideInBytes] : null,
    ),
    indexBuffer: indexBuffer
      ? [address(indexBuffer.bufferLocation), indexBuffer.sizeInBytes, indexBuffer.format]
      : null,
    open: field(list, 'open'),
    commands: list.commands.length,
    tracked: [...tracked].map(([resource, t]) => [resource.id, t.states, t.expected, t.promotedRead, t.onTopOfStart]),
    pipeline: pipeline?.id ?? null,
    // The root arguments' words as they stand (what snapshot() copies for a dispatch or draw).
    root: field<Uint32Array>(field<object>(list, 'root'), 'words').join(','),
    graphicsRoot: field<Uint32Array>(field<object>(list, 'graphicsRoot'), 'words').join(','),
    renderTarget: field<{ index: number } | undefined>(draws, 'renderTarget')?.index ?? null,
    viewport: field(draws, 'viewport') ?? null,
    scissor: field(draws, 'scissor') ?? null,
    name: list.getName(),
  };
}

function queryHeapState(heap: QueryHeap): unknown {
  return { released: heap.released, name: heap.getName(), results: heap.results.released };
}

function managerState(manager: ResidencyManager): unknown {
  type Managed = {
    resident: boolean;
    lastUsedMs: number;
    lastUseValue: number;
    useStamp: number;
    lastBatch: number;
    meanGap: number;
    pageable: Heap | Resource;
  };
  const managed = field<Map<Heap | Resource, Managed>>(manager, 'managedObjects');
  const resident = field<Managed[]>(manager, 'residentObjects');
  const fences = field<Map<object, { value: number; pending: boolean }>>(
    field<object>(manager, 'syncPoints'),
    'fences',
  );
  return {
    stats: manager.getStats(),
    // Gather and set marks are scratch marks of one call (which objects it has seen), not state.
    tracked: [...managed].map(([pageable, m]) => [
      pageable.label,
      m.resident,
      m.lastUsedMs,
      m.lastUseValue,
      m.useStamp,
      m.lastBatch,
      m.meanGap,
    ]),
    pageables: trackedBy(manager).length,
    resident: resident.map((m) => m.pageable.label).sort(),
    nextSet: field(manager, 'nextSetId'),
    batch: field(manager, 'batchNumber'),
    fences: [...fences.values()].map((sync) => [sync.value, sync.pending]),
  };
}

function setState(set: ResidencySet): unknown {
  const members = field<{ pageable: Heap | Resource }[]>(set, 'members');
  return { open: field(set, 'isOpen'), members: members.map((m) => m.pageable.label) };
}

/** What changed between two snapshots, one line per changed field ("main.heap#3.count: 1 → 2"). */
export function diffSnapshots(before: Snapshot, after: Snapshot): string[] {
  const changes: string[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const [a, b] = [before.get(key), after.get(key)];
    if (a === b) continue;
    if (a === undefined || b === undefined) {
      changes.push(`${key} ${a === undefined ? 'appeared' : 'vanished'}: ${short(a ?? b ?? '')}`);
      continue;
    }
    const [x, y] = [JSON.parse(a) as Record<string, unknown>, JSON.parse(b) as Record<string, unknown>];
    for (const name of new Set([...Object.keys(x), ...Object.keys(y)])) {
      const [p, q] = [x[name], y[name]];
      const [u, v] = [JSON.stringify(p), JSON.stringify(q)];
      if (u === v) continue;
      if (Array.isArray(p) && Array.isArray(q) && p.length === q.length) {
        // Long arrays (tracked objects, states): the elements that changed, not the whole array.
        const at = p.flatMap((item, i) => (JSON.stringify(item) === JSON.stringify(q[i]) ? [] : [i]));
        for (const i of at.slice(0, 4))
          changes.push(`${key}.${name}[${i}]: ${short(JSON.stringify(p[i]))} → ${short(JSON.stringify(q[i]))}`);
        if (at.length > 4) changes.push(`${key}.${name}: ${at.length - 4} more elements changed`);
      } else changes.push(`${key}.${name}: ${short(u)} → ${short(v)}`);
    }
  }
  return changes;
}

/** A change's field with object ids left out: what failures are grouped by. */
export const changeKind = (change: string): string =>
  (change.split(':')[0] ?? change)
    .replace(/#\d+/g, '')
    .replace(/\[\d+\]/g, '[]')
    .replace(/^(main|other)\./, '$1:');

const short = (text: string | undefined): string =>
  text === undefined ? 'undefined' : text.length > 160 ? `${text.slice(0, 157)}...` : text;

export interface Violation {
  /** Stable across calls: what is broken and where ("main.heap#4 mapped count"). */
  key: string;
  detail: string;
}

/** The bookkeeping invariants of a GPU-backed device, checked after every call. */
export function checkInvariants(world: DeviceWorld): Violation[] {
  const violations: Violation[] = [];
  const p = world.prefix || 'main.';
  const inner = internals(world.device);
  const allocators = inner.backend?.backing.allocators;
  const heaps = [...inner.heaps.values()];
  for (const segment of SEGMENTS) {
    // A demoted heap (a LOCAL heap the OS moved to NON_LOCAL over budget) counts where it is.
    const resident = heaps
      .filter((h) => h.resident && h.currentSegment === segment)
      .reduce((sum, h) => sum + h.residentBytes, 0);
    if (resident !== inner.usage[segment]) {
      violations.push({
        key: `${p}device usage ${segment}`,
        detail: `currentUsage is ${inner.usage[segment]} but the resident heaps hold ${resident} bytes`,
      });
    }
    if (!allocators) continue;
    const used = allocators[segment].unitCount - allocators[segment].freeUnits;
    const held = heaps
      .filter((h) => h.memory?.segment === segment)
      .reduce((sum, h) => sum + (h.memory?.pages.length ?? 0), 0);
    // Evicted heaps' old pages stay taken until their bytes reach CPU memory (src/gpu/paging.ts).
    const waiting = inner.backend?.backing.heldPagesForTesting(segment) ?? 0;
    if (used !== held + waiting)
      violations.push({
        key: `${p}device pool pages ${segment}`,
        detail: `${used} pages of the ${segment} pool are taken but heaps hold ${held} and evicted heaps' bytes on their way ${waiting}`,
      });
  }
  for (const heap of heaps) {
    if (heap.residencyReferences < 0)
      violations.push({
        key: `${p}heap#${heap.id} residency count`,
        detail: `residencyCount is ${heap.residencyReferences}`,
      });
    if (allocators && !heap.memoryFreed && heap.resident !== (heap.memory !== undefined)) {
      violations.push({
        key: `${p}heap#${heap.id} resident memory`,
        detail: `resident is ${heap.resident} but the heap ${heap.memory ? 'has' : 'has no'} pages`,
      });
    }
    if (heap.memory && heap.memory.segment !== heap.currentSegment) {
      violations.push({
        key: `${p}heap#${heap.id} segment`,
        detail: `its pages are in ${heap.memory.segment} but it says ${heap.currentSegment} (demoted: ${heap.demoted})`,
      });
    }
    if (heap.demoted && (heap.segment !== 'LOCAL' || !heap.resident))
      violations.push({
        key: `${p}heap#${heap.id} demoted`,
        detail: `demoted, but its segment is ${heap.segment} and resident is ${heap.resident}`,
      });
    const mapped = [...inner.live].filter((r) => r.heap === heap).reduce((sum, r) => sum + r.mapCount, 0);
    if (!heap.released && heap.residencyLocks !== mapped) {
      violations.push({
        key: `${p}heap#${heap.id} mapped count`,
        detail: `mappedResources is ${heap.residencyLocks} but its live resources hold ${mapped} maps`,
      });
    }
  }
  // One list records into an allocator at a time (CommandAllocator's rule), and a list records into its own.
  for (const allocator of new Set([...world.allocators, ...world.releasedAllocators])) {
    const lists = [...field<Set<{ isOpen: boolean; label: string }>>(allocator, 'lists')];
    const open = lists.filter((list) => list.isOpen);
    if (open.length > 1)
      violations.push({
        key: `${p}allocator#${allocator.id} open lists`,
        detail: `${open.map((list) => list.label).join(' and ')} are all recording into ${allocator.label}`,
      });
  }
  for (const list of world.lists) {
    const allocator = list.commandAllocator;
    if (allocator && !field<Set<unknown>>(allocator, 'lists').has(list))
      violations.push({
        key: `${p}list#${list.id} allocator`,
        detail: `${list.label} records into ${allocator.label}, which does not know it`,
      });
  }
  return violations;
}
