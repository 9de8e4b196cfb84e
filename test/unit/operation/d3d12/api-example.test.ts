// docs/api.md's first example (a reserved texture and a tile mapping; it was the README's first), run as written, with the results it describes checked.
import { expect, test } from 'vitest';
import { createDevice } from '../../../../src/index.js';
import { getTileMappingForTesting } from '../../../../src/testing/index.js';

test('docs/api.md example: a 16K reserved texture, a 2×2-tile box mapped to heap tiles 0..3', async () => {
  const device = await createDevice({ tiledResourcesTier: 3 });
  const heap = device.createHeap({ sizeInBytes: 16 << 20, properties: { type: 'DEFAULT' } });
  const texture = device.createReservedResource(
    {
      dimension: 'TEXTURE2D',
      width: 16384,
      height: 16384,
      mipLevels: 0,
      format: 'R8G8B8A8_UNORM',
      layout: '64KB_UNDEFINED_SWIZZLE',
    },
    'COMMON',
  );
  const tiling = device.getResourceTiling(texture);
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  queue.updateTileMappings(
    texture,
    [{ x: 0, y: 0, z: 0, subresource: 0 }],
    [{ numTiles: 4, useBox: true, width: 2, height: 2, depth: 1 }],
    heap,
    ['NONE'],
    [0],
    [4],
  );

  // mip 0 is 128×128 tiles of 128×128 texels; the box covers tiles (0,0), (1,0), (0,1), (1,1).
  expect(tiling.subresourceTilings[0]).toEqual({
    widthInTiles: 128,
    heightInTiles: 128,
    depthInTiles: 1,
    startTileIndexInOverallResource: 0,
  });
  expect(tiling.packedMipDesc.numStandardMips).toBe(8); // 16384 … 128 texels; 64 and below pack
  expect([0, 1, 128, 129].map((tile) => getTileMappingForTesting(texture, tile)?.heapTileOffset)).toEqual([0, 1, 2, 3]);
  expect(getTileMappingForTesting(texture, 2)).toBeNull();
  expect(texture.getGPUVirtualAddress()).toBeGreaterThan(0n);
});
