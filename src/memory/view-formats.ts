/**
 * The formats shaders read and write through the prelude's texel functions (shaders/prelude/
 * texel-formats.wgsl): a texture view's or typed buffer view's format, and a texture descriptor's.
 * Each names the WGSL constant of its code (read by reflection where the words are written) and what
 * its channels hold: `float` formats come back as vec4f (UNORM, SNORM, sRGB and FLOAT), `uint` and
 * `sint` ones through the _uint / _sint functions as vec4u / vec4i. Missing channels read as
 * (0, 0, 0, 1), as D3D's format conversion rules fill them.
 */
import { formatInfo } from './formats.js';

export type ViewChannels = 'float' | 'uint' | 'sint';

export interface ViewFormat {
  /** The prelude constant whose value the descriptor holds. */
  code: string;
  channels: ViewChannels;
}

const VIEW_FORMATS: Record<string, ViewFormat> = {
  R8G8B8A8_UNORM: { code: 'D3D12_TEXEL_RGBA8_UNORM', channels: 'float' },
  R8G8B8A8_UNORM_SRGB: { code: 'D3D12_TEXEL_RGBA8_UNORM_SRGB', channels: 'float' },
  B8G8R8A8_UNORM: { code: 'D3D12_TEXEL_BGRA8_UNORM', channels: 'float' },
  R8_UNORM: { code: 'D3D12_TEXEL_R8_UNORM', channels: 'float' },
  R8G8_UNORM: { code: 'D3D12_TEXEL_RG8_UNORM', channels: 'float' },
  R16G16B16A16_FLOAT: { code: 'D3D12_TEXEL_RGBA16_FLOAT', channels: 'float' },
  R32_FLOAT: { code: 'D3D12_TEXEL_R32_FLOAT', channels: 'float' },
  R32G32_FLOAT: { code: 'D3D12_TEXEL_RG32_FLOAT', channels: 'float' },
  R32G32B32A32_FLOAT: { code: 'D3D12_TEXEL_RGBA32_FLOAT', channels: 'float' },
  R8G8B8A8_UINT: { code: 'D3D12_TEXEL_RGBA8_UINT', channels: 'uint' },
  R32_UINT: { code: 'D3D12_TEXEL_R32_UINT', channels: 'uint' },
  R32G32B32A32_UINT: { code: 'D3D12_TEXEL_RGBA32_UINT', channels: 'uint' },
  R32_SINT: { code: 'D3D12_TEXEL_R32_SINT', channels: 'sint' },
  R32G32B32A32_SINT: { code: 'D3D12_TEXEL_RGBA32_SINT', channels: 'sint' },
};

/** The formats views may have, in the order messages list them. */
export const VIEW_FORMAT_NAMES: readonly string[] = Object.keys(VIEW_FORMATS);

/** What the prelude does with `format` through a view, or undefined if it reads no such texel. */
export function viewFormat(format: string): ViewFormat | undefined {
  return Object.hasOwn(VIEW_FORMATS, format) ? VIEW_FORMATS[format] : undefined;
}

/** The format a texture descriptor of a resource of `format` reads: its own, or a TYPELESS family's UNORM member. */
export function descriptorFormat(format: string): string | undefined {
  if (viewFormat(format)) return format;
  // A texture descriptor of an R8G8B8A8_TYPELESS texture reads it as UNORM (writeTextureDescriptor's rule).
  return formatInfo(format)?.typeless && format === 'R8G8B8A8_TYPELESS' ? 'R8G8B8A8_UNORM' : undefined;
}
