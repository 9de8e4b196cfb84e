/**
 * CreateShaderResourceView and CreateUnorderedAccessView, checked as the D3D12 runtime and debug layer
 * check them, and turned into a ViewPlan: what descriptor-encoding.ts writes.
 *
 * Rules (both): the resource is this device's and live, or null with a description (a NULL view:
 * reads give 0, writes are dropped); no description means the whole resource in its own format,
 * which must be typed, and is refused for buffers (their format is UNKNOWN); the view's dimension
 * matches the resource's (BUFFER, or TEXTURE2D / TEXTURE2DARRAY of a 2D texture); a texture view's
 * format is of the resource's TYPELESS family, typed, and one the prelude reads (view-formats.ts);
 * a buffer view is typed (a format, no stride), raw (R32_TYPELESS and RAW, 32-bit elements) or
 * structured (UNKNOWN, a stride that is a multiple of 4 up to 2048), with at least one element and
 * every element inside the buffer; mips and array slices inside the resource (-1 or 0xffffffff: all
 * from the first on); plane slice 0. SRVs: a component mapping D3D12_ENCODE_SHADER_4_COMPONENT_MAPPING
 * makes (each of four fields 0 to 5, the always-set bit 0x1000); a resource made without
 * DENY_SHADER_RESOURCE; a min-LOD clamp that is a number at least 0. UAVs: a resource with
 * ALLOW_UNORDERED_ACCESS; no counter (UAV counters are not emulated: DXGI_ERROR_UNSUPPORTED).
 */
import { D3D12Error, invalidArg, show, type Checked } from '../api/errors.js';
import { DEFAULT_SHADER_4_COMPONENT_MAPPING, SRV_DIMENSIONS, UAV_DIMENSIONS } from '../api/binding-types.js';
import type { FullResourceDesc } from '../api/types.js';
import { formatInfo } from '../memory/formats.js';
import { VIEW_FORMAT_NAMES, viewFormat } from '../memory/view-formats.js';
import { checkInteger, checkName, isObject, type Problem } from './common.js';

/** What a view's checks read of its resource. */
export interface ViewResource {
  readonly label: string;
  readonly released: boolean;
  readonly desc: FullResourceDesc;
}

export type BufferViewKind = 'typed' | 'raw' | 'structured';

export type ViewPlan =
  | {
      view: 'SRV' | 'UAV';
      shape: 'buffer';
      kind: BufferViewKind;
      isNull: boolean;
      /** The element format (typed views), R32_TYPELESS (raw) or UNKNOWN (structured). */
      format: string;
      firstElement: number;
      numElements: number;
      elementBytes: number;
      mapping: number;
    }
  | {
      view: 'SRV' | 'UAV';
      shape: 'texture2d' | 'texture2darray';
      isNull: boolean;
      format: string;
      /** UAVs: the one mip (mipCount 1). */
      firstMip: number;
      mipCount: number;
      firstSlice: number;
      sliceCount: number;
      minLodClamp: number;
      mapping: number;
    };

/** D3D12_REQ_MULTI_ELEMENT_STRUCTURE_SIZE_IN_BYTES. */
const MAX_STRUCTURE_STRIDE = 2048;
/** UINT -1, as C writes it or as a JS -1: every mip (or slice) from the first on. */
const ALL = (value: unknown): boolean => value === -1 || value === 0xffffffff;
/** D3D12_SHADER_COMPONENT_MAPPING_ALWAYS_SET_BIT_AVOIDING_ZEROMEM_MISTAKES. */
const MAPPING_ALWAYS_SET = 0x1000;

type ViewKind = 'SRV' | 'UAV';

