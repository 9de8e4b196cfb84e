/**
 * Read-backs of a reserved texture that do not go through footprints: every texel through the
 * prelude's d3d12_tex2d_load (its own texel addressing, in WGSL), and the mapped standard tiles
 * through copyTiles (the tile layout CopyTiles documents). Both compare with the CPU's model.
 */
import type { Device } from '../../d3d12/device.js';
import type { CommandQueue } from '../../d3d12/command-queue.js';
import TEXTURE_LOAD from '../../../shaders/validate_texture_load.wgsl?raw';
import { check, TILE, type Check } from '../bytes.js';
import { readBuffer, runList, uploadBuffer } from '../d3d12-io.js';
import type { Triple } from '../texture-model.js';
import { coordinateOfTile, defaultBuffer, type Texture } from './texture-copy-moves.js';
import { getTileMappingForTesting } from '../../testing/index.js';

/** Every texel of every mip of slice 0 through d3d12_tex2d_load (RGBA8), value and CheckAccessFullyMapped against the model. */
export async function textureLoads(device: Device, queue: CommandQueue, t: Texture): Promise<Check[]> {
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
export async function standardTiles(device: Device, queue: CommandQueue, t: Texture): Promise<Check[]> {
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
