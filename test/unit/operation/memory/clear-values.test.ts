/**
 * The clear values' conversions (src/memory/clear-values.ts) against written-out results: D3D's
 * FLOAT -> UNORM / SNORM rules on both sides of each clamp, half floats (rounding to nearest even,
 * denormals, overflow, NaN), R11G11B10's small floats as DirectXMath converts, the runtime's
 * denormal flush for 32-bit floats, and whole elements as vkd3d-proton's d3d12_clear tests record
 * native drivers writing them.
 */
import { describe, expect, test } from 'vitest';
import {
  clearChannels,
  clearElementBytes,
  CLEAR_FORMATS,
  takesFloatClear,
  toFloat16,
  toFloat32,
  toSmallFloat,
  toSnorm,
  toUnorm,
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

describe('FLOAT -> UNORM and SNORM', () => {
  test.each([
    [8, NaN, 0],
    [8, -0.001, 0],
    [8, 0, 0],
    [8, 0.5, 128],
    [8, 0.25, 64],
    [8, 1, 255],
    [8, 1.001, 255],
    [8, Infinity, 255],
    [8, -Infinity, 0],
    [16, f(0x3f000080), 0x8000],
    [16, 1, 0xffff],
    [10, f(0x3f002008), 0x200],
    [2, 1, 3],
    [2, 0.5, 2],
  ])('UNORM%i of %f is %i', (bits, value, expected) => {
    expect(toUnorm(value, bits)).toBe(expected);
  });

  test.each([
    [8, NaN, 0],
    [8, -1, 0x81],
    [8, -1.5, 0x81],
    [8, -Infinity, 0x81],
    [8, 1, 0x7f],
    [8, 2, 0x7f],
    [8, 0.5, 0x40],
    [8, -0.5, 0xc0],
    [8, 0, 0],
    [16, -1, 0x8001],
    [16, 0.5, 0x4000],
  ])('SNORM%i of %f is %i', (bits, value, expected) => {
    expect(toSnorm(value, bits)).toBe(expected);
  });
});

describe('floats', () => {
  test.each([
    [0.5, 0x3800],
    [1, 0x3c00],
    [-2, 0xc000],
    [65504, 0x7bff],
    [65519, 0x7bff],
    [65520, 0x7c00],
    [1e6, 0x7c00],
    [-Infinity, 0xfc00],
    [NaN, 0x7e00],
    [-0, 0x8000],
    [2 ** -14, 0x0400],
    [2 ** -24, 0x0001],
    [2 ** -25, 0x0000],
    [3 * 2 ** -26, 0x0001],
    [1e-7, 0x0002],
    [f(0x3f000080), 0x3800],
  ])('half of %f is %i', (value, expected) => {
    expect(toFloat16(value)).toBe(expected);
  });

  test.each([
    [11, 0.5, 0x380],
    [11, 1, 0x3c0],
    [10, 2, 0x200],
    [11, -1, 0],
    [11, -Infinity, 0],
    [11, Infinity, 0x7c0],
    [10, Infinity, 0x3e0],
    [11, NaN, 0x7ff],
    [10, NaN, 0x3ff],
    [11, 1e10, 0x7bf],
    [10, 70000, 0x3df],
    [11, 2 ** -21, 0],
    [11, 2 ** -20, 0x001],
    [11, 2 ** -14, 0x040],
  ])('FLOAT%i of %f is %i', (bits, value, expected) => {
    expect(toSmallFloat(value, bits as 11 | 10)).toBe(expected);
  });

  test('32-bit floats keep their bits, NaN included; denormals are flushed to zero with their sign', () => {
    expect(toFloat32(1)).toBe(0x3f800000);
    expect(toFloat32(NaN)).toBe(0x7fc00000);
    expect(toFloat32(1e-40)).toBe(0);
    expect(toFloat32(-1e-40)).toBe(0x80000000);
    expect(toFloat32(2 ** -126)).toBe(0x00800000);
  });
});

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
