/**
 * D3D12_RESOURCE_DESC: defaults, D3D12's rules per dimension, format, flags and layout, and the
 * placement alignment and size (GetResourceAllocationInfo).
 *
 * Alignment (D3D12_RESOURCE_DESC remarks): buffers 64 KiB; textures 64 KiB, or 4 KiB for a small
 * texture when asked for. **Chosen** rule for "small": UNKNOWN layout, not a render target or
 * depth-stencil, single-sampled, and mip 0 of one array slice at most 64 KiB. Asking 4 KiB for a
 * texture that is not small makes GetResourceAllocationInfo answer 64 KiB, as D3D12 does, and makes
 * creation fail. 4 MiB is MSAA's alignment; MSAA is not emulated.
 */
import { D3D12Error, invalidArg, show, type Checked } from '../api/errors.js';
import {
  RESOURCE_DIMENSIONS,
  RESOURCE_FLAGS,
  TEXTURE_LAYOUTS,
  type FullResourceDesc,
  type ResourceFlag,
  type TextureLayout,
  type TiledResourcesTier,
} from '../api/types.js';
import { formatInfo, type FormatInfo } from '../memory/formats.js';
import {
  computeLayout,
  hasStandardTileShape,
  SMALL_PLACEMENT_ALIGNMENT,
  TILE_SIZE,
  type ResourceLayout,
} from '../memory/tiling.js';
import type { ResourceDimension } from '../api/types.js';
import { checkInteger, checkName, checkNames, firstProblem, isObject } from './common.js';
import { DEFAULT_ALIGNMENT, MSAA_ALIGNMENT, type ResourceCategory } from './heap.js';

/** D3D12's size limits (D3D12_REQ_*). */
export const LIMITS = {
  texture1DWidth: 16384,
  texture1DArraySize: 2048,
  texture2DSize: 16384,
  texture2DArraySize: 2048,
  texture3DSize: 2048,
  /** D3D12_REQ_MIP_LEVELS. */
  mipLevels: 15,
} as const;

/** Flags D3D12 has but the emulator does not implement. */
const UNSUPPORTED_RESOURCE_FLAGS: Partial<Record<ResourceFlag, string>> = {
  ALLOW_CROSS_ADAPTER: 'cross-adapter resources are not emulated (one adapter)',
  VIDEO_DECODE_REFERENCE_ONLY: 'video resources are not emulated',
  VIDEO_ENCODE_REFERENCE_ONLY: 'video resources are not emulated',
  RAYTRACING_ACCELERATION_STRUCTURE: 'raytracing acceleration structures are not emulated',
};

/** What resource validation needs to know of the device. */
export interface ResourceCaps {
  tiledResourcesTier: TiledResourcesTier;
  /** 2^MaxGPUVirtualAddressBitsPerResource. */
  maxResourceBytes: number;
}

/** A resource description that passed validation, with what was derived from it. */
export interface CheckedDesc {
  desc: FullResourceDesc;
  format?: FormatInfo;
  category: ResourceCategory;
  layout: ResourceLayout;
  /** Placement alignment: 65536, or 4096 for a small texture that asked for it. */
  alignment: number;
  /** The alignment asked for could not be honoured (4 KiB for a texture that is not small). */
  alignmentDowngraded: boolean;
}

const has = (desc: FullResourceDesc, flag: ResourceFlag): boolean => desc.flags.includes(flag);

export function categoryOf(desc: FullResourceDesc): ResourceCategory {
  if (desc.dimension === 'BUFFER') return 'buffer';
  return has(desc, 'ALLOW_RENDER_TARGET') || has(desc, 'ALLOW_DEPTH_STENCIL') ? 'rt-ds-texture' : 'non-rt-ds-texture';
}

/** The number of mips of a full chain: floor(log2(largest dimension)) + 1. */
export function fullMipChain(
  desc: Pick<FullResourceDesc, 'dimension' | 'width' | 'height' | 'depthOrArraySize'>,
): number {
  const largest = Math.max(
    desc.width,
    desc.dimension === 'TEXTURE1D' ? 1 : desc.height,
    desc.dimension === 'TEXTURE3D' ? desc.depthOrArraySize : 1,
  );
  return Math.floor(Math.log2(largest)) + 1;
}

