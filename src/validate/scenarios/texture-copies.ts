/**
 * Texture data the way D3D12 programs move it. textureCopies: GetCopyableFootprints +
 * CopyTextureRegion from UPLOAD memory into every mip and slice of committed, placed and reserved
 * (partly NULL-mapped) textures — a 2D array with packed mips per slice (Tier 4), 3D, 1D,
 * block-compressed, 1-, 2- and 4-byte texels — read back through footprints and, for a reserved
 * RGBA8 texture, through the prelude's d3d12_tex2d_load (its own texel addressing, in WGSL); boxes
 * across tile boundaries and at edges; texture-to-texture copies between a placed and a reserved
 * texture and between BC textures (a 2×2 mip included); DiscardResource leaving data as it was, and
 * its state rule checked when the list executes. textureCopyTiers: NULL tiles at a given tier
 * (writes dropped; reads 0, or Tier 1's poison, through footprints and texture-to-texture copies),
 * and copies into and out of an evicted heap, whose faults name the copyTextureRegion commands.
 *
 * Invariants: every byte is compared with the CPU's element model (texture-model.ts), which knows
 * the textures only through the public API and never through byte addresses; copies run on a COPY
 * queue (resources decay to COMMON after each execution, so no list needs a barrier for them).
 */
import { createDevice } from '../../d3d12/create-device.js';
import type { Device } from '../../d3d12/device.js';
import type { CommandQueue } from '../../d3d12/command-queue.js';
import type { Heap } from '../../d3d12/heap.js';
import type { Resource } from '../../d3d12/resource.js';
import type { TextureCopyLocation } from '../../d3d12/texture-copies.js';
import { D3D12Error } from '../../api/errors.js';
import type { Box, PlacedSubresourceFootprint, ResourceDesc, TiledResourcesTier } from '../../api/types.js';
import TEXTURE_LOAD from '../../../shaders/validate_texture_load.wgsl?raw';
import { check, checkThat, pattern, roundUp, TILE, type Check } from '../bytes.js';
import { readBuffer, runList, uploadBuffer } from '../d3d12-io.js';
import { footprintRows, TextureModel, type Triple } from '../texture-model.js';
import { ScenarioContext } from './context.js';
import { getTileMappingForTesting } from '../../testing/index.js';

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
const placed = (resource: Resource, placedFootprint: PlacedSubresourceFootprint): TextureCopyLocation => ({
  resource,
  type: 'PLACED_FOOTPRINT',
  placedFootprint,
});
const defaultBuffer = (device: Device, bytes: number): Resource =>
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
async function uploadBox(
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

/** Every texel of every mip of slice 0 through d3d12_tex2d_load (RGBA8), value and CheckAccessFullyMapped against the model. */
async function textureLoads(device: Device, queue: CommandQueue, t: Texture): Promise<Check[]> {
  const pso = await device.createComputePipelineState({ code: TEXTURE_LOAD, entryPoint: 'main' });
  const words = device.writeTextureDescriptor(t.resource);
  const descriptor = uploadBuffer(device, new Uint8Array(words.buffer, words.byteOffset, words.byteLength));
  const desc = t.resource.getDesc();
  const checks: Check[] = [];
  for (let mip = 0; mip < desc.mipLevels; mip++) {
    const [width, height] = [Math.max(1, desc.width >> mip), Math.max(1, desc.height >> mip)];
    const count = width * height;
    const out = device.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: count * 8, flags: ['ALLOW_UNORDERED_ACCESS'] },
      'COMMON',
    );
    await runList(device, queue, (list) => {
      list.setPipelineState(pso);
      list.setComputeRootShaderResourceView(1, descriptor.getGPUVirtualAddress());
      list.setComputeRootUnorderedAccessView(2, out.getGPUVirtualAddress());
      list.setComputeRoot32BitConstants(0, [mip, width, count]);
      list.dispatch(Math.ceil(count / 64));
    });
    const expected = new Uint8Array(count * 8);
    for (let i = 0; i < count; i++) {
      const [x, y] = [i % width, Math.floor(i / width)];
      expected.set(t.model.read(mip, x, y, 0), i * 8);
      expected[i * 8 + 4] = t.model.mapped(mip, x, y, 0) ? 1 : 0;
    }
    checks.push(
      check(
        `${t.name}: d3d12_tex2d_load of every texel of mip ${mip} (value, and whether fully mapped)`,
        await readBuffer(device, queue, out, 0, count * 8),
        expected,
      ),
    );
    out.release();
  }
  descriptor.release();
  return checks;
}

