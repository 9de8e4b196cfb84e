/**
 * copyTextureRegion, getCopyableFootprints and discardResource moving real data (Node.js + Dawn),
 * through the shared scenarios (src/validate/scenarios/texture-copies.ts; the browser project runs
 * the same ones): every mip and slice of committed, placed and reserved textures, boxes, texture to
 * texture, BC formats, d3d12_tex2d_load reads, NULL tiles at each tier and evicted-heap faults,
 * copies between block-compressed and uncompressed formats (src/validate/scenarios/reinterpret-copies.ts),
 * every byte against the CPU's element model.
 */
import { describe, expect } from 'vitest';
import { d3dTest } from '../../../harness/d3d-test.js';
import { gpuTest } from '../../../harness/gpu-test.js';
import { firstDifference, pattern, readBuffer, runList, TILE } from '../../../shared/d3d12-helpers.js';
import { reinterpretCopies, textureCopies, textureCopyTiers } from '../../../../src/validate/index.js';
import { expectChecks } from '../../../shared/expect-checks.js';

describe('texture data through copyTextureRegion matches the CPU model (Node.js + Dawn)', () => {
  gpuTest(
    'every subresource of committed, placed and reserved textures; boxes; texture to texture; BC; d3d12_tex2d_load; discardResource',
    async ({ device }) => {
      expectChecks(await textureCopies(device));
    },
  );
  for (const tier of [1, 2] as const) {
    gpuTest(
      `tier ${tier}: NULL tiles drop writes and read as the tier says; an evicted heap faults, named after the copy`,
      async ({ device }) => {
        expectChecks(await textureCopyTiers(device, { tiledResourcesTier: tier }));
      },
    );
  }
});

describe("copies between block-compressed and uncompressed formats of the block's size match the CPU model (Node.js + Dawn)", () => {
  for (const tier of [1, 2] as const) {
    gpuTest(
      `tier ${tier}: copyTextureRegion both ways, each side in its own texels; copyResource with mips; committed, placed and reserved (NULL tiles drop writes, read as the tier says)`,
      async ({ device }) => {
        expectChecks(await reinterpretCopies(device, { tiledResourcesTier: tier }));
      },
    );
  }
});

