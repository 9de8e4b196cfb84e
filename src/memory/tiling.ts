/**
 * How a resource is cut into 64 KiB tiles: the emulator's memory layout for every resource, and what
 * `GetResourceTiling` reports. GPU-free, and the reference every GPU test compares against.
 *
 * Invariants of the layout (the emulator's `64KB_UNDEFINED_SWIZZLE`, used for every texture):
 *   - A buffer is `ceil(width / 64 KiB)` tiles of 65536×1×1 bytes.
 *   - A texture is stored slice by slice (array slices; a 3D texture has one slice). Within a slice,
 *     the standard mips come first, each as a grid of tiles (x fastest, then y, then z), each tile
 *     holding one standard tile shape of elements row-major; then the packed mips (the mip tail),
 *     each mip row-major and tightly pitched, starting at a multiple of PACKED_MIP_ALIGNMENT.
 *   - Tile indices run over the whole resource in that order, so a standard subresource's first
 *     tile is the running sum of the tiles before it, and each slice's tail follows that slice's
 *     standard tiles (D3D12 Tier 4's layout for arrays with packed mips; the only layout possible
 *     at lower tiers, which allow no packed mips in reserved arrays).
 *   - Which mips are packed depends on the tiled-resources tier (see isStandardMip).
 */
import type {
  PackedMipInfo,
  ResourceDimension,
  SubresourceTiling,
  TiledResourcesTier,
  TileShape,
} from '../api/types.js';
import type { FormatInfo } from './formats.js';

/** D3D12_TILED_RESOURCE_TILE_SIZE_IN_BYTES. */
export const TILE_SIZE = 65536;
/** D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT: small textures may be placed at 4 KiB. */
export const SMALL_PLACEMENT_ALIGNMENT = 4096;
/**
 * Packed mips start at multiples of 16 bytes inside the tail: every element (at most 16 bytes) stays
 * naturally aligned, and no 4-byte word a shader loads straddles two mips.
 */
export const PACKED_MIP_ALIGNMENT = 16;
/** D3D12_PACKED_TILE: the start index GetResourceTiling reports for a packed subresource. */
export const PACKED_TILE = 0xffffffff;

/** What the layout needs of a (validated) resource description. */
export interface LayoutInput {
  dimension: ResourceDimension;
  width: number;
  height: number;
  /** Depth of a 3D texture, else 1. */
  depth: number;
  /** Array slices of a 1D or 2D texture, else 1. */
  arraySize: number;
  mipLevels: number;
  /** Undefined for buffers. */
  format?: FormatInfo;
  /** Placed with 4 KiB alignment: the tail is rounded to 4 KiB instead of to whole tiles. */
  smallAlignment?: boolean;
}

export interface MipLayout {
  width: number;
  height: number;
  depth: number;
  packed: boolean;
  /** Standard mips: the tile grid; 0 for packed mips. */
  widthInTiles: number;
  heightInTiles: number;
  depthInTiles: number;
  /** Standard mips: index of the mip's first tile within its slice. */
  firstTileInSlice: number;
  /** Packed mips: byte offset of the mip within its slice's tail. */
  tailByteOffset: number;
  /** Bytes per row of elements and per depth slice, as stored in the tail (packed mips). */
  rowPitch: number;
  depthPitch: number;
}

export interface ResourceLayout {
  dimension: ResourceDimension;
  tileShape: TileShape;
  mipLevels: number;
  arraySize: number;
  mips: MipLayout[];
  numStandardMips: number;
  numPackedMips: number;
  standardTilesPerSlice: number;
  packedBytesPerSlice: number;
  /** Tiles of one slice's tail: ceil(packedBytesPerSlice / 64 KiB). */
  packedTilesPerSlice: number;
  tilesPerSlice: number;
  numTiles: number;
  /** Bytes from one slice to the next. */
  slicePitch: number;
  /** Bytes the resource occupies in a heap. */
  sizeInBytes: number;
}

