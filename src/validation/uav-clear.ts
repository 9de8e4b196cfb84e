/**
 * clearUnorderedAccessViewUint / Float(resource, values, rects, view), checked as the D3D12 runtime
 * and debug layer do, and turned into what the clear kernel writes: for a buffer, byte ranges filled
 * with a 16-byte pattern; for a texture, the mip, the slices, the rectangles and one element's bits.
 *
 * Rules: the resource is this device's, live, and created with ALLOW_UNORDERED_ACCESS; values are 4
 * 32-bit integers (Uint) or 4 numbers (Float: NaN and INF are values, as D3D12 keeps NaNs); the
 * view is a D3D12_UNORDERED_ACCESS_VIEW_DESC subset for the resource's dimension (see
 * UavClearView); a Float clear needs a FLOAT, UNORM or SNORM format (D3D11's rule: "on
 * other UAVs, the operation is invalid"); rectangles are D3D12_RECTs (32-bit LONGs), clipped to the
 * view (a buffer view is numElements × 1), and one empty after clipping clears nothing, as
 * vkd3d-proton does. A Texture3D view (D3D12_TEX3D_UAV) names a mip and depth slices [firstWSlice,
 * firstWSlice + wSize) of it, wSize -1 (UINT(-1)) meaning all from firstWSlice on, as
 * D3D12_TEX3D_UAV's WSize documents; its rectangles apply to every depth slice (x, y). Array fields
 * belong to 1D and 2D views, W fields to 3D views: a field of the other kind is refused.
 */
import { invalidArg, show, type Checked, type D3D12Error } from '../api/errors.js';
import type { Rect, UavClearView } from '../api/types.js';
import { clearChannels, clearElementBytes, CLEAR_FORMATS, takesFloatClear } from '../memory/clear-values.js';
import { formatInfo } from '../memory/formats.js';
import { mipSize } from '../memory/tiling.js';
import { checkInteger, isObject } from './common.js';
import type { ResourceView } from './tile-mappings.js';

export type UavClearKind = 'Uint' | 'Float';

export type UavClearPlan = { subresources: number[] } & (
  | {
      kind: 'buffer';
      /** Byte ranges of the buffer, [start, end). */
      ranges: { start: number; end: number }[];
      /** What every 16-byte-aligned 16 bytes of the buffer receive (elements divide 16 bytes). */
      pattern: Uint8Array;
    }
  | {
      kind: 'texture';
      mip: number;
      /** Array slices; for a 3D texture (`volume`), depth (W) slices of the mip. */
      firstSlice: number;
      sliceCount: number;
      volume: boolean;
      /** Clipped to the mip, none empty. */
      rects: Rect[];
      /** One texel's bits. */
      element: Uint8Array;
    }
);

const VIEW_FIELDS = [
  'format',
  'mipSlice',
  'firstArraySlice',
  'arraySize',
  'firstWSlice',
  'wSize',
  'firstElement',
  'numElements',
  'structureByteStride',
  'flags',
] as const;
const BUFFER_FIELDS = ['firstElement', 'numElements', 'structureByteStride', 'flags'];
const ARRAY_FIELDS = ['firstArraySlice', 'arraySize'];
const W_FIELDS = ['firstWSlice', 'wSize'];
const TEXTURE_FIELDS = ['mipSlice', ...ARRAY_FIELDS, ...W_FIELDS];
/** D3D12_TEX3D_UAV's WSize of -1 (UINT(-1), as written in C or as a JS -1): every depth slice from FirstWSlice on. */
const ALL_W_SLICES = [-1, 0xffffffff];
/** D3D12's largest structured-buffer stride (D3D12_REQ_MULTI_ELEMENT_STRUCTURE_SIZE_IN_BYTES). */
const MAX_STRUCTURE_STRIDE = 2048;
const LONG_MIN = -(2 ** 31);
const LONG_MAX = 2 ** 31 - 1;

/** values: four 32-bit integers (signed or unsigned, as JS writes -1) or four numbers. */
function checkValues(call: string, kind: UavClearKind, values: unknown): Checked<number[]> {
  if (
    !Array.isArray(values) &&
    !(values instanceof Float32Array) &&
    !(values instanceof Uint32Array) &&
    !(values instanceof Int32Array)
  ) {
    return invalidArg(
      call,
      'values',
      `must be an array of 4 ${kind === 'Uint' ? '32-bit integers' : 'numbers'}, got ${show(values)}`,
    );
  }
  const list = Array.from(values as ArrayLike<unknown>);
  if (list.length !== 4) return invalidArg(call, 'values', `must hold 4 values (one per channel), got ${list.length}`);
  for (let i = 0; i < 4; i++) {
    const value = list[i];
    if (
      kind === 'Float'
        ? typeof value !== 'number'
        : typeof value !== 'number' || !Number.isInteger(value) || value < -(2 ** 31) || value >= 2 ** 32
    ) {
      return invalidArg(
        call,
        `values[${i}]`,
        kind === 'Float'
          ? `must be a number, got ${show(value)}`
          : `must be a 32-bit integer (a UINT; -2^31..-1 as its two's complement), got ${show(value)}`,
      );
    }
  }
  return list as number[];
}

