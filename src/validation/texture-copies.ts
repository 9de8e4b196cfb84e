/**
 * Texture-data calls, one function each: getCopyableFootprints(desc, firstSubresource,
 * numSubresources, baseOffset) and copyTextureRegion(dst, dstX, dstY, dstZ, src, srcBox)
 * (discardResource: discard-resource.ts). What D3D12's debug layer reports becomes E_INVALIDARG here,
 * one rule per message; a copy comes out as the two sides and the region in elements (texels, or
 * 4×4 blocks of a block-compressed format), for the facade to turn into copy jobs.
 *
 * Rules and their sources:
 *   - D3D12_TEXTURE_COPY_LOCATION: a PLACED_FOOTPRINT location's resource is a buffer, a
 *     SUBRESOURCE_INDEX location's a texture; so buffer to buffer is not a CopyTextureRegion.
 *   - D3D12_PLACED_SUBRESOURCE_FOOTPRINT / D3D12_SUBRESOURCE_FOOTPRINT: the offset is a multiple of
 *     D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT (512), the row pitch a multiple of
 *     D3D12_TEXTURE_DATA_PITCH_ALIGNMENT (256) and at least a row's bytes, and "all the data
 *     referenced by the footprint structure must fit within the bounds of the parent resource".
 *   - CopyTextureRegion remarks: the source box lies within the source subresource, the destination
 *     region within the destination's; source and destination are different subresources; formats
 *     are identical or of one type group (here: one TYPELESS family, so the element size is equal),
 *     or a reinterpreting pair (memory/formats.ts copyCompatible: a block-compressed format and an
 *     uncompressed one whose texel is its block, as the D3D12 debug layer's ValidateCopyTextureRegion
 *     accepts them, "BC[1|4] ~= R16G16B16A16|R32G32, BC[2|3|5|6|7] ~= R32G32B32A32, and
 *     R9G9B9E5_SHAREDEXP ~= R32"); depth-stencil copies are whole subresources (DstX/Y/Z 0 and no
 *     box). Each side's coordinates are in its own format's texels, as that check reads them: DstX
 *     and DstY multiples of the destination format's block, the box's edges of the source's (except
 *     an edge at the mip's own edge), and the region in elements (the box's, by the source block)
 *     inside the destination's elements, so one uncompressed texel is one 4×4 block. Bounds are the
 *     subresource's footprint (its mip rounded up to whole blocks), as GetCopyableFootprints gives
 *     it, so an upload of a footprint into a 2×2 BC mip works.
 *   - **Chosen**: texture to texture copies need one dimension (2D to 2D...); an empty box (right <=
 *     left ...) is refused rather than copying nothing.
 *   - GetCopyableFootprints fills every output with all-ones for an invalid description or range
 *     (vkd3d-proton's test_get_copyable_footprints, run against native D3D12); here it throws
 *     E_INVALIDARG, like every other call.
 */
import { D3D12Error, invalidArg, show, type Checked } from '../api/errors.js';
import type { CopyableFootprints, SubresourceFootprint } from '../api/types.js';
import {
  copyableFootprints,
  footprintBytes,
  footprintInput,
  subresourceCopyShape,
  TEXTURE_DATA_PITCH_ALIGNMENT,
  TEXTURE_DATA_PLACEMENT_ALIGNMENT,
} from '../memory/footprints.js';
import { copyCompatible, formatInfo, REINTERPRET_RULE, type FormatInfo } from '../memory/formats.js';
import { mipSize } from '../memory/tiling.js';
import { checkInteger, checkName, isObject, type Problem } from './common.js';
import { checkResourceDesc, type ResourceCaps } from './resource-desc.js';
import type { ResourceView } from './tile-mappings.js';

const U32_MAX = 0xffffffff;

