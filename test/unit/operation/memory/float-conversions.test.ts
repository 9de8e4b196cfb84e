/**
 * D3D's FLOAT -> format conversions (src/memory/float-conversions.ts) against written-out bits, both
 * sides of every boundary: UNORM and SNORM (NaN, the clamps, INFs, values needing rounding, FLOAT
 * arithmetic); 16-bit floats rounded toward zero (the largest finite value and past it, INFs, NaNs,
 * signed zeros, the smallest normal, denormals and below them, 32-bit denormals, values a
 * round-to-nearest-even conversion would round up); R11G11B10's unsigned 11- and 10-bit floats
 * likewise; 32-bit floats kept with denormals flushed. The rows marked "vkd3d-proton" are the values
 * tests/d3d12_clear.c records native drivers writing; the rest follow D3D's Data Conversion rules.
 */
import { describe, expect, test } from 'vitest';
import { toFloat16, toFloat32, toSmallFloat, toSnorm, toUnorm } from '../../../../src/memory/float-conversions.js';

/** A float given by its bits (how vkd3d-proton's tests write them). */
const f = (bits: number): number => new Float32Array(new Uint32Array([bits]).buffer)[0] as number;
const FLOAT_MAX = f(0x7f7fffff);

describe('FLOAT -> UNORM', () => {
  test.each([
    [8, NaN, 0],
    [8, -Infinity, 0],
    [8, -1, 0],
    [8, -0.001, 0],
    [8, -0, 0],
    [8, 1e-40, 0],
    [8, 0, 0],
    [8, 0.25, 64],
    [8, 0.5, 128],
    // 0.1f × 255 is 25.5000004 in FLOAT arithmetic: + 0.5, truncated, is 26 (ClearRenderTargetView's colour in vkd3d-proton's test_clear_render_target_view).
    [8, 0.1, 26],
    [8, 0.3, 77],
    [8, 0.75, 191],
    [8, 1, 255],
    [8, 1.001, 255],
    [8, FLOAT_MAX, 255],
    [8, Infinity, 255],
    // vkd3d-proton: 0.5f + epsilon is 0x80 in R8G8B8A8_UNORM, B8G8R8A8_UNORM.
    [8, f(0x3f000080), 0x80],
    // vkd3d-proton: R16G16_UNORM 0.50000762951 is 0x8000, 2.0 is 0xffff, -1.0 is 0.
    [16, f(0x3f000080), 0x8000],
    [16, 2, 0xffff],
    [16, -1, 0],
    [16, 1, 0xffff],
    // vkd3d-proton: R10G10B10A2_UNORM 0.5004887585532747 is 0x200.
    [10, f(0x3f002008), 0x200],
    [2, 1, 3],
    [2, 0.5, 2],
    [2, 0.16, 0],
    [2, 0.17, 1],
  ])('UNORM%i of %f is %i', (bits, value, expected) => {
    expect(toUnorm(value, bits)).toBe(expected);
  });
});

describe('FLOAT -> SNORM', () => {
  test.each([
    [8, NaN, 0],
    [8, -Infinity, 0x81],
    [8, -FLOAT_MAX, 0x81],
    [8, -1.5, 0x81],
    [8, -1, 0x81],
    [8, -0.5, 0xc0],
    [8, -0, 0],
    [8, -1e-40, 0],
    [8, 0, 0],
    [8, 0.5, 0x40],
    [8, 1, 0x7f],
    [8, 2, 0x7f],
    [8, Infinity, 0x7f],
    [16, -1, 0x8001],
    [16, 0.5, 0x4000],
    [16, -0.5, 0xc000],
    [16, NaN, 0],
  ])('SNORM%i of %f is %i', (bits, value, expected) => {
    expect(toSnorm(value, bits)).toBe(expected);
  });
});

