/**
 * The values of ClearUnorderedAccessViewUint / Float as the bits of one element of a view's format:
 * GPU-free, the CPU side of the UAV clear kernel (which only writes the bits) and the reference the
 * tests compare against.
 *
 * Rules (sources in docs/api.md, UAV clears):
 *   - Uint: the low n bits of values[i] go into channel i, n its width; no conversion (D3D11/12
 *     ClearUnorderedAccessViewUint; vkd3d-proton's d3d12_clear tests on native drivers).
 *   - Float: converted per channel. FLOAT -> UNORM / SNORM as the D3D functional spec says (NaN is 0,
 *     clamped, scaled, rounded half away from zero in float arithmetic); 32-bit floats keep their
 *     bits, denormals flushed to zero (signed) and NaNs kept (the D3D12 runtime's rule); 16-bit
 *     floats round to nearest even; the 11- and 10-bit floats of R11G11B10_FLOAT as DirectXMath's
 *     XMStoreFloat3PK converts them. UINT and SINT channels take no Float clear.
 * The channels of a format are listed from bit 0 up; `component` is the index into values[] (B8G8R8A8
 * stores values[2] in its first byte, A8_UNORM only values[3]).
 */

export type ChannelType = 'UNORM' | 'SNORM' | 'UINT' | 'SINT' | 'FLOAT';

export interface Channel {
  component: 0 | 1 | 2 | 3;
  bits: number;
  type: ChannelType;
}

const RGBA = [0, 1, 2, 3] as const;

function uniform(count: number, bits: number, type: ChannelType): Channel[] {
  return RGBA.slice(0, count).map((component) => ({ component, bits, type }));
}

const FORMATS: Record<string, Channel[]> = {};
for (const [prefix, count, bits, types] of [
  ['R32G32B32A32', 4, 32, ['FLOAT', 'UINT', 'SINT']],
  ['R16G16B16A16', 4, 16, ['FLOAT', 'UNORM', 'UINT', 'SNORM', 'SINT']],
  ['R32G32', 2, 32, ['FLOAT', 'UINT', 'SINT']],
  ['R8G8B8A8', 4, 8, ['UNORM', 'UINT', 'SNORM', 'SINT']],
  ['R16G16', 2, 16, ['FLOAT', 'UNORM', 'UINT', 'SNORM', 'SINT']],
  ['R32', 1, 32, ['FLOAT', 'UINT', 'SINT']],
  ['R8G8', 2, 8, ['UNORM', 'UINT', 'SNORM', 'SINT']],
  ['R16', 1, 16, ['FLOAT', 'UNORM', 'UINT', 'SNORM', 'SINT']],
  ['R8', 1, 8, ['UNORM', 'UINT', 'SNORM', 'SINT']],
] as const) {
  for (const type of types) FORMATS[`${prefix}_${type}`] = uniform(count, bits, type);
}
for (const type of ['UNORM', 'UINT'] as const) {
  FORMATS[`R10G10B10A2_${type}`] = [...uniform(3, 10, type), { component: 3, bits: 2, type }];
}
FORMATS.R11G11B10_FLOAT = [
  { component: 0, bits: 11, type: 'FLOAT' },
  { component: 1, bits: 11, type: 'FLOAT' },
  { component: 2, bits: 10, type: 'FLOAT' },
];
FORMATS.B8G8R8A8_UNORM = [2, 1, 0, 3].map((component) => ({
  component: component as Channel['component'],
  bits: 8,
  type: 'UNORM' as const,
}));
FORMATS.A8_UNORM = [{ component: 3, bits: 8, type: 'UNORM' }];

/** The formats a UAV clear writes (typed UAV formats with a channel layout), and their channels. */
export const CLEAR_FORMATS: readonly string[] = Object.keys(FORMATS);

export function clearChannels(format: string): readonly Channel[] | undefined {
  return Object.hasOwn(FORMATS, format) ? FORMATS[format] : undefined;
}

/** Whether a Float clear converts to every channel of `format` (no UINT or SINT channel). */
export const takesFloatClear = (channels: readonly Channel[]): boolean =>
  channels.every((c) => c.type !== 'UINT' && c.type !== 'SINT');

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

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

/** D3D's FLOAT -> SNORM of n bits, as the two's complement n-bit pattern. */
export function toSnorm(value: number, bits: number): number {
  if (Number.isNaN(value)) return 0;
  const c = Math.fround(Math.min(1, Math.max(-1, Math.fround(value))) * (2 ** (bits - 1) - 1));
  const integer = Math.trunc(c >= 0 ? Math.fround(c + 0.5) : Math.fround(c - 0.5));
  return integer < 0 ? integer + 2 ** bits : integer;
}

