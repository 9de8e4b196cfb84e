/**
 * createCommittedResource, createPlacedResource, createReservedResource and
 * getResourceAllocationInfo: the description's own rules (resource-desc.ts) plus where the resource
 * may live: heap type, heap flags, offset and size, the tiled-resources tier.
 */
import { D3D12Error, invalidArg, show, type Checked } from '../api/errors.js';
import type { HeapType, ResourceAllocationInfo } from '../api/types.js';
import { checkInteger, isObject, type Problem } from './common.js';
import {
  categoryName,
  checkHeapFlags,
  checkHeapProperties,
  cpuAccessible,
  heapAllows,
  type FullHeapDesc,
  type FullHeapProperties,
} from './heap.js';
import { checkResourceDesc, type CheckedDesc, type ResourceCaps } from './resource-desc.js';
import { checkClearValue, checkInitialState, effectiveInitialState } from './resource-state.js';

/** What validation needs to see of a heap. */
export interface HeapView {
  /** How messages name it, e.g. "heap #3 'terrain'". */
  readonly label: string;
  readonly released: boolean;
  readonly desc: FullHeapDesc;
  readonly flagBits: number;
}

/** A resource description ready to create: checked, with its initial state's bits. */
export interface CreationPlan extends CheckedDesc {
  initialState: number;
}

/** Rules on what a heap of these properties may hold. */
function checkHeapType(call: string, argument: string, properties: FullHeapProperties, checked: CheckedDesc): Problem {
  const { desc } = checked;
  const type = properties.type;
  if (type === 'UPLOAD' || type === 'READBACK') {
    if (desc.dimension !== 'BUFFER') {
      return invalidArg(
        call,
        argument,
        `an ${type} heap holds only buffers; a CPU-visible texture needs a CUSTOM heap (WRITE_COMBINE or WRITE_BACK, L0)`,
      );
    }
    if (desc.flags.includes('ALLOW_UNORDERED_ACCESS'))
      return invalidArg(call, argument, `ALLOW_UNORDERED_ACCESS cannot be used in an ${type} heap`);
  }
  if (
    cpuAccessible(properties) &&
    (desc.flags.includes('ALLOW_RENDER_TARGET') || desc.flags.includes('ALLOW_DEPTH_STENCIL'))
  ) {
    return invalidArg(call, argument, 'render-target and depth-stencil resources cannot live in CPU-accessible memory');
  }
  return undefined;
}

function checkStateAndClear(
  call: string,
  checked: CheckedDesc,
  heapType: HeapType | undefined,
  initialState: unknown,
  clearValue: unknown,
  stateArgument: string,
): Checked<CreationPlan> {
  const state = checkInitialState(call, stateArgument, initialState, checked.desc, heapType);
  if (state instanceof D3D12Error) return state;
  const clearProblem = checkClearValue(call, 'optimizedClearValue', clearValue, checked.desc, checked.format);
  if (clearProblem) return clearProblem;
  return { ...checked, initialState: effectiveInitialState(state, checked.desc, heapType) };
}

/** createCommittedResource(heapProperties, heapFlags, desc, initialState, optimizedClearValue?). */
export function validateCreateCommittedResource(
  caps: ResourceCaps,
  heapProperties: unknown,
  heapFlags: unknown,
  desc: unknown,
  initialState: unknown,
  clearValue: unknown,
): Checked<CreationPlan & { heapProperties: FullHeapProperties; heapFlagBits: number }> {
  const call = 'createCommittedResource';
  const properties = checkHeapProperties(call, 'heapProperties', heapProperties);
  if (properties instanceof D3D12Error) return properties;
  const flagBits = checkHeapFlags(call, 'heapFlags', heapFlags);
  if (flagBits instanceof D3D12Error) return flagBits;
  const checked = checkResourceDesc(call, 'desc', desc, caps, true);
  if (checked instanceof D3D12Error) return checked;
  if (!heapAllows(flagBits, checked.category)) {
    return invalidArg(call, 'heapFlags', `deny ${categoryName(checked.category)}, which this resource is`);
  }
  const typeProblem = checkHeapType(call, 'heapProperties.type', properties, checked);
  if (typeProblem) return typeProblem;
  const plan = checkStateAndClear(call, checked, properties.type, initialState, clearValue, 'initialState');
  if (plan instanceof D3D12Error) return plan;
  return { ...plan, heapProperties: properties, heapFlagBits: flagBits };
}

