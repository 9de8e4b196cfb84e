/**
 * ClearUnorderedAccessViewUint / Float on reserved textures, through the public API, every texel read
 * back with the prelude's loads (shaders/validate_texture_texels.wgsl) and compared with a CPU model
 * that knows only what D3D12 says: the tile grid of each standard mip (GetResourceTiling) and which
 * tiles are mapped (the CPU page table).
 *
 *   Tier 1 and 2: a 512² RGBA8 texture with NULL tiles in a checkerboard: whole-mip and partial,
 *   clipped clears, Uint and Float; mapped texels hold what was cleared last, NULL texels read as the
 *   tier says, and the clears' writes to NULL tiles are recorded as unmapped writes of the clears.
 *   Tier 4: a 256² RGBA8 array of 4 slices with 9 mips (mips 2-8 packed, per slice): every (mip,
 *   slice) cleared to its own value, every texel loaded back, and each slice's tail tile, read with
 *   copyTiles, holds exactly its own packed mips' values: each slice's mip tail has its own storage.
 */
import { createDevice } from '../../d3d12/create-device.js';
import type { GraphicsCommandList } from '../../d3d12/command-list.js';
import type { Device } from '../../d3d12/device.js';
import type { PipelineState } from '../../d3d12/pipeline-state.js';
import type { Resource } from '../../d3d12/resource.js';
import type { Rect, TiledResourcesTier } from '../../api/types.js';
import TEXELS from '../../../shaders/validate_texture_texels.wgsl?raw';
import { check, TILE, type Check } from '../bytes.js';
import { readBuffer, runList, uploadBuffer } from '../d3d12-io.js';
import { TIER1_NULL_READ } from '../page-table-model.js';
import { readTiles } from '../texture-io.js';
import { getTileMappingForTesting } from '../../testing/index.js';

const mipSize = (size: number, mip: number): number => Math.max(1, size >> mip);
/** An RGBA8 texel as a little-endian word. */
const rgba8 = (r: number, g: number, b: number, a: number): number => (r | (g << 8) | (b << 16) | (a << 24)) >>> 0;

interface TextureClear {
  mip: number;
  slice: number;
  kind: 'Uint' | 'Float';
  values: [number, number, number, number];
  rects: Rect[] | null;
  /** The texel's word, as D3D12 writes it. */
  word: number;
}

function recordClear(list: GraphicsCommandList, texture: Resource, c: TextureClear): void {
  const view = { mipSlice: c.mip, firstArraySlice: c.slice, arraySize: 1 };
  if (c.kind === 'Uint') list.clearUnorderedAccessViewUint(texture, c.values, c.rects, view);
  else list.clearUnorderedAccessViewFloat(texture, c.values, c.rects, view);
}

/** Every texel of (mip, slice) as the loads see it: its word and whether it was mapped, two words per texel. */
async function loadTexels(
  device: Device,
  queue: ReturnType<Device['createCommandQueue']>,
  pso: PipelineState,
  descriptor: Resource,
  mip: number,
  slice: number,
  width: number,
  height: number,
): Promise<Uint32Array> {
  const count = width * height;
  const out = device.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'BUFFER', width: count * 8 },
    'COMMON',
  );
  await runList(device, queue, (list) => {
    list.setPipelineState(pso);
    list.setComputeRootShaderResourceView(1, descriptor.getGPUVirtualAddress());
    list.setComputeRootUnorderedAccessView(2, out.getGPUVirtualAddress());
    list.setComputeRoot32BitConstants(0, [mip, slice, width, count]);
    list.dispatch(Math.ceil(count / 64));
  });
  const words = new Uint32Array((await readBuffer(device, queue, out, 0, count * 8)).buffer);
  out.release();
  return words;
}

function expectThat(name: string, ok: boolean, detail: string): Check {
  return ok ? { name, length: 0, firstDifference: -1 } : { name, length: 0, firstDifference: 0, detail };
}

