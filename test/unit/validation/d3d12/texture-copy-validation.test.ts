/**
 * copyTextureRegion and discardResource as they are recorded, CTS style, on a CPU-only device: every
 * rule D3D12's debug layer reports (src/validation/texture-copies.ts names the sources) fails with
 * one field of a valid call changed, both sides of each boundary are tried, and a failed call
 * records nothing and changes no state (the list's next valid command still records, its states as
 * before). The data each copy moves is checked on the GPU (test/gpu/operation/d3d12/texture-copies.test.ts).
 */
import { beforeEach, describe, expect, test } from 'vitest';
import {
  createDevice,
  type Box,
  type Device,
  type GraphicsCommandList,
  type PlacedSubresourceFootprint,
  type Resource,
  type ResourceDesc,
  type TextureCopyLocation,
} from '../../../../src/index.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';
import { TILE } from '../../../shared/d3d12-helpers.js';

const loose = (value: unknown): never => value as never;

let d3d: Device;
let other: Device;
beforeEach(async () => {
  d3d = await createDevice({ gpuDevice: null, tiledResourcesTier: 3 });
  other = await createDevice({ gpuDevice: null });
});

const texture = (desc: Partial<ResourceDesc> = {}, device = d3d): Resource =>
  device.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'TEXTURE2D', width: 64, height: 64, mipLevels: 2, format: 'R8G8B8A8_UNORM', ...desc },
    'COMMON',
  );
const upload = (width = TILE): Resource =>
  d3d.createCommittedResource({ type: 'UPLOAD' }, [], { dimension: 'BUFFER', width }, 'GENERIC_READ');
const readback = (width = TILE): Resource =>
  d3d.createCommittedResource({ type: 'READBACK' }, [], { dimension: 'BUFFER', width }, 'COPY_DEST');
const sub = (resource: Resource, subresourceIndex = 0): TextureCopyLocation => ({
  resource,
  type: 'SUBRESOURCE_INDEX',
  subresourceIndex,
});
const placed = (resource: Resource, placedFootprint: PlacedSubresourceFootprint): TextureCopyLocation => ({
  resource,
  type: 'PLACED_FOOTPRINT',
  placedFootprint,
});
const footprintOf = (resource: Resource, subresource = 0, base = 0): PlacedSubresourceFootprint =>
  d3d.getCopyableFootprints(resource.getDesc(), subresource, 1, base).layouts[0] as PlacedSubresourceFootprint;
const box = (left: number, top: number, right: number, bottom: number, front = 0, back = 1): Box => ({
  left,
  top,
  front,
  right,
  bottom,
  back,
});
const withFootprint = (
  fp: PlacedSubresourceFootprint,
  change: Record<string, unknown>,
): PlacedSubresourceFootprint => ({ ...fp, footprint: { ...fp.footprint, ...change } });

/** Expects the call to fail naming `argument`, record nothing, and leave the list able to record a valid copy. */
function refused(
  list: GraphicsCommandList,
  call: () => void,
  argument: string,
  message: RegExp,
  method = 'copyTextureRegion',
): void {
  const before = list.commands.length;
  expectD3D12Error(call, { call: method, argument, message });
  expect(list.commands.length, 'a refused call records nothing').toBe(before);
}