const alignUp = (value: number, alignment: number): number => Math.ceil(value / alignment) * alignment;

/**
 * D3D12's standard tile shapes (DirectX docs, "Texture2D and Texture2DArray subresource tiling" and
 * "Texture3D subresource tiling"), by bytes per element; BC shapes are in texels. A 1D texture, which
 * D3D12 cannot tile, is stored as rows of 64 KiB.
 */
export function standardTileShape(dimension: ResourceDimension, format: FormatInfo | undefined): TileShape {
  const shape = (w: number, h = 1, d = 1): TileShape => ({ widthInTexels: w, heightInTexels: h, depthInTexels: d });
  if (dimension === 'BUFFER' || !format) return shape(TILE_SIZE);
  const bytes = format.bytesPerElement;
  if (dimension === 'TEXTURE1D') return shape(TILE_SIZE / bytes);
  const volume = dimension === 'TEXTURE3D';
  if (format.kind === 'bc') {
    if (bytes === 8) return volume ? shape(128, 64, 16) : shape(512, 256);
    return volume ? shape(64, 64, 16) : shape(256, 256);
  }
  switch (bytes) {
    case 1:
      return volume ? shape(64, 32, 32) : shape(256, 256);
    case 2:
      return volume ? shape(32, 32, 32) : shape(256, 128);
    case 4:
      return volume ? shape(32, 32, 16) : shape(128, 128);
    case 8:
      return volume ? shape(32, 16, 16) : shape(128, 64);
    case 16:
      return volume ? shape(16, 16, 16) : shape(64, 64);
    default:
      throw new Error(`no standard tile shape for ${bytes}-byte elements`);
  }
}

/** Whether the format has a standard tile shape, so that a texture of it can be laid out in tiles. */
export function hasStandardTileShape(format: FormatInfo): boolean {
  return [1, 2, 4, 8, 16].includes(format.bytesPerElement);
}

/**
 * Whether a mip is laid out in standard tiles rather than packed:
 *   Tier 1: every dimension is a whole number of tiles;
 *   Tier 2 and up: no dimension is smaller than the tile.
 * A 2D texture's depth and a 1D texture's height are not dimensions here.
 */
export function isStandardMip(
  tier: TiledResourcesTier,
  dimension: ResourceDimension,
  mip: { width: number; height: number; depth: number },
  shape: TileShape,
): boolean {
  const pairs: [number, number][] = [[mip.width, shape.widthInTexels]];
  if (dimension === 'TEXTURE2D' || dimension === 'TEXTURE3D') pairs.push([mip.height, shape.heightInTexels]);
  if (dimension === 'TEXTURE3D') pairs.push([mip.depth, shape.depthInTexels]);
  return tier === 1 ? pairs.every(([size, tile]) => size % tile === 0) : pairs.every(([size, tile]) => size >= tile);
}

/** The size of mip `level` of a dimension of `size` texels (never below 1). */
export const mipSize = (size: number, level: number): number => Math.max(1, Math.floor(size / 2 ** level));

function bufferLayout(input: LayoutInput): ResourceLayout {
  const tiles = Math.ceil(input.width / TILE_SIZE);
  const mip: MipLayout = {
    width: input.width,
    height: 1,
    depth: 1,
    packed: false,
    widthInTiles: tiles,
    heightInTiles: 1,
    depthInTiles: 1,
    firstTileInSlice: 0,
    tailByteOffset: 0,
    rowPitch: 0,
    depthPitch: 0,
  };
  return {
    dimension: 'BUFFER',
    tileShape: standardTileShape('BUFFER', undefined),
    mipLevels: 1,
    arraySize: 1,
    mips: [mip],
    numStandardMips: 1,
    numPackedMips: 0,
    standardTilesPerSlice: tiles,
    packedBytesPerSlice: 0,
    packedTilesPerSlice: 0,
    tilesPerSlice: tiles,
    numTiles: tiles,
    slicePitch: tiles * TILE_SIZE,
    sizeInBytes: tiles * TILE_SIZE,
  };
}