const descriptorOf = (device: Device, texture: Resource): Resource =>
  uploadBuffer(device, new Uint8Array(device.writeTextureDescriptor(texture).buffer));

/** Tier 1 / 2: clears over NULL tiles, checked texel by texel. */
async function partlyNull(device: Device, pso: PipelineState, tier: TiledResourcesTier): Promise<Check[]> {
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  // 128² texel tiles: mip 0 is 4×4 tiles, mip 1 2×2, mip 2 one tile; no packed mip.
  const texture = device.createReservedResource(
    {
      dimension: 'TEXTURE2D',
      width: 512,
      height: 512,
      mipLevels: 3,
      format: 'R8G8B8A8_UNORM',
      layout: '64KB_UNDEFINED_SWIZZLE',
      flags: ['ALLOW_UNORDERED_ACCESS'],
    },
    'COMMON',
  );
  const tiling = device.getResourceTiling(texture);
  const heap = device.createHeap({
    sizeInBytes: tiling.numTilesForEntireResource * TILE,
    properties: { type: 'DEFAULT' },
  });
  queue.updateTileMappings(texture, null, null, heap, null, null, null);
  const nullTiles = [
    ...[0, 1, 2, 3].flatMap((y) =>
      [0, 1, 2, 3].filter((x) => (x + y) % 2 === 1).map((x) => ({ x, y, z: 0, subresource: 0 })),
    ),
    { x: 1, y: 1, z: 0, subresource: 1 },
  ];
  queue.updateTileMappings(
    texture,
    nullTiles,
    null,
    null,
    nullTiles.map(() => 'NULL' as const),
    null,
    null,
  );
  await device.readUnmappedAccesses();
  const clears: TextureClear[] = [
    {
      mip: 0,
      slice: 0,
      kind: 'Uint',
      values: [0x10, 0x20, 0x30, 0x140],
      rects: null,
      word: rgba8(0x10, 0x20, 0x30, 0x40),
    },
    { mip: 1, slice: 0, kind: 'Float', values: [0, 0, 0, 1], rects: null, word: rgba8(0, 0, 0, 0xff) },
    {
      mip: 1,
      slice: 0,
      kind: 'Uint',
      values: [1, 2, 3, 4],
      rects: [
        { left: 5, top: 7, right: 200, bottom: 250 },
        { left: 190, top: -9, right: 999, bottom: 3 },
        { left: 50, top: 50, right: 40, bottom: 60 },
      ],
      word: rgba8(1, 2, 3, 4),
    },
    { mip: 2, slice: 0, kind: 'Float', values: [1, 0.5, 0.25, 0], rects: null, word: rgba8(0xff, 0x80, 0x40, 0) },
    {
      mip: 2,
      slice: 0,
      kind: 'Uint',
      values: [9, 9, 9, 9],
      rects: [{ left: -3, top: -3, right: 5, bottom: 5 }],
      word: rgba8(9, 9, 9, 9),
    },
  ];
  await runList(device, queue, (list) => {
    list.resourceBarrier([
      { type: 'TRANSITION', transition: { resource: texture, stateBefore: 'COMMON', stateAfter: 'UNORDERED_ACCESS' } },
    ]);
    for (const c of clears) recordClear(list, texture, c);
  });
  const unmapped = await device.readUnmappedAccesses();
  const descriptor = descriptorOf(device, texture);
  const checks: Check[] = [];
  for (let mip = 0; mip < 3; mip++) {
    const [width, height] = [mipSize(512, mip), mipSize(512, mip)];
    const grid = tiling.subresourceTilings[mip];
    const expected = new Uint32Array(width * height * 2);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const tile =
          (grid?.startTileIndexInOverallResource ?? 0) +
          Math.floor(x / 128) +
          Math.floor(y / 128) * (grid?.widthInTiles ?? 1);
        const last = clears
          .filter(
            (c) =>
              c.mip === mip &&
              (c.rects === null || c.rects.some((r) => x >= r.left && x < r.right && y >= r.top && y < r.bottom)),
          )
          .at(-1);
        const mapped = getTileMappingForTesting(texture, tile) !== null;
        expected.set(mapped ? [last?.word ?? 0, 1] : [tier === 1 ? TIER1_NULL_READ : 0, 0], (y * width + x) * 2);
      }
    }
    const actual = await loadTexels(device, queue, pso, descriptor, mip, 0, width, height);
    checks.push(
      check(
        `tier ${tier}: mip ${mip} after whole, partial, clipped and empty clears over NULL tiles: every texel and its status`,
        new Uint8Array(actual.buffer),
        new Uint8Array(expected.buffer),
      ),
    );
  }
  const touched =
    unmapped.resources
      .find((r) => r.resourceId === texture.id)
      ?.tiles.map((t) => t.tile)
      .join() ?? '';
  const nullIndices = nullTiles
    .map(
      (t) =>
        (tiling.subresourceTilings[t.subresource]?.startTileIndexInOverallResource ?? 0) +
        t.x +
        t.y * (tiling.subresourceTilings[t.subresource]?.widthInTiles ?? 1),
    )
    .sort((a, b) => a - b)
    .join();
  const ours = unmapped.accesses.filter((a) => a.resourceId === texture.id);
  checks.push(
    expectThat(
      `tier ${tier}: the clears' writes to NULL tiles are recorded as unmapped writes of the clears`,
      touched === nullIndices &&
        ours.length > 0 &&
        ours.every((a) => a.access === 'write' && a.command.name.startsWith('clearUnorderedAccessView')),
      JSON.stringify({ touched, nullIndices, accesses: ours.slice(0, 3) }),
    ),
  );
  for (const r of [descriptor, texture, heap]) r.release();
  return checks;
}