/** Fills in a description's defaults; checks only the fields' types and ranges. */
function fillDefaults(call: string, argument: string, value: Record<string, unknown>): Checked<FullResourceDesc> {
  const dimension = value.dimension as ResourceDimension;
  const buffer = dimension === 'BUFFER';
  const flags = value.flags ?? [];
  const sampleDesc = value.sampleDesc ?? { count: 1, quality: 0 };
  const problem = firstProblem(
    () => checkName(call, `${argument}.dimension`, dimension, RESOURCE_DIMENSIONS),
    () => checkInteger(call, `${argument}.alignment`, value.alignment ?? 0, 0),
    () => checkInteger(call, `${argument}.width`, value.width, 1),
    () => checkInteger(call, `${argument}.height`, value.height ?? 1, 1, 0xffffffff),
    () => checkInteger(call, `${argument}.depthOrArraySize`, value.depthOrArraySize ?? 1, 1, 0xffff),
    () => checkInteger(call, `${argument}.mipLevels`, value.mipLevels ?? 1, 0, 0xffff),
    () =>
      typeof (value.format ?? 'UNKNOWN') === 'string'
        ? undefined
        : invalidArg(call, `${argument}.format`, `must be a DXGI format name, got ${show(value.format)}`),
    () =>
      isObject(sampleDesc)
        ? undefined
        : invalidArg(call, `${argument}.sampleDesc`, `must be {count, quality}, got ${show(sampleDesc)}`),
    () => checkInteger(call, `${argument}.sampleDesc.count`, (sampleDesc as Record<string, unknown>).count, 1),
    () => checkInteger(call, `${argument}.sampleDesc.quality`, (sampleDesc as Record<string, unknown>).quality ?? 0, 0),
    () => checkName(call, `${argument}.layout`, value.layout ?? (buffer ? 'ROW_MAJOR' : 'UNKNOWN'), TEXTURE_LAYOUTS),
    () => checkNames(call, `${argument}.flags`, flags, RESOURCE_FLAGS),
  );
  if (problem) return problem;
  const sample = sampleDesc as { count: number; quality?: number };
  const desc: FullResourceDesc = {
    dimension,
    alignment: (value.alignment ?? 0) as number,
    width: value.width as number,
    height: (value.height ?? 1) as number,
    depthOrArraySize: (value.depthOrArraySize ?? 1) as number,
    mipLevels: (value.mipLevels ?? 1) as number,
    format: (value.format ?? 'UNKNOWN') as string,
    sampleDesc: { count: sample.count, quality: sample.quality ?? 0 },
    layout: (value.layout ?? (buffer ? 'ROW_MAJOR' : 'UNKNOWN')) as TextureLayout,
    flags: [...new Set((flags as ResourceFlag[]).filter((flag) => flag !== 'NONE'))],
  };
  if (!buffer && desc.mipLevels === 0) desc.mipLevels = fullMipChain(desc);
  return desc;
}

function checkBuffer(call: string, argument: string, desc: FullResourceDesc, caps: ResourceCaps): Checked<undefined> {
  const problem = firstProblem(
    () =>
      desc.height === 1
        ? undefined
        : invalidArg(call, `${argument}.height`, `must be 1 for a buffer, got ${desc.height}`),
    () =>
      desc.depthOrArraySize === 1
        ? undefined
        : invalidArg(call, `${argument}.depthOrArraySize`, `must be 1 for a buffer, got ${desc.depthOrArraySize}`),
    () =>
      desc.mipLevels === 1
        ? undefined
        : invalidArg(call, `${argument}.mipLevels`, `must be 1 for a buffer, got ${desc.mipLevels}`),
    () =>
      desc.format === 'UNKNOWN'
        ? undefined
        : invalidArg(call, `${argument}.format`, `must be UNKNOWN for a buffer, got ${show(desc.format)}`),
    () =>
      desc.layout === 'ROW_MAJOR'
        ? undefined
        : invalidArg(call, `${argument}.layout`, `a buffer's layout must be ROW_MAJOR, got ${show(desc.layout)}`),
    () =>
      desc.width <= caps.maxResourceBytes
        ? undefined
        : invalidArg(
            call,
            `${argument}.width`,
            `must be at most ${caps.maxResourceBytes} bytes (the virtual address bits per resource), got ${desc.width}`,
          ),
    () => {
      for (const flag of [
        'ALLOW_RENDER_TARGET',
        'ALLOW_DEPTH_STENCIL',
        'DENY_SHADER_RESOURCE',
        'ALLOW_SIMULTANEOUS_ACCESS',
      ] as const) {
        if (has(desc, flag)) return invalidArg(call, `${argument}.flags`, `${flag} cannot be used with a buffer`);
      }
      return undefined;
    },
    () =>
      desc.alignment === 0 || desc.alignment === DEFAULT_ALIGNMENT
        ? undefined
        : invalidArg(call, `${argument}.alignment`, `a buffer's alignment must be 0 or 65536, got ${desc.alignment}`),
  );
  return problem;
}