/** Lays a (validated) resource out in tiles under the given tier's packing rule. */
export function computeLayout(input: LayoutInput, tier: TiledResourcesTier): ResourceLayout {
  if (input.dimension === 'BUFFER') return bufferLayout(input);
  const format = input.format;
  if (!format) throw new Error('a texture layout needs a format');
  const shape = standardTileShape(input.dimension, format);

  const mips: MipLayout[] = [];
  let standardTiles = 0;
  let tailBytes = 0;
  let packing = false;
  for (let level = 0; level < input.mipLevels; level++) {
    const width = mipSize(input.width, level);
    const height = mipSize(input.height, level);
    const depth = mipSize(input.depth, level);
    // Once a mip is packed, every coarser one is too.
    packing ||= !isStandardMip(tier, input.dimension, { width, height, depth }, shape);
    const rowPitch = Math.ceil(width / format.blockWidth) * format.bytesPerElement;
    const depthPitch = rowPitch * Math.ceil(height / format.blockHeight);
    if (packing) {
      tailBytes = alignUp(tailBytes, PACKED_MIP_ALIGNMENT);
      mips.push({
        width,
        height,
        depth,
        packed: true,
        widthInTiles: 0,
        heightInTiles: 0,
        depthInTiles: 0,
        firstTileInSlice: 0,
        tailByteOffset: tailBytes,
        rowPitch,
        depthPitch,
      });
      tailBytes += depthPitch * depth;
    } else {
      const widthInTiles = Math.ceil(width / shape.widthInTexels);
      const heightInTiles = Math.ceil(height / shape.heightInTexels);
      const depthInTiles = Math.ceil(depth / shape.depthInTexels);
      mips.push({
        width,
        height,
        depth,
        packed: false,
        widthInTiles,
        heightInTiles,
        depthInTiles,
        firstTileInSlice: standardTiles,
        tailByteOffset: 0,
        rowPitch,
        depthPitch,
      });
      standardTiles += widthInTiles * heightInTiles * depthInTiles;
    }
  }
  const numPackedMips = mips.filter((mip) => mip.packed).length;
  const packedTilesPerSlice = Math.ceil(tailBytes / TILE_SIZE);
  const tilesPerSlice = standardTiles + packedTilesPerSlice;
  const tailGranule = input.smallAlignment ? SMALL_PLACEMENT_ALIGNMENT : TILE_SIZE;
  const slicePitch = standardTiles * TILE_SIZE + alignUp(tailBytes, tailGranule);
  return {
    dimension: input.dimension,
    tileShape: shape,
    mipLevels: input.mipLevels,
    arraySize: input.arraySize,
    mips,
    numStandardMips: input.mipLevels - numPackedMips,
    numPackedMips,
    standardTilesPerSlice: standardTiles,
    packedBytesPerSlice: tailBytes,
    packedTilesPerSlice,
    tilesPerSlice,
    numTiles: tilesPerSlice * input.arraySize,
    slicePitch,
    sizeInBytes: slicePitch * input.arraySize,
  };
}

/** Subresource index (D3D12CalcSubresource) → mip level and array slice. */
export function splitSubresource(layout: ResourceLayout, subresource: number): { mip: number; slice: number } {
  return { mip: subresource % layout.mipLevels, slice: Math.floor(subresource / layout.mipLevels) };
}

export const subresourceCount = (layout: ResourceLayout): number => layout.mipLevels * layout.arraySize;

/** GetResourceTiling's entry for one subresource. */
export function subresourceTiling(layout: ResourceLayout, subresource: number): SubresourceTiling {
  const { mip, slice } = splitSubresource(layout, subresource);
  const m = layout.mips[mip];
  if (!m || m.packed)
    return { widthInTiles: 0, heightInTiles: 0, depthInTiles: 0, startTileIndexInOverallResource: PACKED_TILE };
  return {
    widthInTiles: m.widthInTiles,
    heightInTiles: m.heightInTiles,
    depthInTiles: m.depthInTiles,
    startTileIndexInOverallResource: slice * layout.tilesPerSlice + m.firstTileInSlice,
  };
}