describe('FLOAT -> 16-bit FLOAT: rounded toward zero', () => {
  test.each([
    [0, 0x0000],
    [-0, 0x8000],
    [0.5, 0x3800],
    [1, 0x3c00],
    [-2, 0xc000],
    // vkd3d-proton: R16G16_FLOAT 0.5 + epsilon is 0x3800.
    [f(0x3f000080), 0x3800],
    // Half an ulp above 1, and one and a half (to nearest even: 0x3c02).
    [1 + 2 ** -11, 0x3c00],
    [1 + 3 * 2 ** -11, 0x3c01],
    [1 + 2 ** -10, 0x3c01],
    [-(1 + 3 * 2 ** -11), 0xbc01],
    // Between 2048 and 2050 (to nearest: 2050).
    [2049.5, 0x6800],
    // Just below the largest finite value: the one below it.
    [65503.9921875, 0x7bfe],
    // The largest finite value and past it: that value, never INF (to nearest even, 65520 would be INF).
    [65504, 0x7bff],
    [65519, 0x7bff],
    [65520, 0x7bff],
    [65536, 0x7bff],
    [1e6, 0x7bff],
    [FLOAT_MAX, 0x7bff],
    [-65520, 0xfbff],
    [-1e6, 0xfbff],
    [-FLOAT_MAX, 0xfbff],
    [Infinity, 0x7c00],
    [-Infinity, 0xfc00],
    [NaN, 0x7e00],
    [f(0xffc00000), 0xfe00],
    [f(0x7fc00123), 0x7e00],
    // The smallest normal and the largest denormal below it.
    [2 ** -14, 0x0400],
    [2 ** -14 - 2 ** -24, 0x03ff],
    [2 ** -15, 0x0200],
    // The smallest denormal, and below it (to nearest even: 7 × 2^-26 would be 0x0002, 3 × 2^-26 0x0001).
    [2 ** -24, 0x0001],
    [7 * 2 ** -26, 0x0001],
    [3 * 2 ** -26, 0x0000],
    [2 ** -25, 0x0000],
    [1e-7, 0x0001],
    [-(2 ** -24), 0x8001],
    [-(2 ** -25), 0x8000],
    // 32-bit denormals: below every 16-bit value, zero with the sign kept.
    [1e-40, 0x0000],
    [-1e-40, 0x8000],
  ])('half of %f is %i', (value, expected) => {
    expect(toFloat16(value)).toBe(expected);
  });
});

describe("FLOAT -> R11G11B10's unsigned 11- and 10-bit floats: rounded toward zero", () => {
  test.each([
    // vkd3d-proton: 0.5, 1, 2 are 0x380, 0x3c0 and (10-bit) 0x200; -1.0 is 0.
    [11, 0.5, 0x380],
    [11, 1, 0x3c0],
    [10, 2, 0x200],
    [11, -1, 0],
    [10, -1, 0],
    [11, -0, 0],
    [11, -Infinity, 0],
    [11, -FLOAT_MAX, 0],
    [11, Infinity, 0x7c0],
    [10, Infinity, 0x3e0],
    [11, NaN, 0x7ff],
    [10, NaN, 0x3ff],
    [11, f(0xffc00000), 0x7ff],
    // One and a half ulps above 1 (to nearest even: 0x3c2, 0x1e2).
    [11, 1 + 3 * 2 ** -7, 0x3c1],
    [10, 1 + 3 * 2 ** -6, 0x1e1],
    // The largest finite values (65024, 64512) and past them.
    [11, 65024, 0x7bf],
    [11, 65023, 0x7be],
    [11, 65535, 0x7bf],
    [11, 1e10, 0x7bf],
    [11, FLOAT_MAX, 0x7bf],
    [10, 64512, 0x3df],
    [10, 64511, 0x3de],
    [10, 70000, 0x3df],
    // The smallest normal; the smallest denormal and below it.
    [11, 2 ** -14, 0x040],
    [10, 2 ** -14, 0x020],
    [11, 2 ** -20, 0x001],
    [11, 1.5 * 2 ** -20, 0x001],
    [11, 2 ** -21, 0],
    [10, 2 ** -19, 0x001],
    [10, 2 ** -20, 0],
    [11, 1e-40, 0],
  ])('FLOAT%i of %f is %i', (bits, value, expected) => {
    expect(toSmallFloat(value, bits as 11 | 10)).toBe(expected);
  });
});

describe('FLOAT -> 32-bit FLOAT', () => {
  test.each([
    [1, 0x3f800000],
    [-2, 0xc0000000],
    [NaN, 0x7fc00000],
    [Infinity, 0x7f800000],
    [-Infinity, 0xff800000],
    [FLOAT_MAX, 0x7f7fffff],
    [2 ** -126, 0x00800000],
    [1e-40, 0],
    [-1e-40, 0x80000000],
    [-0, 0x80000000],
  ])('%f keeps its bits (denormals flushed): %i', (value, expected) => {
    expect(toFloat32(value)).toBe(expected);
  });
});
