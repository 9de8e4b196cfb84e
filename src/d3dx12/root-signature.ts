/**
 * d3dx12.h's root signature helpers: CD3DX12_DESCRIPTOR_RANGE(1)::Init, CD3DX12_ROOT_PARAMETER(1)'s
 * InitAs*, CD3DX12_STATIC_SAMPLER_DESC, CD3DX12_VERSIONED_ROOT_SIGNATURE_DESC::Init_1_0 / Init_1_1 and
 * D3DX12SerializeVersionedRootSignature, with d3dx12's default arguments. They build plain
 * descriptions; createRootSignature and serializeVersionedRootSignature check them as the debug layer
 * does. The 1.1 and 1.0 forms share one shape here (RootParameter, DescriptorRange): a 1.0 description
 * simply has no `flags`.
 */
import {
  DESCRIPTOR_RANGE_OFFSET_APPEND,
  FLOAT32_MAX,
  serializeVersionedRootSignature,
  type ComparisonFunc,
  type DescriptorRange,
  type DescriptorRangeFlag,
  type DescriptorRangeType,
  type Filter,
  type RootDescriptorFlag,
  type RootParameter,
  type RootSignatureDesc,
  type RootSignatureFlag,
  type RootSignatureVersion,
  type ShaderVisibility,
  type StaticBorderColor,
  type StaticSamplerDesc,
  type TextureAddressMode,
  type VersionedRootSignatureDesc,
} from '../index.js';
import { describe, fail } from './arguments.js';

/** CD3DX12_DESCRIPTOR_RANGE1::Init(type, num, baseRegister, space = 0, flags = NONE, offset = APPEND). */
export function descriptorRange1(
  rangeType: DescriptorRangeType,
  numDescriptors: number,
  baseShaderRegister: number,
  registerSpace = 0,
  flags: DescriptorRangeFlag | DescriptorRangeFlag[] = 'NONE',
  offsetInDescriptorsFromTableStart = DESCRIPTOR_RANGE_OFFSET_APPEND,
): DescriptorRange {
  return { rangeType, numDescriptors, baseShaderRegister, registerSpace, flags, offsetInDescriptorsFromTableStart };
}

/** CD3DX12_DESCRIPTOR_RANGE::Init(type, num, baseRegister, space = 0, offset = APPEND): version 1.0. */
export function descriptorRange(
  rangeType: DescriptorRangeType,
  numDescriptors: number,
  baseShaderRegister: number,
  registerSpace = 0,
  offsetInDescriptorsFromTableStart = DESCRIPTOR_RANGE_OFFSET_APPEND,
): DescriptorRange {
  return { rangeType, numDescriptors, baseShaderRegister, registerSpace, offsetInDescriptorsFromTableStart };
}

/** CD3DX12_ROOT_PARAMETER(1)::InitAsDescriptorTable(ranges, visibility = ALL). */
export function rootDescriptorTable(
  descriptorRanges: readonly DescriptorRange[],
  shaderVisibility: ShaderVisibility = 'ALL',
): RootParameter {
  return { parameterType: 'DESCRIPTOR_TABLE', descriptorTable: { descriptorRanges }, shaderVisibility };
}

/** CD3DX12_ROOT_PARAMETER(1)::InitAsConstants(num32BitValues, register, space = 0, visibility = ALL). */
export function rootConstants(
  num32BitValues: number,
  shaderRegister: number,
  registerSpace = 0,
  shaderVisibility: ShaderVisibility = 'ALL',
): RootParameter {
  return {
    parameterType: '32BIT_CONSTANTS',
    constants: { shaderRegister, registerSpace, num32BitValues },
    shaderVisibility,
  };
}

function rootView(
  parameterType: 'CBV' | 'SRV' | 'UAV',
  shaderRegister: number,
  registerSpace: number,
  flags: RootDescriptorFlag | RootDescriptorFlag[] | undefined,
  shaderVisibility: ShaderVisibility,
): RootParameter {
  const descriptor = flags === undefined ? { shaderRegister, registerSpace } : { shaderRegister, registerSpace, flags };
  return { parameterType, descriptor, shaderVisibility };
}

/**
 * CD3DX12_ROOT_PARAMETER1::InitAsConstantBufferView(register, space = 0, flags = NONE, visibility = ALL).
 * `flags` left out or undefined: no flags, a version 1.0 parameter (CD3DX12_ROOT_PARAMETER's form),
 * which in a 1.1 description reads as NONE (d3dx12's default). A default parameter cannot say this:
 * it would turn an explicit undefined into NONE, which a 1.0 description refuses.
 */
export function rootConstantBufferView(
  shaderRegister: number,
  registerSpace = 0,
  flags?: RootDescriptorFlag | RootDescriptorFlag[],
  shaderVisibility: ShaderVisibility = 'ALL',
): RootParameter {
  return rootView('CBV', shaderRegister, registerSpace, flags, shaderVisibility);
}

/** CD3DX12_ROOT_PARAMETER1::InitAsShaderResourceView, as rootConstantBufferView. */
export function rootShaderResourceView(
  shaderRegister: number,
  registerSpace = 0,
  flags?: RootDescriptorFlag | RootDescriptorFlag[],
  shaderVisibility: ShaderVisibility = 'ALL',
): RootParameter {
  return rootView('SRV', shaderRegister, registerSpace, flags, shaderVisibility);
}