describe('copyTextureRegion: valid copies record one copy command each', () => {
  test('footprint → texture, texture → footprint, texture → texture, with and without boxes, into every mip', () => {
    const [tex, tex2, up, back] = [texture(), texture(), upload(), readback()];
    const list = d3d.createCommandList('DIRECT');
    list.copyTextureRegion(sub(tex, 0), 0, 0, 0, placed(up, footprintOf(tex, 0)));
    list.copyTextureRegion(sub(tex, 1), 0, 0, 0, placed(up, footprintOf(tex, 1, 16384)));
    list.copyTextureRegion(sub(tex2, 0), 32, 16, 0, placed(up, footprintOf(tex, 0)), box(0, 0, 32, 48));
    list.resourceBarrier([
      { type: 'TRANSITION', transition: { resource: tex, stateBefore: 'COPY_DEST', stateAfter: 'COPY_SOURCE' } },
    ]);
    list.copyTextureRegion(placed(back, footprintOf(tex, 0)), 0, 0, 0, sub(tex, 0), box(63, 63, 64, 64));
    list.copyTextureRegion(sub(tex2, 1), 31, 31, 0, sub(tex, 0), box(1, 1, 2, 2));
    const copies = list.commands.filter((c) => c.kind === 'copy' && c.name === 'copyTextureRegion');
    expect(copies).toHaveLength(5);
    // A 64×64 RGBA8 mip 0 is packed at tier 3 (smaller than the 128×128 tile): its 256-byte rows
    // are contiguous, and so are the footprint's (row pitch 256), so the copy is one job.
    expect(copies[0]?.kind === 'copy' && copies[0].jobs).toEqual([
      { dst: tex.getGPUVirtualAddress(), src: up.getGPUVirtualAddress(), bytes: 16384 },
    ]);
  });

  test("between two subresources of one texture, and a BC box ending at a 2×2 mip's edge", () => {
    const tex = texture();
    const list = d3d.createCommandList('COPY');
    list.copyTextureRegion(sub(tex, 0), 0, 0, 0, sub(tex, 1));
    const bc = texture({ format: 'BC1_UNORM', mipLevels: 0 });
    const bc2 = texture({ format: 'BC1_UNORM', mipLevels: 0 });
    list.copyTextureRegion(sub(bc2, 5), 0, 0, 0, sub(bc, 5), box(0, 0, 2, 2));
    list.copyTextureRegion(sub(bc2, 0), 60, 60, 0, sub(bc, 5));
    expect(list.commands).toHaveLength(3);
  });
});