/**
 * The mapped standard tiles of a reserved texture, read out with copyTiles, against the model laid
 * out as CopyTiles documents it (each tile's elements row-major, rows one tile shape wide, depth
 * slices of the shape after each other): a check of where copyTextureRegion put each element that
 * does not go through the emulator's own address arithmetic. Bytes of a tile outside its mip (an
 * edge tile's rest) hold whatever the memory held, and are not compared.
 */
async function standardTiles(device: Device, queue: CommandQueue, t: Texture): Promise<Check[]> {
  const tiling = device.getResourceTiling(t.resource, 0, t.model.subresources);
  const shape = tiling.standardTileShapeForNonPackedMips;
  const [tw, th, td] = [
    shape.widthInTexels / t.model.block.width,
    shape.heightInTexels / t.model.block.height,
    shape.depthInTexels,
  ];
  const tiles: { tile: number; sub: number; origin: Triple }[] = [];
  tiling.subresourceTilings.forEach((s, sub) => {
    if (s.startTileIndexInOverallResource === 0xffffffff) return;
    for (let z = 0; z < s.depthInTiles; z++) {
      for (let y = 0; y < s.heightInTiles; y++) {
        for (let x = 0; x < s.widthInTiles; x++) {
          const tile = s.startTileIndexInOverallResource + x + (y + z * s.heightInTiles) * s.widthInTiles;
          if (getTileMappingForTesting(t.resource, tile)) tiles.push({ tile, sub, origin: [x * tw, y * th, z * td] });
        }
      }
    }
  });
  const out = defaultBuffer(device, tiles.length * TILE);
  await runList(
    device,
    queue,
    (list) =>
      tiles.forEach(({ tile }, i) =>
        list.copyTiles(
          t.resource,
          coordinateOfTile(device, t.resource, tile),
          { numTiles: 1 },
          out,
          i * TILE,
          'SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER',
        ),
      ),
    queue.type,
  );
  const actual = await readBuffer(device, queue, out, 0, tiles.length * TILE);
  out.release();
  const expected = actual.slice();
  tiles.forEach(({ sub, origin: [x0, y0, z0] }, i) => {
    const s = t.model.shape(sub);
    for (let z = 0; z < td; z++) {
      for (let y = 0; y < th; y++) {
        for (let x = 0; x < tw; x++) {
          if (x0 + x >= s.width || y0 + y >= s.height || z0 + z >= s.depth) continue;
          expected.set(t.model.read(sub, x0 + x, y0 + y, z0 + z), i * TILE + ((z * th + y) * tw + x) * s.bytes);
        }
      }
    }
  });
  return [
    check(
      `${t.name}: ${tiles.length} mapped standard tiles read with copyTiles, element by element as CopyTiles lays a tile out`,
      actual,
      expected,
    ),
  ];
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
function coordinateOfTile(
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

export async function textureCopies(gpuDevice: GPUDevice, context = new ScenarioContext()): Promise<Check[]> {
  const device = await createDevice({
    gpuDevice,
    tiledResourcesTier: 4,
    localMemoryBytes: 48 << 20,
    nonLocalMemoryBytes: 24 << 20,
  });
  const checks: Check[] = [];
  try {
    const copyQueue = device.createCommandQueue({ type: 'COPY' });
    const direct = device.createCommandQueue({ type: 'DIRECT' });
    const heap = device.createHeap({ sizeInBytes: 64 * TILE, properties: { type: 'DEFAULT' } });
    const texture = (name: string, resource: Resource, reserved = false): Texture => {
      resource.setName(name);
      return { name, resource, model: new TextureModel(device, resource, 4, reserved) };
    };
    const committed = (desc: ResourceDesc): Resource =>
      device.createCommittedResource({ type: 'DEFAULT' }, [], desc, 'COMMON');
    let heapOffset = 0;
    const placedIn = (desc: ResourceDesc): Resource => {
      const resource = device.createPlacedResource(heap, heapOffset, desc, 'COMMON');
      heapOffset += roundUp(device.getResourceAllocationInfo(desc).sizeInBytes, TILE);
      return resource;
    };

    const textures: Texture[] = [
      // 300×260, 3 mips × 2 slices: mips 0 and 1 in 128² tiles (3×3, 2×2), mip 2 packed.
      texture(
        'committed RGBA8 2D array',
        committed({
          dimension: 'TEXTURE2D',
          width: 300,
          height: 260,
          depthOrArraySize: 2,
          mipLevels: 3,
          format: 'R8G8B8A8_UNORM',
        }),
      ),
      // 600×300 R8, the full chain of 10 mips: mip 0 in 256² tiles (3×2), the rest packed with rows of 300, 150, ... 1 bytes.
      texture(
        'placed R8 2D',
        placedIn({ dimension: 'TEXTURE2D', width: 600, height: 300, mipLevels: 0, format: 'R8_UNORM' }),
      ),
      texture(
        'committed R16 1D array',
        committed({ dimension: 'TEXTURE1D', width: 1000, depthOrArraySize: 2, mipLevels: 2, format: 'R16_FLOAT' }),
      ),
      texture(
        'committed BC1 2D',
        committed({ dimension: 'TEXTURE2D', width: 128, height: 128, mipLevels: 0, format: 'BC1_UNORM' }),
      ),
      texture(
        'placed BC7 2D array',
        placedIn({
          dimension: 'TEXTURE2D',
          width: 64,
          height: 64,
          depthOrArraySize: 2,
          mipLevels: 3,
          format: 'BC7_UNORM',
        }),
      ),
      texture(
        'placed BC3 3D',
        placedIn({
          dimension: 'TEXTURE3D',
          width: 64,
          height: 32,
          depthOrArraySize: 4,
          mipLevels: 2,
          format: 'BC3_UNORM',
        }),
      ),
    ];

    // Reserved 256² RGBA8 × 3 slices, 9 mips (Tier 4: packed mips in an array): per slice mip 0 is
    // 2×2 tiles, mip 1 one tile, mips 2..8 one tail tile (6 tiles a slice). Slice 0: all but tile 1;
    // slice 1: tiles 6 and 9 of mip 0 and the tail; slice 2: the standard tiles, tail NULL.
    const array = texture(
      'reserved RGBA8 2D array',
      device.createReservedResource(
        {
          dimension: 'TEXTURE2D',
          width: 256,
          height: 256,
          depthOrArraySize: 3,
          mipLevels: 9,
          format: 'R8G8B8A8_UNORM',
          layout: '64KB_UNDEFINED_SWIZZLE',
        },
        'COMMON',
      ),
      true,
    );
    const tilesHeap = device.createHeap({ sizeInBytes: 32 * TILE, properties: { type: 'DEFAULT' } });
    const next = mapTiles(device, direct, array.resource, tilesHeap, [0, 2, 3, 4, 5, 6, 9, 11, 12, 13, 14, 15, 16], 0);
    // 64×64×32 RGBA8, 2 mips: mip 0 is 2×2×2 tiles of 32×32×16 (0..7), mip 1 one tile (8); 2 and 5 NULL.
    const volume = texture(
      'reserved RGBA8 3D',
      device.createReservedResource(
        {
          dimension: 'TEXTURE3D',
          width: 64,
          height: 64,
          depthOrArraySize: 32,
          mipLevels: 2,
          format: 'R8G8B8A8_UNORM',
          layout: '64KB_UNDEFINED_SWIZZLE',
        },
        'COMMON',
      ),
      true,
    );
    mapTiles(device, direct, volume.resource, tilesHeap, [0, 1, 3, 4, 6, 7, 8], next);
    // 1024×512 BC1: mip 0 is 2×2 tiles of 512×256 texels (128×64 blocks), mip 1 one tile; tile 1 NULL.
    const blocks = texture(
      'reserved BC1 2D',
      device.createReservedResource(
        {
          dimension: 'TEXTURE2D',
          width: 1024,
          height: 512,
          mipLevels: 3,
          format: 'BC1_UNORM',
          layout: '64KB_UNDEFINED_SWIZZLE',
        },
        'COMMON',
      ),
      true,
    );
    mapTiles(device, direct, blocks.resource, tilesHeap, [0, 2, 3, 4, 5], next + 7);
    checks.push(
      ...(await context.tileMappings(device, 'texture copies: reserved 2D array, 3D and BC textures, tile by tile', {
        resource: array.resource,
        page: 0,
      })),
    );
    textures.push(array, volume, blocks);

    let seed = 100;
    for (const t of textures) await uploadAll(device, copyQueue, t, seed++);
    for (const t of textures)
      checks.push(...(await readAll(device, copyQueue, t, 'after uploading every subresource')));

    // Boxes across tile boundaries (x 128, y 128 of mip 0) and at the right and bottom edges, into
    // a partly NULL slice, and boxes of the R8 texture's tiled mip 0 (256 wide tiles) and packed mip 2.
    await uploadBox(device, copyQueue, array, 0, [100, 120, 0], [60, 20, 1], seed++);
    await uploadBox(device, copyQueue, array, 9, [200, 250, 0], [56, 6, 1], seed++);
    await uploadBox(device, copyQueue, array, 10, [127, 0, 0], [1, 128, 1], seed++);
    await uploadBox(device, copyQueue, textures[1] as Texture, 0, [250, 3, 0], [301, 290, 1], seed++);
    await uploadBox(device, copyQueue, textures[1] as Texture, 2, [1, 1, 0], [147, 73, 1], seed++);
    await uploadBox(device, copyQueue, volume, 0, [20, 24, 10], [30, 30, 12], seed++);
    await uploadBox(device, copyQueue, textures[3] as Texture, 1, [16, 32, 0], [32, 28, 1], seed++);
    for (const t of [array, volume, textures[1] as Texture, textures[3] as Texture])
      checks.push(...(await readAll(device, copyQueue, t, 'after box uploads across tile boundaries and edges')));

    // Texture to texture: placed ↔ reserved (reads of NULL tiles give 0, writes to them are dropped),
    // BC1 ↔ BC1 in whole blocks, and the 2×2 mip (one block).
    const plain = texture(
      'placed RGBA8 2D',
      placedIn({ dimension: 'TEXTURE2D', width: 256, height: 256, format: 'R8G8B8A8_UNORM' }),
    );
    await uploadAll(device, copyQueue, plain, seed++);
    await copyBetween(device, copyQueue, array, 9, [20, 40, 0], plain, 0, {
      left: 16,
      top: 8,
      front: 0,
      right: 240,
      bottom: 200,
      back: 1,
    });
    await copyBetween(device, copyQueue, plain, 0, [0, 0, 0], array, 9, {
      left: 0,
      top: 0,
      front: 0,
      right: 256,
      bottom: 256,
      back: 1,
    });
    const bc = texture(
      'committed BC1 2D (copy target)',
      committed({ dimension: 'TEXTURE2D', width: 128, height: 128, mipLevels: 0, format: 'BC1_UNORM_SRGB' }),
    );
    await uploadAll(device, copyQueue, bc, seed++);
    const bc1 = textures[3] as Texture;
    await copyBetween(device, copyQueue, bc, 0, [64, 32, 0], bc1, 1, {
      left: 4,
      top: 8,
      front: 0,
      right: 36,
      bottom: 40,
      back: 1,
    });
    await copyBetween(device, copyQueue, bc, 6, [0, 0, 0], bc1, 6, {
      left: 0,
      top: 0,
      front: 0,
      right: 2,
      bottom: 2,
      back: 1,
    });
    for (const t of [array, plain, bc])
      checks.push(...(await readAll(device, copyQueue, t, 'after texture-to-texture copies')));

    for (const t of [array, volume, blocks]) checks.push(...(await standardTiles(device, copyQueue, t)));
    checks.push(...(await textureLoads(device, direct, array)));
    checks.push(...(await discards(device, copyQueue, direct, texture, committed, seed++)));
  } finally {
    device.destroy();
  }
  return checks;
}

/** DiscardResource changes no data (DIRECT and COMPUTE lists); its state rule is checked when the list executes. */
async function discards(
  device: Device,
  copyQueue: CommandQueue,
  direct: CommandQueue,
  texture: (name: string, resource: Resource) => Texture,
  committed: (desc: ResourceDesc) => Resource,
  seed: number,
): Promise<Check[]> {
  const uav = texture(
    'UAV RGBA8 2D',
    committed({
      dimension: 'TEXTURE2D',
      width: 64,
      height: 64,
      mipLevels: 2,
      format: 'R8G8B8A8_UNORM',
      flags: ['ALLOW_UNORDERED_ACCESS'],
    }),
  );
  await uploadAll(device, copyQueue, uav, seed);
  const barrier = (stateBefore: 'COMMON' | 'UNORDERED_ACCESS', stateAfter: 'COMMON' | 'UNORDERED_ACCESS') => ({
    type: 'TRANSITION' as const,
    transition: { resource: uav.resource, stateBefore, stateAfter },
  });
  for (const type of ['DIRECT', 'COMPUTE'] as const) {
    const queue = type === 'DIRECT' ? direct : device.createCommandQueue({ type });
    await runList(
      device,
      queue,
      (list) => {
        list.resourceBarrier([barrier('COMMON', 'UNORDERED_ACCESS')]);
        list.discardResource(uav.resource);
        list.discardResource(uav.resource, {
          firstSubresource: 1,
          numSubresources: 1,
          rects: [{ left: 0, top: 0, right: 16, bottom: 16 }],
        });
        list.resourceBarrier([barrier('UNORDERED_ACCESS', 'COMMON')]);
      },
      type,
    );
  }
  const checks = await readAll(
    device,
    copyQueue,
    uav,
    'after discardResource on DIRECT and COMPUTE lists (no data changes)',
  );
  // A render target discarded in COMMON: recorded (the state is the list's to learn), refused at execution.
  const target = committed({
    dimension: 'TEXTURE2D',
    width: 64,
    height: 64,
    format: 'R8G8B8A8_UNORM',
    flags: ['ALLOW_RENDER_TARGET'],
  });
  const list = device.createCommandList('DIRECT');
  list.discardResource(target);
  list.close();
  let refusal = '';
  try {
    direct.executeCommandLists([list]);
  } catch (error) {
    refusal = error instanceof D3D12Error ? error.message : String(error);
  }
  checks.push(
    checkThat(
      'discardResource of a render target in COMMON is refused at executeCommandLists',
      /executeCommandLists: .*cannot be used as RENDER_TARGET without a transition barrier/.test(refusal),
      `executeCommandLists said: ${refusal || 'nothing (it ran)'}`,
    ),
  );
  return checks;
}

export async function textureCopyTiers(
  gpuDevice: GPUDevice,
  options: { tiledResourcesTier: TiledResourcesTier },
): Promise<Check[]> {
  const tier = options.tiledResourcesTier;
  const device = await createDevice({
    gpuDevice,
    tiledResourcesTier: tier,
    localMemoryBytes: 16 << 20,
    nonLocalMemoryBytes: 16 << 20,
    onPageFault: 'report',
  });
  const checks: Check[] = [];
  try {
    const queue = device.createCommandQueue({ type: 'COPY' });
    // 256² RGBA8: 2×2 tiles of 128², tiles 0 and 3 mapped.
    const resource = device.createReservedResource(
      { dimension: 'TEXTURE2D', width: 256, height: 256, format: 'R8G8B8A8_UNORM', layout: '64KB_UNDEFINED_SWIZZLE' },
      'COMMON',
    );
    const heap = device.createHeap({ sizeInBytes: 2 * TILE, properties: { type: 'DEFAULT' } });
    mapTiles(device, device.createCommandQueue({ type: 'DIRECT' }), resource, heap, [0, 3], 0);
    const reserved: Texture = {
      name: `tier ${tier} reserved RGBA8`,
      resource,
      model: new TextureModel(device, resource, tier, true),
    };
    await uploadAll(device, queue, reserved, 40 + tier);
    checks.push(...(await readAll(device, queue, reserved, 'NULL tiles: writes dropped, reads as the tier says')));
    const copyTarget = device.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'TEXTURE2D', width: 256, height: 256, format: 'R8G8B8A8_UNORM' },
      'COMMON',
    );
    const target: Texture = {
      name: `tier ${tier} committed RGBA8`,
      resource: copyTarget,
      model: new TextureModel(device, copyTarget, tier, false),
    };
    await copyBetween(device, queue, target, 0, [0, 0, 0], reserved, 0, {
      left: 0,
      top: 0,
      front: 0,
      right: 256,
      bottom: 256,
      back: 1,
    });
    checks.push(...(await readAll(device, queue, target, 'a texture-to-texture copy of NULL tiles')));
    checks.push(...(await evictedFaults(device, queue, tier)));
  } finally {
    device.destroy();
  }
  return checks;
}

