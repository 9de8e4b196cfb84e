/**
 * d3dx12.h's description helpers with their default arguments: CD3DX12_HEAP_PROPERTIES,
 * CD3DX12_HEAP_DESC, CD3DX12_RESOURCE_DESC::Buffer / Tex2D, CD3DX12_RASTERIZER_DESC(D3D12_DEFAULT),
 * CD3DX12_BLEND_DESC(D3D12_DEFAULT), CD3DX12_TILED_RESOURCE_COORDINATE, CD3DX12_TILE_REGION_SIZE,
 * CD3DX12_VIEWPORT, CD3DX12_RECT and D3D12CalcSubresource. They fill structs only; the calls that
 * take them check them. D3D12CalcSubresource computes: its arguments must be UINTs (a negative or
 * fractional one could add up to a valid index), else it throws E_INVALIDARG.
 *
 * Left out: CD3DX12_DEPTH_STENCIL_DESC(D3D12_DEFAULT) enables depth, which the emulator refuses
 * (depth buffers are not emulated); pipelines leave depthStencilState out or pass depthEnable false.
 */
import type {
  GraphicsPipelineStateDesc,
  HeapDesc,
  HeapFlag,
  HeapProperties,
  HeapType,
  Rect,
  ResourceDesc,
  ResourceFlag,
  TextureLayout,
  TiledResourceCoordinate,
  TileRegionSize,
  Viewport,
} from '../index.js';
import { uint } from './arguments.js';

/** CD3DX12_HEAP_PROPERTIES(type, creationNodeMask = 1, visibleNodeMask = 1). */
export function heapProperties(type: HeapType, creationNodeMask = 1, visibleNodeMask = 1): HeapProperties {
  return { type, creationNodeMask, visibleNodeMask };
}

/** CD3DX12_HEAP_DESC(size, type, alignment = 0, flags = NONE). */
export function heapDesc(sizeInBytes: number, type: HeapType, alignment = 0, flags: HeapFlag[] = []): HeapDesc {
  return { sizeInBytes, properties: heapProperties(type), alignment, flags };
}

/** CD3DX12_RESOURCE_DESC::Buffer(width, flags = NONE, alignment = 0). */
export function bufferResourceDesc(width: number, flags: ResourceFlag[] = [], alignment = 0): ResourceDesc {
  return {
    dimension: 'BUFFER',
    alignment,
    width,
    height: 1,
    depthOrArraySize: 1,
    mipLevels: 1,
    format: 'UNKNOWN',
    sampleDesc: { count: 1, quality: 0 },
    layout: 'ROW_MAJOR',
    flags,
  };
}

/**
 * CD3DX12_RESOURCE_DESC::Tex2D(format, width, height, arraySize = 1, mipLevels = 0 (the full chain),
 * sampleCount = 1, sampleQuality = 0, flags = NONE, layout = UNKNOWN, alignment = 0).
 */
export function tex2DResourceDesc(
  format: string,
  width: number,
  height: number,
  arraySize = 1,
  mipLevels = 0,
  sampleCount = 1,
  sampleQuality = 0,
  flags: ResourceFlag[] = [],
  layout: TextureLayout = 'UNKNOWN',
  alignment = 0,
): ResourceDesc {
  return {
    dimension: 'TEXTURE2D',
    alignment,
    width,
    height,
    depthOrArraySize: arraySize,
    mipLevels,
    format,
    sampleDesc: { count: sampleCount, quality: sampleQuality },
    layout,
    flags,
  };
}

type RasterizerState = NonNullable<GraphicsPipelineStateDesc['rasterizerState']>;
type BlendState = NonNullable<GraphicsPipelineStateDesc['blendState']>;

/** CD3DX12_RASTERIZER_DESC(D3D12_DEFAULT): solid fill, back faces culled, clockwise front faces. */
export function defaultRasterizerDesc(): RasterizerState {
  return {
    fillMode: 'SOLID',
    cullMode: 'BACK',
    frontCounterClockwise: false,
    depthBias: 0,
    depthBiasClamp: 0,
    slopeScaledDepthBias: 0,
    depthClipEnable: true,
    multisampleEnable: false,
    antialiasedLineEnable: false,
    forcedSampleCount: 0,
    conservativeRaster: 'OFF',
  };
}

/** CD3DX12_BLEND_DESC(D3D12_DEFAULT): blending and logic ops off, every channel written, 8 targets. */
export function defaultBlendDesc(): BlendState {
  const target = {
    blendEnable: false,
    logicOpEnable: false,
    srcBlend: 'ONE',
    destBlend: 'ZERO',
    blendOp: 'ADD',
    srcBlendAlpha: 'ONE',
    destBlendAlpha: 'ZERO',
    blendOpAlpha: 'ADD',
    logicOp: 'NOOP',
    renderTargetWriteMask: 15,
  };
  return {
    alphaToCoverageEnable: false,
    independentBlendEnable: false,
    renderTarget: Array.from({ length: 8 }, () => ({ ...target })),
  };
}

/** CD3DX12_TILED_RESOURCE_COORDINATE(x, y, z, subresource). */
export function tiledResourceCoordinate(x: number, y: number, z: number, subresource: number): TiledResourceCoordinate {
  return { x, y, z, subresource };
}

/** CD3DX12_TILE_REGION_SIZE(numTiles, useBox, width, height, depth). */
export function tileRegionSize(numTiles: number, useBox: boolean, width = 0, height = 0, depth = 0): TileRegionSize {
  return { numTiles, useBox, width, height, depth };
}

/** CD3DX12_VIEWPORT(topLeftX, topLeftY, width, height, minDepth = 0, maxDepth = 1). */
export function viewport(
  topLeftX: number,
  topLeftY: number,
  width: number,
  height: number,
  minDepth = 0,
  maxDepth = 1,
): Viewport {
  return { topLeftX, topLeftY, width, height, minDepth, maxDepth };
}

/** CD3DX12_RECT(left, top, right, bottom). */
export function rect(left: number, top: number, right: number, bottom: number): Rect {
  return { left, top, right, bottom };
}

/** D3D12CalcSubresource(mipSlice, arraySlice, planeSlice, mipLevels, arraySize). */
export function calcSubresource(
  mipSlice: number,
  arraySlice: number,
  planeSlice: number,
  mipLevels: number,
  arraySize: number,
): number {
  const call = 'calcSubresource';
  const [mip, array, plane, mips, size] = [
    uint(call, 'mipSlice', mipSlice),
    uint(call, 'arraySlice', arraySlice),
    uint(call, 'planeSlice', planeSlice),
    uint(call, 'mipLevels', mipLevels),
    uint(call, 'arraySize', arraySize),
  ];
  return mip + array * mips + plane * mips * size;
}