describe('copyTextureRegion: each rule, one field at a time', () => {
  let list: GraphicsCommandList;
  let tex: Resource;
  let up: Resource;
  let fp: PlacedSubresourceFootprint;
  beforeEach(() => {
    list = d3d.createCommandList('DIRECT');
    tex = texture();
    up = upload();
    fp = footprintOf(tex);
  });
  const copy =
    (dst: unknown, src: unknown, dstX: unknown = 0, dstY: unknown = 0, dstZ: unknown = 0, srcBox?: unknown) =>
    () =>
      list.copyTextureRegion(loose(dst), loose(dstX), loose(dstY), loose(dstZ), loose(src), loose(srcBox));

  test('control', () => {
    copy(sub(tex), placed(up, fp))();
    expect(list.commands).toHaveLength(1);
  });

  test("locations: not a struct, another device's or a released resource, an unknown type, the wrong kind of resource", () => {
    refused(list, copy(null, placed(up, fp)), 'dst', /D3D12_TEXTURE_COPY_LOCATION/);
    refused(list, copy(sub(tex), 'src'), 'src', /D3D12_TEXTURE_COPY_LOCATION/);
    refused(list, copy(sub(texture({}, other)), placed(up, fp)), 'dst.resource', /created by this device/);
    const gone = texture();
    gone.release();
    refused(list, copy(sub(gone), placed(up, fp)), 'dst.resource', /was released/);
    refused(
      list,
      copy({ ...sub(tex), type: 'SUBRESOURCE' }, placed(up, fp)),
      'dst.type',
      /must be one of SUBRESOURCE_INDEX, PLACED_FOOTPRINT/,
    );
    refused(
      list,
      copy(sub(up), placed(up, fp)),
      'dst.resource',
      /is a buffer; a SUBRESOURCE_INDEX location names a texture/,
    );
    refused(
      list,
      copy(sub(tex), placed(texture(), fp)),
      'src.resource',
      /is a TEXTURE2D; a PLACED_FOOTPRINT location lays texels out in a buffer/,
    );
  });

  test('subresourceIndex: 0 and 1 of 2 mips; 2, -1, 1.5 and NaN are refused', () => {
    copy(sub(tex, 1), placed(up, footprintOf(tex, 1)))();
    for (const bad of [2, -1, 1.5, NaN])
      refused(list, copy(sub(tex, bad), placed(up, fp)), 'dst.subresourceIndex', /must be/);
  });

  test('footprint: offset a multiple of 512, within the buffer', () => {
    copy(sub(tex), placed(up, { ...fp, offset: 512 }))();
    for (const offset of [256, 1, 513])
      refused(
        list,
        copy(sub(tex), placed(up, { ...fp, offset })),
        'src.placedFootprint.offset',
        /multiple of D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT \(512\)/,
      );
    refused(list, copy(sub(tex), placed(up, { ...fp, offset: -512 })), 'src.placedFootprint.offset', /at least 0/);
    // 64 rows of 256 bytes: 16128 + 256 bytes; the last offset that fits is 65536 - 16384.
    copy(sub(tex), placed(up, { ...fp, offset: TILE - 16384 }))();
    refused(
      list,
      copy(sub(tex), placed(up, { ...fp, offset: TILE - 15872 })),
      'src.placedFootprint',
      /spans 16384 bytes from offset 49664, past the end of .* \(65536 bytes\)/,
    );
    refused(list, copy(sub(tex), placed(upload(16383), fp)), 'src.placedFootprint', /past the end/);
  });

  test('footprint fields: struct, format, width/height/depth, rowPitch multiple of 256 and at least a row', () => {
    refused(list, copy(sub(tex), placed(up, loose(null))), 'src.placedFootprint', /D3D12_PLACED_SUBRESOURCE_FOOTPRINT/);
    refused(
      list,
      copy(sub(tex), placed(up, { offset: 0, footprint: loose(7) })),
      'src.placedFootprint.footprint',
      /D3D12_SUBRESOURCE_FOOTPRINT/,
    );
    for (const format of ['R8_FUZZ', 'UNKNOWN', 5])
      refused(
        list,
        copy(sub(tex), placed(up, withFootprint(fp, { format }))),
        'src.placedFootprint.footprint.format',
        /must be the DXGI format/,
      );
    refused(
      list,
      copy(sub(tex), placed(up, withFootprint(fp, { format: 'R32_FLOAT' }))),
      'src.placedFootprint.footprint.format',
      /R32_FLOAT is not of R8G8B8A8_UNORM's format group/,
    );
    // One TYPELESS group: an sRGB footprint into a UNORM texture copies the bytes.
    copy(sub(tex), placed(up, withFootprint(fp, { format: 'R8G8B8A8_UNORM_SRGB' })))();
    for (const field of ['width', 'height', 'depth', 'rowPitch']) {
      for (const bad of [0, -1, 2.5, NaN, '64'])
        refused(
          list,
          copy(sub(tex), placed(up, withFootprint(fp, { [field]: bad }))),
          `src.placedFootprint.footprint.${field}`,
          /must be/,
        );
    }
    refused(
      list,
      copy(sub(tex), placed(up, withFootprint(fp, { rowPitch: 257 }))),
      'src.placedFootprint.footprint.rowPitch',
      /multiple of D3D12_TEXTURE_DATA_PITCH_ALIGNMENT \(256\)/,
    );
    refused(
      list,
      copy(sub(tex), placed(up, withFootprint(fp, { width: 128, rowPitch: 256 }))),
      'src.placedFootprint.footprint.rowPitch',
      /at least a row's 512 bytes/,
    );
    copy(sub(tex), placed(up, withFootprint(fp, { width: 64, rowPitch: 512 })))();
    expect(list.commands).toHaveLength(2);
  });

  test("buffer to buffer is copyBufferRegion's", () => {
    refused(
      list,
      copy(placed(readback(), fp), placed(up, fp)),
      'src',
      /both PLACED_FOOTPRINT locations .*buffer to buffer is copyBufferRegion/,
    );
  });

  test('texture to texture: different subresources, one dimension, one format group', () => {
    const tex2 = texture();
    refused(list, copy(sub(tex, 0), sub(tex, 0)), 'src.subresourceIndex', /must be different subresources/);
    copy(sub(tex, 1), sub(tex, 0), 0, 0, 0, box(0, 0, 32, 32))();
    const volume = d3d.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'TEXTURE3D', width: 64, height: 64, depthOrArraySize: 1, format: 'R8G8B8A8_UNORM' },
      'COMMON',
    );
    refused(
      list,
      copy(sub(tex2), sub(volume)),
      'src.resource',
      /is a TEXTURE3D and dst's .* a TEXTURE2D; a texture-to-texture copy needs one dimension/,
    );
    refused(
      list,
      copy(sub(tex2), sub(texture({ format: 'R32_FLOAT' }))),
      'src.resource',
      /R32_FLOAT is not of R8G8B8A8_UNORM's format group/,
    );
    refused(
      list,
      copy(sub(texture({ format: 'BC1_UNORM' })), sub(texture({ format: 'R32G32B32A32_FLOAT' }))),
      'src.resource',
      /R32G32B32A32_FLOAT is not of BC1_UNORM's format group \(BC1_TYPELESS\), nor a format it reinterprets to/,
    );
    copy(sub(tex2), sub(texture({ format: 'R8G8B8A8_UINT' })))();
    expect(list.commands).toHaveLength(2);
  });

  test('dstX/Y/Z: UINTs, the region inside the destination', () => {
    for (const [name, at] of [
      ['dstX', [1, 0, 0]],
      ['dstY', [0, 1, 0]],
      ['dstZ', [0, 0, 1]],
    ] as const) {
      refused(
        list,
        copy(sub(tex), placed(up, fp), ...at),
        name,
        /the region \[1, (65|2)\) runs past the destination's (width|height|depth) \((64|1)\)/,
      );
      for (const bad of [-1, 1.5, NaN, '0', 2 ** 32]) {
        const corner = [0, 0, 0] as unknown[];
        corner[['dstX', 'dstY', 'dstZ'].indexOf(name)] = bad;
        refused(list, copy(sub(tex), placed(up, fp), ...corner), name, /must be/);
      }
    }
    // Both sides of the boundary: a 32-wide box fits from 32, not from 33.
    copy(sub(tex), placed(up, fp), 32, 63, 0, box(0, 0, 32, 1))();
    refused(list, copy(sub(tex), placed(up, fp), 33, 0, 0, box(0, 0, 32, 1)), 'dstX', /runs past/);
  });

  test('srcBox: a struct of UINTs, non-empty, inside the source', () => {
    refused(list, copy(sub(tex), placed(up, fp), 0, 0, 0, 'box'), 'srcBox', /D3D12_BOX/);
    for (const field of ['left', 'top', 'front', 'right', 'bottom', 'back'] as const) {
      refused(
        list,
        copy(sub(tex), placed(up, fp), 0, 0, 0, { ...box(0, 0, 8, 8), [field]: NaN }),
        `srcBox.${field}`,
        /must be an integer/,
      );
    }
    refused(
      list,
      copy(sub(tex), placed(up, fp), 0, 0, 0, box(8, 0, 8, 8)),
      'srcBox.right',
      /must be greater than left \(8\): the box is empty/,
    );
    refused(list, copy(sub(tex), placed(up, fp), 0, 0, 0, box(0, 9, 8, 8)), 'srcBox.bottom', /the box is empty/);
    refused(list, copy(sub(tex), placed(up, fp), 0, 0, 0, box(0, 0, 8, 8, 1, 1)), 'srcBox.back', /the box is empty/);
    copy(sub(tex), placed(up, fp), 0, 0, 0, box(0, 0, 64, 64))();
    refused(
      list,
      copy(sub(tex), placed(up, fp), 0, 0, 0, box(0, 0, 65, 64)),
      'srcBox.right',
      /65 is past the source's width \(64\)/,
    );
    refused(
      list,
      copy(sub(tex), placed(up, fp), 0, 0, 0, box(0, 0, 64, 65)),
      'srcBox.bottom',
      /past the source's height/,
    );
    refused(
      list,
      copy(sub(tex), placed(up, fp), 0, 0, 0, box(0, 0, 64, 64, 0, 2)),
      'srcBox.back',
      /2 is past the source's depth \(1\)/,
    );
    // Against a texture source, the bounds are its mip: mip 1 of 64² is 32².
    refused(
      list,
      copy(sub(texture()), sub(tex, 1), 0, 0, 0, box(0, 0, 33, 32)),
      'srcBox.right',
      /past the source's width \(32\)/,
    );
  });

  test("block-compressed: whole 4×4 blocks, but for a box edge at the mip's edge", () => {
    const bc = texture({ format: 'BC1_UNORM', mipLevels: 0 });
    const bcUp = placed(up, footprintOf(bc));
    copy(sub(bc), bcUp, 4, 8, 0, box(4, 4, 12, 16))();
    for (const [field, b] of [
      ['left', box(2, 0, 8, 8)],
      ['top', box(0, 1, 8, 8)],
      ['right', box(0, 0, 6, 8)],
      ['bottom', box(0, 0, 8, 7)],
    ] as const) {
      refused(list, copy(sub(bc), bcUp, 0, 0, 0, b), `srcBox.${field}`, /4-texel block/);
    }
    refused(list, copy(sub(bc), bcUp, 2, 0, 0, box(0, 0, 4, 4)), 'dstX', /multiple of the 4-texel block/);
    refused(list, copy(sub(bc), bcUp, 0, 6, 0, box(0, 0, 4, 4)), 'dstY', /multiple of the 4-texel block/);
    refused(
      list,
      copy(sub(bc), placed(up, withFootprint(footprintOf(bc), { width: 62 }))),
      'src.placedFootprint.footprint.width',
      /multiple of BC1_UNORM's block width \(4\)/,
    );
    // Mip 5 of 64² is 2×2: the box may end at 2, its edge, or at 4, its block; not at 3.
    const small = texture({ format: 'BC1_UNORM', mipLevels: 0 });
    copy(sub(small, 5), sub(bc, 5), 0, 0, 0, box(0, 0, 2, 2))();
    copy(sub(small, 5), sub(bc, 5), 0, 0, 0, box(0, 0, 4, 4))();
    refused(list, copy(sub(small, 5), sub(bc, 5), 0, 0, 0, box(0, 0, 3, 2)), 'srcBox.right', /or the mip's edge \(2\)/);
    expect(list.commands).toHaveLength(3);
  });

  test("block-compressed ↔ uncompressed of the block's size (the debug layer's equivalences): each side in its own texels, one texel per block", () => {
    // BC1 64×64, 2 mips (16×16 and 8×8 blocks of 8 bytes); R16G16B16A16_UINT 16×16, 2 mips (16×16, 8×8).
    // bc1 and rgba16 are copied from, toBc1 and toRgba16 into (a list tracks each subresource's state).
    const [bc1, toBc1] = [texture({ format: 'BC1_UNORM' }), texture({ format: 'BC1_UNORM' })];
    const [rgba16, toRgba16] = [0, 1].map(() => texture({ width: 16, height: 16, format: 'R16G16B16A16_UINT' })) as [
      Resource,
      Resource,
    ];
    // The controls: whole subresources both ways; a box of BC texels (8×4 blocks) at uncompressed texel
    // (1, 2); 5×6 texels into blocks (3, 2)-(8, 8), up to mip 1's edge; any uncompressed texel onto a block.
    copy(sub(toRgba16), sub(bc1))();
    copy(sub(toBc1, 1), sub(rgba16, 1))();
    copy(sub(toRgba16), sub(bc1), 1, 2, 0, box(8, 4, 40, 20))();
    copy(sub(toBc1, 1), sub(rgba16), 12, 8, 0, box(0, 0, 5, 6))();
    copy(sub(toBc1), sub(rgba16), 4, 4, 0, box(1, 1, 2, 2))();
    // Every equivalence: BC1, BC4 ~ R16G16B16A16, R32G32; BC2, BC3, BC5, BC6H, BC7 ~ R32G32B32A32; R9G9B9E5 ~ R32; TYPELESS members too; 3D.
    copy(sub(texture({ width: 16, height: 16, format: 'R32G32_SINT' })), sub(texture({ format: 'BC4_SNORM' })))();
    copy(
      sub(texture({ format: 'BC1_TYPELESS' })),
      sub(texture({ width: 16, height: 16, format: 'R16G16B16A16_TYPELESS' })),
    )();
    for (const format of ['BC2_UNORM_SRGB', 'BC3_UNORM', 'BC5_SNORM', 'BC6H_SF16', 'BC7_UNORM'])
      copy(sub(texture({ width: 16, height: 16, format: 'R32G32B32A32_FLOAT' })), sub(texture({ format })))();
    copy(sub(texture({ format: 'R9G9B9E5_SHAREDEXP' })), sub(texture({ format: 'R32_UINT' })))();
    const volume = (desc: Partial<ResourceDesc>): Resource =>
      texture({ dimension: 'TEXTURE3D', depthOrArraySize: 4, mipLevels: 1, ...desc });
    copy(
      sub(volume({ width: 4, height: 4, format: 'R32G32B32A32_UINT' })),
      sub(volume({ width: 16, height: 16, format: 'BC3_UNORM' })),
    )();
    // A footprint of the uncompressed format into a BC texture: the same rule for either location.
    const rowsFp: PlacedSubresourceFootprint = {
      offset: 0,
      footprint: { format: 'R16G16B16A16_UINT', width: 16, height: 16, depth: 1, rowPitch: 256 },
    };
    const rows = placed(up, rowsFp);
    copy(sub(toBc1), rows, 0, 0, 0)();
    const recorded = list.commands.length;
    expect(recorded).toBe(15);
    // Refused, one field at a time: pairs D3D12 does not equate; the region, in elements, past the destination; corners off each side's blocks.
    refused(
      list,
      copy(sub(toBc1), sub(texture({ width: 16, height: 16, format: 'R32G32B32A32_UINT' }))),
      'src.resource',
      /R32G32B32A32_UINT is not of BC1_UNORM's format group .*BC1, BC4 ~ R16G16B16A16, R32G32/,
    );
    refused(
      list,
      copy(sub(toBc1), sub(texture({ format: 'BC4_UNORM' }))),
      'src.resource',
      /BC4_UNORM is not of BC1_UNORM's format group/,
    );
    refused(
      list,
      copy(sub(toRgba16), sub(texture({ format: 'R8G8B8A8_UNORM' }))),
      'src.resource',
      /R8G8B8A8_UNORM is not of R16G16B16A16_UINT's format group/,
    );
    refused(
      list,
      copy(sub(texture({ format: 'R9G9B9E5_SHAREDEXP' })), sub(texture({ format: 'R32G32_UINT' }))),
      'src.resource',
      /format group/,
    );
    refused(
      list,
      copy(sub(toBc1, 1), sub(rgba16), 12, 8, 0, box(0, 0, 5, 7)),
      'dstY',
      /the region \[8, 36\) runs past the destination's height \(32\) \(7 source texels, each a 4-texel block here\)/,
    );
    refused(
      list,
      copy(sub(toBc1, 1), sub(rgba16), 16, 0, 0, box(0, 0, 5, 6)),
      'dstX',
      /the region \[16, 36\) runs past the destination's width \(32\)/,
    );
    refused(
      list,
      copy(sub(toRgba16, 1), sub(bc1)),
      'dstX',
      /the region \[0, 16\) runs past the destination's width \(8\) \(16 source blocks, each one texel here\)/,
    );
    refused(
      list,
      copy(sub(toRgba16), sub(bc1), 1, 0, 0, box(0, 0, 64, 4)),
      'dstX',
      /the region \[1, 17\) runs past the destination's width \(16\)/,
    );
    refused(list, copy(sub(toBc1), sub(rgba16), 2, 0, 0, box(0, 0, 1, 1)), 'dstX', /multiple of the 4-texel block/);
    refused(
      list,
      copy(sub(toRgba16), sub(bc1), 0, 0, 0, box(2, 0, 6, 4)),
      'srcBox.left',
      /multiple of the 4-texel block/,
    );
    refused(
      list,
      copy(sub(toBc1), placed(up, withFootprint(rowsFp, { format: 'R32G32B32A32_UINT' }))),
      'src.placedFootprint.footprint.format',
      /R32G32B32A32_UINT is not of BC1_UNORM's format group/,
    );
    expect(list.commands).toHaveLength(recorded);
  });

  test('depth-stencil textures copy whole subresources', () => {
    const depth = texture({ format: 'D32_FLOAT', mipLevels: 1, flags: ['ALLOW_DEPTH_STENCIL'] });
    const depthFp = placed(up, footprintOf(depth));
    copy(sub(depth), depthFp)();
    refused(list, copy(sub(depth), depthFp, 0, 0, 0, box(0, 0, 64, 64)), 'srcBox', /copied as a whole subresource/);
    refused(list, copy(sub(depth), depthFp, 0, 0, 0, box(0, 0, 8, 8)), 'srcBox', /whole subresource/);
  });

  test('states: dst in COPY_DEST, src in COPY_SOURCE; UPLOAD buffers read, READBACK buffers written', () => {
    list.resourceBarrier([
      {
        type: 'TRANSITION',
        transition: { resource: tex, subresource: 0, stateBefore: 'COMMON', stateAfter: 'PIXEL_SHADER_RESOURCE' },
      },
    ]);
    refused(
      list,
      copy(sub(tex), placed(up, fp)),
      'dst',
      /subresource 0 is in PIXEL_SHADER_RESOURCE at this point of the list and cannot be used as COPY_DEST/,
    );
    // Only subresource 0 was named by the copy: mip 1 is still free.
    copy(sub(tex, 1), placed(up, footprintOf(tex, 1)))();
    const tex2 = texture();
    refused(
      list,
      copy(sub(tex2), placed(readback(), fp)),
      'src',
      /stays in COPY_DEST and cannot be used as COPY_SOURCE/,
    );
    refused(
      list,
      copy(placed(upload(), fp), sub(tex2)),
      'dst',
      /stays in GENERIC_READ and cannot be used as COPY_DEST/,
    );
    // The refused copies left no state behind: had the first kept tex2 in COPY_DEST, a barrier
    // from COMMON would be refused.
    list.resourceBarrier([
      { type: 'TRANSITION', transition: { resource: tex2, stateBefore: 'COMMON', stateAfter: 'COPY_SOURCE' } },
    ]);
    expect(list.commands).toHaveLength(3);
  });

  test('a closed list records nothing', () => {
    list.close();
    expectD3D12Error(copy(sub(tex), placed(up, fp)), {
      call: 'GraphicsCommandList.copyTextureRegion',
      argument: 'this',
      message: /is closed/,
    });
  });
});

