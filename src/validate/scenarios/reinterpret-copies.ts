/**
 * Copies between block-compressed and uncompressed textures of the block's size (D3D12's
 * reinterpreting copies: BC1, BC4 ~ R16G16B16A16, R32G32; BC2, BC3, BC5, BC6H, BC7 ~ R32G32B32A32),
 * moving real data: copyTextureRegion both ways with each side's coordinates in its own texels (one
 * uncompressed texel per 4×4 block), boxes at a small BC mip's edge, between committed, placed and
 * reserved textures whose NULL tiles drop writes and read as the tier says, and copyResource both
 * ways, with mips and over NULL tiles. Every texture is read back through its footprints and
 * compared, element by element, with the CPU model (texture-model.ts), which moves a block's bytes
 * to the texel the copy names without knowing any byte address.
 *
 * Invariant: copies run on a COPY queue (resources decay to COMMON after each execution, so no list
 * needs a barrier for them).
 */
import { createDevice } from '../../d3d12/create-device.js';
import type { CommandQueue } from '../../d3d12/command-queue.js';
import type { Device } from '../../d3d12/device.js';
import type { Resource } from '../../d3d12/resource.js';
import type { ResourceDesc, TiledResourcesTier } from '../../api/types.js';
import { roundUp, TILE, type Check } from '../bytes.js';
import { runList } from '../d3d12-io.js';
import { TextureModel } from '../texture-model.js';
import { copyBetween, mapTiles, readAll, uploadAll, type Texture } from './texture-copy-moves.js';

const box = (left: number, top: number, right: number, bottom: number) => ({
  left,
  top,
  front: 0,
  right,
  bottom,
  back: 1,
});

/** copyResource(dst, src) and its model: every subresource's elements, as they read from the source. */
async function copyWhole(device: Device, queue: CommandQueue, dst: Texture, src: Texture): Promise<void> {
  await runList(device, queue, (list) => list.copyResource(dst.resource, src.resource), queue.type);
  for (let sub = 0; sub < dst.model.subresources; sub++) {
    const s = dst.model.shape(sub);
    dst.model.writeRegion(sub, [0, 0, 0], [s.width, s.height, s.depth], src.model.readAll(sub));
  }
}

