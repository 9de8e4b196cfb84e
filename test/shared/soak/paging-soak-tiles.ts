/**
 * Tile mappings of the paging soak's reserved buffers (test/shared/soak/paging-soak.ts):
 * queue.updateTileMappings calls and the model of the mappings that follows them.
 *
 * D3D12 rules kept: mappings change on the queue between command lists (queue order: work executed
 * before sees the old mapping); a reserved buffer's tiles map into DEFAULT heaps only; every heap
 * page holds at most one soak tile (no two tiles alias), so a write through one tile never changes
 * another's bytes. A NULL tile reads 0 and drops writes (tier 2 and up); its old page keeps its bytes.
 */
import type { CommandQueue } from '../../../src/index.js';
import type { Random } from '../../../src/validate/random.js';
import type { Slot, SoakBuffer, Store } from './paging-soak-model.js';

export interface TileContext {
  readonly queue: CommandQueue;
  readonly random: Random;
  readonly stores: readonly Store[];
  readonly buffers: readonly SoakBuffer[];
  /** Counts one operation of `kind`. */
  op(kind: string): void;
  log(line: string): void;
}

const ownersOf = (store: Store): (string | null)[] => store.owners as (string | null)[];

/** A random free page of a random tile heap, or null when every page holds a tile. */
export function freePage(r: Random, tileStores: readonly Store[]): Slot | null {
  const withRoom = tileStores.filter((s) => ownersOf(s).includes(null));
  if (withRoom.length === 0) return null;
  const store = r.pick(withRoom);
  const free = ownersOf(store).flatMap((owner, page) => (owner === null ? [page] : []));
  return { store, page: r.pick(free) };
}

/** Maps tiles one by one: one updateTileMappings per heap (NULL ranges with no heap); the model follows. */
export function remap(
  ctx: TileContext,
  buffer: SoakBuffer,
  changes: readonly { tile: number; slot: Slot | null }[],
): void {
  const slots = buffer.slots as (Slot | null)[];
  for (const { tile } of changes) {
    const old = slots[tile];
    if (old) ownersOf(old.store)[old.page] = null;
  }
  const byStore = new Map<Store | null, { tile: number; slot: Slot | null }[]>();
  for (const change of changes)
    byStore.set(change.slot?.store ?? null, [...(byStore.get(change.slot?.store ?? null) ?? []), change]);
  for (const [store, group] of byStore) {
    ctx.queue.updateTileMappings(
      buffer.resource,
      group.map(({ tile }) => ({ x: tile, y: 0, z: 0, subresource: 0 })),
      group.map(() => ({ numTiles: 1 })),
      store?.heap ?? null,
      group.map(() => (store ? 'NONE' : 'NULL')),
      group.map(({ slot }) => slot?.page ?? 0),
      group.map(() => 1),
    );
    ctx.op('updateTileMappings');
  }
  for (const { tile, slot } of changes) {
    slots[tile] = slot;
    if (!slot) continue;
    const owners = ownersOf(slot.store);
    if (owners[slot.page] !== null)
      throw new Error(`paging soak bug: ${slot.store.name} page ${slot.page} already holds ${owners[slot.page]}`);
    owners[slot.page] = `${buffer.name}[${tile}]`;
  }
  ctx.log(
    `remap ${buffer.name}: ${changes.map(({ tile, slot }) => `${tile}->${slot ? `${slot.store.name}:${slot.page}` : 'NULL'}`).join(' ')}`,
  );
}

/** 1-3 tiles of a random reserved buffer to free pages or NULL, or a run of tiles in one region and one range. */
export function randomRemap(ctx: TileContext): void {
  const r = ctx.random;
  const buffer = r.pick(ctx.buffers.filter((b) => b.kind === 'reserved'));
  const slots = buffer.slots as (Slot | null)[];
  const tileStores = ctx.stores.filter((s) => s.owners);
  if (r.chance(0.3)) {
    // Tiles x..x+n-1 to n consecutive free pages of one heap (one NONE range), or all NULL.
    const n = r.int(2, Math.min(4, buffer.tiles));
    const x = r.int(0, buffer.tiles - n);
    for (let tile = x; tile < x + n; tile++) {
      const old = slots[tile];
      if (old) ownersOf(old.store)[old.page] = null;
      slots[tile] = null;
    }
    const runs = tileStores.flatMap((store) => {
      const owners = ownersOf(store);
      return owners.flatMap((_, page) =>
        page + n <= owners.length && owners.slice(page, page + n).every((o) => o === null) ? [{ store, page }] : [],
      );
    });
    const run = runs.length > 0 && r.chance(0.7) ? r.pick(runs) : null;
    ctx.queue.updateTileMappings(
      buffer.resource,
      [{ x, y: 0, z: 0, subresource: 0 }],
      [{ numTiles: n }],
      run?.store.heap ?? null,
      [run ? 'NONE' : 'NULL'],
      [run?.page ?? 0],
      [n],
    );
    ctx.op('updateTileMappings');
    if (run) {
      for (let i = 0; i < n; i++) {
        slots[x + i] = { store: run.store, page: run.page + i };
        ownersOf(run.store)[run.page + i] = `${buffer.name}[${x + i}]`;
      }
    }
    ctx.log(
      `remap ${buffer.name} tiles ${x}..${x + n - 1} -> ${run ? `${run.store.name}:${run.page}..${run.page + n - 1}` : 'NULL'}`,
    );
    return;
  }
  const tiles = new Set<number>();
  for (let n = r.int(1, Math.min(3, buffer.tiles)); n > 0; n--) tiles.add(r.int(0, buffer.tiles - 1));
  const changes: { tile: number; slot: Slot | null }[] = [];
  for (const tile of tiles) {
    const slot = slots[tile] && r.chance(0.3) ? null : freePage(r, tileStores);
    // Taken for now, so two changes of one remap never get one page.
    if (slot) ownersOf(slot.store)[slot.page] = 'taken';
    changes.push({ tile, slot });
  }
  for (const { slot } of changes) if (slot) ownersOf(slot.store)[slot.page] = null;
  remap(ctx, buffer, changes);
}