/** Tier 4: every (mip, slice) of a 256² RGBA8 array of 4 slices with 9 mips cleared to its own value. */
async function arrayWithPackedMips(device: Device, pso: PipelineState): Promise<Check[]> {
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  const [mips, slices] = [9, 4];
  const texture = device.createReservedResource(
    {
      dimension: 'TEXTURE2D',
      width: 256,
      height: 256,
      depthOrArraySize: slices,
      mipLevels: mips,
      format: 'R8G8B8A8_UNORM',
      layout: '64KB_UNDEFINED_SWIZZLE',
      flags: ['ALLOW_UNORDERED_ACCESS'],
    },
    'COMMON',
  );
  const tiling = device.getResourceTiling(texture);
  const heap = device.createHeap({
    sizeInBytes: tiling.numTilesForEntireResource * TILE,
    properties: { type: 'DEFAULT' },
  });
  queue.updateTileMappings(texture, null, null, heap, null, null, null);
  // Even mips Uint, odd mips Float: the same word, (mip, slice, 0xa5, 0x3c).
  const clearOf = (mip: number, slice: number): TextureClear => {
    const bytes: [number, number, number, number] = [mip, slice, 0xa5, 0x3c];
    const rects = [{ left: 0, top: 0, right: mipSize(256, mip), bottom: mipSize(256, mip) }];
    return {
      mip,
      slice,
      kind: mip % 2 === 0 ? 'Uint' : 'Float',
      values: mip % 2 === 0 ? bytes : (bytes.map((b) => b / 255) as TextureClear['values']),
      rects,
      word: rgba8(...bytes),
    };
  };
  await runList(device, queue, (list) => {
    list.resourceBarrier([
      { type: 'TRANSITION', transition: { resource: texture, stateBefore: 'COMMON', stateAfter: 'UNORDERED_ACCESS' } },
    ]);
    for (let slice = 0; slice < slices; slice++)
      for (let mip = 0; mip < mips; mip++) recordClear(list, texture, clearOf(mip, slice));
    list.resourceBarrier([
      { type: 'TRANSITION', transition: { resource: texture, stateBefore: 'UNORDERED_ACCESS', stateAfter: 'COMMON' } },
    ]);
  });
  const descriptor = descriptorOf(device, texture);
  const checks: Check[] = [];
  for (let slice = 0; slice < slices; slice++) {
    for (let mip = 0; mip < mips; mip++) {
      const size = mipSize(256, mip);
      const expected = new Uint32Array(size * size * 2);
      for (let i = 0; i < size * size; i++) expected.set([clearOf(mip, slice).word, 1], i * 2);
      const actual = await loadTexels(device, queue, pso, descriptor, mip, slice, size, size);
      checks.push(
        check(
          `tier 4: mip ${mip} of slice ${slice} holds its own value in every texel`,
          new Uint8Array(actual.buffer),
          new Uint8Array(expected.buffer),
        ),
      );
    }
  }
  // Tile by tile (copyTiles): each slice's standard tiles hold their mip's value in every word; its
  // tail holds each of its packed mips' values exactly as many times as the mip has texels, and no
  // other slice's.
  const words = new Uint32Array((await readTiles(device, queue, texture)).buffer);
  const packed = tiling.packedMipDesc;
  for (let slice = 0; slice < slices; slice++) {
    const standard: number[] = [];
    const expectedStandard: number[] = [];
    for (let mip = 0; mip < packed.numStandardMips; mip++) {
      const grid = tiling.subresourceTilings[slice * mips + mip];
      const first = grid?.startTileIndexInOverallResource ?? 0;
      const count = (grid?.widthInTiles ?? 0) * (grid?.heightInTiles ?? 0);
      standard.push(...words.subarray((first * TILE) / 4, ((first + count) * TILE) / 4));
      expectedStandard.push(...new Array<number>((count * TILE) / 4).fill(clearOf(mip, slice).word));
    }
    checks.push(
      check(
        `tier 4: slice ${slice}'s standard tiles (mips 0..${packed.numStandardMips - 1}) hold their values`,
        new Uint8Array(Uint32Array.from(standard).buffer),
        new Uint8Array(Uint32Array.from(expectedStandard).buffer),
      ),
    );
    const tailStart =
      (tiling.subresourceTilings[slice * mips]?.startTileIndexInOverallResource ?? 0) +
      packed.startTileIndexInOverallResource;
    const tail = words.subarray((tailStart * TILE) / 4, ((tailStart + packed.numTilesForPackedMips) * TILE) / 4);
    const counts = new Map<number, number>();
    for (const word of tail) counts.set(word, (counts.get(word) ?? 0) + 1);
    const found: string[] = [];
    const wanted: string[] = [];
    for (let s = 0; s < slices; s++) {
      for (let mip = packed.numStandardMips; mip < mips; mip++) {
        found.push(`${mip}/${s}:${counts.get(clearOf(mip, s).word) ?? 0}`);
        wanted.push(`${mip}/${s}:${s === slice ? mipSize(256, mip) ** 2 : 0}`);
      }
    }
    checks.push(
      expectThat(
        `tier 4: slice ${slice}'s mip tail (tile ${tailStart}) holds its own packed mips' texels and no other slice's`,
        found.join() === wanted.join(),
        `found ${found.join(' ')}, expected ${wanted.join(' ')}`,
      ),
    );
  }
  for (const r of [descriptor, texture, heap]) r.release();
  return checks;
}

/** The texture clears at `tier`: 1 and 2 over NULL tiles, 4 the array with packed mips. */
export async function uavClearTextures(
  gpuDevice: GPUDevice,
  options: { tiledResourcesTier: TiledResourcesTier },
): Promise<Check[]> {
  const tier = options.tiledResourcesTier;
  const device = await createDevice({
    gpuDevice,
    tiledResourcesTier: tier,
    localMemoryBytes: 16 << 20,
    nonLocalMemoryBytes: 16 << 20,
    gpuValidation: { unmappedAccess: true },
  });
  try {
    const pso = await device.createComputePipelineState({ code: TEXELS, entryPoint: 'main' });
    return tier === 4 ? await arrayWithPackedMips(device, pso) : await partlyNull(device, pso, tier);
  } finally {
    device.destroy();
  }
}