function checkMapping(call: string, value: unknown): Checked<number> {
  const argument = 'desc.shader4ComponentMapping';
  const problem = checkInteger(call, argument, value, 0, 0x1fff);
  if (problem) return problem;
  const mapping = value as number;
  if ((mapping & MAPPING_ALWAYS_SET) === 0)
    return invalidArg(
      call,
      argument,
      `must be D3D12_ENCODE_SHADER_4_COMPONENT_MAPPING's value (bit 0x1000 set), got 0x${mapping.toString(16)}`,
    );
  for (let i = 0; i < 4; i++) {
    const source = (mapping >> (3 * i)) & 7;
    if (source > 5)
      return invalidArg(
        call,
        argument,
        `component ${i} maps from ${source}; each takes 0-3 (a component), 4 (0) or 5 (1)`,
      );
  }
  return mapping & 0xfff;
}

/** A typed format the prelude reads, of `family` (undefined: any family, a NULL view); UAVs: no sRGB. */
function checkViewFormat(
  call: string,
  view: ViewKind,
  format: unknown,
  family: string | undefined,
  resource: string,
): Problem {
  const argument = 'desc.format';
  if (typeof format !== 'string') return invalidArg(call, argument, `must be a DXGI format name, got ${show(format)}`);
  const info = formatInfo(format);
  if (!info) return invalidArg(call, argument, `${show(format)} is not a DXGI format a view can have`);
  if (family !== undefined && info.family !== family)
    return invalidArg(call, argument, `${format} is not of ${resource}'s format family (${family})`);
  if (info.typeless)
    return invalidArg(call, argument, `${format} has no type; a view needs a typed member of ${info.family}`);
  if (view === 'UAV' && format.endsWith('_SRGB'))
    return invalidArg(call, argument, `${format} is not a UAV format (sRGB formats are not, in D3D12)`);
  if (!viewFormat(format))
    return new D3D12Error(
      'DXGI_ERROR_UNSUPPORTED',
      call,
      argument,
      `shaders read ${format} through no prelude function; views may have ${VIEW_FORMAT_NAMES.join(', ')}`,
    );
  return undefined;
}

/** A range [first, first + count) of `total` mips or slices, count -1 meaning all from first on. */
function checkRange(
  call: string,
  argument: string,
  firstName: string,
  first: unknown,
  countName: string,
  count: unknown,
  total: number,
): Checked<[number, number]> {
  const firstProblem = checkInteger(call, `${argument}.${firstName}`, first, 0, total - 1);
  if (firstProblem) return firstProblem;
  const from = first as number;
  if (ALL(count)) return [from, total - from];
  const countProblem = checkInteger(call, `${argument}.${countName}`, count, 1, total - from);
  if (countProblem) return countProblem;
  return [from, count as number];
}

/** The checks every view makes of its resource, then the plan for a NULL view or for the resource. */
function checkResource(call: string, view: ViewKind, resource: ViewResource | null | undefined): Problem {
  if (resource === undefined) return invalidArg(call, 'resource', 'must be a resource created by this device, or null');
  if (resource === null) return undefined;
  if (resource.released) return invalidArg(call, 'resource', `${resource.label} was released`);
  const flags = resource.desc.flags;
  if (view === 'SRV' && flags.includes('DENY_SHADER_RESOURCE'))
    return invalidArg(call, 'resource', `${resource.label} was created with DENY_SHADER_RESOURCE`);
  if (view === 'UAV' && !flags.includes('ALLOW_UNORDERED_ACCESS'))
    return invalidArg(call, 'resource', `${resource.label} was not created with ALLOW_UNORDERED_ACCESS`);
  return undefined;
}

