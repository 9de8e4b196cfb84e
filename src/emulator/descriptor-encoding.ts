/**
 * Descriptors as the prelude reads them (shaders/prelude/descriptors.wgsl): the words a checked view,
 * constant buffer view or sampler becomes in a CBV_SRV_UAV or SAMPLER descriptor heap, and a static
 * sampler's words in a root signature's code. Offsets, kinds and codes are the WGSL's constants.
 */
import type { ComparisonFunc, TextureAddressMode } from '../api/binding-types.js';
import { preludeConstant as c } from '../gpu/prelude.js';
import { viewFormat } from '../memory/view-formats.js';
import type { Resource } from '../d3d12/resource.js';
import type { ConstantBufferPlan, ViewPlan } from '../validation/views.js';
import type { SamplerPlan } from '../validation/samplers.js';
import { textureWords } from './texture-descriptor.js';

/** GetDescriptorHandleIncrementSize of each descriptor heap type (RTV and DSV descriptors live on the CPU only). */
export function descriptorIncrement(type: 'CBV_SRV_UAV' | 'SAMPLER' | 'RTV' | 'DSV'): number {
  if (type === 'CBV_SRV_UAV') return c('D3D12_CBV_SRV_UAV_DESCRIPTOR_BYTES');
  if (type === 'SAMPLER') return c('D3D12_SAMPLER_DESCRIPTOR_BYTES');
  // Any size works for descriptors nothing on the GPU reads; 32 is a common hardware one.
  return 32;
}

const f32Bits = (value: number): number => new Uint32Array(new Float32Array([value]).buffer)[0] ?? 0;

const VIEW_KINDS: Record<string, string> = {
  'SRV typed': 'D3D12_DESC_SRV_TYPED_BUFFER',
  'SRV raw': 'D3D12_DESC_SRV_RAW_BUFFER',
  'SRV structured': 'D3D12_DESC_SRV_STRUCTURED_BUFFER',
  'SRV texture2d': 'D3D12_DESC_SRV_TEXTURE2D',
  'SRV texture2darray': 'D3D12_DESC_SRV_TEXTURE2DARRAY',
  'UAV typed': 'D3D12_DESC_UAV_TYPED_BUFFER',
  'UAV raw': 'D3D12_DESC_UAV_RAW_BUFFER',
  'UAV structured': 'D3D12_DESC_UAV_STRUCTURED_BUFFER',
  'UAV texture2d': 'D3D12_DESC_UAV_TEXTURE2D',
  'UAV texture2darray': 'D3D12_DESC_UAV_TEXTURE2DARRAY',
};

function setAddress(words: Uint32Array, address: bigint): void {
  words[c('D3D12_DESC_ADDRESS')] = Number(address & 0xffffffffn);
  words[c('D3D12_DESC_ADDRESS') + 1] = Number(address >> 32n);
}

/** The words of a shader resource or unordered access view of `resource` (null: a NULL view). */
export function encodeView(plan: ViewPlan, resource: Resource | null): Uint32Array {
  const words = new Uint32Array(c('D3D12_CBV_SRV_UAV_DESCRIPTOR_BYTES') / 4);
  const kind = VIEW_KINDS[`${plan.view} ${plan.shape === 'buffer' ? plan.kind : plan.shape}`] as string;
  words[c('D3D12_DESC_KIND')] = c(kind) | (plan.isNull ? c('D3D12_DESC_NULL') : 0);
  words[c('D3D12_DESC_RESOURCE')] = resource?.id ?? 0;
  const format = viewFormat(plan.format);
  words[c('D3D12_DESC_FORMAT')] = (format ? c(format.code) : 0) | (plan.mapping << 8);
  if (plan.shape === 'buffer') {
    words[c('D3D12_DESC_COUNT')] = plan.numElements;
    words[c('D3D12_DESC_STRIDE')] = plan.elementBytes;
    if (resource) setAddress(words, resource.getGPUVirtualAddress() + BigInt(plan.firstElement * plan.elementBytes));
    return words;
  }
  words[c('D3D12_DESC_COUNT')] = plan.firstMip | (plan.mipCount << 16);
  words[c('D3D12_DESC_STRIDE')] = plan.firstSlice | (plan.sliceCount << 16);
  words[c('D3D12_DESC_MIN_LOD')] = f32Bits(plan.minLodClamp);
  if (resource) words.set(textureWords(resource, plan.format), c('D3D12_DESC_TEXTURE'));
  return words;
}

