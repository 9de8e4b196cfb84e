/**
 * d3d12-webgpu/d3dx12 (src/d3dx12/) as d3dx12.h behaves: updateSubresources lands each
 * subresource's rows (given at the caller's row pitch) in a reserved texture and in a buffer, read
 * back through getCopyableFootprints against the source bytes; getRequiredIntermediateSize is
 * GetCopyableFootprints' total; a refused upload throws before anything is written or recorded; the
 * 1.1 → 1.0 root signature conversion; descriptor-handle arithmetic and the description helpers.
 */
import { describe, expect } from 'vitest';
import { d3dTest } from '../../../harness/d3d-test.js';
import { firstDifference, pattern, readBuffer, runList, TILE } from '../../../shared/d3d12-helpers.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';
import { serializeVersionedRootSignature, type Device, type Resource } from '../../../../src/index.js';
import {
  bufferResourceDesc,
  calcSubresource,
  cpuDescriptorHandle,
  d3dx12SerializeVersionedRootSignature,
  descriptorRange,
  descriptorRange1,
  getRequiredIntermediateSize,
  gpuDescriptorHandle,
  heapProperties,
  rootConstantBufferView,
  rootConstants,
  rootDescriptorTable,
  rootShaderResourceView,
  rootUnorderedAccessView,
  staticSamplerDesc,
  tex2DResourceDesc,
  transitionBarrier,
  updateSubresources,
  versionedRootSignatureDesc_1_0,
  versionedRootSignatureDesc_1_1,
  type SubresourceData,
} from '../../../../src/d3dx12/index.js';

const test = d3dTest({ localMemoryBytes: 16 << 20, nonLocalMemoryBytes: 16 << 20 });
const SIZE = 128;
const MIPS = 4;

/** Mip `mip`'s rows at a padded row pitch (row size + 20 bytes), as a loader's image would be. */
function sourceOf(mip: number): SubresourceData & { rows: number; rowSize: number } {
  const width = SIZE >> mip;
  const rowSize = width * 4;
  const rowPitch = rowSize + 20;
  return { data: pattern(rowPitch * width, 77 + mip), rowPitch, slicePitch: rowPitch * width, rows: width, rowSize };
}

function reservedTexture(device: Device): Resource {
  const texture = device.createReservedResource(
    tex2DResourceDesc('R8G8B8A8_UNORM', SIZE, SIZE, 1, MIPS, 1, 0, [], '64KB_UNDEFINED_SWIZZLE'),
    'COPY_DEST',
  );
  const heap = device.createHeap({ sizeInBytes: 8 * TILE, properties: heapProperties('DEFAULT') });
  device.createCommandQueue({ type: 'DIRECT' }).updateTileMappings(texture, null, null, heap, null, null, null);
  return texture;
}

function uploadOf(device: Device, bytes: number): Resource {
  return device.createCommittedResource(heapProperties('UPLOAD'), [], bufferResourceDesc(bytes), 'GENERIC_READ');
}

