/**
 * Command-list argument rules (ID3D12GraphicsCommandList), one function per command. Each returns
 * the error to throw or what the command needs: the copies come out as jobs, byte ranges between
 * GPU virtual addresses, which the copy kernel runs through the page table.
 */
import { D3D12Error, invalidArg, show, type Checked } from '../api/errors.js';
import { copyCompatible, formatInfo, REINTERPRET_RULE } from '../memory/formats.js';
import { spanTiles, type TileSpan } from '../memory/tile-mappings.js';
import { TILE_SIZE, type ResourceLayout } from '../memory/tiling.js';
import { asNameList, checkInteger, checkName, isObject, type Problem } from './common.js';
import { checkResourceState } from './resource-state.js';
import { checkRegion, type ResourceView } from './tile-mappings.js';

function checkLive(call: string, argument: string, resource: ResourceView | undefined): Problem {
  if (!resource) return invalidArg(call, argument, 'must be a resource created by this device');
  if (resource.released) return invalidArg(call, argument, `${resource.label} was released`);
  return undefined;
}

function checkBuffer(call: string, argument: string, resource: ResourceView | undefined): Problem {
  return (
    checkLive(call, argument, resource) ??
    (resource?.desc.dimension === 'BUFFER'
      ? undefined
      : invalidArg(call, argument, `${resource?.label} is a ${resource?.desc.dimension}, not a buffer`))
  );
}

/** copyBufferRegion(dstBuffer, dstOffset, srcBuffer, srcOffset, numBytes). */
export function validateCopyBufferRegion(
  dst: ResourceView | undefined,
  dstOffset: unknown,
  src: ResourceView | undefined,
  srcOffset: unknown,
  numBytes: unknown,
): Problem {
  const call = 'copyBufferRegion';
  const problem =
    checkBuffer(call, 'dstBuffer', dst) ??
    checkInteger(call, 'dstOffset', dstOffset, 0) ??
    checkBuffer(call, 'srcBuffer', src) ??
    checkInteger(call, 'srcOffset', srcOffset, 0) ??
    checkInteger(call, 'numBytes', numBytes, 0);
  if (problem) return problem;
  const [d, s, n] = [dstOffset as number, srcOffset as number, numBytes as number];
  const dstWidth = (dst as ResourceView).desc.width;
  const srcWidth = (src as ResourceView).desc.width;
  if (d + n > dstWidth)
    return invalidArg(
      call,
      'numBytes',
      `${n} bytes from dstOffset ${d} run past the end of ${(dst as ResourceView).label} (${dstWidth} bytes)`,
    );
  if (s + n > srcWidth)
    return invalidArg(
      call,
      'numBytes',
      `${n} bytes from srcOffset ${s} run past the end of ${(src as ResourceView).label} (${srcWidth} bytes)`,
    );
  if (dst === src && n > 0 && d < s + n && s < d + n) {
    return invalidArg(
      call,
      'dstOffset',
      `the source [${s}, ${s + n}) and destination [${d}, ${d + n}) overlap in ${(dst as ResourceView).label}`,
    );
  }
  return undefined;
}

/** The bytes of each slice a copy of a whole resource moves: standard tiles plus the tail. */
export const sliceBytes = (layout: ResourceLayout): number =>
  layout.dimension === 'BUFFER'
    ? layout.sizeInBytes
    : layout.standardTilesPerSlice * TILE_SIZE + layout.packedBytesPerSlice;

/**
 * copyResource(dst, src): the same kind, size, format family and subresources; or a Reinterpret
 * Copy (ID3D12GraphicsCommandList::CopyResource): a block-compressed and an uncompressed format of
 * its block's size (memory/formats.ts copyCompatible), the block-compressed resource 4 times as wide
 * and high as the uncompressed one ("16 texels per block"; R9G9B9E5_SHAREDEXP and R32 1:1), the same
 * depth or array size and mips, and "the same total size (bytes)": here, every mip the same
 * elements laid out alike, so the copy moves the bytes as they lie.
 */
