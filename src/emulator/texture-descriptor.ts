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
import { descriptorFormat, viewFormat, VIEW_FORMAT_NAMES } from '../memory/view-formats.js';
import { invalidArg } from '../api/errors.js';
import type { Resource } from '../d3d12/resource.js';

/** DXGI formats a texture descriptor reads: the view formats, and R8G8B8A8_TYPELESS read as UNORM. */
export const TEXTURE_DESCRIPTOR_FORMATS = [...VIEW_FORMAT_NAMES, 'R8G8B8A8_TYPELESS'];

/** The descriptor words of a 2D texture or texture array: `resource` is the device's own (undefined if not), and live. */
export function textureDescriptor(call: string, resource: Resource | undefined): Uint32Array {
  if (!resource) throw invalidArg(call, 'resource', 'must be a resource created by this device');
  if (resource.released) throw invalidArg(call, 'resource', `${resource.label} was released`);
  const { desc } = resource;
  if (desc.dimension !== 'TEXTURE2D')
    throw invalidArg(
      call,
      'resource',
      `${resource.label} is a ${desc.dimension}; texture descriptors describe 2D textures`,
    );
  const format = descriptorFormat(desc.format);
  if (!format)
    throw invalidArg(
      call,
      'resource',
      `${resource.label}'s format ${desc.format} is not one the prelude decodes (${TEXTURE_DESCRIPTOR_FORMATS.join(', ')})`,
    );
  return textureWords(resource, format);
}

/**
 * The texture descriptor words of a 2D texture read as `format` (a view format of its family, which
 * the caller checked): the words of textures.wgsl's layout (D3D12_TEX2D_*), written for
 * writeTextureDescriptor and inside every texture view's descriptor.
 */
export function textureWords(resource: Resource, format: string): Uint32Array {
  const { desc, layout } = resource;
  const c = preludeConstant;
  const words = new Uint32Array(c('D3D12_TEX2D_DESCRIPTOR_WORDS'));
  const address = resource.getGPUVirtualAddress();
  words[c('D3D12_TEX2D_BASE')] = Number(address & 0xffffffffn);
  words[c('D3D12_TEX2D_BASE') + 1] = Number(address >> 32n);
  words[c('D3D12_TEX2D_WIDTH')] = desc.width;
  words[c('D3D12_TEX2D_HEIGHT')] = desc.height;
  words[c('D3D12_TEX2D_MIP_LEVELS')] = desc.mipLevels;
  words[c('D3D12_TEX2D_FORMAT')] = c(viewFormat(format)?.code ?? 'D3D12_TEXEL_RGBA8_UNORM');
  words[c('D3D12_TEX2D_BYTES_PER_TEXEL')] = formatInfo(desc.format)?.bytesPerElement ?? 4;
  words[c('D3D12_TEX2D_TILE_WIDTH')] = layout.tileShape.widthInTexels;
  words[c('D3D12_TEX2D_TILE_HEIGHT')] = layout.tileShape.heightInTexels;
  words[c('D3D12_TEX2D_STANDARD_TILES')] = layout.standardTilesPerSlice;
  words[c('D3D12_TEX2D_ARRAY_SIZE')] = layout.arraySize;
  words[c('D3D12_TEX2D_SLICE_PITCH')] = slicePitchUnits(layout);
  layout.mips.forEach((mip, level) => words.set(mipEntry(mip), c('D3D12_TEX2D_MIPS') + 4 * level));
  return words;
}
