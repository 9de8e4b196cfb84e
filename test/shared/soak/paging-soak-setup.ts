/**
 * The objects of the paging soak (test/shared/soak/paging-soak.ts) and their first contents.
 *
 * LOCAL (DEFAULT) memory: heaps that hold the tiles of reserved buffers, heaps of placed buffers
 * and committed buffers, most tracked by the residency manager (at least 4x the LOCAL budget, some
 * created not resident), a few left to the application (untracked: it calls makeResident and evict
 * itself). NON_LOCAL (CPU-visible) memory, tracked and untracked alike: UPLOAD committed buffers,
 * CUSTOM committed buffers and CUSTOM heaps of placed buffers (WRITE_BACK and WRITE_COMBINE, L0).
 * Every DEFAULT heap gets a reserved probe mapped onto all of it, every CUSTOM heap a placed probe
 * over all of it, so checkpoints read whole heaps.
 *
 * D3D12 rules kept: UPLOAD buffers are created in GENERIC_READ and never take UAV; reserved tiles
 * map only into DEFAULT heaps, each heap page holding at most one tile of the soak's buffers;
 * placed buffers of one heap do not overlap (only the probes alias them, see the aliasing barriers
 * in paging-soak.ts); first contents go in through map() (CPU-visible) or a copy from an UPLOAD
 * buffer released only after the fence says the copies completed.
 */
import type { HeapFlag, HeapProperties, Resource } from '../../../src/index.js';
import { TILE } from '../d3d12-helpers.js';
import {
  randomBytes,
  writeModel,
  type Slot,
  type SoakBuffer,
  type Store,
  type StoreType,
} from './paging-soak-model.js';
import type { SoakContext } from './paging-soak.js';
import { freePage, remap } from './paging-soak-tiles.js';

const MIB = 2 ** 20;

export const HEAP_PROPERTIES: Record<StoreType, HeapProperties> = {
  DEFAULT: { type: 'DEFAULT' },
  UPLOAD: { type: 'UPLOAD' },
  WRITE_BACK: { type: 'CUSTOM', cpuPageProperty: 'WRITE_BACK', memoryPoolPreference: 'L0' },
  WRITE_COMBINE: { type: 'CUSTOM', cpuPageProperty: 'WRITE_COMBINE', memoryPoolPreference: 'L0' },
};

const TYPE_LETTER: Record<StoreType, string> = { DEFAULT: 'D', UPLOAD: 'U', WRITE_BACK: 'B', WRITE_COMBINE: 'C' };

function addStore(
  ctx: SoakContext,
  type: StoreType,
  shape: 'tiles' | 'placed' | 'committed',
  tracked: boolean,
  pages: number,
  width = pages * TILE,
  uav = true,
): { store: Store; resource?: Resource } {
  const r = ctx.random;
  const notResident = r.chance(tracked ? 0.3 : 0.4);
  const name = `${shape === 'committed' ? 'C' : 'H'}${ctx.stores.length + 1}${TYPE_LETTER[type]}${shape === 'tiles' ? 't' : ''}${tracked ? '' : 'u'}`;
  let store: Store;
  let resource: Resource | undefined;
  const base = {
    name,
    type,
    tracked,
    pages,
    owners: shape === 'tiles' ? new Array<string | null>(pages).fill(null) : null,
    count: tracked || notResident ? 0 : 1,
    maps: 0,
    lastUse: 0,
    pending: 0,
    dirty: false,
    dirtyEvicted: false,
    bytes: new Uint8Array(pages * TILE),
  };
  if (shape === 'committed') {
    const flags: HeapFlag[] = notResident ? ['CREATE_NOT_RESIDENT'] : [];
    resource = ctx.device.createCommittedResource(
      HEAP_PROPERTIES[type],
      flags,
      { dimension: 'BUFFER', width, flags: uav && type !== 'UPLOAD' ? ['ALLOW_UNORDERED_ACCESS'] : [] },
      type === 'UPLOAD' ? 'GENERIC_READ' : 'COMMON',
    );
    resource.setName(name);
    store = {
      ...base,
      pageable: resource,
      heap: resource.heap as NonNullable<Resource['heap']>,
      committed: true,
      usable: width,
    };
  } else {
    const flags: HeapFlag[] = [
      ...(r.chance(0.5) ? (['ALLOW_ONLY_BUFFERS'] as const) : []),
      ...(notResident ? (['CREATE_NOT_RESIDENT'] as const) : []),
    ];
    const heap = ctx.device.createHeap({ sizeInBytes: pages * TILE, properties: HEAP_PROPERTIES[type], flags });
    heap.setName(name);
    store = { ...base, pageable: heap, heap, committed: false, usable: pages * TILE };
  }
  if (tracked) ctx.manager.beginTrackingObject(store.pageable);
  ctx.stores.push(store);
  return resource ? { store, resource } : { store };
}