export function validateCopyResource(dst: ResourceView | undefined, src: ResourceView | undefined): Problem {
  const call = 'copyResource';
  const problem = checkLive(call, 'dstResource', dst) ?? checkLive(call, 'srcResource', src);
  if (problem) return problem;
  const [a, b] = [dst as ResourceView, src as ResourceView];
  if (a === b) return invalidArg(call, 'srcResource', 'a resource cannot be copied onto itself');
  const [fa, fb] = [formatInfo(a.desc.format), formatInfo(b.desc.format)];
  const reinterpret =
    fa !== undefined && fb !== undefined && fa.family !== fb.family && a.desc.dimension === b.desc.dimension;
  if (reinterpret && !copyCompatible(fa, fb)) {
    return invalidArg(
      call,
      'srcResource',
      `formats ${b.desc.format} and ${a.desc.format} are not of one family, nor a reinterpreting pair (${REINTERPRET_RULE})`,
    );
  }
  for (const field of ['dimension', 'width', 'height', 'depthOrArraySize', 'mipLevels'] as const) {
    // A reinterpreting copy's width and height scale by the blocks: one uncompressed texel per block.
    const scale =
      reinterpret && (field === 'width' || field === 'height')
        ? field === 'width'
          ? fb.blockWidth / fa.blockWidth
          : fb.blockHeight / fa.blockHeight
        : 1;
    const expected = typeof a.desc[field] === 'number' ? a.desc[field] * scale : a.desc[field];
    if (b.desc[field] !== expected) {
      const why =
        scale === 1
          ? ''
          : `: a reinterpreting copy needs the block-compressed resource ${Math.max(scale, 1 / scale)} times as ${field === 'width' ? 'wide' : 'high'} as the uncompressed one (one texel per block), so ${show(expected)} in the source`;
      return invalidArg(
        call,
        'srcResource',
        `${field} differs: ${show(b.desc[field])} in the source, ${show(a.desc[field])} in the destination${why}`,
      );
    }
  }
  if (!reinterpret && (fa?.family ?? a.desc.format) !== (fb?.family ?? b.desc.format)) {
    return invalidArg(call, 'srcResource', `formats ${b.desc.format} and ${a.desc.format} are not of one family`);
  }
  return reinterpret ? checkSameLayout(call, a, b) : undefined;
}

/** A reinterpreting copy's "same total size": every mip the same elements, in the same tiles and tail places. */
function checkSameLayout(call: string, dst: ResourceView, src: ResourceView): Problem {
  const [a, b] = [dst.layout, src.layout];
  for (let mip = 0; mip < a.mipLevels; mip++) {
    const [ma, mb] = [a.mips[mip], b.mips[mip]];
    if (!ma || !mb) break;
    const keys = [
      'packed',
      'widthInTiles',
      'heightInTiles',
      'depthInTiles',
      'firstTileInSlice',
      'tailByteOffset',
      'rowPitch',
      'depthPitch',
    ] as const;
    if (keys.some((key) => ma[key] !== mb[key])) {
      const elements = (m: typeof ma, bytes: number): string => `${m.rowPitch / bytes}×${m.depthPitch / m.rowPitch}`;
      const bytes = formatInfo(dst.desc.format)?.bytesPerElement ?? 1;
      return invalidArg(
        call,
        'srcResource',
        `mip ${mip} is ${elements(mb, bytes)} elements in the source and ${elements(ma, bytes)} in the destination; a reinterpreting copy needs the same total size (bytes), every mip the same elements (one uncompressed texel per block)`,
      );
    }
  }
  if (a.sizeInBytes !== b.sizeInBytes)
    return invalidArg(
      call,
      'srcResource',
      `the source is ${b.sizeInBytes} bytes and the destination ${a.sizeInBytes}; a reinterpreting copy needs the same total size (bytes)`,
    );
  return undefined;
}

export const TILE_COPY_FLAGS = [
  'NONE',
  'NO_HAZARD',
  'LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE',
  'SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER',
] as const;
export type TileCopyFlag = (typeof TILE_COPY_FLAGS)[number];

export interface TileCopyPlan {
  spans: TileSpan[];
  toTiles: boolean;
}

