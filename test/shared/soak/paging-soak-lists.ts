/**
 * The paging soak's command lists (test/shared/soak/paging-soak.ts): planning random copies
 * (copyBufferRegion, copyTiles both ways) and read-modify-write dispatches over a few buffers,
 * recording them with their barriers, and applying them to the CPU model in the same order.
 *
 * D3D12 rules kept: every buffer starts and ends a list in COMMON (copies promote implicitly, a
 * dispatch transitions COMMON -> UNORDERED_ACCESS explicitly; the end transitions back, so the next
 * list of the same ExecuteCommandLists finds COMMON), transitions between uses, a UAV barrier
 * between dispatches on one buffer; UPLOAD buffers stay in GENERIC_READ and are only read; a buffer
 * whose memory a probe read since its last use gets an aliasing barrier first; no command reads the
 * memory it writes (and no two buffers share memory, probes aside).
 */
import type { GraphicsCommandList, PipelineState } from '../../../src/index.js';
import type { Random } from '../../../src/validate/random.js';
import { listStates, type Access } from './list-states.js';
import { TILE } from '../d3d12-helpers.js';
import {
  applyRmw,
  overlap,
  readModel,
  storesOf,
  writeModel,
  type SoakBuffer,
  type Store,
} from './paging-soak-model.js';

export type Command =
  | { kind: 'copy'; dst: SoakBuffer; dstOffset: number; src: SoakBuffer; srcOffset: number; numBytes: number }
  | {
      kind: 'copyTiles';
      tiled: SoakBuffer;
      x: number;
      numTiles: number;
      buffer: SoakBuffer;
      bufferOffset: number;
      toTiles: boolean;
    }
  | { kind: 'dispatch'; buffer: SoakBuffer; offset: number; words: number; constant: number };

/** The operation kind a command counts as. */
export const commandKind = (c: Command): string =>
  c.kind === 'copyTiles'
    ? c.toTiles
      ? 'copyTilesToTiled'
      : 'copyTilesToBuffer'
    : c.kind === 'copy'
      ? 'copyBufferRegion'
      : 'dispatch';

export function describeCommand(c: Command): string {
  switch (c.kind) {
    case 'copy':
      return `copy ${c.dst.name}+${c.dstOffset} <- ${c.src.name}+${c.srcOffset} (${c.numBytes})`;
    case 'copyTiles':
      return `copyTiles ${c.toTiles ? `${c.buffer.name}+${c.bufferOffset} -> ${c.tiled.name}` : `${c.tiled.name} -> ${c.buffer.name}+${c.bufferOffset}`} tiles ${c.x}..${c.x + c.numTiles - 1}`;
    case 'dispatch':
      return `dispatch ${c.buffer.name}+${c.offset} (${c.words} words)`;
  }
}

/** A random length up to `max`, mostly small. */
export function randomSize(r: Random, max: number): number {
  const x = r.float();
  if (x < 0.25) return r.int(1, Math.min(max, 64));
  if (x < 0.55) return r.int(1, Math.min(max, 4096));
  if (x < 0.9) return r.int(1, Math.min(max, 100_000));
  return r.int(1, max);
}

/** 1-5 commands over 1-4 random buffers. */
export function planCommands(r: Random, buffers: readonly SoakBuffer[]): Command[] {
  const pool = [...buffers];
  const subset: SoakBuffer[] = [];
  for (let n = r.int(1, 4); n > 0 && pool.length > 0; n--)
    subset.push(pool.splice(r.int(0, pool.length - 1), 1)[0] as SoakBuffer);
  const writable = subset.filter((b) => b.writable);
  const reserved = subset.filter((b) => b.kind === 'reserved');
  const uav = subset.filter((b) => b.uav);
  const commands: Command[] = [];
  for (let n = r.int(1, 5), attempts = 0; commands.length < n && attempts < 30; attempts++) {
    const kind = r.weighted([
      writable.length > 0 && subset.length > 1 ? 4 : 0,
      reserved.length > 0 ? 2 : 0,
      uav.length > 0 ? 3 : 0,
    ]);
    if (kind === 0) {
      const dst = r.pick(writable);
      const src = r.pick(subset.filter((b) => b !== dst));
      const numBytes = randomSize(r, Math.min(dst.width, src.width));
      const dstOffset = r.int(0, dst.width - numBytes);
      const srcOffset = r.int(0, src.width - numBytes);
      if (!overlap(dst, dstOffset, src, srcOffset, numBytes))
        commands.push({ kind: 'copy', dst, dstOffset, src, srcOffset, numBytes });
    } else if (kind === 1) {
      const tiled = r.pick(reserved);
      const numTiles = r.int(1, Math.min(3, tiled.tiles));
      const x = r.int(0, tiled.tiles - numTiles);
      const bytes = numTiles * TILE;
      const toTiles = r.chance(0.5);
      const candidates = subset.filter((b) => b !== tiled && b.width >= bytes && (toTiles || b.writable));
      if (candidates.length === 0) continue;
      const buffer = r.pick(candidates);
      const bufferOffset = r.chance(0.4) ? 0 : r.int(0, buffer.width - bytes);
      if (!overlap(tiled, x * TILE, buffer, bufferOffset, bytes))
        commands.push({ kind: 'copyTiles', tiled, x, numTiles, buffer, bufferOffset, toTiles });
    } else if (kind === 2) {
      const buffer = r.pick(uav);
      const maxWords = Math.floor(buffer.width / 4);
      if (maxWords === 0) continue;
      const words = randomSize(r, Math.min(maxWords, 32_768));
      commands.push({ kind: 'dispatch', buffer, offset: 4 * r.int(0, maxWords - words), words, constant: r.next() });
    }
  }
  return commands;
}