/** getCopyableFootprints(desc, firstSubresource, numSubresources, baseOffset). */
export function validateGetCopyableFootprints(
  caps: ResourceCaps,
  desc: unknown,
  firstSubresource: unknown,
  numSubresources: unknown,
  baseOffset: unknown,
): Checked<CopyableFootprints> {
  const call = 'getCopyableFootprints';
  const checked = checkResourceDesc(call, 'desc', desc, caps, false);
  if (checked instanceof D3D12Error) return checked;
  const count = checked.layout.mipLevels * checked.layout.arraySize;
  const problem =
    checkInteger(call, 'firstSubresource', firstSubresource, 0, count) ??
    checkInteger(call, 'numSubresources', numSubresources, 0) ??
    checkInteger(call, 'baseOffset', baseOffset, 0);
  if (problem) return problem;
  const [first, num] = [firstSubresource as number, numSubresources as number];
  if (first + num > count) {
    return invalidArg(
      call,
      'numSubresources',
      `subresources [${first}, ${first + num}) run past the description's ${count} (mipLevels × array size${checked.desc.dimension === 'BUFFER' ? ': a buffer has one' : ''})`,
    );
  }
  const result = copyableFootprints(footprintInput(checked.desc, checked.format), first, num, baseOffset as number);
  if ((baseOffset as number) + result.totalBytes > Number.MAX_SAFE_INTEGER)
    return invalidArg(call, 'baseOffset', `${show(baseOffset)} + ${result.totalBytes} bytes is past 2^53 - 1`);
  return result;
}

// ---- copyTextureRegion ------------------------------------------------------------------------

/** Width, height and depth in texels. */
export interface Extent {
  width: number;
  height: number;
  depth: number;
}

/** One side of a copy, as its location names it; `extent` is what a box or region must fit in. */
export type CopySide =
  | {
      kind: 'subresource';
      resource: ResourceView;
      subresource: number;
      format: FormatInfo;
      extent: Extent;
      mip: Extent;
    }
  | {
      kind: 'footprint';
      resource: ResourceView;
      offset: number;
      footprint: SubresourceFootprint;
      numRows: number;
      format: FormatInfo;
      extent: Extent;
      bytes: number;
    };

/** A checked copy: where it reads and writes, in elements (texels, or blocks). */
export interface TextureCopyPlan {
  dst: CopySide;
  src: CopySide;
  dstStart: [number, number, number];
  srcStart: [number, number, number];
  size: Extent;
  bytesPerElement: number;
}

const COPY_TYPES = ['SUBRESOURCE_INDEX', 'PLACED_FOOTPRINT'] as const;

function checkLocation(
  call: string,
  argument: string,
  value: unknown,
  own: (value: unknown) => ResourceView | undefined,
): Checked<CopySide> {
  if (!isObject(value))
    return invalidArg(
      call,
      argument,
      `must be a D3D12_TEXTURE_COPY_LOCATION {resource, type, subresourceIndex | placedFootprint}, got ${show(value)}`,
    );
  const resource = own(value.resource);
  if (!resource) return invalidArg(call, `${argument}.resource`, 'must be a resource created by this device');
  if (resource.released) return invalidArg(call, `${argument}.resource`, `${resource.label} was released`);
  const typeProblem = checkName(call, `${argument}.type`, value.type, COPY_TYPES);
  if (typeProblem) return typeProblem;
  const buffer = resource.desc.dimension === 'BUFFER';
  if (value.type === 'SUBRESOURCE_INDEX') {
    if (buffer)
      return invalidArg(
        call,
        `${argument}.resource`,
        `${resource.label} is a buffer; a SUBRESOURCE_INDEX location names a texture subresource (a buffer takes a PLACED_FOOTPRINT)`,
      );
    const count = resource.layout.mipLevels * resource.layout.arraySize;
    const problem = checkInteger(call, `${argument}.subresourceIndex`, value.subresourceIndex, 0, count - 1);
    if (problem) return problem;
    const subresource = value.subresourceIndex as number;
    const format = formatInfo(resource.desc.format) as FormatInfo;
    const level = subresource % resource.layout.mipLevels;
    const { footprint } = subresourceCopyShape(footprintInput(resource.desc, format), level);
    const mip = {
      width: mipSize(resource.desc.width, level),
      height: mipSize(resource.desc.height, level),
      depth: footprint.depth,
    };
    return {
      kind: 'subresource',
      resource,
      subresource,
      format,
      extent: { width: footprint.width, height: footprint.height, depth: footprint.depth },
      mip,
    };
  }
  if (!buffer)
    return invalidArg(
      call,
      `${argument}.resource`,
      `${resource.label} is a ${resource.desc.dimension}; a PLACED_FOOTPRINT location lays texels out in a buffer (a texture takes a SUBRESOURCE_INDEX)`,
    );
  return checkFootprint(call, `${argument}.placedFootprint`, value.placedFootprint, resource);
}