/** copyTiles(tiledResource, tileRegionStartCoordinate, tileRegionSize, buffer, bufferStartOffsetInBytes, flags). */
export function validateCopyTiles(
  tiled: ResourceView | undefined,
  start: unknown,
  size: unknown,
  buffer: ResourceView | undefined,
  bufferOffset: unknown,
  flags: unknown,
): Checked<TileCopyPlan> {
  const call = 'copyTiles';
  const live = checkLive(call, 'tiledResource', tiled);
  if (live) return live;
  const resource = tiled as ResourceView;
  if (!resource.tileMappings) return invalidArg(call, 'tiledResource', `${resource.label} is not a reserved resource`);
  const names = asNameList(flags);
  for (let i = 0; i < names.length; i++) {
    const problem = checkName(call, Array.isArray(flags) ? `flags[${i}]` : 'flags', names[i], TILE_COPY_FLAGS);
    if (problem) return problem;
  }
  const toTiles = names.includes('LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE');
  // **Chosen**, as native drivers and vkd3d-proton do: without a direction flag (NONE, or NO_HAZARD
  // alone) the copy goes from the tiled resource to the buffer, the value 0 of the direction bits.
  if (toTiles && names.includes('SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER')) {
    return invalidArg(
      call,
      'flags',
      'names both directions (LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE and SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER); name at most one',
    );
  }
  const spans = checkRegion(call, 'tileRegionStartCoordinate', 'tileRegionSize', resource.layout, start, size);
  if (spans instanceof D3D12Error) return spans;
  const bufferProblem =
    checkBuffer(call, 'buffer', buffer) ?? checkInteger(call, 'bufferStartOffsetInBytes', bufferOffset, 0);
  if (bufferProblem) return bufferProblem;
  const bytes = spanTiles(spans) * TILE_SIZE;
  const width = (buffer as ResourceView).desc.width;
  if ((bufferOffset as number) + bytes > width) {
    return invalidArg(
      call,
      'bufferStartOffsetInBytes',
      `${spanTiles(spans)} tiles (${bytes} bytes) from offset ${show(bufferOffset)} run past the end of ${(buffer as ResourceView).label} (${width} bytes)`,
    );
  }
  return { spans, toTiles };
}

/** The subresources whose tiles a list of spans touches (a tail tile touches every packed mip of its slice). */
export function subresourcesOfTiles(layout: ResourceLayout, spans: readonly TileSpan[]): number[] {
  const subresources = new Set<number>();
  for (const span of spans) {
    for (let tile = span.first; tile < span.first + span.count; tile++) {
      const slice = Math.floor(tile / layout.tilesPerSlice);
      const inSlice = tile - slice * layout.tilesPerSlice;
      layout.mips.forEach((mip, level) => {
        const standardHit =
          !mip.packed &&
          inSlice >= mip.firstTileInSlice &&
          inSlice < mip.firstTileInSlice + mip.widthInTiles * mip.heightInTiles * mip.depthInTiles;
        const tailHit = mip.packed && inSlice >= layout.standardTilesPerSlice;
        if (standardHit || tailHit) subresources.add(slice * layout.mipLevels + level);
      });
    }
  }
  return [...subresources];
}

export type BarrierFlag = 'NONE' | 'BEGIN_ONLY' | 'END_ONLY';

export type CheckedBarrier =
  /** A swap chain's back buffer between PRESENT (COMMON) and RENDER_TARGET: checked, not tracked. */
  | { type: 'BACK_BUFFER' }
  | {
      type: 'TRANSITION';
      flags: BarrierFlag;
      resource: ResourceView;
      subresource: number;
      before: number;
      after: number;
    }
  | { type: 'UAV'; resource: ResourceView | null }
  | { type: 'ALIASING'; before: ResourceView | null; after: ResourceView | null };