/** A UAV format: typed, with a channel layout the clear writes (no TYPELESS, sRGB, depth or block-compressed format). */
function checkViewFormat(
  call: string,
  argument: string,
  format: string,
  resourceFormat: string | undefined,
): D3D12Error | undefined {
  const info = formatInfo(format);
  if (!info) return invalidArg(call, argument, `${show(format)} is not a DXGI format`);
  if (resourceFormat !== undefined && formatInfo(resourceFormat)?.family !== info.family) {
    return invalidArg(
      call,
      argument,
      `${format} is not of the family of the resource's format ${resourceFormat} (${formatInfo(resourceFormat)?.family ?? '?'})`,
    );
  }
  if (!clearChannels(format)) {
    return invalidArg(
      call,
      argument,
      `${format} is not a format an unordered access view clears (TYPELESS, sRGB, depth, block-compressed and packed formats are not; the typed UAV formats are ${CLEAR_FORMATS.join(', ')})`,
    );
  }
  return undefined;
}

/** A rectangle list: null, or D3D12_RECTs whose fields are 32-bit integers. */
function checkRects(call: string, rects: unknown): Checked<Rect[] | null> {
  if (rects === null || rects === undefined) return null;
  if (!Array.isArray(rects))
    return invalidArg(
      call,
      'rects',
      `must be an array of D3D12_RECT {left, top, right, bottom}, or null for the whole view; got ${show(rects)}`,
    );
  const list: Rect[] = [];
  for (let i = 0; i < rects.length; i++) {
    const rect: unknown = rects[i];
    if (!isObject(rect))
      return invalidArg(call, `rects[${i}]`, `must be a D3D12_RECT {left, top, right, bottom}, got ${show(rect)}`);
    for (const side of ['left', 'top', 'right', 'bottom'] as const) {
      const problem = checkInteger(call, `rects[${i}].${side}`, rect[side], LONG_MIN, LONG_MAX);
      if (problem)
        return invalidArg(call, `rects[${i}].${side}`, `must be a 32-bit integer (a LONG), got ${show(rect[side])}`);
    }
    list.push({
      left: rect.left as number,
      top: rect.top as number,
      right: rect.right as number,
      bottom: rect.bottom as number,
    });
  }
  return list;
}

/** Rectangles clipped to width × height; the empty ones dropped. Null: the whole area. */
function clip(rects: Rect[] | null, width: number, height: number): Rect[] {
  if (!rects) return [{ left: 0, top: 0, right: width, bottom: height }];
  return rects
    .map((r) => ({
      left: Math.max(0, r.left),
      top: Math.max(0, r.top),
      right: Math.min(width, r.right),
      bottom: Math.min(height, r.bottom),
    }))
    .filter((r) => r.left < r.right && r.top < r.bottom);
}

function optionalInteger(
  call: string,
  argument: string,
  value: unknown,
  min: number,
  max: number,
  fallback: number,
): Checked<number> {
  if (value === undefined) return fallback;
  return checkInteger(call, argument, value, min, max) ?? (value as number);
}

/** The element bytes of a clear in `format`, or the error of a Float clear of a format without conversion. */
function elementOf(call: string, kind: UavClearKind, format: string, values: number[]): Checked<Uint8Array> {
  const channels = clearChannels(format) ?? [];
  if (kind === 'Float' && !takesFloatClear(channels)) {
    return invalidArg(
      call,
      'view.format',
      `a Float clear converts to FLOAT, UNORM and SNORM formats only; ${format} has integer channels (use clearUnorderedAccessViewUint)`,
    );
  }
  return clearElementBytes(channels, values, kind);
}

