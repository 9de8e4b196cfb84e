/**
 * GetCopyableFootprints against values worked out by hand from D3D12's rules (the formula
 * vkd3d-proton's test_get_copyable_footprints checks native D3D12 with): widths and heights rounded
 * to the block, rows of blocks, row pitch to 256, placements to 512 relative to baseOffset, and
 * totalBytes without baseOffset. Through the public device call (a CPU-only device), so the
 * description's defaults and checks are the API's.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { createDevice, type CopyableFootprints, type Device, type ResourceDesc } from '../../../../src/index.js';
import { footprintBytes } from '../../../../src/memory/footprints.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';

let device: Device;
beforeAll(async () => {
  device = await createDevice({ gpuDevice: null, tiledResourcesTier: 4 });
});

const fp = (offset: number, format: string, width: number, height: number, depth: number, rowPitch: number) => ({
  offset,
  footprint: { format, width, height, depth, rowPitch },
});

interface Case {
  name: string;
  desc: ResourceDesc;
  first: number;
  count: number;
  base: number;
  expected: CopyableFootprints;
}

/** A case: the description, [firstSubresource, numSubresources, baseOffset] and D3D12's answer. */
const footprintCase = (
  name: string,
  desc: ResourceDesc,
  [first, count, base]: [number, number, number],
  expected: CopyableFootprints,
): Case => ({ name, desc, first, count, base, expected });