/** A 32-bit float's bits with denormals flushed to (signed) zero and NaNs kept. */
export function toFloat32(value: number): number {
  const bits = floatBits(value);
  return (bits & 0x7f800000) === 0 ? (bits & 0x80000000) >>> 0 : bits;
}

/** A 16-bit float, rounded to nearest even; too large is INF, NaN stays NaN. */
export function toFloat16(value: number): number {
  const bits = toFloat32(value);
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  const mantissa = bits & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 | (mantissa >>> 13) : 0);
  const e = exponent - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    // A 16-bit denormal (or zero): the mantissa with its implicit 1, shifted, rounded to nearest even.
    if (e < -10) return sign;
    const full = mantissa | 0x800000;
    const shift = 14 - e;
    const half = 1 << (shift - 1);
    const rest = full & ((1 << shift) - 1);
    let result = full >>> shift;
    if (rest > half || (rest === half && (result & 1) === 1)) result++;
    return sign | result;
  }
  let result = (e << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (result & 1) === 1)) result++;
  return sign | result;
}

/**
 * An unsigned small float (R11G11B10_FLOAT's 11-bit and 10-bit channels: 5 exponent bits, 6 or 5
 * mantissa bits), as DirectXMath's XMStoreFloat3PK converts: NaN is all ones, +INF is INF, negative
 * values (-INF too) and values below the smallest denormal (2^-20, 2^-19) are 0, values past the largest
 * finite one are that one, the rest round to nearest even.
 */
export function toSmallFloat(value: number, bits: 11 | 10): number {
  const mantissaBits = bits - 5;
  const all = (1 << bits) - 1;
  const source = toFloat32(value);
  const magnitude = (source & 0x7fffffff) >>> 0;
  const negative = (source & 0x80000000) !== 0;
  if ((magnitude & 0x7f800000) === 0x7f800000) {
    if (magnitude !== 0x7f800000) return all;
    return negative ? 0 : 0x1f << mantissaBits;
  }
  const smallest = bits === 11 ? 0x35800000 : 0x36000000;
  if (negative || magnitude < smallest) return 0;
  // The largest finite value: 2^15 with every mantissa bit set (65024, or 64512 for 10 bits).
  const largest = ((0x8e << 23) | (((1 << mantissaBits) - 1) << (23 - mantissaBits))) >>> 0;
  if (magnitude > largest) return (0x1e << mantissaBits) | ((1 << mantissaBits) - 1);
  // Below 2^-14: a denormal, the mantissa with its implicit 1 shifted into place; else re-biased.
  const working =
    magnitude < 0x38800000
      ? (0x800000 | (magnitude & 0x7fffff)) >>> (113 - (magnitude >>> 23))
      : magnitude - 0x38000000;
  const drop = 23 - mantissaBits;
  return ((working + ((1 << (drop - 1)) - 1) + ((working >>> drop) & 1)) >>> drop) & all;
}

function floatChannel(channel: Channel, value: number): number {
  switch (channel.type) {
    case 'UNORM':
      return toUnorm(value, channel.bits);
    case 'SNORM':
      return toSnorm(value, channel.bits);
    case 'FLOAT':
      return channel.bits === 32
        ? toFloat32(value)
        : channel.bits === 16
          ? toFloat16(value)
          : toSmallFloat(value, channel.bits as 11 | 10);
    default:
      throw new RangeError(`a ${channel.type} channel takes no Float clear`);
  }
}

/**
 * The bytes of one element of a format holding the clear values: `uint` values (32-bit, as
 * ClearUnorderedAccessViewUint takes them) keep their low bits, float ones are converted.
 */
export function clearElementBytes(
  channels: readonly Channel[],
  values: readonly number[],
  kind: 'Uint' | 'Float',
): Uint8Array {
  const totalBits = channels.reduce((sum, c) => sum + c.bits, 0);
  const words = new Uint32Array(Math.ceil(totalBits / 32));
  let offset = 0;
  for (const channel of channels) {
    const value = values[channel.component] ?? 0;
    const mask = channel.bits === 32 ? 0xffffffff : 2 ** channel.bits - 1;
    const field = kind === 'Uint' ? (value >>> 0) & mask : floatChannel(channel, value) & mask;
    // No channel straddles a 32-bit word in the formats listed.
    const word = offset >>> 5;
    words[word] = ((words[word] as number) | (field << (offset & 31))) >>> 0;
    offset += channel.bits;
  }
  return new Uint8Array(words.buffer, 0, totalBits / 8);
}
