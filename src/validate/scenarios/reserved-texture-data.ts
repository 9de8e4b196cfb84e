/**
 * Reserved 2D and 3D textures: tiles mapped with boxes, with regions that spill into the next mips
 * and the packed mip tail, filled with copyTiles from UPLOAD memory and read back tile by tile, match
 * the CPU page table's prediction, including after a remap. After each mapping step the GPU page
 * table is compared with the CPU authority.
 */
import { createDevice } from '../../d3d12/create-device.js';
import type { Device } from '../../d3d12/device.js';
import type { Resource } from '../../d3d12/resource.js';
import { check, pattern, TILE, type Check } from '../bytes.js';
import { readTiles, writeTiles } from '../texture-io.js';
import { PageTableModel } from '../page-table-model.js';
import { ScenarioContext } from './context.js';

/** Fills every tile of `texture` from a linear buffer (copyTiles), then reads every tile back out. */
async function roundTrip(
  device: Device,
  texture: Resource,
  model: PageTableModel,
  seed: number,
  name: string,
): Promise<Check> {
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  const tiles = device.getResourceTiling(texture).numTilesForEntireResource;
  const linear = pattern(tiles * TILE, seed);
  await writeTiles(device, queue, texture, linear);
  for (let tile = 0; tile < tiles; tile++)
    model.writeTile(texture, tile, linear.subarray(tile * TILE, (tile + 1) * TILE));
  const expected = new Uint8Array(tiles * TILE);
  for (let tile = 0; tile < tiles; tile++) expected.set(model.readTile(texture, tile), tile * TILE);
  return check(name, await readTiles(device, queue, texture, tiles), expected);
}

export async function reservedTextureData(gpuDevice: GPUDevice, context = new ScenarioContext()): Promise<Check[]> {
  const device = await createDevice({
    gpuDevice,
    tiledResourcesTier: 3,
    localMemoryBytes: 32 << 20,
    nonLocalMemoryBytes: 24 << 20,
  });
  const model = new PageTableModel(3);
  const checks: Check[] = [];
  try {
    const queue = device.createCommandQueue({ type: 'DIRECT' });
    const heap = device.createHeap({ sizeInBytes: 32 * TILE, properties: { type: 'DEFAULT' } });

    // 512×512 RGBA8, 10 mips: mip 0 is 4×4 tiles (0..15), mip 1 2×2 (16..19), mip 2 one tile (20),
    // mips 3..9 packed in tile 21.
    const texture = device.createReservedResource(
      {
        dimension: 'TEXTURE2D',
        width: 512,
        height: 512,
        mipLevels: 10,
        format: 'R8G8B8A8_UNORM',
        layout: '64KB_UNDEFINED_SWIZZLE',
      },
      'COMMON',
    );
    queue.updateTileMappings(
      texture,
      [
        { x: 1, y: 1, z: 0, subresource: 0 },
        { x: 1, y: 1, z: 0, subresource: 1 },
        { x: 3, y: 3, z: 0, subresource: 0 },
      ],
      [{ numTiles: 4, useBox: true, width: 2, height: 2, depth: 1 }, { numTiles: 3 }, { numTiles: 1 }],
      heap,
      ['NONE', 'NONE', 'REUSE_SINGLE_TILE'],
      [0, 4, 7],
      [4, 3, 1],
    );
    checks.push(
      ...(await context.tileMappings(device, '2D: a box, a spill into the tail, a reused tile', {
        resource: texture,
        page: 5,
      })),
    );
    checks.push(
      await roundTrip(
        device,
        texture,
        model,
        11,
        '2D: a box of mip 0, a region spilling from mip 1 through mip 2 into the tail, a reused tile',
      ),
    );

    // Remap the box's tile (1,1) of mip 0 (tile 5) onto the tail's heap page, unmap (2,2) (tile 10),
    // and leave (2,1) (tile 6) as it is with SKIP; then copy the mappings of mip 1's four tiles onto
    // mip 0's top-left 2×2 box (tiles 0, 1, 4, 5 ← 16..19).
    context.beforeRemap(device);
    queue.updateTileMappings(
      texture,
      [
        { x: 1, y: 1, z: 0, subresource: 0 },
        { x: 2, y: 2, z: 0, subresource: 0 },
        { x: 2, y: 1, z: 0, subresource: 0 },
      ],
      null,
      heap,
      ['NONE', 'NULL', 'SKIP'],
      [6, 0, 0],
      [1, 1, 1],
    );
    queue.copyTileMappings(
      texture,
      { x: 0, y: 0, z: 0, subresource: 0 },
      texture,
      { x: 0, y: 0, z: 0, subresource: 1 },
      { numTiles: 4, useBox: true, width: 2, height: 2, depth: 1 },
    );
    checks.push(...(await context.tileMappings(device, '2D after a remap, SKIP and a box copyTileMappings')));
    const afterRemap = new Uint8Array(22 * TILE);
    for (let tile = 0; tile < 22; tile++) afterRemap.set(model.readTile(texture, tile), tile * TILE);
    checks.push(
      check(
        '2D after a remap, SKIP and copyTileMappings: the data stays with the heap page',
        await readTiles(device, queue, texture, 22),
        afterRemap,
      ),
    );

    // 64×64×64 RGBA32F, 3 mips: mip 0 is 4×4×4 tiles (0..63), mip 1 2×2×2 (64..71), mip 2 one (72).
    const volume = device.createReservedResource(
      {
        dimension: 'TEXTURE3D',
        width: 64,
        height: 64,
        depthOrArraySize: 64,
        mipLevels: 3,
        format: 'R32G32B32A32_FLOAT',
        layout: '64KB_UNDEFINED_SWIZZLE',
      },
      'COMMON',
    );
    queue.updateTileMappings(
      volume,
      [
        { x: 1, y: 0, z: 1, subresource: 0 },
        { x: 0, y: 0, z: 0, subresource: 1 },
      ],
      [{ numTiles: 8, useBox: true, width: 2, height: 2, depth: 2 }, { numTiles: 9 }],
      heap,
      ['NONE', 'NONE'],
      [12, 20],
      [8, 9],
    );
    checks.push(...(await context.tileMappings(device, '3D: a 2×2×2 box, mips 1 and 2')));
    checks.push(await roundTrip(device, volume, model, 12, '3D: a 2×2×2 box across z, and all of mips 1 and 2'));
  } finally {
    device.destroy();
  }
  return checks;
}