export async function reinterpretCopies(
  gpuDevice: GPUDevice,
  options: { tiledResourcesTier: TiledResourcesTier },
): Promise<Check[]> {
  const tier = options.tiledResourcesTier;
  const device = await createDevice({
    gpuDevice,
    tiledResourcesTier: tier,
    localMemoryBytes: 24 << 20,
    nonLocalMemoryBytes: 16 << 20,
  });
  const checks: Check[] = [];
  try {
    const queue = device.createCommandQueue({ type: 'COPY' });
    const direct = device.createCommandQueue({ type: 'DIRECT' });
    const heap = device.createHeap({ sizeInBytes: 16 * TILE, properties: { type: 'DEFAULT' } });
    let heapOffset = 0;
    const make = (name: string, desc: ResourceDesc, kind: 'committed' | 'placed' | 'reserved'): Texture => {
      let resource: Resource;
      if (kind === 'committed') resource = device.createCommittedResource({ type: 'DEFAULT' }, [], desc, 'COMMON');
      else if (kind === 'placed') {
        resource = device.createPlacedResource(heap, heapOffset, desc, 'COMMON');
        heapOffset += roundUp(device.getResourceAllocationInfo(desc).sizeInBytes, TILE);
      } else resource = device.createReservedResource({ ...desc, layout: '64KB_UNDEFINED_SWIZZLE' }, 'COMMON');
      resource.setName(name);
      return {
        name: `tier ${tier} ${name}`,
        resource,
        model: new TextureModel(device, resource, tier, kind === 'reserved'),
      };
    };
    const tex2D = (width: number, height: number, format: string, mipLevels = 1): ResourceDesc => ({
      dimension: 'TEXTURE2D',
      width,
      height,
      mipLevels,
      format,
    });

    // BC1 128×64, 3 mips (32×16, 16×8, 8×4 blocks) and a BC1 8×8 to its 1×1 mip (2×2 blocks, then
    // one block each); R16G16B16A16_UINT 64×32 (one texel per BC1 block).
    const bc1 = make('committed BC1 128×64', tex2D(128, 64, 'BC1_UNORM', 3), 'committed');
    const smallBc1 = make('committed BC1 8×8', tex2D(8, 8, 'BC1_UNORM_SRGB', 4), 'committed');
    const rgba16 = make('placed R16G16B16A16_UINT 64×32', tex2D(64, 32, 'R16G16B16A16_UINT'), 'placed');
    // BC7 64×64, 2 mips (16×16, 8×8 blocks of 16 bytes) ↔ R32G32B32A32_FLOAT 40×24, 2 mips.
    const bc7 = make('placed BC7 64×64', tex2D(64, 64, 'BC7_UNORM', 2), 'placed');
    const rgba32 = make('committed R32G32B32A32_FLOAT 40×24', tex2D(40, 24, 'R32G32B32A32_FLOAT', 2), 'committed');
    // Reserved BC4 1024×512 (2×2 tiles of 512×256 texels, 128×64 blocks; tile 2 NULL) ↔ reserved
    // R32G32_UINT 256×128 (2×2 tiles of 128×64 texels; tile 1 NULL): the tile grids match, block for texel.
    const bc4 = make('reserved BC4 1024×512', tex2D(1024, 512, 'BC4_UNORM'), 'reserved');
    const rg32 = make('reserved R32G32_UINT 256×128', tex2D(256, 128, 'R32G32_UINT'), 'reserved');
    const tiles = device.createHeap({ sizeInBytes: 8 * TILE, properties: { type: 'DEFAULT' } });
    const next = mapTiles(device, direct, bc4.resource, tiles, [0, 1, 3], 0);
    mapTiles(device, direct, rg32.resource, tiles, [0, 2, 3], next);
    // copyResource: BC3 64×32, 3 mips (16×8, 8×4, 4×2 blocks) ↔ R32G32B32A32_UINT 16×8, 3 mips.
    const bc3 = make('committed BC3 64×32', tex2D(64, 32, 'BC3_UNORM', 3), 'committed');
    const rgba32u = make('placed R32G32B32A32_UINT 16×8', tex2D(16, 8, 'R32G32B32A32_UINT', 3), 'placed');
    const bc3Copy = make('committed BC3 64×32 (copyResource target)', tex2D(64, 32, 'BC3_UNORM_SRGB', 3), 'committed');
    const all = [bc1, smallBc1, rgba16, bc7, rgba32, bc4, rg32, bc3, rgba32u, bc3Copy];
    let seed = 300 + 10 * tier;
    for (const t of all) await uploadAll(device, queue, t, seed++);

    // BC → uncompressed: 32×16 BC texels (8×4 blocks) at texel (10, 3); the 2×2 mip of the small BC1
    // (one block, a box ending at the mip's edge) onto the last texel.
    await copyBetween(device, queue, rgba16, 0, [10, 3, 0], bc1, 0, box(8, 4, 40, 20));
    await copyBetween(device, queue, rgba16, 0, [63, 31, 0], smallBc1, 2, box(0, 0, 2, 2));
    // Uncompressed → BC: 5×6 texels into mip 1's blocks (3, 2)-(8, 8), up to its edge; one texel onto
    // the 1×1 mip's block.
    await copyBetween(device, queue, bc1, 1, [12, 8, 0], rgba16, 0, box(0, 0, 5, 6));
    await copyBetween(device, queue, smallBc1, 3, [0, 0, 0], rgba16, 0, box(1, 1, 2, 2));
    // BC7 ↔ R32G32B32A32_FLOAT: mip 1 whole (8×8 blocks) at texel (2, 1); 10×8 texels to blocks (6, 8).
    await copyBetween(device, queue, rgba32, 0, [2, 1, 0], bc7, 1, box(0, 0, 32, 32));
    await copyBetween(device, queue, bc7, 0, [24, 32, 0], rgba32, 0, box(30, 16, 40, 24));
    // Reserved ↔ reserved across tile edges (block 128 / texel 128 in x, 64 in y), reading BC4's NULL
    // tile 2 and writing R32G32's NULL tile 1; and back the other way.
    await copyBetween(device, queue, rg32, 0, [100, 40, 0], bc4, 0, box(448, 192, 640, 320));
    await copyBetween(device, queue, bc4, 0, [480, 224, 0], rg32, 0, box(96, 32, 160, 96));
    for (const t of [rgba16, bc1, smallBc1, rgba32, bc7, rg32, bc4])
      checks.push(
        ...(await readAll(device, queue, t, 'after copyTextureRegion between block-compressed and uncompressed')),
      );

    // copyResource both ways with mips, and between the two reserved textures (NULL tiles both sides).
    await copyWhole(device, queue, rgba32u, bc3);
    await copyWhole(device, queue, bc3Copy, rgba32u);
    await copyWhole(device, queue, rg32, bc4);
    for (const t of [rgba32u, bc3Copy, rg32])
      checks.push(...(await readAll(device, queue, t, 'after copyResource between block-compressed and uncompressed')));
  } finally {
    device.destroy();
  }
  return checks;
}