/** The view of the whole resource in its own format, for a call without a description. */
function defaultView(call: string, view: ViewKind, resource: ViewResource | null): Checked<ViewPlan> {
  if (!resource) return invalidArg(call, 'desc', 'must be given for a NULL view (no resource)');
  const { desc } = resource;
  if (desc.dimension === 'BUFFER')
    return invalidArg(call, 'desc', `must be given for a buffer (${resource.label}'s format is UNKNOWN)`);
  if (desc.dimension !== 'TEXTURE2D')
    return new D3D12Error(
      'DXGI_ERROR_UNSUPPORTED',
      call,
      'resource',
      `views of ${desc.dimension} resources are not emulated (2D textures and buffers are)`,
    );
  const problem = checkViewFormat(call, view, desc.format, undefined, resource.label);
  // The format's problem keeps its HRESULT: a format no prelude function reads is DXGI_ERROR_UNSUPPORTED here too.
  if (problem)
    return new D3D12Error(
      problem.hresult,
      call,
      'desc',
      `null takes ${resource.label}'s own format, ${desc.format}: ${problem.rule}`,
    );
  const array = desc.depthOrArraySize > 1;
  return {
    view,
    shape: array ? 'texture2darray' : 'texture2d',
    isNull: false,
    format: desc.format,
    firstMip: 0,
    mipCount: view === 'UAV' ? 1 : desc.mipLevels,
    firstSlice: 0,
    sliceCount: desc.depthOrArraySize,
    minLodClamp: 0,
    mapping: DEFAULT_SHADER_4_COMPONENT_MAPPING & 0xfff,
  };
}

function bufferView(
  call: string,
  view: ViewKind,
  resource: ViewResource | null,
  desc: Record<string, unknown>,
  mapping: number,
): Checked<ViewPlan> {
  const argument = 'desc.buffer';
  const buffer = desc.buffer;
  if (!isObject(buffer))
    return invalidArg(call, argument, `must be an object (D3D12_BUFFER_${view}), got ${show(buffer)}`);
  if (resource && resource.desc.dimension !== 'BUFFER')
    return invalidArg(
      call,
      'desc.viewDimension',
      `BUFFER views a buffer; ${resource.label} is a ${resource.desc.dimension}`,
    );
  const flags = buffer.flags ?? 'NONE';
  const flagProblem = checkName(call, `${argument}.flags`, flags, ['NONE', 'RAW'] as const);
  if (flagProblem) return flagProblem;
  const stride = buffer.structureByteStride ?? 0;
  const strideProblem = checkInteger(call, `${argument}.structureByteStride`, stride, 0, MAX_STRUCTURE_STRIDE);
  if (strideProblem) return strideProblem;
  if (view === 'UAV') {
    const counter = checkInteger(call, `${argument}.counterOffsetInBytes`, buffer.counterOffsetInBytes ?? 0, 0, 0);
    if (counter)
      return new D3D12Error(
        'DXGI_ERROR_UNSUPPORTED',
        call,
        `${argument}.counterOffsetInBytes`,
        'UAV counters are not emulated: it must be 0',
      );
  }
  let kind: BufferViewKind;
  let elementBytes: number;
  if (flags === 'RAW') {
    if (desc.format !== 'R32_TYPELESS')
      return invalidArg(call, 'desc.format', `a RAW view's format is R32_TYPELESS, got ${show(desc.format)}`);
    if (stride !== 0)
      return invalidArg(call, `${argument}.structureByteStride`, `a RAW view has no stride, got ${stride as number}`);
    [kind, elementBytes] = ['raw', 4];
  } else if (stride !== 0) {
    if (desc.format !== 'UNKNOWN')
      return invalidArg(call, 'desc.format', `a structured view's format is UNKNOWN, got ${show(desc.format)}`);
    if ((stride as number) % 4 !== 0)
      return invalidArg(call, `${argument}.structureByteStride`, `must be a multiple of 4, got ${stride as number}`);
    [kind, elementBytes] = ['structured', stride as number];
  } else {
    const formatProblem = checkViewFormat(call, view, desc.format, undefined, 'the buffer');
    if (formatProblem) return formatProblem;
    [kind, elementBytes] = ['typed', formatInfo(desc.format as string)?.bytesPerElement ?? 4];
  }
  const firstProblem = checkInteger(call, `${argument}.firstElement`, buffer.firstElement, 0);
  if (firstProblem) return firstProblem;
  const countProblem = checkInteger(call, `${argument}.numElements`, buffer.numElements, 1);
  if (countProblem) return countProblem;
  const first = buffer.firstElement as number;
  const count = buffer.numElements as number;
  if (resource && (first + count) * elementBytes > resource.desc.width) {
    return invalidArg(
      call,
      argument,
      `elements [${first}, ${first + count}) of ${elementBytes} bytes end at byte ${(first + count) * elementBytes}, past the end of ${resource.label} (${resource.desc.width} bytes)`,
    );
  }
  return {
    view,
    shape: 'buffer',
    kind,
    isNull: resource === null,
    format: desc.format as string,
    firstElement: first,
    numElements: count,
    elementBytes,
    mapping,
  };
}

