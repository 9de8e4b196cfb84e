/**
 * The README's three examples (binding through a root signature and a descriptor table; tile
 * mappings checked on the GPU; paging measured), run as written on the test file's WebGPU device,
 * with the results their comments state checked. docs/api.md's reserved-texture example runs
 * CPU-only in test/unit/operation/d3d12/api-example.test.ts.
 */
import { expect } from 'vitest';
import { createDevice, serializeVersionedRootSignature } from '../../../../src/index.js';
import {
  cpuDescriptorHandle,
  descriptorRange1,
  getRequiredIntermediateSize,
  rootDescriptorTable,
  staticSamplerDesc,
  tex2DResourceDesc,
  transitionBarrier,
  updateSubresources,
  versionedRootSignatureDesc_1_1,
} from '../../../../src/d3dx12/index.js';
import { firstDifference, readBuffer } from '../../../shared/d3d12-helpers.js';
import { gpuTest as test } from '../../../harness/gpu-test.js';

test('README example 2 (use 2): a fully mapped 16-tile reserved buffer validates with no mismatch', async ({
  device: gpuDevice,
}) => {
  const device = await createDevice({ gpuDevice });
  const heap = device.createHeap({ sizeInBytes: 1 << 20, properties: { type: 'DEFAULT' } });
  const buffer = device.createReservedResource({ dimension: 'BUFFER', width: 1 << 20 }, 'COMMON');
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  queue.updateTileMappings(buffer, null, null, heap, null, null, null);
  const check = await device.validateTileMappings([buffer]);
  expect(check).toEqual({ resources: 1, pages: 16, mismatchCount: 0, mismatches: [] });
  device.destroy();
});

test('README example 3 (use 3): an evict / makeResident round trip moves 16 MiB each way and completes at the fence', async ({
  device: gpuDevice,
}) => {
  const device = await createDevice({ gpuDevice });
  const heap = device.createHeap({ sizeInBytes: 16 << 20, properties: { type: 'DEFAULT' } });
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  const fence = device.createFence(0);
  const start = performance.now();
  device.evict([heap]);
  device.makeResident([heap]);
  queue.signal(fence, 1);
  await fence.setEventOnCompletion(1);
  const { evictedBytes, restoredBytes } = device.getPagingStats();
  const rate = `${((evictedBytes + restoredBytes) / (performance.now() - start) / 1e6).toFixed(2)} GB/s`;
  expect({ evictedBytes, restoredBytes }).toEqual({ evictedBytes: 16 << 20, restoredBytes: 16 << 20 });
  expect(rate).toMatch(/^\d+\.\d\d GB\/s$/);
  expect(fence.getCompletedValue()).toBe(1);
  device.destroy();
});

test('README example 1 (use 1): a texture uploaded with updateSubresources, read through a descriptor table of a root signature', async ({
  device: gpuDevice,
}) => {
  const texels = new Uint8Array(64 * 64 * 4).map((_, i) => (i * 7) & 0xff);
  const device = await createDevice({ gpuDevice });
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  const texture = device.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    tex2DResourceDesc('R8G8B8A8_UNORM', 64, 64, 1, 1),
    'COPY_DEST',
  );
  const upload = device.createCommittedResource(
    { type: 'UPLOAD' },
    [],
    { dimension: 'BUFFER', width: getRequiredIntermediateSize(texture, 0, 1) },
    'GENERIC_READ',
  );
  const output = device.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'BUFFER', width: 64 * 64 * 4, flags: ['ALLOW_UNORDERED_ACCESS'] },
    'UNORDERED_ACCESS',
  );

  const heap = device.createDescriptorHeap({ type: 'CBV_SRV_UAV', numDescriptors: 2, flags: 'SHADER_VISIBLE' });
  const start = heap.getCPUDescriptorHandleForHeapStart();
  device.createShaderResourceView(texture, null, start);
  device.createUnorderedAccessView(
    output,
    null,
    {
      format: 'R32_TYPELESS',
      viewDimension: 'BUFFER',
      buffer: { firstElement: 0, numElements: 64 * 64, flags: 'RAW' },
    },
    cpuDescriptorHandle(start, 1, device.getDescriptorHandleIncrementSize('CBV_SRV_UAV')),
  );
  const rootSignature = device.createRootSignature(
    0,
    serializeVersionedRootSignature(
      versionedRootSignatureDesc_1_1(
        [rootDescriptorTable([descriptorRange1('SRV', 1, 0), descriptorRange1('UAV', 1, 0)])],
        [staticSamplerDesc(0, { filter: 'MIN_MAG_MIP_POINT' })],
      ),
    ),
  );
  const pipeline = await device.createComputePipelineState({
    rootSignature,
    entryPoint: 'main',
    code: `
  @compute @workgroup_size(8, 8) fn main(@builtin(global_invocation_id) id: vec3u) {
    let texel = d3d12_texture_load(d3d12_texture2d(d3d12_t(0u, 0u)), vec2i(id.xy), 0u);
    d3d12_buffer_store_word(d3d12_rw_buffer(d3d12_u(0u, 0u)), (id.y * 64u + id.x) * 4u, pack4x8unorm(texel));
  }`,
  });

  const list = device.createCommandList('DIRECT');
  updateSubresources(list, texture, upload, 0, 0, 1, [{ data: texels, rowPitch: 64 * 4, slicePitch: 64 * 64 * 4 }]);
  list.resourceBarrier([transitionBarrier(texture, 'COPY_DEST', 'NON_PIXEL_SHADER_RESOURCE')]);
  list.setComputeRootSignature(rootSignature);
  list.setPipelineState(pipeline);
  list.setDescriptorHeaps([heap]);
  list.setComputeRootDescriptorTable(0, heap.getGPUDescriptorHandleForHeapStart());
  list.dispatch(8, 8, 1);
  list.close();
  queue.executeCommandLists([list]);

  const back = await readBuffer(device, queue, output, 0, 64 * 64 * 4);
  expect(firstDifference(back, texels)).toBe(-1);
  expect(await device.readFaults()).toEqual([]);
  device.destroy();
});