function bufferPlan(
  call: string,
  kind: UavClearKind,
  resource: ResourceView,
  values: number[],
  rects: Rect[] | null,
  view: UavClearView,
): Checked<UavClearPlan> {
  const width = resource.desc.width;
  const stride = view.structureByteStride ?? 0;
  const strideProblem = checkInteger(call, 'view.structureByteStride', stride, 0, MAX_STRUCTURE_STRIDE);
  if (strideProblem) return strideProblem;
  if (stride % 4 !== 0) return invalidArg(call, 'view.structureByteStride', `must be a multiple of 4, got ${stride}`);
  const flags = view.flags ?? (stride === 0 && view.format === undefined ? 'RAW' : 'NONE');
  if (flags !== 'NONE' && flags !== 'RAW')
    return invalidArg(call, 'view.flags', `must be 'NONE' or 'RAW' (D3D12_BUFFER_UAV_FLAGS), got ${show(flags)}`);
  const format = view.format ?? (flags === 'RAW' ? 'R32_TYPELESS' : 'UNKNOWN');
  let element: Uint8Array;
  let size: number;
  if (flags === 'RAW') {
    if (format !== 'R32_TYPELESS')
      return invalidArg(call, 'view.format', `a RAW view's format must be R32_TYPELESS, got ${show(format)}`);
    if (stride !== 0) return invalidArg(call, 'view.structureByteStride', 'must be 0 for a RAW view');
    if (kind === 'Float')
      return invalidArg(
        call,
        'view.flags',
        'a Float clear converts to a typed view; a RAW view takes clearUnorderedAccessViewUint (values[0] into every 32-bit word)',
      );
    [element, size] = [clearElementBytes(clearChannels('R32_UINT') ?? [], values, 'Uint'), 4];
  } else if (stride > 0) {
    if (format !== 'UNKNOWN')
      return invalidArg(call, 'view.format', `a structured view's format must be UNKNOWN, got ${show(format)}`);
    if (kind === 'Float')
      return invalidArg(
        call,
        'view.structureByteStride',
        'a Float clear converts to a typed view; a structured view takes clearUnorderedAccessViewUint (values[0] into every 32-bit word)',
      );
    [element, size] = [clearElementBytes(clearChannels('R32_UINT') ?? [], values, 'Uint'), stride];
  } else {
    if (typeof format !== 'string' || format === 'UNKNOWN')
      return invalidArg(
        call,
        'view.format',
        `a typed buffer view needs a format (or flags 'RAW', or a structureByteStride), got ${show(format)}`,
      );
    const problem = checkViewFormat(call, 'view.format', format, undefined);
    if (problem) return problem;
    const bytes = elementOf(call, kind, format, values);
    if (bytes instanceof Error) return bytes;
    [element, size] = [bytes, bytes.length];
  }
  const elements = Math.floor(width / size);
  const first = optionalInteger(call, 'view.firstElement', view.firstElement, 0, Math.max(0, elements - 1), 0);
  if (typeof first !== 'number') return first;
  const count = optionalInteger(call, 'view.numElements', view.numElements, 1, elements - first, elements - first);
  if (typeof count !== 'number') return count;
  if (count < 1)
    return invalidArg(call, 'resource', `${resource.label} (${width} bytes) holds no whole ${size}-byte element`);
  const origin = first * size;
  // Raw and structured views write values[0] into every word: a 4-byte period.
  const period = element.length;
  const pattern = new Uint8Array(16);
  for (let j = 0; j < 16; j++) pattern[j] = element[(((j - origin) % period) + period) % period] as number;
  const ranges = clip(rects, count, 1).map((r) => ({ start: origin + r.left * size, end: origin + r.right * size }));
  return { kind: 'buffer', subresources: [0], ranges, pattern };
}

/** The slices a texture view names: array slices of a 1D or 2D texture, depth (W) slices of a 3D texture's mip. */
function viewSlices(
  call: string,
  resource: ResourceView,
  mip: number,
  view: UavClearView,
): Checked<{ first: number; count: number }> {
  const volume = resource.desc.dimension === 'TEXTURE3D';
  const other = Object.keys(view).find(
    (key) => view[key as keyof UavClearView] !== undefined && (volume ? ARRAY_FIELDS : W_FIELDS).includes(key),
  );
  if (other !== undefined) {
    return invalidArg(
      call,
      `view.${other}`,
      volume
        ? `is a field of 1D and 2D texture views; ${resource.label} is a TEXTURE3D, whose view (D3D12_TEX3D_UAV) takes firstWSlice and wSize`
        : `is a field of Texture3D views (D3D12_TEX3D_UAV); ${resource.label} is a ${resource.desc.dimension}, whose view takes firstArraySlice and arraySize`,
    );
  }
  const [firstName, sizeName] = volume
    ? ['view.firstWSlice', 'view.wSize']
    : ['view.firstArraySlice', 'view.arraySize'];
  const slices = volume ? mipSize(resource.desc.depthOrArraySize, mip) : resource.layout.arraySize;
  const first = optionalInteger(call, firstName, volume ? view.firstWSlice : view.firstArraySlice, 0, slices - 1, 0);
  if (typeof first !== 'number') return first;
  const size = volume ? view.wSize : view.arraySize;
  if (volume && ALL_W_SLICES.includes(size as number)) return { first, count: slices - first };
  const count = optionalInteger(call, sizeName, size, 1, slices - first, slices - first);
  if (typeof count !== 'number') return count;
  return { first, count };
}