/** Adds the stores a command touches to `touched`, and those it reads to `read`. */
export function storesOfCommand(c: Command, touched: Set<Store>, read: Set<Store>): void {
  switch (c.kind) {
    case 'copy':
      storesOf(c.dst, c.dstOffset, c.numBytes, touched);
      storesOf(c.src, c.srcOffset, c.numBytes, read);
      storesOf(c.src, c.srcOffset, c.numBytes, touched);
      break;
    case 'copyTiles': {
      const bytes = c.numTiles * TILE;
      const [from, fromOffset, to, toOffset] = c.toTiles
        ? [c.buffer, c.bufferOffset, c.tiled, c.x * TILE]
        : [c.tiled, c.x * TILE, c.buffer, c.bufferOffset];
      storesOf(from, fromOffset, bytes, read);
      storesOf(from, fromOffset, bytes, touched);
      storesOf(to, toOffset, bytes, touched);
      break;
    }
    case 'dispatch':
      storesOf(c.buffer, c.offset, c.words * 4, read);
      storesOf(c.buffer, c.offset, c.words * 4, touched);
      break;
  }
}

export interface RecordContext {
  pipeline: PipelineState;
  /** Buffers with an older aliasGeneration need an aliasing barrier (a probe read their memory). */
  generation: number;
  /** The fence value the list's execution will signal: each buffer's new lastUse. */
  signalValue: number;
}

/** Records `commands` into an open list (with the barriers), closes it and applies them to the model. */
export function recordCommands(list: GraphicsCommandList, commands: readonly Command[], ctx: RecordContext): void {
  const tracked = listStates(list);
  const states = tracked.states;
  const need = (buffer: SoakBuffer, access: Access): void => {
    buffer.lastUse = ctx.signalValue;
    if (buffer.aliased && buffer.aliasGeneration < ctx.generation) {
      list.resourceBarrier([{ type: 'ALIASING', aliasing: { resourceBefore: null, resourceAfter: buffer.resource } }]);
      buffer.aliasGeneration = ctx.generation;
    }
    if (buffer.store?.type === 'UPLOAD') return; // GENERIC_READ for good: copies read it as it is
    tracked.need(buffer.resource, access);
  };
  let pipelineSet = false;
  for (const c of commands) {
    switch (c.kind) {
      case 'copy':
        need(c.dst, 'COPY_DEST');
        need(c.src, 'COPY_SOURCE');
        list.copyBufferRegion(c.dst.resource, c.dstOffset, c.src.resource, c.srcOffset, c.numBytes);
        writeModel(c.dst, c.dstOffset, readModel(c.src, c.srcOffset, c.numBytes));
        break;
      case 'copyTiles': {
        const bytes = c.numTiles * TILE;
        need(c.tiled, c.toTiles ? 'COPY_DEST' : 'COPY_SOURCE');
        need(c.buffer, c.toTiles ? 'COPY_SOURCE' : 'COPY_DEST');
        list.copyTiles(
          c.tiled.resource,
          { x: c.x, y: 0, z: 0, subresource: 0 },
          { numTiles: c.numTiles },
          c.buffer.resource,
          c.bufferOffset,
          c.toTiles ? 'LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE' : 'SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER',
        );
        if (c.toTiles) writeModel(c.tiled, c.x * TILE, readModel(c.buffer, c.bufferOffset, bytes));
        else writeModel(c.buffer, c.bufferOffset, readModel(c.tiled, c.x * TILE, bytes));
        break;
      }
      case 'dispatch': {
        if (!pipelineSet) list.setPipelineState(ctx.pipeline);
        pipelineSet = true;
        need(c.buffer, 'UNORDERED_ACCESS');
        const va = c.buffer.resource.getGPUVirtualAddress() + BigInt(c.offset);
        list.setComputeRootUnorderedAccessView(1, va);
        list.setComputeRoot32BitConstants(0, [c.words, c.constant], 2);
        list.dispatch(Math.ceil(c.words / 64));
        applyRmw(c.buffer, c.offset, c.words, c.constant);
        break;
      }
    }
  }
  const back = [...states].map(([resource, state]) => ({
    type: 'TRANSITION' as const,
    transition: { resource, stateBefore: state, stateAfter: 'COMMON' as const },
  }));
  if (back.length > 0) list.resourceBarrier(back);
  list.close();
}