describe('updateSubresources', () => {
  test('every mip of a reserved texture, from sources at their own row pitch; read back through the footprints', async ({
    d3d: device,
  }) => {
    const queue = device.createCommandQueue({ type: 'DIRECT' });
    const texture = reservedTexture(device);
    const sources = Array.from({ length: MIPS }, (_, mip) => sourceOf(mip));
    const needed = getRequiredIntermediateSize(texture, 0, MIPS);
    expect(needed).toBe(device.getCopyableFootprints(texture.getDesc(), 0, MIPS, 0).totalBytes);
    const upload = uploadOf(device, needed + 512);
    let used = 0;
    await runList(device, queue, (list) => {
      used = updateSubresources(list, texture, upload, 512, 0, MIPS, sources);
      list.resourceBarrier([transitionBarrier(texture, 'COPY_DEST', 'COPY_SOURCE')]);
    });
    expect(used).toBe(needed);

    const { layouts, totalBytes } = device.getCopyableFootprints(texture.getDesc(), 0, MIPS, 0);
    const out = device.createCommittedResource(heapProperties('DEFAULT'), [], bufferResourceDesc(totalBytes), 'COMMON');
    await runList(device, queue, (list) =>
      layouts.forEach((placedFootprint, mip) =>
        list.copyTextureRegion({ resource: out, type: 'PLACED_FOOTPRINT', placedFootprint }, 0, 0, 0, {
          resource: texture,
          type: 'SUBRESOURCE_INDEX',
          subresourceIndex: mip,
        }),
      ),
    );
    const back = await readBuffer(device, queue, out, 0, totalBytes);
    layouts.forEach(({ offset, footprint }, mip) => {
      const source = sources[mip] as ReturnType<typeof sourceOf>;
      const bytes = source.data as Uint8Array;
      for (let row = 0; row < source.rows; row++) {
        const got = back.subarray(
          offset + row * footprint.rowPitch,
          offset + row * footprint.rowPitch + source.rowSize,
        );
        const want = bytes.subarray(row * source.rowPitch, row * source.rowPitch + source.rowSize);
        expect(firstDifference(got, want), `mip ${mip} row ${row}`).toBe(-1);
      }
    });
  });

  test('a buffer: one subresource, its bytes at the intermediate offset', async ({ d3d: device }) => {
    const queue = device.createCommandQueue({ type: 'DIRECT' });
    const bytes = pattern(1000, 5);
    const buffer = device.createCommittedResource(heapProperties('DEFAULT'), [], bufferResourceDesc(1000), 'COPY_DEST');
    const upload = uploadOf(device, 1100);
    await runList(device, queue, (list) => {
      expect(
        updateSubresources(list, buffer, upload, 100, 0, 1, [{ data: bytes, rowPitch: 1000, slicePitch: 1000 }]),
      ).toBe(1000);
      list.resourceBarrier([transitionBarrier(buffer, 'COPY_DEST', 'COMMON')]);
    });
    expect(firstDifference(await readBuffer(device, queue, buffer, 0, 1000), bytes)).toBe(-1);
  });

  test('a refused upload writes nothing to the intermediate and records nothing; a valid control goes through', ({
    d3d: device,
  }) => {
    const texture = reservedTexture(device);
    const needed = getRequiredIntermediateSize(texture, 0, 1);
    const upload = uploadOf(device, needed);
    const before = upload.map().slice();
    upload.unmap(0, { begin: 0, end: 0 });
    const list = device.createCommandList('DIRECT');
    const good = [sourceOf(0)];
    const cases: [string, () => unknown, string, RegExp][] = [
      [
        'a released destination',
        () => updateSubresources(list, released(device), upload, 0, 0, 1, good),
        'destination',
        /released/,
      ],
      [
        'a texture as intermediate',
        () => updateSubresources(list, texture, texture, 0, 0, 1, good),
        'intermediate',
        /must be a buffer/,
      ],
      [
        'an intermediate too small',
        () => updateSubresources(list, texture, upload, 512, 0, 1, good),
        'intermediate',
        /needs/,
      ],
      [
        'an unaligned offset',
        () => updateSubresources(list, texture, upload, 4, 0, 1, good),
        'intermediateOffset',
        /multiple of/,
      ],
      [
        'firstSubresource past the end',
        () => updateSubresources(list, texture, upload, 0, MIPS, 1, good),
        'firstSubresource',
        /past/,
      ],
      [
        'too many subresources',
        () => updateSubresources(list, texture, upload, 0, 0, MIPS + 1, good),
        'numSubresources',
        /run past/,
      ],
      [
        'numSubresources NaN',
        () => updateSubresources(list, texture, upload, 0, 0, NaN, good),
        'numSubresources',
        /integer/,
      ],
      ['srcData too short', () => updateSubresources(list, texture, upload, 0, 0, 1, []), 'srcData', /at least/],
      [
        'a row pitch under the row',
        () => updateSubresources(list, texture, upload, 0, 0, 1, [{ ...sourceOf(0), rowPitch: 8 }]),
        'srcData[0].rowPitch',
        /integer in/,
      ],
      [
        'data too short',
        () => updateSubresources(list, texture, upload, 0, 0, 1, [{ ...sourceOf(0), data: new Uint8Array(16) }]),
        'srcData[0].data',
        /holds 16 bytes/,
      ],
      [
        'data not bytes',
        () => updateSubresources(list, texture, upload, 0, 0, 1, [{ ...sourceOf(0), data: 'texels' as never }]),
        'srcData[0].data',
        /ArrayBuffer/,
      ],
      [
        'a list that is not one',
        () => updateSubresources({} as never, texture, upload, 0, 0, 1, good),
        'list',
        /GraphicsCommandList/,
      ],
    ];
    for (const [, call, argument, message] of cases)
      expectD3D12Error(call, { call: 'updateSubresources', argument, message });
    list.close();
    // A closed list: the list's own copy refuses, before the intermediate is written.
    expectD3D12Error(() => updateSubresources(list, texture, upload, 0, 0, 1, good), { message: /is closed/ });
    expect(firstDifference(upload.map(), before)).toBe(-1);
    upload.unmap(0, { begin: 0, end: 0 });
    list.reset();
    expect(updateSubresources(list, texture, upload, 0, 0, 1, good)).toBe(needed);
    list.close();
  });

  test('a refused upload through an evicted intermediate leaves it evicted (mapping, which pages it in, comes after the copies)', ({
    d3d: device,
  }) => {
    const texture = reservedTexture(device);
    const upload = uploadOf(device, getRequiredIntermediateSize(texture, 0, 1));
    const list = device.createCommandList('DIRECT');
    list.close();
    device.evict([upload]);
    const paging = device.getPagingStats();
    expectD3D12Error(() => updateSubresources(list, texture, upload, 0, 0, 1, [sourceOf(0)]), { message: /is closed/ });
    expect(device.getPagingStats()).toEqual(paging);
    expect(upload.heap?.resident).toBe(false);
    list.reset();
    expect(updateSubresources(list, texture, upload, 0, 0, 1, [sourceOf(0)])).toBeGreaterThan(0);
    expect(device.getPagingStats().restores).toBeGreaterThan(paging.restores);
    list.close();
  });
});

