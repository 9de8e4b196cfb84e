/**
 * The UAV clear kernel's dispatches (src/gpu/uav-clear.ts), GPU-free: which mode each texel size and
 * mip kind takes, workgroup counts within WebGPU's 65535 per dimension, long buffer ranges and large
 * packed mips split into runs that keep the pattern's phase, and the root constants where the
 * kernel (shaders/uav_clear.wgsl) reads them.
 */
import { describe, expect, test } from 'vitest';
import uavClearWgsl from '../../../../shaders/uav_clear.wgsl?raw';
import { bufferClearDispatches, textureClearDispatches, type TextureClear } from '../../../../src/gpu/uav-clear.js';
import { requireConstant } from '../../../../src/gpu/prelude.js';
import { formatInfo } from '../../../../src/memory/formats.js';
import { computeLayout } from '../../../../src/memory/tiling.js';

const c = (name: string): number => requireConstant(uavClearWgsl, name, 'uav_clear.wgsl');

function texture(
  format: string,
  width: number,
  height: number,
  mip: number,
  rects: TextureClear['rects'],
  slices = 1,
): TextureClear {
  const info = formatInfo(format);
  const layout = computeLayout(
    { dimension: 'TEXTURE2D', width, height, depth: 1, arraySize: slices, mipLevels: 9, format: info },
    2,
  );
  return {
    address: 0x1_0000_0000n,
    layout,
    width,
    height,
    bytesPerTexel: info?.bytesPerElement ?? 4,
    mip,
    firstSlice: 0,
    sliceCount: slices,
    rects,
    element: new Uint8Array(info?.bytesPerElement ?? 4).fill(7),
  };
}

describe('texture clears', () => {
  test('texels of 4 bytes and more: one per invocation; smaller ones a word per invocation (standard tiles) or per packed-mip word', () => {
    const whole = (w: number, h: number) => [{ left: 0, top: 0, right: w, bottom: h }];
    const [rgba] = textureClearDispatches(texture('R8G8B8A8_UNORM', 300, 300, 0, whole(300, 300), 3));
    expect(rgba?.root[c('D3D12_CLEAR_MODE')]).toBe(c('D3D12_CLEAR_MODE_TEXELS'));
    expect(rgba?.groups).toEqual([Math.ceil(300 / 64), 300, 3]);
    const [r8] = textureClearDispatches(texture('R8_UINT', 300, 300, 0, [{ left: 3, top: 1, right: 290, bottom: 9 }]));
    expect(r8?.root[c('D3D12_CLEAR_MODE')]).toBe(c('D3D12_CLEAR_MODE_WORD_TEXELS'));
    // Words 0 (texels 0-3, holding 3) through 72 (texels 288-291, holding 289).
    expect(r8?.groups).toEqual([Math.ceil(73 / 64), 8, 1]);
    const [tail] = textureClearDispatches(
      texture('R8_UINT', 300, 300, 1, [{ left: 1, top: 1, right: 149, bottom: 148 }]),
    );
    expect(tail?.root[c('D3D12_CLEAR_MODE')]).toBe(c('D3D12_CLEAR_MODE_TAIL_WORDS'));
    // Mip 1 is 150 wide (row pitch 150): bytes 151 to 147 * 150 + 149 of the mip.
    expect(tail?.root[c('D3D12_CLEAR_FIRST_WORD')]).toBe(Math.floor(151 / 4));
    expect(tail?.groups[0]).toBe(Math.ceil((Math.ceil((147 * 150 + 149) / 4) - Math.floor(151 / 4)) / 64));
  });

  test('the root constants: base address, bits, rectangle, slice, mip entry, texture words', () => {
    const clear = {
      ...texture('R16G16B16A16_FLOAT', 256, 256, 1, [{ left: 1, top: 2, right: 30, bottom: 40 }], 4),
      firstSlice: 1,
      sliceCount: 3,
    };
    const [d] = textureClearDispatches(clear);
    const root = d?.root as Uint32Array;
    expect([root[c('D3D12_CLEAR_BASE')], root[c('D3D12_CLEAR_BASE') + 1]]).toEqual([0, 1]);
    expect(root[c('D3D12_CLEAR_BITS')]).toBe(0x07070707);
    expect(Array.from(root.subarray(c('D3D12_CLEAR_RECT'), c('D3D12_CLEAR_RECT') + 4))).toEqual([1, 2, 30, 40]);
    expect([root[c('D3D12_CLEAR_FIRST_SLICE')], root[c('D3D12_CLEAR_LEVEL')]]).toEqual([1, 1]);
    const mip = clear.layout.mips[1];
    expect(Array.from(root.subarray(c('D3D12_CLEAR_MIP'), c('D3D12_CLEAR_MIP') + 4))).toEqual([
      mip?.firstTileInSlice,
      mip?.widthInTiles,
      mip?.rowPitch,
      0,
    ]);
    expect(Array.from(root.subarray(c('D3D12_CLEAR_TEXTURE'), c('D3D12_CLEAR_VOLUME')))).toEqual([
      256,
      256,
      9,
      8,
      128,
      64,
      clear.layout.standardTilesPerSlice,
      4,
      clear.layout.slicePitch / 4096,
    ]);
    // Not a volume: tile depth 0 sends the kernel down the 1D / 2D path.
    expect(Array.from(root.subarray(c('D3D12_CLEAR_VOLUME'), c('D3D12_CLEAR_CONSTANTS')))).toEqual([0, 0, 0, 0]);
    expect(d?.groups).toEqual([1, 38, 3]);
  });

  test("3D textures: depth slices in workgroup z; the volume words; a packed mip's words run over every depth slice in one dispatch", () => {
    const volume = (
      format: string,
      mip: number,
      firstSlice: number,
      sliceCount: number,
      rect: TextureClear['rects'][number],
    ): TextureClear => {
      const info = formatInfo(format);
      const layout = computeLayout(
        { dimension: 'TEXTURE3D', width: 100, height: 70, depth: 40, arraySize: 1, mipLevels: 4, format: info },
        4,
      );
      return {
        address: 0x2_0000_0000n,
        layout,
        width: 100,
        height: 70,
        bytesPerTexel: info?.bytesPerElement ?? 4,
        mip,
        firstSlice,
        sliceCount,
        rects: [rect],
        element: new Uint8Array(info?.bytesPerElement ?? 4),
      };
    };
    const [texels] = textureClearDispatches(volume('R32_UINT', 0, 5, 30, { left: 0, top: 2, right: 100, bottom: 9 }));
    const root = texels?.root as Uint32Array;
    const mip0 = volume('R32_UINT', 0, 5, 30, { left: 0, top: 0, right: 1, bottom: 1 }).layout.mips[0];
    // 32×32×16 tiles: the tile depth, mip 0's height in tiles (70 / 32 → 3), its depth pitch, the end of the depth slices.
    expect(Array.from(root.subarray(c('D3D12_CLEAR_VOLUME'), c('D3D12_CLEAR_CONSTANTS')))).toEqual([
      16,
      3,
      mip0?.depthPitch,
      35,
    ]);
    expect(root[c('D3D12_CLEAR_FIRST_SLICE')]).toBe(5);
    expect(texels?.groups).toEqual([2, 7, 30]);
    const [words] = textureClearDispatches(volume('R8_UINT', 0, 0, 40, { left: 3, top: 0, right: 9, bottom: 70 }));
    expect(words?.root[c('D3D12_CLEAR_MODE')]).toBe(c('D3D12_CLEAR_MODE_WORD_TEXELS'));
    expect(words?.groups).toEqual([1, 70, 40]);
    // R8 mip 1 (50×35×20) is packed: rows of 50 bytes, depth slices of 1750; depth slices 3..19, rows 1..33, texels 1..48.
    const [tail] = textureClearDispatches(volume('R8_UINT', 1, 3, 17, { left: 1, top: 1, right: 49, bottom: 34 }));
    expect(tail?.root[c('D3D12_CLEAR_MODE')]).toBe(c('D3D12_CLEAR_MODE_TAIL_WORDS'));
    const first = Math.floor((3 * 1750 + 50 + 1) / 4);
    const end = Math.ceil((19 * 1750 + 33 * 50 + 49) / 4);
    expect(tail?.root[c('D3D12_CLEAR_FIRST_WORD')]).toBe(first);
    expect(tail?.groups).toEqual([Math.ceil((end - first) / 64), 1, 1]);
    expect(tail?.root[c('D3D12_CLEAR_VOLUME') + 2]).toBe(1750);
  });

  test('one dispatch per rectangle', () => {
    expect(
      textureClearDispatches(
        texture('R32_FLOAT', 64, 64, 0, [
          { left: 0, top: 0, right: 1, bottom: 1 },
          { left: 5, top: 5, right: 64, bottom: 64 },
        ]),
      ),
    ).toHaveLength(2);
    expect(textureClearDispatches(texture('R32_FLOAT', 64, 64, 0, []))).toEqual([]);
  });
});

