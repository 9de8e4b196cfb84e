/**
 * GetCopyableFootprints' arithmetic: how a subresource's elements (texels, or 4×4 blocks of a
 * block-compressed format) are laid out in a buffer for CopyTextureRegion, and how many bytes a
 * footprint spans. GPU-free and adapter-independent, as D3D12's are ("the resulting structures are
 * GPU adapter-agnostic", the GetCopyableFootprints remarks).
 *
 * Invariants, as native D3D12 answers (vkd3d-proton's test_get_copyable_footprints checks them
 * against it):
 *   - a footprint's width and height are the mip's, rounded up to the format's block; its depth is
 *     the 3D mip's depth, else 1; rows = height / block height; a row's size is its elements' bytes;
 *     the row pitch is the row size rounded up to D3D12_TEXTURE_DATA_PITCH_ALIGNMENT (256);
 *   - a footprint spans (rows - 1) × rowPitch + rowSize bytes per depth slice, slices
 *     align(that, 256) apart (which is rows × rowPitch);
 *   - the first subresource is placed at baseOffset itself; each next one at baseOffset plus the
 *     running total (relative to baseOffset) rounded up to D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT
 *     (512); totalBytes is that running total without baseOffset (d3dx12's UpdateSubresources
 *     checks `Width < RequiredSize + pLayouts[0].Offset`).
 */
import type { CopyableFootprints, ResourceDimension, SubresourceFootprint } from '../api/types.js';
import type { FormatInfo } from './formats.js';
import { mipSize } from './tiling.js';

/** D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT: a placed footprint's offset. */
export const TEXTURE_DATA_PLACEMENT_ALIGNMENT = 512;
/** D3D12_TEXTURE_DATA_PITCH_ALIGNMENT: a footprint's row pitch. */
export const TEXTURE_DATA_PITCH_ALIGNMENT = 256;

const alignUp = (value: number, alignment: number): number => Math.ceil(value / alignment) * alignment;

/** What the footprints need of a (validated) resource description. */
export interface FootprintInput {
  dimension: ResourceDimension;
  width: number;
  height: number;
  /** Depth of a 3D texture, else 1. */
  depth: number;
  mipLevels: number;
  /** The DXGI format name ('UNKNOWN' for buffers) and its facts (undefined for buffers: bytes). */
  format: string;
  info?: FormatInfo;
}

/** One subresource's footprint, rows and row size (GetCopyableFootprints' per-subresource outputs). */
export interface SubresourceCopyShape {
  footprint: SubresourceFootprint;
  numRows: number;
  rowSizeInBytes: number;
}

/** The element size and block of a format; a buffer (no format) is bytes. */
export const elementOf = (info: FormatInfo | undefined): { bytes: number; blockWidth: number; blockHeight: number } =>
  info
    ? { bytes: info.bytesPerElement, blockWidth: info.blockWidth, blockHeight: info.blockHeight }
    : { bytes: 1, blockWidth: 1, blockHeight: 1 };

/** The footprint of mip `mip` (every array slice of a mip has the same one). */
export function subresourceCopyShape(input: FootprintInput, mip: number): SubresourceCopyShape {
  const element = elementOf(input.info);
  const width = alignUp(mipSize(input.width, mip), element.blockWidth);
  const height = alignUp(mipSize(input.height, mip), element.blockHeight);
  const depth = input.dimension === 'TEXTURE3D' ? mipSize(input.depth, mip) : 1;
  const rowSizeInBytes = (width / element.blockWidth) * element.bytes;
  return {
    footprint: {
      format: input.format,
      width,
      height,
      depth,
      rowPitch: alignUp(rowSizeInBytes, TEXTURE_DATA_PITCH_ALIGNMENT),
    },
    numRows: height / element.blockHeight,
    rowSizeInBytes,
  };
}

/** The bytes a footprint spans from its offset: the last row of the last depth slice ends there. */
export function footprintBytes(numRows: number, rowPitch: number, rowSizeInBytes: number, depth: number): number {
  const slice = (numRows - 1) * rowPitch + rowSizeInBytes;
  return (depth - 1) * alignUp(slice, TEXTURE_DATA_PITCH_ALIGNMENT) + slice;
}

/** GetCopyableFootprints for subresources [first, first + count) (a validated range). */
/** A (validated) resource description as the footprint arithmetic needs it; `info`: its format's facts. */
export function footprintInput(
  desc: {
    dimension: ResourceDimension;
    width: number;
    height: number;
    depthOrArraySize: number;
    mipLevels: number;
    format: string;
  },
  info: FormatInfo | undefined,
): FootprintInput {
  const volume = desc.dimension === 'TEXTURE3D';
  return {
    dimension: desc.dimension,
    width: desc.width,
    height: desc.height,
    depth: volume ? desc.depthOrArraySize : 1,
    mipLevels: desc.mipLevels,
    format: desc.format,
    info,
  };
}

export function copyableFootprints(
  input: FootprintInput,
  first: number,
  count: number,
  baseOffset: number,
): CopyableFootprints {
  const result: CopyableFootprints = { layouts: [], numRows: [], rowSizeInBytes: [], totalBytes: 0 };
  let offset = 0;
  for (let subresource = first; subresource < first + count; subresource++) {
    const shape = subresourceCopyShape(input, subresource % input.mipLevels);
    result.layouts.push({ offset: baseOffset + offset, footprint: shape.footprint });
    result.numRows.push(shape.numRows);
    result.rowSizeInBytes.push(shape.rowSizeInBytes);
    result.totalBytes =
      offset + footprintBytes(shape.numRows, shape.footprint.rowPitch, shape.rowSizeInBytes, shape.footprint.depth);
    offset = alignUp(result.totalBytes, TEXTURE_DATA_PLACEMENT_ALIGNMENT);
  }
  return result;
}