/** resourceBarrier(barriers): D3D12_RESOURCE_BARRIER structs (transition, UAV, aliasing). */
export function validateBarriers(
  barriers: unknown,
  own: (value: unknown) => ResourceView | undefined,
  /** Whether a transition names a swap chain's back buffer (states PRESENT, COMMON, RENDER_TARGET). */
  backBuffer?: (value: unknown) => boolean,
): Checked<CheckedBarrier[]> {
  const call = 'resourceBarrier';
  if (!Array.isArray(barriers))
    return invalidArg(call, 'barriers', `must be an array of D3D12_RESOURCE_BARRIER, got ${show(barriers)}`);
  const checked: CheckedBarrier[] = [];
  for (let i = 0; i < barriers.length; i++) {
    const barrier: unknown = barriers[i];
    const at = `barriers[${i}]`;
    if (!isObject(barrier))
      return invalidArg(call, at, `must be a D3D12_RESOURCE_BARRIER object, got ${show(barrier)}`);
    const typeProblem = checkName(call, `${at}.type`, barrier.type, ['TRANSITION', 'UAV', 'ALIASING'] as const);
    if (typeProblem) return typeProblem;
    const flags = barrier.flags ?? 'NONE';
    const flagProblem = checkName(call, `${at}.flags`, flags, ['NONE', 'BEGIN_ONLY', 'END_ONLY'] as const);
    if (flagProblem) return flagProblem;
    // Split barriers (BEGIN_ONLY / END_ONLY) are transitions only.
    if (barrier.type !== 'TRANSITION' && flags !== 'NONE')
      return invalidArg(
        call,
        `${at}.flags`,
        `must be NONE for a ${String(barrier.type)} barrier (only transitions split), got ${show(flags)}`,
      );
    const optional = (value: unknown, argument: string): Checked<ResourceView | null> => {
      if (value === null || value === undefined) return null;
      const resource = own(value);
      return checkLive(call, argument, resource) ?? (resource as ResourceView);
    };
    if (barrier.type === 'UAV') {
      const uav = isObject(barrier.uav) ? barrier.uav : {};
      const resource = optional(uav.resource, `${at}.uav.resource`);
      if (resource instanceof D3D12Error) return resource;
      checked.push({ type: 'UAV', resource });
      continue;
    }
    if (barrier.type === 'ALIASING') {
      const aliasing = isObject(barrier.aliasing) ? barrier.aliasing : {};
      const before = optional(aliasing.resourceBefore, `${at}.aliasing.resourceBefore`);
      if (before instanceof D3D12Error) return before;
      const after = optional(aliasing.resourceAfter, `${at}.aliasing.resourceAfter`);
      if (after instanceof D3D12Error) return after;
      checked.push({ type: 'ALIASING', before, after });
      continue;
    }
    if (!isObject(barrier.transition))
      return invalidArg(
        call,
        `${at}.transition`,
        `must be {resource, subresource, stateBefore, stateAfter}, got ${show(barrier.transition)}`,
      );
    const transition = barrier.transition;
    if (backBuffer?.(transition.resource)) {
      const problem = backBufferTransition(call, at, transition);
      if (problem) return problem;
      checked.push({ type: 'BACK_BUFFER' });
      continue;
    }
    const resource = own(transition.resource);
    const live = checkLive(call, `${at}.transition.resource`, resource);
    if (live) return live;
    const count = (resource as ResourceView).layout.mipLevels * (resource as ResourceView).layout.arraySize;
    const subresource = transition.subresource ?? 0xffffffff;
    if (subresource !== 0xffffffff) {
      const problem = checkInteger(call, `${at}.transition.subresource`, subresource, 0, count - 1);
      if (problem) return problem;
    }
    const before = checkResourceState(call, `${at}.transition.stateBefore`, transition.stateBefore);
    if (before instanceof D3D12Error) return before;
    const after = checkResourceState(call, `${at}.transition.stateAfter`, transition.stateAfter);
    if (after instanceof D3D12Error) return after;
    if (before === after)
      return invalidArg(
        call,
        `${at}.transition.stateAfter`,
        `equals stateBefore (${show(transition.stateBefore)}); a transition must change the state`,
      );
    checked.push({
      type: 'TRANSITION',
      flags: flags as BarrierFlag,
      resource: resource as ResourceView,
      subresource: subresource as number,
      before,
      after,
    });
  }
  return checked;
}

