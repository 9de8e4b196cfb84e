/**
 * The descriptor types of resource binding (the shared layer: imports nothing from the project):
 * descriptor heaps and their handles, the view descriptions (D3D12_SHADER_RESOURCE_VIEW_DESC and
 * its siblings), samplers, root signatures and the input assembler. D3D12's structs with camelCase
 * fields, enum values as the D3D12 suffixes, as in types.ts. A union member named after a view
 * dimension (`texture2D`, `buffer`) is D3D12's anonymous union: only the member of the chosen
 * dimension is read.
 */

// ---- Descriptor heaps ----------------------------------------------------------------------

export const DESCRIPTOR_HEAP_TYPES = ['CBV_SRV_UAV', 'SAMPLER', 'RTV', 'DSV'] as const;
export type DescriptorHeapType = (typeof DESCRIPTOR_HEAP_TYPES)[number];

export const DESCRIPTOR_HEAP_FLAGS = ['NONE', 'SHADER_VISIBLE'] as const;
export type DescriptorHeapFlag = (typeof DESCRIPTOR_HEAP_FLAGS)[number];

/** D3D12_DESCRIPTOR_HEAP_DESC. `flags` left out: NONE. */
export interface DescriptorHeapDesc {
  type: DescriptorHeapType;
  numDescriptors: number;
  flags?: DescriptorHeapFlag | DescriptorHeapFlag[];
  /** A single-adapter device: 0 or 1. */
  nodeMask?: number;
}

/** D3D12_CPU_DESCRIPTOR_HANDLE: `ptr` counts bytes, so `ptr + i * incrementSize` is descriptor i. */
export interface CpuDescriptorHandle {
  ptr: number;
}

/** D3D12_GPU_DESCRIPTOR_HANDLE: the descriptor's GPU virtual address in a shader-visible heap. */
export interface GpuDescriptorHandle {
  ptr: bigint;
}

// ---- Shader resource views -----------------------------------------------------------------

export const SRV_DIMENSIONS = ['BUFFER', 'TEXTURE2D', 'TEXTURE2DARRAY'] as const;
export type SrvDimension = (typeof SRV_DIMENSIONS)[number];

/** D3D12_BUFFER_SRV_FLAGS / D3D12_BUFFER_UAV_FLAGS. */
export type BufferViewFlag = 'NONE' | 'RAW';

/** D3D12_BUFFER_SRV. */
export interface BufferSrv {
  firstElement: number;
  numElements: number;
  /** Non-zero: a structured buffer of elements this size (format UNKNOWN). */
  structureByteStride?: number;
  flags?: BufferViewFlag;
}

/** D3D12_TEX2D_SRV. `mipLevels` -1 (UINT -1): every mip from `mostDetailedMip` on. */
export interface Tex2DSrv {
  mostDetailedMip?: number;
  mipLevels?: number;
  planeSlice?: number;
  resourceMinLODClamp?: number;
}

/** D3D12_TEX2D_ARRAY_SRV. `arraySize` -1: every slice from `firstArraySlice` on. */
export interface Tex2DArraySrv extends Tex2DSrv {
  firstArraySlice?: number;
  arraySize?: number;
}

/** D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING: each component reads its own channel. */
export const DEFAULT_SHADER_4_COMPONENT_MAPPING = 0x1688;

/** D3D12_SHADER_RESOURCE_VIEW_DESC. */
export interface ShaderResourceViewDesc {
  /** A format of the resource's family (textures), or the buffer view's element format. */
  format: string;
  viewDimension: SrvDimension;
  /** D3D12_ENCODE_SHADER_4_COMPONENT_MAPPING's value; left out: DEFAULT_SHADER_4_COMPONENT_MAPPING. */
  shader4ComponentMapping?: number;
  buffer?: BufferSrv;
  texture2D?: Tex2DSrv;
  texture2DArray?: Tex2DArraySrv;
}

// ---- Unordered access views ----------------------------------------------------------------

export const UAV_DIMENSIONS = ['BUFFER', 'TEXTURE2D', 'TEXTURE2DARRAY'] as const;
export type UavDimension = (typeof UAV_DIMENSIONS)[number];

/** D3D12_BUFFER_UAV. */
export interface BufferUav {
  firstElement: number;
  numElements: number;
  structureByteStride?: number;
  /** Must be 0: UAV counters are not emulated. */
  counterOffsetInBytes?: number;
  flags?: BufferViewFlag;
}

/** D3D12_TEX2D_UAV. */
export interface Tex2DUav {
  mipSlice?: number;
  planeSlice?: number;
}