function textureView(
  call: string,
  view: ViewKind,
  resource: ViewResource | null,
  desc: Record<string, unknown>,
  mapping: number,
): Checked<ViewPlan> {
  const array = desc.viewDimension === 'TEXTURE2DARRAY';
  const member = array ? 'texture2DArray' : 'texture2D';
  const argument = `desc.${member}`;
  const fields = desc[member] ?? {};
  if (!isObject(fields)) return invalidArg(call, argument, `must be an object, got ${show(fields)}`);
  if (resource && resource.desc.dimension !== 'TEXTURE2D')
    return invalidArg(
      call,
      'desc.viewDimension',
      `${String(desc.viewDimension)} views a 2D texture; ${resource.label} is a ${resource.desc.dimension}`,
    );
  const family = resource ? formatInfo(resource.desc.format)?.family : undefined;
  const formatProblem = checkViewFormat(call, view, desc.format, family, resource?.label ?? 'the resource');
  if (formatProblem) return formatProblem;
  const mips = resource?.desc.mipLevels ?? 1;
  const slices = resource?.desc.depthOrArraySize ?? 1;
  let mipRange: [number, number];
  if (view === 'SRV') {
    const range = checkRange(
      call,
      argument,
      'mostDetailedMip',
      fields.mostDetailedMip ?? 0,
      'mipLevels',
      fields.mipLevels ?? -1,
      resource ? mips : 16,
    );
    if (range instanceof D3D12Error) return range;
    mipRange = range;
  } else {
    const problem = checkInteger(call, `${argument}.mipSlice`, fields.mipSlice ?? 0, 0, resource ? mips - 1 : 15);
    if (problem) return problem;
    mipRange = [(fields.mipSlice as number | undefined) ?? 0, 1];
  }
  const planeProblem = checkInteger(call, `${argument}.planeSlice`, fields.planeSlice ?? 0, 0, 0);
  if (planeProblem) return planeProblem;
  let sliceRange: [number, number] = [0, 1];
  if (array) {
    const range = checkRange(
      call,
      argument,
      'firstArraySlice',
      fields.firstArraySlice ?? 0,
      'arraySize',
      fields.arraySize ?? -1,
      resource ? slices : 2048,
    );
    if (range instanceof D3D12Error) return range;
    sliceRange = range;
  }
  const clamp = fields.resourceMinLODClamp ?? 0;
  if (view === 'SRV' && (typeof clamp !== 'number' || !(clamp >= 0)))
    return invalidArg(call, `${argument}.resourceMinLODClamp`, `must be a number at least 0, got ${show(clamp)}`);
  return {
    view,
    shape: array ? 'texture2darray' : 'texture2d',
    isNull: resource === null,
    format: desc.format as string,
    firstMip: mipRange[0],
    mipCount: mipRange[1],
    firstSlice: sliceRange[0],
    sliceCount: sliceRange[1],
    minLodClamp: clamp as number,
    mapping,
  };
}

/**
 * CreateShaderResourceView(pResource, pDesc) or CreateUnorderedAccessView(pResource, pCounterResource,
 * pDesc): `resource` is the device's own resource, null (a NULL view), or undefined (not this device's).
 */
