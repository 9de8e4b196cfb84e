/**
 * Texture data the way D3D12 programs move it. textureCopies: GetCopyableFootprints +
 * CopyTextureRegion from UPLOAD memory into every mip and slice of committed, placed and reserved
 * (partly NULL-mapped) textures — a 2D array with packed mips per slice (Tier 4), 3D, 1D,
 * block-compressed, 1-, 2- and 4-byte texels — read back through footprints and, for a reserved
 * RGBA8 texture, through the prelude's d3d12_tex2d_load (its own texel addressing, in WGSL); boxes
 * across tile boundaries and at edges; texture-to-texture copies between a placed and a reserved
 * texture and between BC textures (a 2×2 mip included); DiscardResource leaving data as it was, and
 * its state rule checked when the list executes. textureCopyTiers (texture-copy-tiers.ts) covers
 * NULL tiles at a given tier and copies into and out of an evicted heap.
 *
 * Invariants: every byte is compared with the CPU's element model (texture-model.ts), which knows
 * the textures only through the public API and never through byte addresses; copies run on a COPY
 * queue (resources decay to COMMON after each execution, so no list needs a barrier for them).
 */
import { createDevice } from '../../d3d12/create-device.js';
import type { Device } from '../../d3d12/device.js';
import type { CommandQueue } from '../../d3d12/command-queue.js';
import type { Resource } from '../../d3d12/resource.js';
import { D3D12Error } from '../../api/errors.js';
import type { ResourceDesc } from '../../api/types.js';
import { checkThat, roundUp, TILE, type Check } from '../bytes.js';
import { runList } from '../d3d12-io.js';
import { TextureModel } from '../texture-model.js';
import { ScenarioContext } from './context.js';
import { copyBetween, mapTiles, readAll, uploadAll, uploadBox, type Texture } from './texture-copy-moves.js';
import { standardTiles, textureLoads } from './texture-copy-readbacks.js';

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