/** D3D12_TEX2D_ARRAY_UAV. */
export interface Tex2DArrayUav extends Tex2DUav {
  firstArraySlice?: number;
  arraySize?: number;
}

/** D3D12_UNORDERED_ACCESS_VIEW_DESC. */
export interface UnorderedAccessViewDesc {
  format: string;
  viewDimension: UavDimension;
  buffer?: BufferUav;
  texture2D?: Tex2DUav;
  texture2DArray?: Tex2DArrayUav;
}

// ---- Constant buffer views -----------------------------------------------------------------

/** D3D12_CONSTANT_BUFFER_VIEW_DESC: 256-byte aligned, at most 64 KiB. bufferLocation 0: a NULL view. */
export interface ConstantBufferViewDesc {
  bufferLocation: bigint;
  sizeInBytes: number;
}

// ---- Samplers ------------------------------------------------------------------------------

/** D3D12_FILTER by name: MIN_MAG_MIP_POINT ... ANISOTROPIC, their COMPARISON_ variants. */
export const FILTERS = [
  'MIN_MAG_MIP_POINT',
  'MIN_MAG_POINT_MIP_LINEAR',
  'MIN_POINT_MAG_LINEAR_MIP_POINT',
  'MIN_POINT_MAG_MIP_LINEAR',
  'MIN_LINEAR_MAG_MIP_POINT',
  'MIN_LINEAR_MAG_POINT_MIP_LINEAR',
  'MIN_MAG_LINEAR_MIP_POINT',
  'MIN_MAG_MIP_LINEAR',
  'ANISOTROPIC',
  'COMPARISON_MIN_MAG_MIP_POINT',
  'COMPARISON_MIN_MAG_POINT_MIP_LINEAR',
  'COMPARISON_MIN_POINT_MAG_LINEAR_MIP_POINT',
  'COMPARISON_MIN_POINT_MAG_MIP_LINEAR',
  'COMPARISON_MIN_LINEAR_MAG_MIP_POINT',
  'COMPARISON_MIN_LINEAR_MAG_POINT_MIP_LINEAR',
  'COMPARISON_MIN_MAG_LINEAR_MIP_POINT',
  'COMPARISON_MIN_MAG_MIP_LINEAR',
  'COMPARISON_ANISOTROPIC',
] as const;
export type Filter = (typeof FILTERS)[number];

export const TEXTURE_ADDRESS_MODES = ['WRAP', 'MIRROR', 'CLAMP', 'BORDER', 'MIRROR_ONCE'] as const;
export type TextureAddressMode = (typeof TEXTURE_ADDRESS_MODES)[number];

export const COMPARISON_FUNCS = [
  'NONE',
  'NEVER',
  'LESS',
  'EQUAL',
  'LESS_EQUAL',
  'GREATER',
  'NOT_EQUAL',
  'GREATER_EQUAL',
  'ALWAYS',
] as const;
export type ComparisonFunc = (typeof COMPARISON_FUNCS)[number];

/** D3D12_FLOAT32_MAX: a sampler's maxLOD for "every mip". */
export const FLOAT32_MAX = 3.402823466e38;

/** D3D12_SAMPLER_DESC. Left out: addresses CLAMP, mipLODBias 0, maxAnisotropy 1, NEVER, border 0, LODs 0 to FLOAT32_MAX. */
export interface SamplerDesc {
  filter: Filter;
  addressU?: TextureAddressMode;
  addressV?: TextureAddressMode;
  addressW?: TextureAddressMode;
  mipLODBias?: number;
  maxAnisotropy?: number;
  comparisonFunc?: ComparisonFunc;
  borderColor?: readonly [number, number, number, number];
  minLOD?: number;
  maxLOD?: number;
}

// ---- Render target and depth-stencil views -------------------------------------------------

/** D3D12_RENDER_TARGET_VIEW_DESC of a 2D target (a swap chain's back buffer). */
export interface RenderTargetViewDesc {
  format: string;
  viewDimension: 'TEXTURE2D';
  texture2D?: { mipSlice?: number; planeSlice?: number };
}

/** D3D12_DEPTH_STENCIL_VIEW_DESC of a 2D depth texture. */
export interface DepthStencilViewDesc {
  format: string;
  viewDimension: 'TEXTURE2D';
  flags?: ('NONE' | 'READ_ONLY_DEPTH' | 'READ_ONLY_STENCIL')[];
  texture2D?: { mipSlice?: number };
}

// ---- Root signatures -----------------------------------------------------------------------