/** createPlacedResource(heap, heapOffset, desc, initialState, optimizedClearValue?). */
export function validateCreatePlacedResource(
  caps: ResourceCaps,
  heap: HeapView | undefined,
  heapOffset: unknown,
  desc: unknown,
  initialState: unknown,
  clearValue: unknown,
): Checked<CreationPlan & { heapOffset: number }> {
  const call = 'createPlacedResource';
  if (!heap) return invalidArg(call, 'heap', 'must be a heap created by this device');
  if (heap.released) return invalidArg(call, 'heap', `${heap.label} was released`);
  const offsetProblem = checkInteger(call, 'heapOffset', heapOffset, 0);
  if (offsetProblem) return offsetProblem;
  const offset = heapOffset as number;
  const checked = checkResourceDesc(call, 'desc', desc, caps, true);
  if (checked instanceof D3D12Error) return checked;
  const typeProblem = checkHeapType(call, 'heap', heap.desc.properties, checked);
  if (typeProblem) return typeProblem;
  if (!heapAllows(heap.flagBits, checked.category)) {
    return invalidArg(
      call,
      'heap',
      `${heap.label} was created with flags [${heap.desc.flags.join(', ')}], which deny ${categoryName(checked.category)}`,
    );
  }
  if (offset % checked.alignment !== 0) {
    return invalidArg(
      call,
      'heapOffset',
      `must be a multiple of the resource's alignment (${checked.alignment}), got ${offset}`,
    );
  }
  const size = checked.layout.sizeInBytes;
  if (offset + size > heap.desc.sizeInBytes) {
    return invalidArg(
      call,
      'heapOffset',
      `the resource needs ${size} bytes at offset ${offset}, past the end of ${heap.label} (${heap.desc.sizeInBytes} bytes)`,
    );
  }
  const plan = checkStateAndClear(call, checked, heap.desc.properties.type, initialState, clearValue, 'initialState');
  if (plan instanceof D3D12Error) return plan;
  return { ...plan, heapOffset: offset };
}

/** createReservedResource(desc, initialState, optimizedClearValue?). */
export function validateCreateReservedResource(
  caps: ResourceCaps,
  desc: unknown,
  initialState: unknown,
  clearValue: unknown,
): Checked<CreationPlan> {
  const call = 'createReservedResource';
  const checked = checkResourceDesc(call, 'desc', desc, caps, true);
  if (checked instanceof D3D12Error) return checked;
  const { desc: full, layout } = checked;
  const tier = caps.tiledResourcesTier;
  if (full.dimension === 'TEXTURE1D')
    return invalidArg(call, 'desc.dimension', '1D textures cannot be reserved (tiled)');
  if (full.dimension !== 'BUFFER' && full.layout !== '64KB_UNDEFINED_SWIZZLE') {
    return invalidArg(
      call,
      'desc.layout',
      `a reserved texture's layout must be 64KB_UNDEFINED_SWIZZLE, got ${show(full.layout)}`,
    );
  }
  if (full.dimension === 'TEXTURE3D' && tier < 3) {
    return invalidArg(
      call,
      'desc.dimension',
      `reserved 3D textures need tiled resources tier 3, and this device is tier ${tier}`,
    );
  }
  if (full.dimension === 'TEXTURE2D' && full.depthOrArraySize > 1 && layout.numPackedMips > 0 && tier < 4) {
    return invalidArg(
      call,
      'desc',
      `a reserved texture array whose mips ${layout.numStandardMips}..${full.mipLevels - 1} are packed needs tiled resources tier 4, and this device is tier ${tier}; use fewer mips or one slice`,
    );
  }
  return checkStateAndClear(call, checked, undefined, initialState, clearValue, 'initialState');
}

/** getResourceAllocationInfo(desc or descs): the size and alignment of resources placed back to back. */
export function validateGetResourceAllocationInfo(caps: ResourceCaps, descs: unknown): Checked<ResourceAllocationInfo> {
  const call = 'getResourceAllocationInfo';
  const list = Array.isArray(descs) ? descs : [descs];
  if (list.length === 0) return invalidArg(call, 'descs', 'must hold at least one resource description');
  let size = 0;
  let alignment = 0;
  for (let i = 0; i < list.length; i++) {
    const argument = Array.isArray(descs) ? `descs[${i}]` : 'desc';
    if (!isObject(list[i]))
      return invalidArg(call, argument, `must be a D3D12_RESOURCE_DESC object, got ${show(list[i])}`);
    const checked = checkResourceDesc(call, argument, list[i], caps, false);
    if (checked instanceof D3D12Error) return checked;
    size = Math.ceil(size / checked.alignment) * checked.alignment + checked.layout.sizeInBytes;
    alignment = Math.max(alignment, checked.alignment);
  }
  return { sizeInBytes: size, alignment };
}