function texturePlan(
  call: string,
  kind: UavClearKind,
  resource: ResourceView,
  values: number[],
  rects: Rect[] | null,
  view: UavClearView,
): Checked<UavClearPlan> {
  const { desc, layout } = resource;
  const format = view.format ?? desc.format;
  if (view.format === undefined && formatInfo(format)?.typeless)
    return invalidArg(
      call,
      'view.format',
      `${resource.label} is ${format}: a view of a TYPELESS resource names its format`,
    );
  const formatProblem = checkViewFormat(call, 'view.format', format, desc.format);
  if (formatProblem) return formatProblem;
  const mip = optionalInteger(call, 'view.mipSlice', view.mipSlice, 0, layout.mipLevels - 1, 0);
  if (typeof mip !== 'number') return mip;
  const slices = viewSlices(call, resource, mip, view);
  if (slices instanceof Error) return slices;
  const element = elementOf(call, kind, format, values);
  if (element instanceof Error) return element;
  const volume = desc.dimension === 'TEXTURE3D';
  const height = desc.dimension === 'TEXTURE1D' ? 1 : mipSize(desc.height, mip);
  // A 3D texture has one subresource per mip, holding every depth slice.
  const subresources = volume
    ? [mip]
    : Array.from({ length: slices.count }, (_, i) => mip + (slices.first + i) * layout.mipLevels);
  return {
    kind: 'texture',
    subresources,
    mip,
    firstSlice: slices.first,
    sliceCount: slices.count,
    volume,
    rects: clip(rects, mipSize(desc.width, mip), height),
    element,
  };
}

/** clearUnorderedAccessView{Uint,Float}(resource, values, rects, view) on a resource of this device (undefined if not). */
export function validateClearUnorderedAccessView(
  call: string,
  kind: UavClearKind,
  resource: ResourceView | undefined,
  values: unknown,
  rects: unknown,
  view: unknown,
): Checked<UavClearPlan> {
  if (!resource) return invalidArg(call, 'resource', 'must be a resource created by this device');
  if (resource.released) return invalidArg(call, 'resource', `${resource.label} was released`);
  if (!resource.desc.flags.includes('ALLOW_UNORDERED_ACCESS'))
    return invalidArg(
      call,
      'resource',
      `${resource.label} was created without ALLOW_UNORDERED_ACCESS; only such resources have unordered access views`,
    );
  const checked = checkValues(call, kind, values);
  if (checked instanceof Error) return checked;
  const list = checkRects(call, rects);
  if (list instanceof Error) return list;
  if (view !== null && view !== undefined && !isObject(view))
    return invalidArg(
      call,
      'view',
      `must be a D3D12_UNORDERED_ACCESS_VIEW_DESC subset {${VIEW_FIELDS.join(', ')}}, or null; got ${show(view)}`,
    );
  const fields = view ?? {};
  const unknown = Object.keys(fields).find((key) => !(VIEW_FIELDS as readonly string[]).includes(key));
  if (unknown !== undefined)
    return invalidArg(call, `view.${unknown}`, `is not a field of the view (${VIEW_FIELDS.join(', ')})`);
  if (fields.format !== undefined && typeof fields.format !== 'string')
    return invalidArg(call, 'view.format', `must be a DXGI format name, got ${show(fields.format)}`);
  const buffer = resource.desc.dimension === 'BUFFER';
  const misplaced = Object.keys(fields).find(
    (key) => fields[key] !== undefined && (buffer ? TEXTURE_FIELDS : BUFFER_FIELDS).includes(key),
  );
  if (misplaced !== undefined)
    return invalidArg(
      call,
      `view.${misplaced}`,
      `is a field of ${buffer ? 'texture' : 'buffer'} views; ${resource.label} is a ${resource.desc.dimension}`,
    );
  return buffer
    ? bufferPlan(call, kind, resource, checked, list, fields)
    : texturePlan(call, kind, resource, checked, list, fields);
}