function checkFootprint(call: string, at: string, placed: unknown, resource: ResourceView): Checked<CopySide> {
  if (!isObject(placed))
    return invalidArg(
      call,
      at,
      `must be a D3D12_PLACED_SUBRESOURCE_FOOTPRINT {offset, footprint}, got ${show(placed)}`,
    );
  const offsetProblem = checkInteger(call, `${at}.offset`, placed.offset, 0);
  if (offsetProblem) return offsetProblem;
  const offset = placed.offset as number;
  if (offset % TEXTURE_DATA_PLACEMENT_ALIGNMENT !== 0)
    return invalidArg(
      call,
      `${at}.offset`,
      `must be a multiple of D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT (${TEXTURE_DATA_PLACEMENT_ALIGNMENT}), got ${offset}`,
    );
  const f = placed.footprint;
  if (!isObject(f))
    return invalidArg(
      call,
      `${at}.footprint`,
      `must be a D3D12_SUBRESOURCE_FOOTPRINT {format, width, height, depth, rowPitch}, got ${show(f)}`,
    );
  const format = typeof f.format === 'string' ? formatInfo(f.format) : undefined;
  if (!format)
    return invalidArg(
      call,
      `${at}.footprint.format`,
      `must be the DXGI format of the texture's texels, got ${show(f.format)}`,
    );
  for (const field of ['width', 'height', 'depth', 'rowPitch'] as const) {
    const problem = checkInteger(call, `${at}.footprint.${field}`, f[field], 1, U32_MAX);
    if (problem) return problem;
  }
  const [width, height, depth, rowPitch] = [f.width, f.height, f.depth, f.rowPitch] as number[] as [
    number,
    number,
    number,
    number,
  ];
  if (width % format.blockWidth !== 0)
    return invalidArg(
      call,
      `${at}.footprint.width`,
      `must be a multiple of ${String(f.format)}'s block width (${format.blockWidth}), got ${width}`,
    );
  if (height % format.blockHeight !== 0)
    return invalidArg(
      call,
      `${at}.footprint.height`,
      `must be a multiple of ${String(f.format)}'s block height (${format.blockHeight}), got ${height}`,
    );
  const rowSize = (width / format.blockWidth) * format.bytesPerElement;
  if (rowPitch % TEXTURE_DATA_PITCH_ALIGNMENT !== 0)
    return invalidArg(
      call,
      `${at}.footprint.rowPitch`,
      `must be a multiple of D3D12_TEXTURE_DATA_PITCH_ALIGNMENT (${TEXTURE_DATA_PITCH_ALIGNMENT}), got ${rowPitch}`,
    );
  if (rowPitch < rowSize)
    return invalidArg(
      call,
      `${at}.footprint.rowPitch`,
      `must be at least a row's ${rowSize} bytes (${width} texels of ${String(f.format)}), got ${rowPitch}`,
    );
  const numRows = height / format.blockHeight;
  const bytes = footprintBytes(numRows, rowPitch, rowSize, depth);
  if (offset + bytes > resource.desc.width) {
    return invalidArg(
      call,
      at,
      `the footprint spans ${bytes} bytes from offset ${offset}, past the end of ${resource.label} (${resource.desc.width} bytes)`,
    );
  }
  const footprint = { format: f.format as string, width, height, depth, rowPitch };
  return { kind: 'footprint', resource, offset, footprint, numRows, format, extent: { width, height, depth }, bytes };
}