/**
 * GetResourceTiling's packed-mip description; the tail start is slice 0's (0 when nothing is packed).
 * A buffer has no mips: all four fields are 0 (**Chosen**, as D3D11's tiled-resources spec says).
 */
export function packedMipInfo(layout: ResourceLayout): PackedMipInfo {
  if (layout.dimension === 'BUFFER')
    return { numStandardMips: 0, numPackedMips: 0, numTilesForPackedMips: 0, startTileIndexInOverallResource: 0 };
  return {
    numStandardMips: layout.numStandardMips,
    numPackedMips: layout.numPackedMips,
    numTilesForPackedMips: layout.packedTilesPerSlice,
    startTileIndexInOverallResource: layout.numPackedMips > 0 ? layout.standardTilesPerSlice : 0,
  };
}

/** The tiles of slice `slice`'s mip tail, as [first, first + count). */
export function tailTiles(layout: ResourceLayout, slice: number): { first: number; count: number } {
  return { first: slice * layout.tilesPerSlice + layout.standardTilesPerSlice, count: layout.packedTilesPerSlice };
}

/** Byte offset of a tile's first byte within the resource (slices may be 4 KiB-pitched when small). */
export function tileByteOffset(layout: ResourceLayout, tile: number): number {
  const slice = Math.floor(tile / layout.tilesPerSlice);
  return slice * layout.slicePitch + (tile - slice * layout.tilesPerSlice) * TILE_SIZE;
}

/** D3D12_TILED_RESOURCE_COORDINATE: a tile by subresource and position (packed tiles: x counts through the tail). */
export interface TileCoordinate {
  x: number;
  y: number;
  z: number;
  subresource: number;
}

/** The tile holding byte `offset` of the resource (the inverse of tileByteOffset; clamped to the last tile). */
export function tileAtByteOffset(layout: ResourceLayout, offset: number): number {
  const slice = Math.min(layout.arraySize - 1, Math.floor(offset / layout.slicePitch));
  const inSlice = Math.min(layout.tilesPerSlice - 1, Math.floor((offset - slice * layout.slicePitch) / TILE_SIZE));
  return Math.max(0, Math.min(layout.numTiles - 1, slice * layout.tilesPerSlice + inSlice));
}

/**
 * The coordinate of tile `tile` (an index in the resource's tile order): standard tiles by mip and
 * x, y, z in the mip's tile grid; packed tiles as D3D12 addresses them, the slice's first packed mip
 * with x the tile's index in the tail.
 */
export function tileCoordinate(layout: ResourceLayout, tile: number): TileCoordinate {
  const slice = Math.floor(tile / layout.tilesPerSlice);
  const inSlice = tile - slice * layout.tilesPerSlice;
  if (inSlice >= layout.standardTilesPerSlice) {
    return {
      x: inSlice - layout.standardTilesPerSlice,
      y: 0,
      z: 0,
      subresource: slice * layout.mipLevels + layout.numStandardMips,
    };
  }
  for (let mip = 0; mip < layout.numStandardMips; mip++) {
    const m = layout.mips[mip] as MipLayout;
    const local = inSlice - m.firstTileInSlice;
    const count = m.widthInTiles * m.heightInTiles * m.depthInTiles;
    if (local < 0 || local >= count) continue;
    const plane = m.widthInTiles * m.heightInTiles;
    return {
      x: local % m.widthInTiles,
      y: Math.floor((local % plane) / m.widthInTiles),
      z: Math.floor(local / plane),
      subresource: slice * layout.mipLevels + mip,
    };
  }
  return { x: inSlice, y: 0, z: 0, subresource: slice * layout.mipLevels };
}