const CASES: Case[] = [
  footprintCase(
    'R8 2D 100×60: row 100 bytes, pitch 256, 59 × 256 + 100 bytes',
    { dimension: 'TEXTURE2D', width: 100, height: 60, format: 'R8_UNORM' },
    [0, 1, 0],
    { layouts: [fp(0, 'R8_UNORM', 100, 60, 1, 256)], numRows: [60], rowSizeInBytes: [100], totalBytes: 15204 },
  ),
  footprintCase(
    'R32G32B32A32 2D 33×17, 3 mips (not a power of two): 528-byte rows pitched 768, then 512-aligned placements',
    { dimension: 'TEXTURE2D', width: 33, height: 17, mipLevels: 3, format: 'R32G32B32A32_FLOAT' },
    [0, 3, 0],
    {
      layouts: [
        fp(0, 'R32G32B32A32_FLOAT', 33, 17, 1, 768),
        fp(13312, 'R32G32B32A32_FLOAT', 16, 8, 1, 256),
        fp(15360, 'R32G32B32A32_FLOAT', 8, 4, 1, 256),
      ],
      numRows: [17, 8, 4],
      rowSizeInBytes: [528, 256, 128],
      totalBytes: 16256,
    },
  ),
  footprintCase(
    'BC1 2D 64×64, the full chain: rows of 4×4 blocks; mips 2×2 and 1×1 are one 4×4 block',
    { dimension: 'TEXTURE2D', width: 64, height: 64, mipLevels: 0, format: 'BC1_UNORM' },
    [0, 7, 0],
    {
      layouts: [
        fp(0, 'BC1_UNORM', 64, 64, 1, 256),
        fp(4096, 'BC1_UNORM', 32, 32, 1, 256),
        fp(6144, 'BC1_UNORM', 16, 16, 1, 256),
        fp(7168, 'BC1_UNORM', 8, 8, 1, 256),
        fp(7680, 'BC1_UNORM', 4, 4, 1, 256),
        fp(8192, 'BC1_UNORM', 4, 4, 1, 256),
        fp(8704, 'BC1_UNORM', 4, 4, 1, 256),
      ],
      numRows: [16, 8, 4, 2, 1, 1, 1],
      rowSizeInBytes: [128, 64, 32, 16, 8, 8, 8],
      totalBytes: 8712,
    },
  ),
  footprintCase(
    'BC3 2D array 256×128 × 2 slices from baseOffset 512: 16-byte blocks, 1024-byte rows',
    { dimension: 'TEXTURE2D', width: 256, height: 128, depthOrArraySize: 2, format: 'BC3_UNORM' },
    [0, 2, 512],
    {
      layouts: [fp(512, 'BC3_UNORM', 256, 128, 1, 1024), fp(33280, 'BC3_UNORM', 256, 128, 1, 1024)],
      numRows: [32, 32],
      rowSizeInBytes: [1024, 1024],
      totalBytes: 65536,
    },
  ),
  footprintCase(
    'BC7 2D 12×8: three blocks a row (48 bytes), two rows',
    { dimension: 'TEXTURE2D', width: 12, height: 8, format: 'BC7_UNORM' },
    [0, 1, 0],
    { layouts: [fp(0, 'BC7_UNORM', 12, 8, 1, 256)], numRows: [2], rowSizeInBytes: [48], totalBytes: 304 },
  ),
  footprintCase(
    'RGBA8 3D 8×8×8, 4 mips: depth slices align(size, 256) apart',
    { dimension: 'TEXTURE3D', width: 8, height: 8, depthOrArraySize: 8, mipLevels: 4, format: 'R8G8B8A8_UNORM' },
    [0, 4, 0],
    {
      layouts: [
        fp(0, 'R8G8B8A8_UNORM', 8, 8, 8, 256),
        fp(16384, 'R8G8B8A8_UNORM', 4, 4, 4, 256),
        fp(20480, 'R8G8B8A8_UNORM', 2, 2, 2, 256),
        fp(21504, 'R8G8B8A8_UNORM', 1, 1, 1, 256),
      ],
      numRows: [8, 4, 2, 1],
      rowSizeInBytes: [32, 16, 8, 4],
      totalBytes: 21508,
    },
  ),
  footprintCase(
    'BC1 3D 8×8×2, 2 mips: blocks are 2D, depth slices stay texel slices',
    { dimension: 'TEXTURE3D', width: 8, height: 8, depthOrArraySize: 2, mipLevels: 2, format: 'BC1_UNORM' },
    [0, 2, 0],
    {
      layouts: [fp(0, 'BC1_UNORM', 8, 8, 2, 256), fp(1024, 'BC1_UNORM', 4, 4, 1, 256)],
      numRows: [2, 1],
      rowSizeInBytes: [16, 8],
      totalBytes: 1032,
    },
  ),
  footprintCase(
    'a buffer of 1000 bytes from baseOffset 30: the first layout is at baseOffset itself, unrounded',
    { dimension: 'BUFFER', width: 1000 },
    [0, 1, 30],
    { layouts: [fp(30, 'UNKNOWN', 1000, 1, 1, 1024)], numRows: [1], rowSizeInBytes: [1000], totalBytes: 1000 },
  ),
  footprintCase(
    'RGBA8 2D 16×16, 2 mips × 3 slices, subresources 2..4 (mip + slice × mipLevels)',
    { dimension: 'TEXTURE2D', width: 16, height: 16, depthOrArraySize: 3, mipLevels: 2, format: 'R8G8B8A8_UNORM' },
    [2, 3, 0],
    {
      layouts: [
        fp(0, 'R8G8B8A8_UNORM', 16, 16, 1, 256),
        fp(4096, 'R8G8B8A8_UNORM', 8, 8, 1, 256),
        fp(6144, 'R8G8B8A8_UNORM', 16, 16, 1, 256),
      ],
      numRows: [16, 8, 16],
      rowSizeInBytes: [64, 32, 64],
      totalBytes: 10048,
    },
  ),
  footprintCase(
    'R16 1D array 300 × 2 slices',
    { dimension: 'TEXTURE1D', width: 300, depthOrArraySize: 2, format: 'R16_FLOAT' },
    [0, 2, 0],
    {
      layouts: [fp(0, 'R16_FLOAT', 300, 1, 1, 768), fp(1024, 'R16_FLOAT', 300, 1, 1, 768)],
      numRows: [1, 1],
      rowSizeInBytes: [600, 600],
      totalBytes: 1624,
    },
  ),
  footprintCase(
    'R8 2D 4×4, 2 mips from baseOffset 1: offsets are baseOffset + an aligned running total',
    { dimension: 'TEXTURE2D', width: 4, height: 4, mipLevels: 2, format: 'R8_UNORM' },
    [0, 2, 1],
    {
      layouts: [fp(1, 'R8_UNORM', 4, 4, 1, 256), fp(1025, 'R8_UNORM', 2, 2, 1, 256)],
      numRows: [4, 2],
      rowSizeInBytes: [4, 2],
      totalBytes: 1282,
    },
  ),
  footprintCase(
    'no subresources: nothing, 0 bytes',
    { dimension: 'TEXTURE2D', width: 4, height: 4, format: 'R8_UNORM' },
    [1, 0, 512],
    { layouts: [], numRows: [], rowSizeInBytes: [], totalBytes: 0 },
  ),
];