const BOX_FIELDS = [
  ['left', 'right', 'width'],
  ['top', 'bottom', 'height'],
  ['front', 'back', 'depth'],
] as const;

/** The source box as [start, end) per axis, in texels: checked, or the whole source. */
function checkBox(call: string, box: unknown, src: CopySide): Checked<[number, number][]> {
  if (box === null || box === undefined) return BOX_FIELDS.map(([, , size]) => [0, src.extent[size]]);
  if (!isObject(box))
    return invalidArg(
      call,
      'srcBox',
      `must be a D3D12_BOX {left, top, front, right, bottom, back} or null, got ${show(box)}`,
    );
  const ranges: [number, number][] = [];
  for (const [low, high, size] of BOX_FIELDS) {
    const problem =
      checkInteger(call, `srcBox.${low}`, box[low], 0, U32_MAX) ??
      checkInteger(call, `srcBox.${high}`, box[high], 0, U32_MAX);
    if (problem) return problem;
    const [start, end] = [box[low] as number, box[high] as number];
    if (end <= start)
      return invalidArg(call, `srcBox.${high}`, `must be greater than ${low} (${start}): the box is empty, got ${end}`);
    if (end > src.extent[size])
      return invalidArg(call, `srcBox.${high}`, `${end} is past the source's ${size} (${src.extent[size]})`);
    ranges.push([start, end]);
  }
  // Block-compressed: whole blocks, but for an edge at the mip's own edge (a mip smaller than a block).
  const { blockWidth, blockHeight } = src.format;
  const own = src.kind === 'subresource' ? src.mip : src.extent;
  for (const [axis, block, edge] of [
    [0, blockWidth, own.width],
    [1, blockHeight, own.height],
  ] as const) {
    const [start, end] = ranges[axis] as [number, number];
    const [low, high] = BOX_FIELDS[axis];
    if (start % block !== 0)
      return invalidArg(
        call,
        `srcBox.${low}`,
        `must be a multiple of the ${block}-texel block of a block-compressed format, got ${start}`,
      );
    if (end % block !== 0 && end !== edge)
      return invalidArg(
        call,
        `srcBox.${high}`,
        `must be a multiple of the ${block}-texel block, or the mip's edge (${edge}), got ${end}`,
      );
  }
  return ranges;
}

const depthStencil = (side: CopySide): boolean =>
  side.kind === 'subresource' && side.resource.desc.flags.includes('ALLOW_DEPTH_STENCIL');

/** Rules between the two locations: not buffer to buffer, different subresources, one dimension, one format group. */
function checkPair(call: string, dst: CopySide, src: CopySide): Problem {
  if (dst.kind === 'footprint' && src.kind === 'footprint') {
    return invalidArg(
      call,
      'src',
      'dst and src are both PLACED_FOOTPRINT locations (buffers); CopyTextureRegion copies to or from a texture subresource (buffer to buffer is copyBufferRegion)',
    );
  }
  if (dst.kind === 'subresource' && src.kind === 'subresource') {
    if (dst.resource === src.resource && dst.subresource === src.subresource) {
      return invalidArg(
        call,
        'src.subresourceIndex',
        `is dst's subresource ${dst.subresource} of ${dst.resource.label}; source and destination must be different subresources (one cannot be in COPY_SOURCE and COPY_DEST at once)`,
      );
    }
    if (dst.resource.desc.dimension !== src.resource.desc.dimension) {
      return invalidArg(
        call,
        'src.resource',
        `${src.resource.label} is a ${src.resource.desc.dimension} and dst's ${dst.resource.label} a ${dst.resource.desc.dimension}; a texture-to-texture copy needs one dimension`,
      );
    }
  }
  if (!copyCompatible(dst.format, src.format)) {
    const [texture, other, otherArgument] = dst.kind === 'subresource' ? [dst, src, 'src'] : [src, dst, 'dst'];
    const argument =
      other.kind === 'footprint' ? `${otherArgument}.placedFootprint.footprint.format` : `${otherArgument}.resource`;
    const otherFormat = other.kind === 'footprint' ? other.footprint.format : other.resource.desc.format;
    const textureFormat = texture.kind === 'subresource' ? texture.resource.desc.format : '';
    return invalidArg(
      call,
      argument,
      `${otherFormat} is not of ${textureFormat}'s format group (${texture.format.family}), nor a format it reinterprets to; copies keep the bytes, so both sides need one format, formats of one TYPELESS group, or a reinterpreting pair (${REINTERPRET_RULE})`,
    );
  }
  return undefined;
}