describe("discardResource: D3D12's state and region rules", () => {
  const rt = (): Resource => texture({ flags: ['ALLOW_RENDER_TARGET'], mipLevels: 2, depthOrArraySize: 2 });
  const toState = (
    list: GraphicsCommandList,
    resource: Resource,
    stateAfter: 'RENDER_TARGET' | 'DEPTH_WRITE' | 'UNORDERED_ACCESS' | 'COPY_DEST',
  ): void =>
    list.resourceBarrier([{ type: 'TRANSITION', transition: { resource, stateBefore: 'COMMON', stateAfter } }]);

  test('DIRECT: a render target in RENDER_TARGET, depth-stencil in DEPTH_WRITE, a UAV texture in UNORDERED_ACCESS, a UAV buffer promoted', () => {
    const list = d3d.createCommandList('DIRECT');
    const [target, depth, uav] = [
      rt(),
      texture({ format: 'D32_FLOAT', mipLevels: 1, flags: ['ALLOW_DEPTH_STENCIL'] }),
      texture({ flags: ['ALLOW_UNORDERED_ACCESS'] }),
    ];
    toState(list, target, 'RENDER_TARGET');
    toState(list, depth, 'DEPTH_WRITE');
    toState(list, uav, 'UNORDERED_ACCESS');
    list.discardResource(target);
    list.discardResource(target, {
      firstSubresource: 1,
      numSubresources: 1,
      rects: [{ left: 0, top: 0, right: 32, bottom: 32 }],
    });
    list.discardResource(depth, null);
    list.discardResource(uav, { firstSubresource: 0, numSubresources: 2 });
    list.discardResource(
      d3d.createCommittedResource(
        { type: 'DEFAULT' },
        [],
        { dimension: 'BUFFER', width: TILE, flags: ['ALLOW_UNORDERED_ACCESS'] },
        'COMMON',
      ),
    );
    expect(list.commands.filter((c) => c.kind === 'state' && c.name === 'discardResource')).toHaveLength(5);
  });

  test('COMPUTE: only ALLOW_UNORDERED_ACCESS resources, in UNORDERED_ACCESS; COPY: never', () => {
    const compute = d3d.createCommandList('COMPUTE');
    const uav = texture({ flags: ['ALLOW_UNORDERED_ACCESS', 'ALLOW_RENDER_TARGET'] });
    toState(compute, uav, 'UNORDERED_ACCESS');
    compute.discardResource(uav);
    refused(
      compute,
      () => compute.discardResource(rt()),
      'resource',
      /has no ALLOW_UNORDERED_ACCESS; a COMPUTE list discards only unordered-access resources/,
      'discardResource',
    );
    const copy = d3d.createCommandList('COPY');
    refused(copy, () => copy.discardResource(uav), 'this', /a COPY list cannot discard resources/, 'discardResource');
  });

  test('states are checked per subresource, and a refused discard changes none', () => {
    const list = d3d.createCommandList('DIRECT');
    const target = rt();
    list.resourceBarrier([
      {
        type: 'TRANSITION',
        transition: { resource: target, subresource: 0, stateBefore: 'COMMON', stateAfter: 'RENDER_TARGET' },
      },
    ]);
    list.resourceBarrier([
      {
        type: 'TRANSITION',
        transition: { resource: target, subresource: 1, stateBefore: 'COMMON', stateAfter: 'COPY_DEST' },
      },
    ]);
    list.discardResource(target, { firstSubresource: 0, numSubresources: 1 });
    refused(
      list,
      () => list.discardResource(target, { firstSubresource: 0, numSubresources: 2 }),
      'resource',
      /subresource 1 is in COPY_DEST at this point of the list and cannot be used as RENDER_TARGET/,
      'discardResource',
    );
    const uav = texture({ flags: ['ALLOW_UNORDERED_ACCESS'] });
    toState(list, uav, 'COPY_DEST');
    refused(
      list,
      () => list.discardResource(uav),
      'resource',
      /is in COPY_DEST .* cannot be used as UNORDERED_ACCESS/,
      'discardResource',
    );
  });

  test("the resource: this device's, alive, with a flag that allows a discard", () => {
    const list = d3d.createCommandList('DIRECT');
    refused(list, () => list.discardResource(loose({})), 'resource', /created by this device/, 'discardResource');
    refused(
      list,
      () => list.discardResource(texture({}, other)),
      'resource',
      /created by this device/,
      'discardResource',
    );
    const gone = rt();
    gone.release();
    refused(list, () => list.discardResource(gone), 'resource', /was released/, 'discardResource');
    refused(
      list,
      () => list.discardResource(texture()),
      'resource',
      /has none of ALLOW_RENDER_TARGET, ALLOW_DEPTH_STENCIL, ALLOW_UNORDERED_ACCESS/,
      'discardResource',
    );
  });

  test('the region: subresource range, rectangles on 2D subresources of one size, inside and non-empty', () => {
    const list = d3d.createCommandList('DIRECT');
    const target = rt(); // 64², 2 mips × 2 slices: subresources 0..3
    toState(list, target, 'RENDER_TARGET');
    const region = (change: Record<string, unknown>): unknown => ({
      firstSubresource: 0,
      numSubresources: 1,
      rects: [{ left: 0, top: 0, right: 64, bottom: 64 }],
      ...change,
    });
    const discard = (r: unknown) => () => list.discardResource(target, loose(r));
    discard(region({}))();
    discard(region({ firstSubresource: 3, rects: [{ left: 16, top: 16, right: 32, bottom: 32 }] }))();
    refused(list, discard('all'), 'region', /D3D12_DISCARD_REGION/, 'discardResource');
    for (const bad of [4, -1, 0.5])
      refused(
        list,
        discard(region({ firstSubresource: bad })),
        'region.firstSubresource',
        /must be/,
        'discardResource',
      );
    for (const bad of [0, NaN])
      refused(list, discard(region({ numSubresources: bad })), 'region.numSubresources', /must be/, 'discardResource');
    refused(
      list,
      discard(region({ firstSubresource: 3, numSubresources: 2, rects: null })),
      'region.numSubresources',
      /\[3, 5\) run past .*'s 4/,
      'discardResource',
    );
    // Subresources 0 and 2 are mip 0 of slices 0 and 1 (one size); 0..1 are two mip sizes.
    refused(
      list,
      discard(region({ numSubresources: 2, rects: [{ left: 0, top: 0, right: 8, bottom: 8 }] })),
      'region.numSubresources',
      /every subresource must have one size; subresource 1 is not 64×64/,
      'discardResource',
    );
    discard(region({ numSubresources: 2, rects: [] }))();
    refused(list, discard(region({ rects: 'r' })), 'region.rects', /array of D3D12_RECT/, 'discardResource');
    refused(list, discard(region({ rects: [null] })), 'region.rects[0]', /D3D12_RECT/, 'discardResource');
    refused(
      list,
      discard(region({ rects: [{ left: 0, top: 0, right: 65, bottom: 64 }] })),
      'region.rects[0].right',
      /at most 64/,
      'discardResource',
    );
    refused(
      list,
      discard(region({ rects: [{ left: 0, top: 0, right: 64, bottom: 65 }] })),
      'region.rects[0].bottom',
      /at most 64/,
      'discardResource',
    );
    refused(
      list,
      discard(region({ rects: [{ left: 8, top: 0, right: 8, bottom: 64 }] })),
      'region.rects[0].right',
      /greater than left/,
      'discardResource',
    );
    refused(
      list,
      discard(region({ rects: [{ left: 0, top: 4, right: 8, bottom: 2 }] })),
      'region.rects[0].bottom',
      /greater than top/,
      'discardResource',
    );
    refused(
      list,
      discard(region({ rects: [{ left: -1, top: 0, right: 8, bottom: 8 }] })),
      'region.rects[0].left',
      /at least 0/,
      'discardResource',
    );
    const buffer = d3d.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: TILE, flags: ['ALLOW_UNORDERED_ACCESS'] },
      'COMMON',
    );
    refused(
      list,
      () => list.discardResource(buffer, loose(region({}))),
      'region.rects',
      /rectangles need 2D subresources, and .* is a BUFFER/,
      'discardResource',
    );
    list.discardResource(buffer, { firstSubresource: 0, numSubresources: 1 });
  });
});