/** A back buffer's transition: between PRESENT (= COMMON) and RENDER_TARGET, the states a swap chain's buffers take. */
function backBufferTransition(call: string, at: string, transition: Record<string, unknown>): D3D12Error | undefined {
  const states = ['PRESENT', 'COMMON', 'RENDER_TARGET'] as const;
  for (const field of ['stateBefore', 'stateAfter'] as const) {
    const problem = checkName(call, `${at}.transition.${field}`, transition[field], states);
    if (problem)
      return invalidArg(
        call,
        `${at}.transition.${field}`,
        `a back buffer is PRESENT (COMMON) or RENDER_TARGET, got ${show(transition[field])}`,
      );
  }
  const rendering = (state: unknown): boolean => state === 'RENDER_TARGET';
  if (rendering(transition.stateBefore) === rendering(transition.stateAfter))
    return invalidArg(
      call,
      `${at}.transition.stateAfter`,
      `equals stateBefore (${show(transition.stateBefore)}; PRESENT is COMMON); a transition must change the state`,
    );
  return undefined;
}

/**
 * Set{Compute,Graphics}Root{ConstantBuffer,ShaderResource,UnorderedAccess}View(rootParameterIndex,
 * bufferLocation): root parameters 1..`count` are root descriptors. As in D3D12, the address is not
 * checked against resources (0, or one no resource owns, is allowed; a shader's access faults then),
 * but it must be a D3D12_GPU_VIRTUAL_ADDRESS: a bigint in [0, 2^64).
 */
export function validateRootDescriptor(
  call: string,
  rootParameterIndex: unknown,
  bufferLocation: unknown,
  count: number,
  constants: number,
): D3D12Error | undefined {
  if (rootParameterIndex === 0)
    return invalidArg(
      call,
      'rootParameterIndex',
      `root parameter 0 is the ${constants} 32-bit root constants (Set*Root32BitConstants); root descriptors are parameters 1 to ${count}`,
    );
  const problem = checkInteger(call, 'rootParameterIndex', rootParameterIndex, 1, count);
  if (problem)
    return invalidArg(
      call,
      'rootParameterIndex',
      `must be a root descriptor's parameter, 1 to ${count}, got ${show(rootParameterIndex)}`,
    );
  if (typeof bufferLocation !== 'bigint' || bufferLocation < 0n || bufferLocation >= 2n ** 64n) {
    return invalidArg(
      call,
      'bufferLocation',
      `must be a GPU virtual address, a bigint from 0 to 2^64 - 1 (getGPUVirtualAddress()), got ${show(bufferLocation)}`,
    );
  }
  return undefined;
}

/** setComputeRoot32BitConstants(rootParameterIndex, srcData, destOffsetIn32BitValues): into 64 root constants. */
export function validateRootConstants(
  rootParameterIndex: unknown,
  values: unknown,
  destOffset: unknown,
  count: number,
  call = 'setComputeRoot32BitConstants',
): Checked<Uint32Array> {
  const problem =
    checkInteger(call, 'rootParameterIndex', rootParameterIndex, 0, 0) ??
    checkInteger(call, 'destOffsetIn32BitValues', destOffset, 0, count);
  if (problem) {
    return problem.argument === 'rootParameterIndex'
      ? invalidArg(
          call,
          'rootParameterIndex',
          `must be 0: the emulator's one root parameter is ${count} 32-bit constants, got ${show(rootParameterIndex)}`,
        )
      : problem;
  }
  if (!Array.isArray(values) && !ArrayBuffer.isView(values))
    return invalidArg(call, 'srcData', `must be an array of 32-bit values, got ${show(values)}`);
  const list = Array.from(values as ArrayLike<number>);
  if ((destOffset as number) + list.length > count) {
    return invalidArg(
      call,
      'srcData',
      `${list.length} values from offset ${show(destOffset)} run past the ${count} root constants`,
    );
  }
  const words = new Uint32Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const value = list[i];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < -(2 ** 31) || value >= 2 ** 32) {
      return invalidArg(call, `srcData[${i}]`, `must be a 32-bit integer (signed or unsigned), got ${show(value)}`);
    }
    words[i] = value >>> 0;
  }
  return words;
}

/** dispatch(x, y, z): counts of thread groups, 0..maxComputeWorkgroupsPerDimension each. */
export function validateDispatch(x: unknown, y: unknown, z: unknown, max: number): Problem {
  const call = 'dispatch';
  return (
    checkInteger(call, 'threadGroupCountX', x, 0, max) ??
    checkInteger(call, 'threadGroupCountY', y, 0, max) ??
    checkInteger(call, 'threadGroupCountZ', z, 0, max)
  );
}