describe('getCopyableFootprints: hand-computed D3D12 values', () => {
  for (const c of CASES) {
    test(c.name, () => {
      expect(device.getCopyableFootprints(c.desc, c.first, c.count, c.base)).toEqual(c.expected);
    });
  }

  test('each subresource alone gives its layout of the whole call, re-based', () => {
    const desc: ResourceDesc = {
      dimension: 'TEXTURE2D',
      width: 33,
      height: 17,
      mipLevels: 3,
      format: 'R32G32B32A32_FLOAT',
    };
    const all = device.getCopyableFootprints(desc, 0, 3, 0);
    for (let sub = 0; sub < 3; sub++) {
      const one = device.getCopyableFootprints(desc, sub, 1, 4096);
      expect(one.layouts[0]).toEqual({ offset: 4096, footprint: all.layouts[sub]?.footprint });
      expect(one.totalBytes).toBe(
        footprintBytes(
          one.numRows[0] as number,
          one.layouts[0]?.footprint.rowPitch as number,
          one.rowSizeInBytes[0] as number,
          1,
        ),
      );
    }
  });

  test('footprintBytes: depth slices are rows × rowPitch apart', () => {
    expect(footprintBytes(8, 256, 32, 8)).toBe(7 * 8 * 256 + 7 * 256 + 32);
    expect(footprintBytes(1, 256, 4, 1)).toBe(4);
  });
});

describe('getCopyableFootprints: invalid input throws E_INVALIDARG (D3D12 fills all-ones), one field at a time', () => {
  const valid: ResourceDesc = {
    dimension: 'TEXTURE2D',
    width: 4,
    height: 4,
    mipLevels: 2,
    depthOrArraySize: 2,
    format: 'R8_UNORM',
  };
  test('control: the valid call', () => {
    expect(device.getCopyableFootprints(valid, 0, 4, 0).layouts).toHaveLength(4);
    expect(device.getCopyableFootprints(valid, 3, 1, 0).layouts).toHaveLength(1);
  });
  const bad: [string, () => unknown, string, RegExp][] = [
    [
      'a buffer of height 3',
      () => device.getCopyableFootprints({ dimension: 'BUFFER', width: 3, height: 3 }, 0, 1, 0),
      'desc.height',
      /must be 1 for a buffer/,
    ],
    [
      'a 1D texture of height 2',
      () => device.getCopyableFootprints({ dimension: 'TEXTURE1D', width: 4, height: 2, format: 'R32_UINT' }, 0, 1, 0),
      'desc.height',
      /must be 1 for a 1D texture/,
    ],
    [
      'a BC1 texture 3 texels wide',
      () => device.getCopyableFootprints({ dimension: 'TEXTURE2D', width: 3, height: 4, format: 'BC1_UNORM' }, 0, 1, 0),
      'desc.width',
      /multiple of 4/,
    ],
    [
      'a multisampled description (valid in D3D12; MSAA is not emulated)',
      () =>
        device.getCopyableFootprints(
          { ...valid, mipLevels: 1, depthOrArraySize: 1, sampleDesc: { count: 4, quality: 0 } },
          0,
          1,
          0,
        ),
      'desc.sampleDesc.count',
      /not emulated/,
    ],
    [
      'an unknown format',
      () => device.getCopyableFootprints({ ...valid, format: 'R8_FUZZ' }, 0, 1, 0),
      'desc.format',
      /not a DXGI format/,
    ],
    ['not a description', () => device.getCopyableFootprints(null as never, 0, 1, 0), 'desc', /D3D12_RESOURCE_DESC/],
    [
      'subresources 0..4 of 4',
      () => device.getCopyableFootprints(valid, 0, 5, 0),
      'numSubresources',
      /\[0, 5\) run past the description's 4/,
    ],
    ['subresources 3..4 of 4', () => device.getCopyableFootprints(valid, 3, 2, 0), 'numSubresources', /run past/],
    [
      '2 subresources of a 1-mip texture (vkd3d-proton)',
      () => device.getCopyableFootprints({ dimension: 'TEXTURE2D', width: 4, height: 4, format: 'R32_UINT' }, 0, 2, 0),
      'numSubresources',
      /run past the description's 1/,
    ],
    ['firstSubresource 5 of 4', () => device.getCopyableFootprints(valid, 5, 0, 0), 'firstSubresource', /at most 4/],
    ['firstSubresource -1', () => device.getCopyableFootprints(valid, -1, 1, 0), 'firstSubresource', /at least 0/],
    [
      'numSubresources NaN',
      () => device.getCopyableFootprints(valid, 0, NaN, 0),
      'numSubresources',
      /must be an integer/,
    ],
    ['baseOffset 1.5', () => device.getCopyableFootprints(valid, 0, 1, 1.5), 'baseOffset', /must be an integer/],
    ['baseOffset -512', () => device.getCopyableFootprints(valid, 0, 1, -512), 'baseOffset', /at least 0/],
    [
      'baseOffset past 2^53 with the bytes',
      () => device.getCopyableFootprints(valid, 0, 1, Number.MAX_SAFE_INTEGER),
      'baseOffset',
      /past 2\^53/,
    ],
  ];
  for (const [name, call, argument, message] of bad) {
    test(name, () => {
      expectD3D12Error(call, { call: 'getCopyableFootprints', argument, message });
    });
  }
});
