/**
 * Texture descriptors: what a shader needs to read (and, in compute, write) a 2D texture or texture
 * array through the prelude's d3d12_tex2d_* functions (shaders/prelude/textures.wgsl,
 * texture-stores.wgsl): its address, size, format, slices and the tiled layout of each mip. The offsets and format codes are the WGSL's constants, read by reflection.
 * The emulator's stand-in for a shader resource view in a descriptor heap: write the words into any
 * buffer and pass that buffer's address to the shader.
 */
import { preludeConstant } from '../gpu/prelude.js';
import { mipEntry, slicePitchUnits } from '../gpu/texture-words.js';
import { formatInfo } from '../memory/formats.js';
import { invalidArg } from '../api/errors.js';
import type { Resource } from '../d3d12/resource.js';

/** DXGI formats the prelude decodes, and the constant naming each. */
const TEXEL_FORMATS: Record<string, string> = {
  R8G8B8A8_UNORM: 'D3D12_TEXEL_RGBA8_UNORM',
  R8G8B8A8_TYPELESS: 'D3D12_TEXEL_RGBA8_UNORM',
  R8G8B8A8_UNORM_SRGB: 'D3D12_TEXEL_RGBA8_UNORM_SRGB',
  B8G8R8A8_UNORM: 'D3D12_TEXEL_BGRA8_UNORM',
  R32_FLOAT: 'D3D12_TEXEL_R32_FLOAT',
  R32G32B32A32_FLOAT: 'D3D12_TEXEL_RGBA32_FLOAT',
};

export const TEXTURE_DESCRIPTOR_FORMATS = Object.keys(TEXEL_FORMATS);

/** The descriptor words of a 2D texture or texture array: `resource` is the device's own (undefined if not), and live. */
export function textureDescriptor(call: string, resource: Resource | undefined): Uint32Array {
  if (!resource) throw invalidArg(call, 'resource', 'must be a resource created by this device');
  if (resource.released) throw invalidArg(call, 'resource', `${resource.label} was released`);
  const { desc, layout } = resource;
  if (desc.dimension !== 'TEXTURE2D')
    throw invalidArg(
      call,
      'resource',
      `${resource.label} is a ${desc.dimension}; texture descriptors describe 2D textures`,
    );
  const texel = TEXEL_FORMATS[desc.format];
  if (!texel)
    throw invalidArg(
      call,
      'resource',
      `${resource.label}'s format ${desc.format} is not one the prelude decodes (${TEXTURE_DESCRIPTOR_FORMATS.join(', ')})`,
    );
  const c = preludeConstant;
  const words = new Uint32Array(c('D3D12_TEX2D_DESCRIPTOR_WORDS'));
  const address = resource.getGPUVirtualAddress();
  words[c('D3D12_TEX2D_BASE')] = Number(address & 0xffffffffn);
  words[c('D3D12_TEX2D_BASE') + 1] = Number(address >> 32n);
  words[c('D3D12_TEX2D_WIDTH')] = desc.width;
  words[c('D3D12_TEX2D_HEIGHT')] = desc.height;
  words[c('D3D12_TEX2D_MIP_LEVELS')] = desc.mipLevels;
  words[c('D3D12_TEX2D_FORMAT')] = c(texel);
  words[c('D3D12_TEX2D_BYTES_PER_TEXEL')] = formatInfo(desc.format)?.bytesPerElement ?? 4;
  words[c('D3D12_TEX2D_TILE_WIDTH')] = layout.tileShape.widthInTexels;
  words[c('D3D12_TEX2D_TILE_HEIGHT')] = layout.tileShape.heightInTexels;
  words[c('D3D12_TEX2D_STANDARD_TILES')] = layout.standardTilesPerSlice;
  words[c('D3D12_TEX2D_ARRAY_SIZE')] = layout.arraySize;
  words[c('D3D12_TEX2D_SLICE_PITCH')] = slicePitchUnits(layout);
  layout.mips.forEach((mip, level) => words.set(mipEntry(mip), c('D3D12_TEX2D_MIPS') + 4 * level));
  return words;
}