export const ROOT_SIGNATURE_VERSIONS = ['1_0', '1_1'] as const;
/** D3D_ROOT_SIGNATURE_VERSION: 1_0 or 1_1. */
export type RootSignatureVersion = (typeof ROOT_SIGNATURE_VERSIONS)[number];

export const SHADER_VISIBILITIES = [
  'ALL',
  'VERTEX',
  'HULL',
  'DOMAIN',
  'GEOMETRY',
  'PIXEL',
  'AMPLIFICATION',
  'MESH',
] as const;
export type ShaderVisibility = (typeof SHADER_VISIBILITIES)[number];

export const DESCRIPTOR_RANGE_TYPES = ['SRV', 'UAV', 'CBV', 'SAMPLER'] as const;
export type DescriptorRangeType = (typeof DESCRIPTOR_RANGE_TYPES)[number];

/** D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND: the range starts where the one before it ends. */
export const DESCRIPTOR_RANGE_OFFSET_APPEND = 0xffffffff;
/** A range of UINT -1 descriptors is unbounded (it runs to the end of the heap). */
export const UNBOUNDED_DESCRIPTOR_RANGE = 0xffffffff;

/** D3D12_DESCRIPTOR_RANGE_FLAGS (root signature 1.1). */
export const DESCRIPTOR_RANGE_FLAGS = [
  'NONE',
  'DESCRIPTORS_VOLATILE',
  'DATA_VOLATILE',
  'DATA_STATIC_WHILE_SET_AT_EXECUTE',
  'DATA_STATIC',
  'DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS',
] as const;
export type DescriptorRangeFlag = (typeof DESCRIPTOR_RANGE_FLAGS)[number];

/** D3D12_ROOT_DESCRIPTOR_FLAGS (root signature 1.1). */
export const ROOT_DESCRIPTOR_FLAGS = [
  'NONE',
  'DATA_VOLATILE',
  'DATA_STATIC_WHILE_SET_AT_EXECUTE',
  'DATA_STATIC',
] as const;
export type RootDescriptorFlag = (typeof ROOT_DESCRIPTOR_FLAGS)[number];

/** D3D12_DESCRIPTOR_RANGE / D3D12_DESCRIPTOR_RANGE1 (with `flags`). */
export interface DescriptorRange {
  rangeType: DescriptorRangeType;
  /** UNBOUNDED_DESCRIPTOR_RANGE (0xffffffff): to the end of the heap. */
  numDescriptors: number;
  baseShaderRegister: number;
  registerSpace?: number;
  /** DESCRIPTOR_RANGE_OFFSET_APPEND (0xffffffff, the default): after the range before it. */
  offsetInDescriptorsFromTableStart?: number;
  /** Version 1.1 only. */
  flags?: DescriptorRangeFlag | DescriptorRangeFlag[];
}

export const ROOT_PARAMETER_TYPES = ['DESCRIPTOR_TABLE', '32BIT_CONSTANTS', 'CBV', 'SRV', 'UAV'] as const;
export type RootParameterType = (typeof ROOT_PARAMETER_TYPES)[number];

/** D3D12_ROOT_PARAMETER / D3D12_ROOT_PARAMETER1: the member named by `parameterType` is read. */
export interface RootParameter {
  parameterType: RootParameterType;
  descriptorTable?: { descriptorRanges: readonly DescriptorRange[] };
  constants?: { shaderRegister: number; registerSpace?: number; num32BitValues: number };
  /** CBV, SRV, UAV: a root descriptor (`flags`: version 1.1 only). */
  descriptor?: {
    shaderRegister: number;
    registerSpace?: number;
    flags?: RootDescriptorFlag | RootDescriptorFlag[];
  };
  shaderVisibility?: ShaderVisibility;
}

export const STATIC_BORDER_COLORS = [
  'TRANSPARENT_BLACK',
  'OPAQUE_BLACK',
  'OPAQUE_WHITE',
  'OPAQUE_BLACK_UINT',
  'OPAQUE_WHITE_UINT',
] as const;
export type StaticBorderColor = (typeof STATIC_BORDER_COLORS)[number];

/** D3D12_STATIC_SAMPLER_DESC. Left out as in SamplerDesc; borderColor TRANSPARENT_BLACK (OPAQUE_WHITE in CD3DX12's). */
export interface StaticSamplerDesc {
  filter: Filter;
  addressU?: TextureAddressMode;
  addressV?: TextureAddressMode;
  addressW?: TextureAddressMode;
  mipLODBias?: number;
  maxAnisotropy?: number;
  comparisonFunc?: ComparisonFunc;
  borderColor?: StaticBorderColor;
  minLOD?: number;
  maxLOD?: number;
  shaderRegister: number;
  registerSpace?: number;
  shaderVisibility?: ShaderVisibility;
}

