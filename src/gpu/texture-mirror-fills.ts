/**
 * Encoding one texture mirror's plan for a submission (src/memory/mirror-tiles.ts plans it,
 * src/gpu/texture-mirrors.ts owns the objects): dropped tiles' validity words and page links cleared,
 * filled tiles copied from their pool pages into the mirror, then their words set and their pages
 * linked. The words and links are queue writes, made now, before the submission; the copies go into
 * the submission's encoder, ahead of its passes, so no shader of it reads a tile before its copy.
 */
import type { MirrorPlan, MirrorTile } from '../memory/mirror-tiles.js';
import { TILE_SIZE } from '../memory/tiling.js';

/** A standard tile of a 4-byte format: 128 rows of 512 bytes in its page. */
export const TILE_ROW_BYTES = 512;
export const TILE_ROWS = 128;

export interface MirrorFillTarget {
  device: GPUDevice;
  pool: GPUBuffer;
  /** Per pool page: x the atlas tag, y the mirror link (the prelude's d3d12_cache_tags). */
  tags: GPUBuffer;
  valid: GPUBuffer;
}

/** Writes pool page `page`'s mirror link (y) alone. */
export function writeLink(target: MirrorFillTarget, page: number, link: number): void {
  target.device.queue.writeBuffer(target.tags, page * 8 + 4, new Uint32Array([link]));
}

/** Applies `plan` for the mirror `texture` whose tiles are `tiles` and whose validity words start at `base`. */
export function encodeMirrorPlan(
  target: MirrorFillTarget,
  encoder: GPUCommandEncoder,
  mirror: { texture: GPUTexture; tiles: readonly MirrorTile[]; base: number },
  plan: MirrorPlan,
): void {
  const { device, valid } = target;
  const { base } = mirror;
  for (const { tile, page } of plan.drops) {
    device.queue.writeBuffer(valid, (base + tile) * 4, new Uint32Array(1));
    if (page >= 0) writeLink(target, page, 0);
  }
  if (plan.fills.length === 0) return;
  const ones = new Uint32Array(mirror.tiles.length).fill(1);
  // Runs of consecutive tiles take one write for their words.
  let runStart = -1;
  let runEnd = -1;
  const flushRun = (): void => {
    if (runStart >= 0) device.queue.writeBuffer(valid, (base + runStart) * 4, ones, 0, runEnd - runStart);
  };
  for (const { tile, page } of plan.fills) {
    const at = mirror.tiles[tile] as MirrorTile;
    encoder.copyBufferToTexture(
      { buffer: target.pool, offset: page * TILE_SIZE, bytesPerRow: TILE_ROW_BYTES, rowsPerImage: TILE_ROWS },
      { texture: mirror.texture, mipLevel: at.mip, origin: { x: at.x, y: at.y } },
      { width: at.width, height: at.height },
    );
    // The page's tag: x (an atlas copy) dropped with it, y the link. Zero is always a safe tag.
    device.queue.writeBuffer(target.tags, page * 8, new Uint32Array([0, base + tile + 1]));
    if (tile === runEnd) runEnd++;
    else {
      flushRun();
      runStart = tile;
      runEnd = tile + 1;
    }
  }
  flushRun();
}