/** Copies into and out of a placed texture of an evicted heap: each access faults, named after its copyTextureRegion command. */
async function evictedFaults(device: Device, queue: CommandQueue, tier: number): Promise<Check[]> {
  const heap = device.createHeap({ sizeInBytes: 4 * TILE, properties: { type: 'DEFAULT' } });
  heap.setName('evicted texture heap');
  const desc: ResourceDesc = { dimension: 'TEXTURE2D', width: 256, height: 256, format: 'R8G8B8A8_UNORM' };
  const resource = device.createPlacedResource(heap, 0, desc, 'COMMON');
  resource.setName('evicted texture');
  const [layout] = device.getCopyableFootprints(desc, 0, 1, 0).layouts as [PlacedSubresourceFootprint];
  const upload = uploadBuffer(device, pattern(layout.footprint.rowPitch * 256, 7));
  const out = defaultBuffer(device, layout.footprint.rowPitch * 256);
  device.evict([heap]);
  const list = device.createCommandList('COPY');
  list.setName('stream into an evicted heap');
  // Four texels each way: a few faults, well within one submission's fault log.
  list.copyTextureRegion(at(resource, 0), 0, 0, 0, placed(upload, layout), {
    left: 0,
    top: 0,
    front: 0,
    right: 4,
    bottom: 1,
    back: 1,
  });
  list.resourceBarrier([
    { type: 'TRANSITION', transition: { resource, stateBefore: 'COPY_DEST', stateAfter: 'COPY_SOURCE' } },
  ]);
  list.copyTextureRegion(placed(out, layout), 0, 0, 0, at(resource, 0), {
    left: 0,
    top: 255,
    front: 0,
    right: 4,
    bottom: 256,
    back: 1,
  });
  list.close();
  queue.executeCommandLists([list]);
  const faults = await device.readFaults();
  const writes = faults.filter((f) => f.kind === 'write-absent');
  const reads = faults.filter((f) => f.kind === 'read-absent');
  const named = faults.every(
    (f) =>
      f.command.name === 'copyTextureRegion' &&
      f.resource?.name === 'evicted texture' &&
      f.heap?.name === 'evicted texture heap' &&
      f.commandList.label.endsWith("'stream into an evicted heap'"),
  );
  const summary = JSON.stringify(faults.slice(0, 2));
  return [
    checkThat(
      `tier ${tier}: copyTextureRegion into an evicted heap faults, attributed to command 0`,
      writes.length > 0 && writes.every((f) => f.command.index === 0),
      `${writes.length} write faults: ${summary}`,
    ),
    checkThat(
      `tier ${tier}: copyTextureRegion out of an evicted heap faults, attributed to command 2`,
      reads.length > 0 && reads.every((f) => f.command.index === 2),
      `${reads.length} read faults: ${summary}`,
    ),
    checkThat(
      `tier ${tier}: every fault names copyTextureRegion, the texture, the heap and the list`,
      faults.length === writes.length + reads.length && named,
      summary,
    ),
  ];
}
