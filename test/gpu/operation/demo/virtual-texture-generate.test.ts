/**
 * The virtual texture scene's generation kernel, outside the browser: tiles of a 16K reserved
 * texture mapped onto a small heap, generated on the GPU, read back with copyTiles and compared
 * texel by texel with the CPU's procedural colours (demo/virtual-texture/procedural.ts).
 */
import { expect } from 'vitest';
import common from '../../../../demo/virtual-texture/vt-common.wgsl?raw';
import generateCode from '../../../../demo/virtual-texture/vt-generate.wgsl?raw';
import { proceduralTexel, VT_MIPS, VT_SIZE } from '../../../../demo/virtual-texture/procedural.js';
import { createDevice } from '../../../../src/index.js';
import { gpuTest } from '../../../harness/gpu-test.js';
import { readBuffer, runList, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';

gpuTest(
  'generated tiles of mips 0 and 3 hold the procedural texels the CPU computes',
  async ({ device: gpuDevice }) => {
    const device = await createDevice({ gpuDevice, localMemoryBytes: 16 << 20, nonLocalMemoryBytes: 16 << 20 });
    try {
      const queue = device.createCommandQueue({ type: 'DIRECT' });
      const texture = device.createReservedResource(
        {
          dimension: 'TEXTURE2D',
          width: VT_SIZE,
          height: VT_SIZE,
          mipLevels: VT_MIPS,
          format: 'R8G8B8A8_UNORM',
          layout: '64KB_UNDEFINED_SWIZZLE',
        },
        'COMMON',
      );
      const heap = device.createHeap({ sizeInBytes: 8 * TILE, properties: { type: 'DEFAULT' } });
      const tiles = [
        { mip: 0, x: 39, y: 54 },
        { mip: 0, x: 64, y: 64 },
        { mip: 3, x: 5, y: 9 },
      ];
      queue.updateTileMappings(
        texture,
        tiles.map((t) => ({ x: t.x, y: t.y, z: 0, subresource: t.mip })),
        tiles.map(() => ({ numTiles: 1 })),
        heap,
        ['NONE', 'NONE', 'NONE'],
        [0, 1, 2],
        [1, 1, 1],
      );
      const descriptor = device.createCommittedResource(
        { type: 'DEFAULT' },
        [],
        { dimension: 'BUFFER', width: 4096 },
        'COMMON',
      );
      const words = device.writeTextureDescriptor(texture);
      const upload = uploadBuffer(device, new Uint8Array(words.buffer));
      const pso = await device.createComputePipelineState({ code: common + generateCode, entryPoint: 'generate' });
      await runList(device, queue, (list) => {
        list.copyBufferRegion(descriptor, 0, upload, 0, words.byteLength);
        list.setPipelineState(pso);
        list.setComputeRootShaderResourceView(1, descriptor.getGPUVirtualAddress());
        list.setComputeRoot32BitConstants(0, [tiles.length, ...tiles.map((t) => t.mip | (t.x << 4) | (t.y << 11))], 2);
        list.dispatch(256, tiles.length, 1);
      });
      const linear = device.createCommittedResource(
        { type: 'DEFAULT' },
        [],
        { dimension: 'BUFFER', width: tiles.length * TILE },
        'COMMON',
      );
      await runList(device, queue, (list) => {
        tiles.forEach((t, i) =>
          list.copyTiles(
            texture,
            { x: t.x, y: t.y, z: 0, subresource: t.mip },
            { numTiles: 1 },
            linear,
            i * TILE,
            'SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER',
          ),
        );
      });
      const bytes = await readBuffer(device, queue, linear, 0, tiles.length * TILE);
      tiles.forEach((t, i) => {
        const wrong: string[] = [];
        for (let ly = 0; ly < 128; ly++) {
          for (let lx = 0; lx < 128; lx++) {
            const want = proceduralTexel(t.mip, t.x * 128 + lx, t.y * 128 + ly);
            const at = i * TILE + (ly * 128 + lx) * 4;
            if (want.some((v, c) => bytes[at + c] !== v))
              wrong.push(`(${lx}, ${ly}): ${Array.from(bytes.subarray(at, at + 4)).join(',')} vs ${want.join(',')}`);
          }
        }
        expect(wrong.slice(0, 4), `mip ${t.mip} tile (${t.x}, ${t.y}): ${wrong.length} texels differ`).toEqual([]);
      });
    } finally {
      device.destroy();
    }
  },
);
