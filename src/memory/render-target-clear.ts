/**
 * ClearRenderTargetView's colour made into the colour a WebGPU clear (a render pass's loadOp
 * 'clear') must be given so that the back buffer holds D3D12's bits. GPU-free.
 *
 * WebGPU converts a clear colour to the format on the GPU, with the rounding the implementation
 * chooses (round to nearest for UNORM; for 16-bit floats, nearest even or toward zero, and a value
 * past 65504 may become INF: SwiftShader under Dawn stores 65520 as INF and -1e6 as a NaN, which
 * test/gpu/operation/d3d12/clear-conversions.test.ts catches). D3D12's conversion is fixed (float-conversions.ts: the Data Conversion
 * rules). So the colour is converted here, D3D12's way, and handed to WebGPU as the value the stored
 * bits stand for: k / 255 for an 8-bit UNORM channel whose bits are k, a 16-bit float's own value for
 * a 16-bit FLOAT channel. Every rounding rule leaves a value that the format holds exactly as it is
 * (k / 255 in 32-bit float arithmetic is within 2^-16 of k / 255, far inside the half step that
 * rounding to nearest needs), so the GPU stores the bits computed here.
 *
 * Formats: the back-buffer formats (src/gpu/canvas-surface.ts's CANVAS_FORMATS). Colours are finite
 * (validateClearColor: WebGPU's GPUColor takes no INF or NaN, so a clear cannot store an INF), and a
 * finite colour never converts to INF or NaN here (toFloat16 rounds toward zero).
 */
import { toFloat16, toUnorm } from './float-conversions.js';

export type ClearColor = readonly [number, number, number, number];

/** The value of a 16-bit float's bits (exact in a double). */
function halfValue(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >>> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0x1f) return mantissa ? NaN : sign * Infinity;
  return exponent === 0 ? sign * mantissa * 2 ** -24 : sign * (1024 + mantissa) * 2 ** (exponent - 25);
}

const unorm8 = (value: number): number => toUnorm(value, 8) / 255;
const float16 = (value: number): number => halfValue(toFloat16(value));

/** Per back-buffer format, the conversion of one channel (all channels of these formats are alike). */
const CHANNEL: Record<string, (value: number) => number> = {
  R8G8B8A8_UNORM: unorm8,
  B8G8R8A8_UNORM: unorm8,
  R16G16B16A16_FLOAT: float16,
};

/** The clear colour (r, g, b, a) WebGPU needs to store D3D12's conversion of `color` in a `format` target. */
export function renderTargetClearColor(format: string, color: ClearColor): [number, number, number, number] {
  const channel = Object.hasOwn(CHANNEL, format) ? CHANNEL[format] : undefined;
  if (!channel) throw new RangeError(`${format} is not a back-buffer format`);
  return [channel(color[0]), channel(color[1]), channel(color[2]), channel(color[3])];
}
