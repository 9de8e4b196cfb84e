/**
 * D3D's conversions of a FLOAT (a 32-bit float, as the C API takes clear values) into the bits of one
 * channel of a narrower format: UNORM, SNORM, 32-bit FLOAT, 16-bit FLOAT and R11G11B10's unsigned
 * 11- and 10-bit floats. GPU-free; the UAV clear kernel's values (clear-values.ts) and render-target
 * clear colours (render-target-clear.ts) are made here.
 *
 * Sources, fact by fact:
 *   - D3D's "Data Conversion Rules" (learn.microsoft.com, direct3d10/d3d10-graphics-programming-guide-
 *     resources-data-conversion, "Floating Point Conversion", higher to lower range), for every
 *     FLOAT -> narrower FLOAT: round toward zero; a finite value past the target's range becomes its
 *     largest finite value with the sign kept, not an infinity (a consequence of rounding toward
 *     zero); INF stays INF where the target has one; NaN stays NaN where the target has one; a source
 *     denormal becomes a target denormal where representable, else zero (the sign kept where the
 *     target has one).
 *   - The same page, FLOAT -> UNORM / SNORM: NaN is 0; clamp to [0, 1] / [-1, 1] (INFs included);
 *     scale by 2^n - 1 / 2^(n-1) - 1; add 0.5 (SNORM: away from zero); drop the fraction. The
 *     arithmetic is FLOAT arithmetic (Math.fround at each step), which is what makes 0x3f000080 *
 *     65535 land on 32768.0.
 *   - vkd3d-proton's tests/d3d12_clear.c (test_clear_unordered_access_view_buffer and _image) record
 *     native drivers on these rules' exactly representable cases: R16G16_UNORM 0x3f000080 -> 0x8000,
 *     2.0 -> 0xffff, -1.0 -> 0; R8G8B8A8_UNORM and B8G8R8A8_UNORM 0x3f000080 -> 0x80;
 *     R10G10B10A2_UNORM 0x3f002008 -> 0x200; R16G16_FLOAT 0x3f000080 -> 0x3800; R11G11B10_FLOAT
 *     0.5, 1, 2 -> 0x380, 0x3c0, 0x200 and -1.0 -> 0 (no sign bit: negative values are 0). Those tests
 *     compare float clears with a tolerance of 1 (compare_color), the room a driver rounding the
 *     other way on an inexact value needs; they hold no out-of-range, INF or NaN float case.
 *   - 32-bit FLOAT: the bits are kept with denormals flushed to zero (sign kept) and NaNs kept, the
 *     D3D12 runtime's rule for float clears (docs/api.md, UAV clears).
 */

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The FLOAT nearest `value` (the C API's float parameter), as bits. */
function floatBits(value: number): number {
  f32[0] = value;
  return u32[0] as number;
}

/** D3D's FLOAT -> UNORM of n bits. */
export function toUnorm(value: number, bits: number): number {
  if (Number.isNaN(value)) return 0;
  const c = Math.min(1, Math.max(0, Math.fround(value)));
  return Math.trunc(Math.fround(Math.fround(c * (2 ** bits - 1)) + 0.5));
}

/** D3D's FLOAT -> SNORM of n bits, as the two's complement n-bit pattern (-1 is -(2^(n-1) - 1)). */
export function toSnorm(value: number, bits: number): number {
  if (Number.isNaN(value)) return 0;
  const c = Math.fround(Math.min(1, Math.max(-1, Math.fround(value))) * (2 ** (bits - 1) - 1));
  const integer = Math.trunc(c >= 0 ? Math.fround(c + 0.5) : Math.fround(c - 0.5));
  // A tiny negative value truncates to -0, whose pattern is 0.
  return integer < 0 ? integer + 2 ** bits : Math.abs(integer);
}

/** A 32-bit float's bits with denormals flushed to (signed) zero and NaNs kept. */
export function toFloat32(value: number): number {
  const bits = floatBits(value);
  return (bits & 0x7f800000) === 0 ? (bits & 0x80000000) >>> 0 : bits;
}

/**
 * A FLOAT narrowed to a float of 5 exponent bits (bias 15) and `mantissaBits`, by the Data
 * Conversion rules: rounded toward zero, so a finite value never becomes INF. `signed` formats keep
 * the sign (16-bit floats); unsigned ones (R11G11B10's) make every negative value, -INF too, zero.
 */
function narrowFloat(value: number, mantissaBits: number, signed: boolean): number {
  const source = toFloat32(value);
  const negative = (source & 0x80000000) !== 0;
  const sign = signed && negative ? 1 << (5 + mantissaBits) : 0;
  const exponent = (source >>> 23) & 0xff;
  const mantissa = source & 0x7fffff;
  const drop = 23 - mantissaBits;
  const infinity = 0x1f << mantissaBits;
  if (exponent === 0xff) {
    // NaN: the quiet bit set and the top mantissa bits kept (never all zero, which would read as INF).
    if (mantissa !== 0) return sign | infinity | (1 << (mantissaBits - 1)) | (mantissa >>> drop);
    return negative && !signed ? 0 : sign | infinity;
  }
  if (negative && !signed) return 0;
  // The exponent re-biased from 127 to 15.
  const e = exponent - 112;
  // Past the largest finite value (2^15 × (2 − 2^-mantissaBits)): that value.
  if (e >= 0x1f) return sign | (infinity - 1);
  if (e > 0) return sign | (e << mantissaBits) | (mantissa >>> drop);
  // A target denormal: the mantissa with its implicit 1, shifted into place, truncated; too small is 0.
  const shift = drop + 1 - e;
  return shift > 24 ? sign : sign | ((mantissa | 0x800000) >>> shift);
}

/** A 16-bit float: rounded toward zero, past ±65504 is ±65504, ±INF and NaN kept, sign kept. */
export function toFloat16(value: number): number {
  return narrowFloat(value, 10, true);
}

/**
 * An unsigned small float (R11G11B10_FLOAT's 11-bit and 10-bit channels: 5 exponent bits, 6 or 5
 * mantissa bits): rounded toward zero; NaN is all ones; +INF is INF; negative values (-INF too) are
 * 0; values past the largest finite one (65024, or 64512 for 10 bits) are that one; below the
 * smallest denormal (2^-20, 2^-19) is 0.
 */
export function toSmallFloat(value: number, bits: 11 | 10): number {
  // NaN as all ones: any NaN pattern keeps the rule; this is the one DirectXMath's XMStoreFloat3PK writes.
  if (Number.isNaN(value)) return (1 << bits) - 1;
  return narrowFloat(value, bits - 5, false);
}