function addBuffer(
  ctx: SoakContext,
  buffer: Omit<SoakBuffer, 'name' | 'lastUse' | 'aliasGeneration'>,
  name?: string,
): SoakBuffer {
  const prefix = { placed: 'P', committed: 'B', reserved: 'R', probe: 'X' }[buffer.kind];
  const entry: SoakBuffer = {
    ...buffer,
    name: name ?? `${prefix}${ctx.buffers.length + 1}`,
    lastUse: 0,
    aliasGeneration: 0,
  };
  entry.resource.setName(entry.name);
  (buffer.kind === 'probe' ? ctx.probes : ctx.buffers).push(entry);
  return entry;
}

/** A heap of placed buffers in disjoint page ranges (gaps between), with its probe. */
function addPlacedHeap(ctx: SoakContext, type: StoreType, tracked: boolean, pages: number): void {
  const r = ctx.random;
  const { store } = addStore(ctx, type, 'placed', tracked, pages);
  const cpu = type !== 'DEFAULT';
  let page = r.int(0, 1);
  for (let n = r.int(1, 3); n > 0 && page < pages; n--) {
    const span = r.int(1, Math.min(3, pages - page));
    const width = r.chance(0.3) ? span * TILE : r.int((span - 1) * TILE + 1, span * TILE);
    const uav = !cpu || r.chance(0.7);
    const resource = ctx.device.createPlacedResource(
      store.heap,
      page * TILE,
      { dimension: 'BUFFER', width, flags: uav ? ['ALLOW_UNORDERED_ACCESS'] : [] },
      'COMMON',
    );
    addBuffer(ctx, {
      resource,
      kind: 'placed',
      width,
      tiles: span,
      store,
      firstPage: page,
      slots: null,
      cpu,
      writable: true,
      uav,
      aliased: true,
    });
    page += span + r.int(0, 1);
  }
  addProbe(ctx, store);
}

/** Reads a whole heap: a reserved buffer mapped onto a DEFAULT heap page for page, or a placed buffer over a CUSTOM heap. */
function addProbe(ctx: SoakContext, store: Store): void {
  const width = store.pages * TILE;
  const name = `${store.name} probe`;
  if (store.type === 'DEFAULT') {
    const resource = ctx.device.createReservedResource({ dimension: 'BUFFER', width }, 'COMMON');
    ctx.queue.updateTileMappings(resource, null, null, store.heap, ['NONE'], [0], null);
    const slots = Array.from({ length: store.pages }, (_, page): Slot => ({ store, page }));
    addBuffer(
      ctx,
      {
        resource,
        kind: 'probe',
        width,
        tiles: store.pages,
        store: null,
        firstPage: 0,
        slots,
        cpu: false,
        writable: false,
        uav: false,
        aliased: true,
      },
      name,
    );
  } else {
    const resource = ctx.device.createPlacedResource(store.heap, 0, { dimension: 'BUFFER', width }, 'COMMON');
    addBuffer(
      ctx,
      {
        resource,
        kind: 'probe',
        width,
        tiles: store.pages,
        store,
        firstPage: 0,
        slots: null,
        cpu: true,
        writable: false,
        uav: false,
        aliased: true,
      },
      name,
    );
  }
}

function addCommitted(ctx: SoakContext, type: StoreType, tracked: boolean, maxPages: number): Store {
  const r = ctx.random;
  const pages = r.int(1, maxPages);
  const width = r.chance(0.3) ? pages * TILE : r.int((pages - 1) * TILE + 1, pages * TILE);
  const uav = type === 'DEFAULT' || (type !== 'UPLOAD' && r.chance(0.7));
  const { store, resource } = addStore(ctx, type, 'committed', tracked, pages, width, uav);
  addBuffer(ctx, {
    resource: resource as Resource,
    kind: 'committed',
    width,
    tiles: pages,
    store,
    firstPage: 0,
    slots: null,
    cpu: type !== 'DEFAULT',
    writable: type !== 'UPLOAD',
    uav,
    aliased: false,
  });
  return store;
}