describe('buffer clears', () => {
  test('a range starts at the 16-byte boundary below it; its first and end bytes are relative to that', () => {
    const [d] = bufferClearDispatches({
      address: 0x10000n,
      ranges: [{ start: 21, end: 99 }],
      pattern: Uint8Array.from({ length: 16 }, (_, i) => i),
    });
    expect(d?.root[c('D3D12_CLEAR_MODE')]).toBe(c('D3D12_CLEAR_MODE_BUFFER'));
    expect([d?.root[c('D3D12_CLEAR_BASE')], d?.root[c('D3D12_CLEAR_BASE') + 1]]).toEqual([0x10010, 0]);
    expect([d?.root[c('D3D12_CLEAR_RECT')], d?.root[c('D3D12_CLEAR_RECT') + 1]]).toEqual([5, 83]);
    expect(Array.from(d?.root.subarray(c('D3D12_CLEAR_BITS'), c('D3D12_CLEAR_BITS') + 4) ?? [])).toEqual([
      0x03020100, 0x07060504, 0x0b0a0908, 0x0f0e0d0c,
    ]);
    expect(d?.groups).toEqual([1, 1, 1]);
  });

  test('a range past what one dispatch covers is split into runs of whole 16-byte groups, each within 65535 workgroups', () => {
    const perRun = 65535 * 64 * 4;
    const dispatches = bufferClearDispatches({
      address: 0n,
      ranges: [{ start: 8, end: 2 * perRun + 100 }],
      pattern: new Uint8Array(16),
    });
    expect(dispatches).toHaveLength(3);
    expect(dispatches.map((d) => d.root[c('D3D12_CLEAR_BASE')])).toEqual([0, perRun, 2 * perRun]);
    expect(perRun % 16).toBe(0);
    expect(dispatches.map((d) => [d.root[c('D3D12_CLEAR_RECT')], d.root[c('D3D12_CLEAR_RECT') + 1]])).toEqual([
      [8, perRun],
      [0, perRun],
      [0, 100],
    ]);
    expect(dispatches.map((d) => d.groups[0])).toEqual([65535, 65535, 1]);
  });
});