/** copyTextureRegion(dst, dstX, dstY, dstZ, src, srcBox). */
export function validateCopyTextureRegion(
  own: (value: unknown) => ResourceView | undefined,
  dst: unknown,
  dstX: unknown,
  dstY: unknown,
  dstZ: unknown,
  src: unknown,
  srcBox: unknown,
): Checked<TextureCopyPlan> {
  const call = 'copyTextureRegion';
  const to = checkLocation(call, 'dst', dst, own);
  if (to instanceof D3D12Error) return to;
  const from = checkLocation(call, 'src', src, own);
  if (from instanceof D3D12Error) return from;
  // Each side in its own format's texels; `block` is the destination's, `srcBlock` the source's.
  const axes = [
    { name: 'dstX', at: dstX, size: 'width', block: to.format.blockWidth, srcBlock: from.format.blockWidth },
    { name: 'dstY', at: dstY, size: 'height', block: to.format.blockHeight, srcBlock: from.format.blockHeight },
    { name: 'dstZ', at: dstZ, size: 'depth', block: 1, srcBlock: 1 },
  ] as const;
  for (const axis of axes) {
    const problem = checkInteger(call, axis.name, axis.at, 0, U32_MAX);
    if (problem) return problem;
  }
  const pairProblem = checkPair(call, to, from);
  if (pairProblem) return pairProblem;
  const ranges = checkBox(call, srcBox, from);
  if (ranges instanceof D3D12Error) return ranges;
  const boxGiven = srcBox !== null && srcBox !== undefined;
  if ((depthStencil(to) || depthStencil(from)) && (boxGiven || axes.some((axis) => axis.at !== 0))) {
    return invalidArg(
      call,
      boxGiven ? 'srcBox' : 'dstX',
      'a depth-stencil texture is copied as a whole subresource: DstX, DstY, DstZ 0 and no source box',
    );
  }
  const dstStart: number[] = [];
  const srcStart: number[] = [];
  const size: number[] = [];
  for (const [i, axis] of axes.entries()) {
    const at = axis.at as number;
    const [start, end] = ranges[i] as [number, number];
    if (at % axis.block !== 0)
      return invalidArg(
        call,
        axis.name,
        `must be a multiple of the ${axis.block}-texel block of a block-compressed format, got ${at}`,
      );
    // In elements: a block-compressed box may end inside a block (at a small mip's edge); between a
    // block-compressed and an uncompressed format, each texel of the one is a block of the other.
    const count = Math.ceil((end - start) / axis.srcBlock);
    const room = to.extent[axis.size];
    if (at + count * axis.block > room) {
      const reinterpreted =
        axis.block === axis.srcBlock
          ? ''
          : ` (${count} source ${axis.srcBlock > 1 ? 'blocks' : 'texels'}, each ${axis.block > 1 ? `a ${axis.block}-texel block` : 'one texel'} here)`;
      return invalidArg(
        call,
        axis.name,
        `the region [${at}, ${at + (axis.block === axis.srcBlock ? end - start : count * axis.block)}) runs past the destination's ${axis.size} (${room})${reinterpreted}`,
      );
    }
    dstStart.push(at / axis.block);
    srcStart.push(start / axis.srcBlock);
    size.push(count);
  }
  return {
    dst: to,
    src: from,
    dstStart: dstStart as [number, number, number],
    srcStart: srcStart as [number, number, number],
    size: { width: size[0] as number, height: size[1] as number, depth: size[2] as number },
    bytesPerElement: to.format.bytesPerElement,
  };
}