describe("docs/api.md's upload example, as written (Node.js + Dawn)", () => {
  const test = d3dTest({ localMemoryBytes: 8 << 20, nonLocalMemoryBytes: 8 << 20 });
  test('getCopyableFootprints + a mapped UPLOAD buffer + copyTextureRegion into a reserved texture; read back through the same footprints', async ({
    d3d: device,
  }) => {
    const heap = device.createHeap({ sizeInBytes: 21 * TILE, properties: { type: 'DEFAULT' } });
    const queue = device.createCommandQueue({ type: 'DIRECT' });
    const copyQueue = device.createCommandQueue({ type: 'COPY' });
    const texels = (mip: number, row: number): Uint8Array => pattern((512 >> mip) << 2, 1000 * mip + row);

    const texture = device.createReservedResource(
      {
        dimension: 'TEXTURE2D',
        width: 512,
        height: 512,
        mipLevels: 3,
        format: 'R8G8B8A8_UNORM',
        layout: '64KB_UNDEFINED_SWIZZLE',
      },
      'COMMON',
    );
    queue.updateTileMappings(texture, null, null, heap, null, null, null);
    const { layouts, numRows, rowSizeInBytes, totalBytes } = device.getCopyableFootprints(texture.getDesc(), 0, 3, 0);
    const upload = device.createCommittedResource(
      { type: 'UPLOAD' },
      [],
      { dimension: 'BUFFER', width: totalBytes },
      'GENERIC_READ',
    );
    const bytes = upload.map();
    layouts.forEach(({ offset, footprint }, mip) => {
      for (let row = 0; row < (numRows[mip] as number); row++)
        bytes.set(texels(mip, row), offset + row * footprint.rowPitch);
    });
    upload.unmap();
    const copies = device.createCommandList('COPY');
    layouts.forEach((placedFootprint, mip) =>
      copies.copyTextureRegion({ resource: texture, type: 'SUBRESOURCE_INDEX', subresourceIndex: mip }, 0, 0, 0, {
        resource: upload,
        type: 'PLACED_FOOTPRINT',
        placedFootprint,
      }),
    );
    copies.close();
    copyQueue.executeCommandLists([copies]);

    expect(rowSizeInBytes).toEqual([2048, 1024, 512]);
    const out = device.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: totalBytes },
      'COMMON',
    );
    await runList(
      device,
      copyQueue,
      (list) =>
        layouts.forEach((placedFootprint, mip) =>
          list.copyTextureRegion({ resource: out, type: 'PLACED_FOOTPRINT', placedFootprint }, 0, 0, 0, {
            resource: texture,
            type: 'SUBRESOURCE_INDEX',
            subresourceIndex: mip,
          }),
        ),
      'COPY',
    );
    const back = await readBuffer(device, copyQueue, out, 0, totalBytes);
    layouts.forEach(({ offset, footprint }, mip) => {
      for (let row = 0; row < (numRows[mip] as number); row++) {
        const at = firstDifference(
          back.subarray(
            offset + row * footprint.rowPitch,
            offset + row * footprint.rowPitch + (rowSizeInBytes[mip] as number),
          ),
          texels(mip, row),
        );
        expect(at, `mip ${mip} row ${row}: byte ${at}`).toBe(-1);
      }
    });

    // The example's second part: mip 2 read by a shader through a root signature's descriptor table.
    const fence = device.createFence(0);
    const pixels = device.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: 128 * 128 * 4, flags: ['ALLOW_UNORDERED_ACCESS'] },
      'UNORDERED_ACCESS',
    );
    copyQueue.signal(fence, 1);
    queue.wait(fence, 1);
    const views = device.createDescriptorHeap({ type: 'CBV_SRV_UAV', numDescriptors: 2, flags: 'SHADER_VISIBLE' });
    const increment = device.getDescriptorHandleIncrementSize('CBV_SRV_UAV');
    device.createShaderResourceView(texture, null, views.getCPUDescriptorHandleForHeapStart());
    device.createUnorderedAccessView(
      pixels,
      null,
      {
        format: 'R32_TYPELESS',
        viewDimension: 'BUFFER',
        buffer: { firstElement: 0, numElements: 128 * 128, flags: 'RAW' },
      },
      { ptr: views.getCPUDescriptorHandleForHeapStart().ptr + increment },
    );
    const rootSignature = device.createRootSignature(0, {
      version: '1_1',
      desc_1_1: {
        parameters: [
          {
            parameterType: 'DESCRIPTOR_TABLE',
            descriptorTable: {
              descriptorRanges: [
                { rangeType: 'SRV', numDescriptors: 1, baseShaderRegister: 0 },
                { rangeType: 'UAV', numDescriptors: 1, baseShaderRegister: 0 },
              ],
            },
          },
        ],
      },
    });
    const reader = await device.createComputePipelineState({
      rootSignature,
      entryPoint: 'main',
      code: `
  @compute @workgroup_size(8, 8) fn main(@builtin(global_invocation_id) id: vec3u) {
    let texel = d3d12_texture_load(d3d12_texture2d(d3d12_t(0u, 0u)), vec2i(id.xy), 2u);
    d3d12_buffer_store_word(d3d12_rw_buffer(d3d12_u(0u, 0u)), (id.y * 128u + id.x) * 4u, pack4x8unorm(texel));
  }`,
    });
    const list = device.createCommandList('DIRECT');
    list.resourceBarrier([
      {
        type: 'TRANSITION',
        transition: { resource: texture, stateBefore: 'COMMON', stateAfter: 'NON_PIXEL_SHADER_RESOURCE' },
      },
    ]);
    list.setComputeRootSignature(rootSignature);
    list.setPipelineState(reader);
    list.setDescriptorHeaps([views]);
    list.setComputeRootDescriptorTable(0, views.getGPUDescriptorHandleForHeapStart());
    list.dispatch(16, 16, 1);
    list.close();
    queue.executeCommandLists([list]);

    const read = await readBuffer(device, queue, pixels, 0, 128 * 128 * 4);
    for (let row = 0; row < 128; row++) {
      const at = firstDifference(read.subarray(row * 512, row * 512 + 512), texels(2, row));
      expect(at, `mip 2 through the table, row ${row}: byte ${at}`).toBe(-1);
    }
    expect(await device.readFaults()).toEqual([]);
  });
});
