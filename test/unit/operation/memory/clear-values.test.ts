/**
 * Whole clear elements (src/memory/clear-values.ts) against written-out results: every case of
 * vkd3d-proton's tests/d3d12_clear.c (test_clear_unordered_access_view_buffer and _image) as native
 * drivers write it, then Float clears beyond each format's range (INFs, NaNs, past the largest
 * finite value, 32-bit denormals) by D3D's Data Conversion rules. The per-channel conversions, both
 * sides of each boundary, are in float-conversions.test.ts.
 */
import { describe, expect, test } from 'vitest';
import {
  clearChannels,
  clearElementBytes,
  CLEAR_FORMATS,
  takesFloatClear,
} from '../../../../src/memory/clear-values.js';
import { formatInfo } from '../../../../src/memory/formats.js';

/** A float given by its bits (how vkd3d-proton's tests write them). */
const f = (bits: number): number => new Float32Array(new Uint32Array([bits]).buffer)[0] as number;

const word = (format: string, values: number[], kind: 'Uint' | 'Float'): number => {
  const bytes = clearElementBytes(clearChannels(format) ?? [], values, kind);
  const padded = new Uint8Array(4);
  padded.set(bytes);
  return new Uint32Array(padded.buffer)[0] as number;
};

describe('whole elements, as native drivers write them (vkd3d-proton tests/d3d12_clear.c)', () => {
  test.each([
    ['R16G16_UINT', [0x1234, 0xabcd, 0, 0], 'Uint', 0xabcd1234],
    ['R16G16_UINT', [0x10000, 0, 0, 0], 'Uint', 0],
    ['R16G16_UINT', [0x12345, 0, 0, 0], 'Uint', 0x2345],
    ['R16G16_UNORM', [0x1234, 0xabcd, 0, 0], 'Uint', 0xabcd1234],
    ['R16G16_UNORM', [f(0x3f000080), 1, 0, 0], 'Float', 0xffff8000],
    ['R16G16_UNORM', [2, 0, 0, 0], 'Float', 0x0000ffff],
    ['R16G16_UNORM', [-1, 0, 1, 1], 'Float', 0],
    ['R16G16_FLOAT', [0x1234, 0xabcd, 0, 0], 'Uint', 0xabcd1234],
    ['R16G16_FLOAT', [0.5, 1, 0, 0], 'Float', 0x3c003800],
    ['R8G8B8A8_UINT', [0x11, 0x22, 0x33, 0x44], 'Uint', 0x44332211],
    ['R8G8B8A8_UINT', [0x100, 0, 0, 0], 'Uint', 0],
    ['R8G8B8A8_UNORM', [1, 2, 3, 4], 'Uint', 0x04030201],
    ['R8G8B8A8_UNORM', [f(0x3f000080), 1, 0, 0], 'Float', 0x0000ff80],
    ['R8G8B8A8_UNORM', [0, 0, f(0x3f000080), 1], 'Float', 0xff800000],
    ['R11G11B10_FLOAT', [0x7ff, 0x7ff, 0x3ff, 0], 'Uint', 0xffffffff],
    ['R11G11B10_FLOAT', [0x7ff, 0, 0x3ff, 0], 'Uint', 0xffc007ff],
    ['R11G11B10_FLOAT', [1, 2, 3, 4], 'Uint', 0x00c01001],
    ['R11G11B10_FLOAT', [0.5, 1, 2, 0], 'Float', 0x801e0380],
    ['R11G11B10_FLOAT', [0.5, 0, -1, 1], 'Float', 0x00000380],
    [
      'R10G10B10A2_UINT',
      [0x1010, 0x1020, 0x1030, 0x41],
      'Uint',
      ((0x30 << 20) | (0x20 << 10) | 0x10 | (1 << 30)) >>> 0,
    ],
    ['R10G10B10A2_UNORM', [f(0x3f002008), 1, 0, 1], 'Float', ((0x3ff << 10) | 0x200 | (3 << 30)) >>> 0],
    ['B8G8R8A8_UNORM', [1, 2, 3, 4], 'Uint', 0x04010203],
    ['B8G8R8A8_UNORM', [0, 0, f(0x3f000080), 1], 'Float', 0xff000080],
    ['A8_UNORM', [0, 0, 0, f(0x3f000080)], 'Float', 0x80],
    ['A8_UNORM', [1, 2, 3, 4], 'Uint', 4],
    ['R32_FLOAT', [f(0x3f800000), 0, 0, 0], 'Float', 0x3f800000],
    ['R32_FLOAT', [1, 0, 0, 0], 'Uint', 1],
  ] as const)('%s %j (%s) is %i', (format, values, kind, expected) => {
    expect(word(format, [...values], kind)).toBe(expected);
  });

  test.each([
    // 16-bit floats: past ±65504 is ±65504 (rounded toward zero, never INF); INF and NaN kept.
    ['R16G16_FLOAT', [1e6, -1e6, 0, 0], 0xfbff7bff],
    ['R16G16_FLOAT', [65520, 65504, 0, 0], 0x7bff7bff],
    ['R16G16_FLOAT', [Infinity, NaN, 0, 0], 0x7e007c00],
    ['R16G16_FLOAT', [-Infinity, -1e-40, 0, 0], 0x8000fc00],
    ['R16_FLOAT', [f(0x7f7fffff), 0, 0, 0], 0x7bff],
    // R11G11B10: past the largest finite value is that value; +INF; NaN all ones; negative is 0.
    ['R11G11B10_FLOAT', [1e6, Infinity, NaN, 0], 0xfffe07bf],
    ['R11G11B10_FLOAT', [-Infinity, -1, 70000, 0], 0xf7c00000],
    // UNORM and SNORM: NaN is 0, INFs clamp.
    ['R8G8B8A8_UNORM', [NaN, Infinity, -Infinity, 1e-40], 0x0000ff00],
    ['R8G8B8A8_SNORM', [NaN, -Infinity, Infinity, -0], 0x007f8100],
    ['R16G16_UNORM', [NaN, Infinity, 0, 0], 0xffff0000],
    ['R10G10B10A2_UNORM', [Infinity, NaN, -1, Infinity], 0xc00003ff],
    // B, G, R, A from bit 0: values[2] (INF) in the first byte.
    ['B8G8R8A8_UNORM', [NaN, 2, Infinity, -Infinity], 0x0000ffff],
    ['A8_UNORM', [0, 0, 0, NaN], 0],
    // 32-bit floats: NaN and INF kept, a denormal flushed with its sign.
    ['R32_FLOAT', [NaN, 0, 0, 0], 0x7fc00000],
    ['R32_FLOAT', [-Infinity, 0, 0, 0], 0xff800000],
    ['R32_FLOAT', [-1e-40, 0, 0, 0], 0x80000000],
  ] as const)('Float beyond the range: %s %j is %i', (format, values, expected) => {
    expect(word(format, [...values], 'Float')).toBe(expected);
  });

  test('every clear format has as many bytes per element as the format table says, and channels within 32-bit words', () => {
    for (const format of CLEAR_FORMATS) {
      const channels = clearChannels(format) ?? [];
      expect(channels.reduce((bits, c) => bits + c.bits, 0) / 8, format).toBe(formatInfo(format)?.bytesPerElement);
      expect(clearElementBytes(channels, [1, 1, 1, 1], 'Uint').length).toBe(formatInfo(format)?.bytesPerElement);
    }
    expect(takesFloatClear(clearChannels('R32_UINT') ?? [])).toBe(false);
    expect(takesFloatClear(clearChannels('R16G16_SNORM') ?? [])).toBe(true);
    expect(clearChannels('R8G8B8A8_UNORM_SRGB')).toBeUndefined();
    expect(() => clearElementBytes(clearChannels('R32_SINT') ?? [], [1, 0, 0, 0], 'Float')).toThrow(
      /takes no Float clear/,
    );
  });
});
