/**
 * The values of ClearUnorderedAccessViewUint / Float as the bits of one element of a view's format:
 * GPU-free, the CPU side of the UAV clear kernel (which only writes the bits) and the reference the
 * tests compare against.
 *
 * Rules (sources in docs/api.md, UAV clears, and float-conversions.ts):
 *   - Uint: the low n bits of values[i] go into channel i, n its width; no conversion (D3D11/12
 *     ClearUnorderedAccessViewUint; vkd3d-proton's d3d12_clear tests on native drivers).
 *   - Float: converted per channel by D3D's Data Conversion rules (float-conversions.ts): UNORM and
 *     SNORM with NaN as 0, clamped, scaled, rounded half away from zero in float arithmetic; 32-bit
 *     floats keep their bits, denormals flushed to zero (signed) and NaNs kept; 16-bit floats and
 *     R11G11B10's 11- and 10-bit floats rounded toward zero, so a finite value past the range is the
 *     largest finite value, INF stays INF, NaN stays NaN (R11G11B10: negative values are 0). UINT
 *     and SINT channels take no Float clear.
 * The channels of a format are listed from bit 0 up; `component` is the index into values[] (B8G8R8A8
 * stores values[2] in its first byte, A8_UNORM only values[3]).
 */
import { toFloat16, toFloat32, toSmallFloat, toSnorm, toUnorm } from './float-conversions.js';

export { toFloat16, toFloat32, toSmallFloat, toSnorm, toUnorm };

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