/** CD3DX12_ROOT_PARAMETER1::InitAsUnorderedAccessView, as rootConstantBufferView. */
export function rootUnorderedAccessView(
  shaderRegister: number,
  registerSpace = 0,
  flags?: RootDescriptorFlag | RootDescriptorFlag[],
  shaderVisibility: ShaderVisibility = 'ALL',
): RootParameter {
  return rootView('UAV', shaderRegister, registerSpace, flags, shaderVisibility);
}

/** CD3DX12_STATIC_SAMPLER_DESC's arguments after the register, with its defaults. */
export interface StaticSamplerOptions {
  filter?: Filter;
  addressU?: TextureAddressMode;
  addressV?: TextureAddressMode;
  addressW?: TextureAddressMode;
  mipLODBias?: number;
  maxAnisotropy?: number;
  comparisonFunc?: ComparisonFunc;
  borderColor?: StaticBorderColor;
  minLOD?: number;
  maxLOD?: number;
  shaderVisibility?: ShaderVisibility;
  registerSpace?: number;
}

/**
 * CD3DX12_STATIC_SAMPLER_DESC(register, ...): d3dx12's defaults are ANISOTROPIC, WRAP in U, V and W,
 * bias 0, 16x anisotropy, LESS_EQUAL, OPAQUE_WHITE, LODs 0 to FLOAT32_MAX, visible to ALL, space 0.
 */
export function staticSamplerDesc(shaderRegister: number, options: StaticSamplerOptions = {}): StaticSamplerDesc {
  if (options === null || typeof options !== 'object')
    throw fail(
      'staticSamplerDesc',
      'options',
      `must be an object of CD3DX12_STATIC_SAMPLER_DESC's arguments, got ${describe(options)}`,
    );
  return {
    shaderRegister,
    filter: options.filter ?? 'ANISOTROPIC',
    addressU: options.addressU ?? 'WRAP',
    addressV: options.addressV ?? 'WRAP',
    addressW: options.addressW ?? 'WRAP',
    mipLODBias: options.mipLODBias ?? 0,
    maxAnisotropy: options.maxAnisotropy ?? 16,
    comparisonFunc: options.comparisonFunc ?? 'LESS_EQUAL',
    borderColor: options.borderColor ?? 'OPAQUE_WHITE',
    minLOD: options.minLOD ?? 0,
    maxLOD: options.maxLOD ?? FLOAT32_MAX,
    shaderVisibility: options.shaderVisibility ?? 'ALL',
    registerSpace: options.registerSpace ?? 0,
  };
}

/** CD3DX12_VERSIONED_ROOT_SIGNATURE_DESC::Init_1_1(parameters, staticSamplers, flags = NONE). */
export function versionedRootSignatureDesc_1_1(
  parameters: readonly RootParameter[],
  staticSamplers: readonly StaticSamplerDesc[] = [],
  flags: RootSignatureFlag | RootSignatureFlag[] = 'NONE',
): VersionedRootSignatureDesc {
  return { version: '1_1', desc_1_1: { parameters, staticSamplers, flags } };
}

/** CD3DX12_VERSIONED_ROOT_SIGNATURE_DESC::Init_1_0(parameters, staticSamplers, flags = NONE). */
export function versionedRootSignatureDesc_1_0(
  parameters: readonly RootParameter[],
  staticSamplers: readonly StaticSamplerDesc[] = [],
  flags: RootSignatureFlag | RootSignatureFlag[] = 'NONE',
): VersionedRootSignatureDesc {
  return { version: '1_0', desc_1_0: { parameters, staticSamplers, flags } };
}

/** A 1.1 description as 1.0: range and root descriptor flags dropped (d3dx12's conversion). */
function toVersion10(desc: RootSignatureDesc): RootSignatureDesc {
  const parameters = (desc.parameters ?? []).map((parameter): RootParameter => {
    const ranges = parameter.descriptorTable?.descriptorRanges.map(({ flags: _flags, ...range }) => range);
    const descriptor = parameter.descriptor && (({ flags: _flags, ...rest }) => rest)(parameter.descriptor);
    return {
      ...parameter,
      ...(ranges ? { descriptorTable: { descriptorRanges: ranges } } : {}),
      ...(descriptor ? { descriptor } : {}),
    };
  });
  return { ...desc, parameters };
}

/**
 * D3DX12SerializeVersionedRootSignature(desc, maxVersion): serializes at the description's version,
 * or, where the device supports only 1.0 (maxVersion '1_0') and the description is 1.1, as 1.0 with
 * the 1.1 flags dropped. `maxVersion` is what checkFeatureSupport('ROOT_SIGNATURE') reported.
 */
export function d3dx12SerializeVersionedRootSignature(
  desc: VersionedRootSignatureDesc,
  maxVersion: RootSignatureVersion,
): Uint8Array {
  const call = 'd3dx12SerializeVersionedRootSignature';
  if (maxVersion !== '1_0' && maxVersion !== '1_1')
    throw fail(call, 'maxVersion', `must be '1_0' or '1_1' (D3D_ROOT_SIGNATURE_VERSION), got ${describe(maxVersion)}`);
  // Serialized as given first: a description the debug layer refuses throws here, named as it is.
  const blob = serializeVersionedRootSignature(desc);
  if (maxVersion === '1_0' && desc.version === '1_1' && desc.desc_1_1 !== undefined)
    return serializeVersionedRootSignature({ version: '1_0', desc_1_0: toVersion10(desc.desc_1_1) });
  return blob;
}