function released(device: Device): Resource {
  const resource = device.createCommittedResource(
    heapProperties('DEFAULT'),
    [],
    tex2DResourceDesc('R8G8B8A8_UNORM', 4, 4, 1, 1),
    'COMMON',
  );
  resource.release();
  return resource;
}

describe('root signature helpers', () => {
  test("a 1.1 description serialized for a 1.0 device is the 1.0 description's blob (range and root descriptor flags dropped)", ({
    d3d: device,
  }) => {
    const sampler = staticSamplerDesc(0, {
      filter: 'MIN_MAG_MIP_LINEAR',
      addressU: 'BORDER',
      addressV: 'BORDER',
      addressW: 'BORDER',
      borderColor: 'TRANSPARENT_BLACK',
      maxAnisotropy: 0,
      comparisonFunc: 'NEVER',
      shaderVisibility: 'PIXEL',
    });
    const v11 = versionedRootSignatureDesc_1_1(
      [
        rootConstants(1, 0, 0, 'PIXEL'),
        rootDescriptorTable([descriptorRange1('SRV', 1, 0, 0, 'DATA_STATIC')], 'PIXEL'),
      ],
      [sampler],
      'ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT',
    );
    const v10 = versionedRootSignatureDesc_1_0(
      [rootConstants(1, 0, 0, 'PIXEL'), rootDescriptorTable([descriptorRange('SRV', 1, 0)], 'PIXEL')],
      [sampler],
      'ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT',
    );
    const as10 = d3dx12SerializeVersionedRootSignature(v11, '1_0');
    expect(firstDifference(as10, serializeVersionedRootSignature(v10))).toBe(-1);
    expect(
      firstDifference(d3dx12SerializeVersionedRootSignature(v11, '1_1'), serializeVersionedRootSignature(v11)),
    ).toBe(-1);
    device.createRootSignature(0, as10);
    expectD3D12Error(() => d3dx12SerializeVersionedRootSignature(v11, '2_0' as never), {
      call: 'd3dx12SerializeVersionedRootSignature',
      argument: 'maxVersion',
    });
    expect(sampler).toMatchObject({ maxLOD: 3.402823466e38, minLOD: 0, mipLODBias: 0, registerSpace: 0 });
    expect(staticSamplerDesc(2)).toMatchObject({
      filter: 'ANISOTROPIC',
      maxAnisotropy: 16,
      comparisonFunc: 'LESS_EQUAL',
      borderColor: 'OPAQUE_WHITE',
      addressU: 'WRAP',
    });
  });

  test('descriptor handles step by the increment size; a NaN offset throws', ({ d3d: device }) => {
    const heap = device.createDescriptorHeap({ type: 'CBV_SRV_UAV', numDescriptors: 8, flags: 'SHADER_VISIBLE' });
    const increment = device.getDescriptorHandleIncrementSize('CBV_SRV_UAV');
    const cpu = cpuDescriptorHandle(heap.getCPUDescriptorHandleForHeapStart(), 3, increment);
    const gpu = gpuDescriptorHandle(heap.getGPUDescriptorHandleForHeapStart(), 3, increment);
    expect(cpu.ptr - heap.getCPUDescriptorHandleForHeapStart().ptr).toBe(3 * increment);
    expect(gpu.ptr - heap.getGPUDescriptorHandleForHeapStart().ptr).toBe(BigInt(3 * increment));
    expect(cpuDescriptorHandle(heap.getCPUDescriptorHandleForHeapStart())).toEqual(
      heap.getCPUDescriptorHandleForHeapStart(),
    );
    expectD3D12Error(() => cpuDescriptorHandle(heap.getCPUDescriptorHandleForHeapStart(), NaN, increment), {
      call: 'cpuDescriptorHandle',
      argument: 'offsetInDescriptors',
    });
    expectD3D12Error(() => gpuDescriptorHandle({ ptr: 5 } as never, 1, increment), {
      call: 'gpuDescriptorHandle',
      argument: 'base',
    });
    expect(calcSubresource(2, 1, 0, 4, 3)).toBe(6);
    // Not UINTs: a negative mip plus a slice would make a valid index, null a 0.
    for (const args of [
      [-1, 1, 0, 2, 3],
      [0, 1, 0, null, 2],
      [0.5, 0, 0, 1, 1],
      [0, 0, Symbol('plane'), 1, 1],
      [0, 0, 0, 1n, 1],
    ])
      expectD3D12Error(() => calcSubresource(...(args as [number, number, number, number, number])), {
        call: 'calcSubresource',
      });
  });

  test('root descriptors with flags left out are version 1.0 parameters; static sampler options must be an object', () => {
    const views = [rootConstantBufferView(0, 0, undefined), rootShaderResourceView(0), rootUnorderedAccessView(0, 1)];
    for (const view of views) expect(view.descriptor).not.toHaveProperty('flags');
    serializeVersionedRootSignature(versionedRootSignatureDesc_1_0(views));
    serializeVersionedRootSignature(versionedRootSignatureDesc_1_1(views));
    expect(rootConstantBufferView(0, 0, 'DATA_STATIC').descriptor?.flags).toBe('DATA_STATIC');
    for (const options of [null, 5, 'options'])
      expectD3D12Error(() => staticSamplerDesc(0, options as never), {
        call: 'staticSamplerDesc',
        argument: 'options',
      });
  });
});