export const ROOT_SIGNATURE_FLAGS = [
  'NONE',
  'ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT',
  'DENY_VERTEX_SHADER_ROOT_ACCESS',
  'DENY_HULL_SHADER_ROOT_ACCESS',
  'DENY_DOMAIN_SHADER_ROOT_ACCESS',
  'DENY_GEOMETRY_SHADER_ROOT_ACCESS',
  'DENY_PIXEL_SHADER_ROOT_ACCESS',
  'ALLOW_STREAM_OUTPUT',
  'LOCAL_ROOT_SIGNATURE',
  'DENY_AMPLIFICATION_SHADER_ROOT_ACCESS',
  'DENY_MESH_SHADER_ROOT_ACCESS',
  'CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED',
  'SAMPLER_HEAP_DIRECTLY_INDEXED',
] as const;
export type RootSignatureFlag = (typeof ROOT_SIGNATURE_FLAGS)[number];

/** D3D12_ROOT_SIGNATURE_DESC / D3D12_ROOT_SIGNATURE_DESC1. */
export interface RootSignatureDesc {
  parameters?: readonly RootParameter[];
  staticSamplers?: readonly StaticSamplerDesc[];
  flags?: RootSignatureFlag | RootSignatureFlag[];
}

/** D3D12_VERSIONED_ROOT_SIGNATURE_DESC: `desc_1_0` for version 1_0, `desc_1_1` for 1_1. */
export interface VersionedRootSignatureDesc {
  version: RootSignatureVersion;
  desc_1_0?: RootSignatureDesc;
  desc_1_1?: RootSignatureDesc;
}

// ---- The input assembler -------------------------------------------------------------------

export const INPUT_CLASSIFICATIONS = ['PER_VERTEX_DATA', 'PER_INSTANCE_DATA'] as const;
export type InputClassification = (typeof INPUT_CLASSIFICATIONS)[number];

/** D3D12_APPEND_ALIGNED_ELEMENT: right after the element before it in its slot. */
export const APPEND_ALIGNED_ELEMENT = 0xffffffff;

/** D3D12_INPUT_ELEMENT_DESC. */
export interface InputElementDesc {
  semanticName: string;
  semanticIndex?: number;
  format: string;
  inputSlot?: number;
  /** APPEND_ALIGNED_ELEMENT (0xffffffff, the default) or a byte offset. */
  alignedByteOffset?: number;
  inputSlotClass?: InputClassification;
  instanceDataStepRate?: number;
}

/** D3D12_INPUT_LAYOUT_DESC. */
export interface InputLayoutDesc {
  inputElementDescs: readonly InputElementDesc[];
}

/** D3D12_VERTEX_BUFFER_VIEW. */
export interface VertexBufferView {
  bufferLocation: bigint;
  sizeInBytes: number;
  strideInBytes: number;
}

/** D3D12_INDEX_BUFFER_VIEW: R16_UINT or R32_UINT indices. */
export interface IndexBufferView {
  bufferLocation: bigint;
  sizeInBytes: number;
  format: 'R16_UINT' | 'R32_UINT';
}

/** D3D_PRIMITIVE_TOPOLOGY, by name (IASetPrimitiveTopology). */
export const PRIMITIVE_TOPOLOGY_NAMES = [
  'UNDEFINED',
  'POINTLIST',
  'LINELIST',
  'LINESTRIP',
  'TRIANGLELIST',
  'TRIANGLESTRIP',
] as const;
export type IaPrimitiveTopology = (typeof PRIMITIVE_TOPOLOGY_NAMES)[number];

/** D3D12_PRIMITIVE_TOPOLOGY_TYPE (a graphics pipeline state's). */
export const PRIMITIVE_TOPOLOGY_TYPES = ['UNDEFINED', 'POINT', 'LINE', 'TRIANGLE'] as const;
export type PrimitiveTopologyType = (typeof PRIMITIVE_TOPOLOGY_TYPES)[number];

/** D3D12_INDEX_BUFFER_STRIP_CUT_VALUE. */
export const INDEX_BUFFER_STRIP_CUT_VALUES = ['DISABLED', '0xFFFF', '0xFFFFFFFF'] as const;
export type IndexBufferStripCutValue = (typeof INDEX_BUFFER_STRIP_CUT_VALUES)[number];