function checkTextureShape(call: string, argument: string, desc: FullResourceDesc): Checked<undefined> {
  const limit = (field: 'width' | 'height' | 'depthOrArraySize', max: number, what: string) => () =>
    desc[field] <= max
      ? undefined
      : invalidArg(call, `${argument}.${field}`, `${what} must be at most ${max}, got ${desc[field]}`);
  switch (desc.dimension) {
    case 'TEXTURE1D':
      return firstProblem(
        limit('width', LIMITS.texture1DWidth, "a 1D texture's width"),
        () =>
          desc.height === 1
            ? undefined
            : invalidArg(call, `${argument}.height`, `must be 1 for a 1D texture, got ${desc.height}`),
        limit('depthOrArraySize', LIMITS.texture1DArraySize, "a 1D texture's array size"),
      );
    case 'TEXTURE2D':
      return firstProblem(
        limit('width', LIMITS.texture2DSize, "a 2D texture's width"),
        limit('height', LIMITS.texture2DSize, "a 2D texture's height"),
        limit('depthOrArraySize', LIMITS.texture2DArraySize, "a 2D texture's array size"),
      );
    default:
      return firstProblem(
        limit('width', LIMITS.texture3DSize, "a 3D texture's width"),
        limit('height', LIMITS.texture3DSize, "a 3D texture's height"),
        limit('depthOrArraySize', LIMITS.texture3DSize, "a 3D texture's depth"),
      );
  }
}

function checkTextureFormat(call: string, argument: string, desc: FullResourceDesc): Checked<FormatInfo> {
  const format = formatInfo(desc.format);
  if (desc.format === 'UNKNOWN')
    return invalidArg(call, `${argument}.format`, 'a texture needs a format (UNKNOWN is for buffers)');
  if (!format)
    return invalidArg(call, `${argument}.format`, `${show(desc.format)} is not a DXGI format this emulator knows`);
  if (format.planar) {
    return invalidArg(
      call,
      `${argument}.format`,
      `${desc.format} is a planar depth-stencil format; depth-stencil textures in heap memory are out of scope (use D32_FLOAT or D16_UNORM)`,
    );
  }
  if (!hasStandardTileShape(format)) {
    return invalidArg(
      call,
      `${argument}.format`,
      `${desc.format} has ${format.bytesPerElement * 8} bits per texel, for which D3D12 defines no tile shape; textures are stored in tiles`,
    );
  }
  if (format.kind === 'bc') {
    if (desc.dimension === 'TEXTURE1D')
      return invalidArg(call, `${argument}.format`, `block-compressed ${desc.format} cannot be used by a 1D texture`);
    if (desc.width % 4 !== 0)
      return invalidArg(
        call,
        `${argument}.width`,
        `a block-compressed texture's width must be a multiple of 4, got ${desc.width}`,
      );
    if (desc.height % 4 !== 0)
      return invalidArg(
        call,
        `${argument}.height`,
        `a block-compressed texture's height must be a multiple of 4, got ${desc.height}`,
      );
  }
  return format;
}

