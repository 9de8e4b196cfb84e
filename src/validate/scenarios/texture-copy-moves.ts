/**
 * The texture-copy scenarios' moves: a texture with its CPU model, and the uploads, read-backs,
 * box uploads, texture-to-texture copies and tile mappings through which textureCopies,
 * textureCopyTiers and reinterpretCopies move data, each updating the model as the copy does.
 *
 * Invariants: each move changes the model exactly as D3D12 says the copy changes the texture; the
 * model knows the textures only through the public API (footprints and tilings), never byte addresses.
 */
import type { Device } from '../../d3d12/device.js';
import type { CommandQueue } from '../../d3d12/command-queue.js';
import type { Heap } from '../../d3d12/heap.js';
import type { Resource } from '../../d3d12/resource.js';
import type { TextureCopyLocation } from '../../commands/texture-copies.js';
import type { Box, PlacedSubresourceFootprint } from '../../api/types.js';
import { check, pattern, roundUp, type Check } from '../bytes.js';
import { readBuffer, runList, uploadBuffer } from '../d3d12-io.js';
import { footprintRows, type TextureModel, type Triple } from '../texture-model.js';

/** A texture of a scenario and its CPU model. */
export interface Texture {
  name: string;
  resource: Resource;
  model: TextureModel;
}

export const at = (resource: Resource, subresourceIndex: number): TextureCopyLocation => ({
  resource,
  type: 'SUBRESOURCE_INDEX',
  subresourceIndex,
});
export const placed = (resource: Resource, placedFootprint: PlacedSubresourceFootprint): TextureCopyLocation => ({
  resource,
  type: 'PLACED_FOOTPRINT',
  placedFootprint,
});
export const defaultBuffer = (device: Device, bytes: number): Resource =>
  device.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'BUFFER', width: roundUp(Math.max(bytes, 4), 4) },
    'COMMON',
  );

/** Texels of a corner or size → elements. */
const elements = (t: Texture, [x, y, z]: Triple): Triple => [
  Math.ceil(x / t.model.block.width),
  Math.ceil(y / t.model.block.height),
  z,
];

/** Every subresource from one UPLOAD buffer laid out by GetCopyableFootprints, one copy each (as d3dx12's UpdateSubresources does). */
export async function uploadAll(device: Device, queue: CommandQueue, t: Texture, seed: number): Promise<void> {
  const { footprints } = t.model;
  const data = pattern(footprints.totalBytes, seed);
  const upload = uploadBuffer(device, data);
  await runList(
    device,
    queue,
    (list) =>
      footprints.layouts.forEach((layout, sub) =>
        list.copyTextureRegion(at(t.resource, sub), 0, 0, 0, placed(upload, layout)),
      ),
    queue.type,
  );
  footprints.layouts.forEach(({ offset, footprint }, sub) => {
    const s = t.model.shape(sub);
    t.model.writeRegion(
      sub,
      [0, 0, 0],
      [s.width, s.height, s.depth],
      footprintRows(data, offset, footprint.rowPitch, footprints.rowSizeInBytes[sub] as number, s.height, s.depth),
    );
  });
  upload.release();
}

/** Every subresource copied out into footprints, each compared with the model. */
export async function readAll(device: Device, queue: CommandQueue, t: Texture, what: string): Promise<Check[]> {
  const { footprints } = t.model;
  const out = defaultBuffer(device, footprints.totalBytes);
  await runList(
    device,
    queue,
    (list) =>
      footprints.layouts.forEach((layout, sub) =>
        list.copyTextureRegion(placed(out, layout), 0, 0, 0, at(t.resource, sub)),
      ),
    queue.type,
  );
  const bytes = await readBuffer(device, queue, out, 0, footprints.totalBytes);
  out.release();
  return footprints.layouts.map(({ offset, footprint }, sub) => {
    const s = t.model.shape(sub);
    const actual = footprintRows(
      bytes,
      offset,
      footprint.rowPitch,
      footprints.rowSizeInBytes[sub] as number,
      s.height,
      s.depth,
    );
    return check(`${t.name} ${what}: subresource ${sub} read back through its footprint`, actual, t.model.readAll(sub));
  });
}

/**
 * Uploads a box of `size` texels into subresource `sub` at `dst`: from a footprint 8 texels wider
 * and 4 taller than the box (whole blocks), through a srcBox at (8, 4).
 */