export function validateResourceView(
  call: string,
  view: ViewKind,
  resource: ViewResource | null | undefined,
  desc: unknown,
  counterResource: unknown = null,
): Checked<ViewPlan> {
  const resourceProblem = checkResource(call, view, resource);
  if (resourceProblem) return resourceProblem;
  const known = resource as ViewResource | null;
  if (counterResource !== null && counterResource !== undefined)
    return new D3D12Error(
      'DXGI_ERROR_UNSUPPORTED',
      call,
      'counterResource',
      'UAV counters are not emulated: pass null',
    );
  if (desc === null || desc === undefined) return defaultView(call, view, known);
  if (!isObject(desc))
    return invalidArg(
      call,
      'desc',
      `must be a D3D12_${view === 'SRV' ? 'SHADER_RESOURCE' : 'UNORDERED_ACCESS'}_VIEW_DESC object or null, got ${show(desc)}`,
    );
  const dimensionProblem = checkName(
    call,
    'desc.viewDimension',
    desc.viewDimension,
    view === 'SRV' ? SRV_DIMENSIONS : UAV_DIMENSIONS,
  );
  if (dimensionProblem) return dimensionProblem;
  let mapping = DEFAULT_SHADER_4_COMPONENT_MAPPING & 0xfff;
  if (view === 'SRV' && desc.shader4ComponentMapping !== undefined) {
    const checked = checkMapping(call, desc.shader4ComponentMapping);
    if (checked instanceof D3D12Error) return checked;
    mapping = checked;
  }
  return desc.viewDimension === 'BUFFER'
    ? bufferView(call, view, known, desc, mapping)
    : textureView(call, view, known, desc, mapping);
}

/** D3D12_CONSTANT_BUFFER_DATA_PLACEMENT_ALIGNMENT: a CBV's address and size are multiples of it. */
export const CONSTANT_BUFFER_ALIGNMENT = 256;
/** D3D12_REQ_CONSTANT_BUFFER_ELEMENT_COUNT 16-byte elements: a CBV's largest size. */
export const MAX_CONSTANT_BUFFER_BYTES = 4096 * 16;

export interface ConstantBufferPlan {
  isNull: boolean;
  address: bigint;
  size: number;
}

/**
 * CreateConstantBufferView(pDesc): an address and size that are multiples of 256, the size at most
 * 64 KiB; BufferLocation 0 (or no description) is a NULL view. The address is not checked against
 * resources, as D3D12 does not: reading a CBV that points at no resource faults on the GPU.
 */
export function validateConstantBufferView(desc: unknown, addressBits: number): Checked<ConstantBufferPlan> {
  const call = 'createConstantBufferView';
  if (desc === null || desc === undefined) return { isNull: true, address: 0n, size: 0 };
  if (!isObject(desc))
    return invalidArg(call, 'desc', `must be a D3D12_CONSTANT_BUFFER_VIEW_DESC object or null, got ${show(desc)}`);
  const address = desc.bufferLocation;
  if (typeof address !== 'bigint' || address < 0n || address >= 1n << BigInt(addressBits))
    return invalidArg(
      call,
      'desc.bufferLocation',
      `must be a GPU virtual address (a bigint below 2^${addressBits}), got ${show(address)}`,
    );
  if (address % BigInt(CONSTANT_BUFFER_ALIGNMENT) !== 0n)
    return invalidArg(
      call,
      'desc.bufferLocation',
      `must be a multiple of ${CONSTANT_BUFFER_ALIGNMENT} (D3D12_CONSTANT_BUFFER_DATA_PLACEMENT_ALIGNMENT), got 0x${address.toString(16)}`,
    );
  const sizeProblem = checkInteger(call, 'desc.sizeInBytes', desc.sizeInBytes, 0, MAX_CONSTANT_BUFFER_BYTES);
  if (sizeProblem) return sizeProblem;
  const size = desc.sizeInBytes as number;
  if (size % CONSTANT_BUFFER_ALIGNMENT !== 0)
    return invalidArg(call, 'desc.sizeInBytes', `must be a multiple of ${CONSTANT_BUFFER_ALIGNMENT}, got ${size}`);
  if (address !== 0n && size === 0)
    return invalidArg(
      call,
      'desc.sizeInBytes',
      'must be at least 256 for a view of memory (0 only with bufferLocation 0, a NULL view)',
    );
  return { isNull: address === 0n, address, size };
}