/** Creates every object (see the header); returns the bytes of tracked LOCAL objects. */
export function createObjects(ctx: SoakContext, localBudget: number, multiple: number): number {
  const r = ctx.random;
  for (let i = 0; i < 4; i++) {
    const { store } = addStore(ctx, 'DEFAULT', 'tiles', true, r.int(4, 7));
    addProbe(ctx, store);
  }
  const { store: untrackedTiles } = addStore(ctx, 'DEFAULT', 'tiles', false, r.int(3, 4));
  addProbe(ctx, untrackedTiles);
  for (let i = 0; i < 3; i++) addPlacedHeap(ctx, 'DEFAULT', true, r.int(3, 6));
  addPlacedHeap(ctx, 'DEFAULT', false, r.int(3, 4));
  addCommitted(ctx, 'DEFAULT', false, 2);
  const trackedLocal = (): number =>
    ctx.stores.filter((s) => s.tracked && s.type === 'DEFAULT').reduce((sum, s) => sum + s.pages * TILE, 0);
  while (trackedLocal() < multiple * localBudget + MIB / 4) addCommitted(ctx, 'DEFAULT', true, 3);
  // CPU-visible memory, tracked and untracked.
  for (const tracked of [true, true, false, false]) addCommitted(ctx, 'UPLOAD', tracked, 3);
  addPlacedHeap(ctx, 'WRITE_BACK', true, r.int(3, 5));
  addPlacedHeap(ctx, 'WRITE_COMBINE', true, r.int(3, 5));
  addPlacedHeap(ctx, r.chance(0.5) ? 'WRITE_BACK' : 'WRITE_COMBINE', false, r.int(2, 4));
  for (const [type, tracked] of [
    ['WRITE_BACK', true],
    ['WRITE_COMBINE', true],
    [r.chance(0.5) ? 'WRITE_BACK' : 'WRITE_COMBINE', false],
  ] as const)
    addCommitted(ctx, type, tracked, 2);
  // Reserved buffers: tiles over the tile heaps (the untracked one too), some NULL.
  const tileStores = ctx.stores.filter((s) => s.owners);
  const capacity = tileStores.reduce((sum, s) => sum + s.pages, 0);
  let mapped = 0;
  for (let i = 0; i < 5; i++) {
    const tiles = r.int(2, 7);
    const width = r.chance(0.3) ? tiles * TILE : r.int((tiles - 1) * TILE + 1, tiles * TILE);
    const resource = ctx.device.createReservedResource(
      { dimension: 'BUFFER', width, flags: ['ALLOW_UNORDERED_ACCESS'] },
      'COMMON',
    );
    const buffer = addBuffer(ctx, {
      resource,
      kind: 'reserved',
      width,
      tiles,
      store: null,
      firstPage: 0,
      slots: new Array<Slot | null>(tiles).fill(null),
      cpu: false,
      writable: true,
      uav: true,
      aliased: true,
    });
    const changes: { tile: number; slot: Slot | null }[] = [];
    for (let tile = 0; tile < tiles; tile++) {
      const slot = r.chance(0.12) || mapped >= capacity - 8 ? null : freePage(r, tileStores);
      if (!slot) continue;
      (slot.store.owners as (string | null)[])[slot.page] = `${buffer.name}[${tile}]`;
      changes.push({ tile, slot });
      mapped++;
    }
    for (const { slot } of changes) if (slot) (slot.store.owners as (string | null)[])[slot.page] = null;
    remap(ctx, buffer, changes);
  }
  return trackedLocal();
}

/**
 * First contents: random bytes over part of every store. CPU-visible memory that is resident is
 * written through map(); GPU memory gets a copy from an UPLOAD buffer, through the manager (a
 * residency set naming the store) or, untracked, directly. Returns the lists executed.
 */
export async function initializeObjects(ctx: SoakContext): Promise<number> {
  const r = ctx.random;
  for (const store of ctx.stores) {
    if (store.type === 'DEFAULT' || !store.heap.resident) continue;
    const target = store.committed
      ? ctx.buffers.find((b) => b.store === store)
      : ctx.probes.find((b) => b.store === store);
    if (!target) continue;
    const view = target.resource.map(0, { begin: 0, end: 0 });
    const bytes = randomBytes(r, target.width);
    view.set(bytes);
    writeModel(target, 0, bytes);
    target.resource.unmap(0);
  }
  const upload = ctx.device.createCommittedResource(
    { type: 'UPLOAD' },
    [],
    { dimension: 'BUFFER', width: MIB },
    'GENERIC_READ',
  );
  upload.setName('setup upload');
  const source = randomBytes(r, MIB);
  upload.map(0, { begin: 0, end: 0 }).set(source);
  upload.unmap(0);
  const targets = ctx.stores.filter((s) => s.type === 'DEFAULT' && (s.heap.resident || (s.tracked && r.chance(0.5))));
  let lists = 0;
  for (let i = 0; i < targets.length; i += 4) {
    const chunk = targets.slice(i, i + 4);
    const batch = chunk.map((store) => {
      const target = (
        store.committed
          ? ctx.buffers.find((b) => b.store === store)
          : ctx.probes.find((b) => b.slots?.[0]?.store === store)
      ) as SoakBuffer;
      const numBytes = Math.min(r.int(Math.ceil(target.width / 3), target.width), MIB);
      const dstOffset = r.int(0, target.width - numBytes);
      const srcOffset = r.int(0, MIB - numBytes);
      const list = ctx.takeList();
      list.setName(`setup ${target.name}`);
      if (target.aliased)
        list.resourceBarrier([
          { type: 'ALIASING', aliasing: { resourceBefore: null, resourceAfter: target.resource } },
        ]);
      list.copyBufferRegion(target.resource, dstOffset, upload, srcOffset, numBytes);
      list.resourceBarrier([
        {
          type: 'TRANSITION',
          transition: { resource: target.resource, stateBefore: 'COPY_DEST', stateAfter: 'COMMON' },
        },
      ]);
      list.close();
      writeModel(target, dstOffset, source.subarray(srcOffset, srcOffset + numBytes));
      return { list, store };
    });
    ctx.executeManaged(
      batch.map((b) => b.list),
      batch.map((b) => ctx.takeSet(b.store.tracked ? [b.store] : [])),
      new Set(chunk),
    );
    lists += batch.length;
  }
  await ctx.waitFor(ctx.fenceValue());
  upload.release();
  return lists;
}