export async function uploadBox(
  device: Device,
  queue: CommandQueue,
  t: Texture,
  sub: number,
  dst: Triple,
  size: Triple,
  seed: number,
): Promise<void> {
  const [bw, bh] = [t.model.block.width, t.model.block.height];
  const bytes = t.model.shape(sub).bytes;
  const [ew, eh, depth] = elements(t, size);
  const width = 8 + ew * bw;
  const rows = 4 / bh + eh;
  const rowSize = (width / bw) * bytes;
  const rowPitch = roundUp(rowSize, 256);
  const data = pattern(rowPitch * rows * depth, seed);
  const upload = uploadBuffer(device, data);
  const footprint = {
    offset: 0,
    footprint: { format: t.resource.getDesc().format, width, height: rows * bh, depth, rowPitch },
  };
  const box: Box = { left: 8, top: 4, front: 0, right: 8 + size[0], bottom: 4 + size[1], back: depth };
  await runList(
    device,
    queue,
    (list) => list.copyTextureRegion(at(t.resource, sub), dst[0], dst[1], dst[2], placed(upload, footprint), box),
    queue.type,
  );
  const all = footprintRows(data, 0, rowPitch, rowSize, rows, depth);
  const region = new Uint8Array(ew * eh * depth * bytes);
  for (let z = 0; z < depth; z++) {
    for (let y = 0; y < eh; y++) {
      const from = ((z * rows + 4 / bh + y) * (width / bw) + 8 / bw) * bytes;
      region.set(all.subarray(from, from + ew * bytes), (z * eh + y) * ew * bytes);
    }
  }
  t.model.writeRegion(sub, elements(t, dst), [ew, eh, depth], region);
  upload.release();
}

/** A texture-to-texture copy of `box` (texels) of src's subresource into dst's at `dstAt`. */
export async function copyBetween(
  device: Device,
  queue: CommandQueue,
  dst: Texture,
  dstSub: number,
  dstAt: Triple,
  src: Texture,
  srcSub: number,
  box: Box,
): Promise<void> {
  await runList(
    device,
    queue,
    (list) =>
      list.copyTextureRegion(at(dst.resource, dstSub), dstAt[0], dstAt[1], dstAt[2], at(src.resource, srcSub), box),
    queue.type,
  );
  const size = elements(src, [box.right - box.left, box.bottom - box.top, box.back - box.front]);
  dst.model.writeRegion(
    dstSub,
    elements(dst, dstAt),
    size,
    src.model.readRegion(srcSub, elements(src, [box.left, box.top, box.front]), size),
  );
}

/** Maps the listed tiles of a reserved texture, each to its own heap tile (from `next`); returns the next free heap tile. */
export function mapTiles(
  device: Device,
  queue: CommandQueue,
  texture: Resource,
  heap: Heap,
  tiles: number[],
  next: number,
): number {
  for (const tile of tiles)
    queue.updateTileMappings(
      texture,
      [coordinateOfTile(device, texture, tile)],
      [{ numTiles: 1 }],
      heap,
      ['NONE'],
      [next++],
      [1],
    );
  return next;
}

/** The tile coordinate of tile index `tile` (its subresource's grid, or its slice's tail), from GetResourceTiling. */
export function coordinateOfTile(
  device: Device,
  texture: Resource,
  tile: number,
): { x: number; y: number; z: number; subresource: number } {
  const desc = texture.getDesc();
  const count = desc.mipLevels * (desc.dimension === 'TEXTURE3D' ? 1 : desc.depthOrArraySize);
  const tiling = device.getResourceTiling(texture, 0, count);
  for (let sub = 0; sub < count; sub++) {
    const s = tiling.subresourceTilings[sub];
    if (!s || s.startTileIndexInOverallResource === 0xffffffff) continue;
    const local = tile - s.startTileIndexInOverallResource;
    const plane = s.widthInTiles * s.heightInTiles;
    if (local >= 0 && local < plane * s.depthInTiles)
      return {
        x: local % s.widthInTiles,
        y: Math.floor((local % plane) / s.widthInTiles),
        z: Math.floor(local / plane),
        subresource: sub,
      };
  }
  // A tail tile: the first packed mip of its slice, x counting through the tail.
  const perSlice = tiling.numTilesForEntireResource / (count / desc.mipLevels);
  const slice = Math.floor(tile / perSlice);
  return {
    x: tile - slice * perSlice - tiling.packedMipDesc.startTileIndexInOverallResource,
    y: 0,
    z: 0,
    subresource: slice * desc.mipLevels + tiling.packedMipDesc.numStandardMips,
  };
}