function checkTextureFlags(
  call: string,
  argument: string,
  desc: FullResourceDesc,
  format: FormatInfo,
): Checked<undefined> {
  const flags = `${argument}.flags`;
  const rt = has(desc, 'ALLOW_RENDER_TARGET');
  const ds = has(desc, 'ALLOW_DEPTH_STENCIL');
  const uav = has(desc, 'ALLOW_UNORDERED_ACCESS');
  if (rt && ds) return invalidArg(call, flags, 'ALLOW_RENDER_TARGET and ALLOW_DEPTH_STENCIL cannot be combined');
  if (ds) {
    if (!format.depthStencilCapable)
      return invalidArg(call, flags, `ALLOW_DEPTH_STENCIL needs a depth format, and ${desc.format} is not one`);
    if (desc.dimension === 'TEXTURE3D')
      return invalidArg(call, flags, 'ALLOW_DEPTH_STENCIL cannot be used with a 3D texture');
    if (uav) return invalidArg(call, flags, 'ALLOW_DEPTH_STENCIL cannot be combined with ALLOW_UNORDERED_ACCESS');
    if (has(desc, 'ALLOW_SIMULTANEOUS_ACCESS'))
      return invalidArg(call, flags, 'ALLOW_DEPTH_STENCIL cannot be combined with ALLOW_SIMULTANEOUS_ACCESS');
  }
  if (has(desc, 'DENY_SHADER_RESOURCE') && !ds)
    return invalidArg(call, flags, 'DENY_SHADER_RESOURCE requires ALLOW_DEPTH_STENCIL');
  if ((rt || uav) && format.kind !== 'color') {
    return invalidArg(
      call,
      flags,
      `${rt ? 'ALLOW_RENDER_TARGET' : 'ALLOW_UNORDERED_ACCESS'} cannot be used with ${format.kind === 'bc' ? 'block-compressed' : 'depth'} format ${desc.format}`,
    );
  }
  return undefined;
}

/** Whether a texture qualifies for 4 KiB placement (see the header: **Chosen** rule). */
export function isSmallTexture(desc: FullResourceDesc, format: FormatInfo): boolean {
  if (desc.layout !== 'UNKNOWN' || has(desc, 'ALLOW_RENDER_TARGET') || has(desc, 'ALLOW_DEPTH_STENCIL')) return false;
  const rows = Math.ceil((desc.dimension === 'TEXTURE1D' ? 1 : desc.height) / format.blockHeight);
  const rowBytes = Math.ceil(desc.width / format.blockWidth) * format.bytesPerElement;
  const depth = desc.dimension === 'TEXTURE3D' ? desc.depthOrArraySize : 1;
  return rows * rowBytes * depth <= TILE_SIZE;
}

/**
 * Checks a resource description and derives its layout and placement. `strictAlignment`: creation
 * refuses a 4 KiB alignment it cannot honour; GetResourceAllocationInfo answers 64 KiB instead.
 */
export function checkResourceDesc(
  call: string,
  argument: string,
  value: unknown,
  caps: ResourceCaps,
  strictAlignment: boolean,
): Checked<CheckedDesc> {
  if (!isObject(value)) return invalidArg(call, argument, `must be a D3D12_RESOURCE_DESC object, got ${show(value)}`);
  const desc = fillDefaults(call, argument, value);
  if (desc instanceof D3D12Error) return desc;

  if (desc.sampleDesc.count > 1)
    return invalidArg(
      call,
      `${argument}.sampleDesc.count`,
      `multisampling (${desc.sampleDesc.count} samples) is not emulated`,
    );
  if (desc.sampleDesc.quality !== 0)
    return invalidArg(
      call,
      `${argument}.sampleDesc.quality`,
      `must be 0 for a single-sampled resource, got ${desc.sampleDesc.quality}`,
    );
  const unsupported = desc.flags.find((flag) => UNSUPPORTED_RESOURCE_FLAGS[flag]);
  if (unsupported)
    return invalidArg(call, `${argument}.flags`, `${unsupported}: ${UNSUPPORTED_RESOURCE_FLAGS[unsupported]}`);

  if (desc.dimension === 'BUFFER') {
    const problem = checkBuffer(call, argument, desc, caps);
    if (problem) return problem;
    const layout = computeLayout(
      { dimension: 'BUFFER', width: desc.width, height: 1, depth: 1, arraySize: 1, mipLevels: 1 },
      caps.tiledResourcesTier,
    );
    return {
      desc: { ...desc, alignment: DEFAULT_ALIGNMENT },
      category: 'buffer',
      layout,
      alignment: DEFAULT_ALIGNMENT,
      alignmentDowngraded: false,
    };
  }

  return checkTexture(call, argument, desc, caps, strictAlignment);
}