/** The words of a constant buffer view. */
export function encodeConstantBufferView(plan: ConstantBufferPlan): Uint32Array {
  const words = new Uint32Array(c('D3D12_CBV_SRV_UAV_DESCRIPTOR_BYTES') / 4);
  words[c('D3D12_DESC_KIND')] = c('D3D12_DESC_CBV') | (plan.isNull ? c('D3D12_DESC_NULL') : 0);
  words[c('D3D12_DESC_COUNT')] = plan.size;
  setAddress(words, plan.address);
  return words;
}

const ADDRESS_MODES: Record<TextureAddressMode, string> = {
  WRAP: 'D3D12_ADDRESS_WRAP',
  MIRROR: 'D3D12_ADDRESS_MIRROR',
  CLAMP: 'D3D12_ADDRESS_CLAMP',
  BORDER: 'D3D12_ADDRESS_BORDER',
  MIRROR_ONCE: 'D3D12_ADDRESS_MIRROR_ONCE',
};

const COMPARISONS: Record<ComparisonFunc, number> = {
  NONE: 0,
  NEVER: 1,
  LESS: 2,
  EQUAL: 3,
  LESS_EQUAL: 4,
  GREATER: 5,
  NOT_EQUAL: 6,
  GREATER_EQUAL: 7,
  ALWAYS: 8,
};

/** The filter bits of a D3D12_FILTER name (D3D12_FILTER_MIN_LINEAR ...). */
function filterBits(filter: string): number {
  const comparison = filter.startsWith('COMPARISON_') ? c('D3D12_FILTER_COMPARISON') : 0;
  const base = filter.replace(/^COMPARISON_/, '');
  if (base === 'ANISOTROPIC')
    return (
      comparison |
      c('D3D12_FILTER_ANISOTROPIC') |
      c('D3D12_FILTER_MIN_LINEAR') |
      c('D3D12_FILTER_MAG_LINEAR') |
      c('D3D12_FILTER_MIP_LINEAR')
    );
  // MIN_x_MAG_y_MIP_z, with equal neighbours merged: MIN_MAG_MIP_LINEAR, MIN_MAG_POINT_MIP_LINEAR, ...
  const parts = base.split('_');
  const modes: Record<'MIN' | 'MAG' | 'MIP', string> = { MIN: '', MAG: '', MIP: '' };
  let pending: ('MIN' | 'MAG' | 'MIP')[] = [];
  for (const part of parts) {
    if (part === 'MIN' || part === 'MAG' || part === 'MIP') pending.push(part);
    else {
      for (const name of pending) modes[name] = part;
      pending = [];
    }
  }
  return (
    comparison |
    (modes.MIN === 'LINEAR' ? c('D3D12_FILTER_MIN_LINEAR') : 0) |
    (modes.MAG === 'LINEAR' ? c('D3D12_FILTER_MAG_LINEAR') : 0) |
    (modes.MIP === 'LINEAR' ? c('D3D12_FILTER_MIP_LINEAR') : 0)
  );
}

/** The words of a sampler (a SAMPLER heap's descriptor, or a static sampler). */
export function encodeSampler(plan: SamplerPlan): Uint32Array {
  const words = new Uint32Array(c('D3D12_SAMPLER_DESCRIPTOR_BYTES') / 4);
  words[c('D3D12_DESC_KIND')] = c('D3D12_DESC_SAMPLER');
  words[c('D3D12_SAMPLER_FILTER')] = filterBits(plan.filter);
  words[c('D3D12_SAMPLER_ADDRESS')] = plan.address.reduce(
    (bits, mode, axis) => bits | (c(ADDRESS_MODES[mode]) << (4 * axis)),
    0,
  );
  words[c('D3D12_SAMPLER_COMPARISON')] = COMPARISONS[plan.comparison];
  words[c('D3D12_SAMPLER_MIP_LOD_BIAS')] = f32Bits(plan.mipLODBias);
  words[c('D3D12_SAMPLER_MAX_ANISOTROPY')] = plan.maxAnisotropy;
  // FLOAT32_MAX and beyond: f32's largest finite value, not +inf (the shader clamps with it).
  words[c('D3D12_SAMPLER_MIN_LOD')] = f32Bits(
    Math.max(Math.min(plan.minLOD, 3.4028234663852886e38), -3.4028234663852886e38),
  );
  words[c('D3D12_SAMPLER_MAX_LOD')] = f32Bits(
    Math.max(Math.min(plan.maxLOD, 3.4028234663852886e38), -3.4028234663852886e38),
  );
  plan.border.forEach((value, i) => (words[c('D3D12_SAMPLER_BORDER') + i] = f32Bits(value)));
  return words;
}