/** checkResourceDesc of a texture: shape, format, mips, layout, flags and alignment, then its layout. */
function checkTexture(
  call: string,
  argument: string,
  desc: FullResourceDesc,
  caps: ResourceCaps,
  strictAlignment: boolean,
): Checked<CheckedDesc> {
  const shapeProblem = checkTextureShape(call, argument, desc);
  if (shapeProblem) return shapeProblem;
  const format = checkTextureFormat(call, argument, desc);
  if (format instanceof D3D12Error) return format;
  const maxMips = Math.min(fullMipChain(desc), LIMITS.mipLevels);
  if (desc.mipLevels > maxMips) {
    return invalidArg(
      call,
      `${argument}.mipLevels`,
      `a ${desc.width}×${desc.height}${desc.dimension === 'TEXTURE3D' ? `×${desc.depthOrArraySize}` : ''} texture has at most ${maxMips} mips, got ${desc.mipLevels}`,
    );
  }
  if (desc.layout === 'ROW_MAJOR')
    return invalidArg(
      call,
      `${argument}.layout`,
      'ROW_MAJOR textures need ALLOW_CROSS_ADAPTER, which is not emulated; use UNKNOWN or 64KB_UNDEFINED_SWIZZLE',
    );
  if (desc.layout === '64KB_STANDARD_SWIZZLE')
    return invalidArg(
      call,
      `${argument}.layout`,
      '64KB_STANDARD_SWIZZLE is not supported (StandardSwizzle64KBSupported is false); use 64KB_UNDEFINED_SWIZZLE',
    );
  const flagProblem = checkTextureFlags(call, argument, desc, format);
  if (flagProblem) return flagProblem;

  if (![0, SMALL_PLACEMENT_ALIGNMENT, DEFAULT_ALIGNMENT, MSAA_ALIGNMENT].includes(desc.alignment)) {
    return invalidArg(call, `${argument}.alignment`, `must be 0, 4096, 65536 or 4194304, got ${desc.alignment}`);
  }
  if (desc.alignment === MSAA_ALIGNMENT)
    return invalidArg(
      call,
      `${argument}.alignment`,
      '4 MiB is the alignment of multisampled textures, and multisampling is not emulated',
    );
  const small = desc.alignment === SMALL_PLACEMENT_ALIGNMENT && isSmallTexture(desc, format);
  if (desc.alignment === SMALL_PLACEMENT_ALIGNMENT && !small && strictAlignment) {
    return invalidArg(
      call,
      `${argument}.alignment`,
      '4096 is only for small textures (UNKNOWN layout, not a render target or depth-stencil, mip 0 of a slice at most 64 KiB); GetResourceAllocationInfo reports 65536 for this one',
    );
  }
  const alignment = small ? SMALL_PLACEMENT_ALIGNMENT : DEFAULT_ALIGNMENT;
  const volume = desc.dimension === 'TEXTURE3D';
  const layout = computeLayout(
    {
      dimension: desc.dimension,
      width: desc.width,
      height: desc.height,
      depth: volume ? desc.depthOrArraySize : 1,
      arraySize: volume ? 1 : desc.depthOrArraySize,
      mipLevels: desc.mipLevels,
      format,
      smallAlignment: small,
    },
    caps.tiledResourcesTier,
  );
  if (layout.sizeInBytes > caps.maxResourceBytes) {
    return invalidArg(
      call,
      argument,
      `the texture needs ${layout.sizeInBytes} bytes, more than the ${caps.maxResourceBytes} a resource may span (virtual address bits per resource)`,
    );
  }
  return {
    desc: { ...desc, alignment },
    format,
    category: categoryOf(desc),
    layout,
    alignment,
    alignmentDowngraded: desc.alignment === SMALL_PLACEMENT_ALIGNMENT && !small,
  };
}
