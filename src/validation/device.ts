/**
 * createDevice, checkFeatureSupport, getResourceTiling and createCommandQueue argument rules.
 */
import { D3D12Error, invalidArg, show, type Checked } from '../api/errors.js';
import {
  COMMAND_LIST_TYPES,
  type CommandListType,
  type CommandQueueDesc,
  type EvictionMode,
  type ResourceHeapTier,
  type TiledResourcesTier,
} from '../api/types.js';
import { TILE_SIZE } from '../memory/tiling.js';
import { checkBoolean, checkInteger, checkName, checkNames, firstProblem, isObject } from './common.js';
import type { ResourceView } from './tile-mappings.js';

export interface DeviceSettings {
  tiledResourcesTier: TiledResourcesTier;
  resourceHeapTier: ResourceHeapTier;
  /** Fault logging in shaders (gpuValidation: true, or its `faults`). */
  gpuValidation: boolean;
  /** Recording accesses to NULL tiles (gpuValidation.unmappedAccess), and how many records to keep. */
  unmappedAccess: boolean;
  maxUnmappedAccessRecords: number;
  localMemoryBytes?: number;
  nonLocalMemoryBytes?: number;
  localMemoryBudget?: number;
  nonLocalMemoryBudget?: number;
  /** Bytes of the texture cache (a multiple of 64 KiB; 0: off); undefined: the default. */
  textureCacheBytes?: number;
  textureMirrorBytes?: number;
  /** What a GPU page fault does: remove the device (D3D12's DXGI_ERROR_DEVICE_REMOVED) or only report it. */
  onPageFault: 'remove-device' | 'report';
  /** What an eviction does with the heap's memory: copy it out now, or when its pages are needed. */
  eviction: EvictionMode;
  /** undefined: navigator.gpu's, where there is one; null: none (a CPU-only device). */
  gpuDevice?: GPUDevice | null;
}

// ---- gpuValidation: true, false or { faults?, unmappedAccess?, maxUnmappedAccessRecords? } ----------

/**
 * Unmapped-access records kept by default between two readUnmappedAccesses calls (as many as the fault
 * log keeps per submission): enough to see the pattern of a mistake (the tiles a dispatch's first
 * waves touch), few enough that the log (24 bytes a record) and each readback of it stay a few KiB.
 */
export const DEFAULT_UNMAPPED_ACCESS_RECORDS = 256;
/** The most records gpuValidation.maxUnmappedAccessRecords may ask for: a 1.5 MiB log, read back whole. */
export const MAX_UNMAPPED_ACCESS_RECORDS = 65536;
const GPU_VALIDATION_FIELDS = ['faults', 'unmappedAccess', 'maxUnmappedAccessRecords'] as const;

function checkGpuValidation(
  call: string,
  value: unknown,
): Checked<Pick<DeviceSettings, 'gpuValidation' | 'unmappedAccess' | 'maxUnmappedAccessRecords'>> {
  const argument = 'options.gpuValidation';
  if (value === undefined || value === null || typeof value === 'boolean') {
    return {
      gpuValidation: value ?? true,
      unmappedAccess: false,
      maxUnmappedAccessRecords: DEFAULT_UNMAPPED_ACCESS_RECORDS,
    };
  }
  if (!isObject(value))
    return invalidArg(
      call,
      argument,
      `must be true or false, or an object { faults?, unmappedAccess?, maxUnmappedAccessRecords? }, got ${show(value)}`,
    );
  const unknown = Object.keys(value).find((key) => !(GPU_VALIDATION_FIELDS as readonly string[]).includes(key));
  if (unknown !== undefined)
    return invalidArg(
      call,
      `${argument}.${unknown}`,
      `is not a gpuValidation option (those are ${GPU_VALIDATION_FIELDS.join(', ')})`,
    );
  const problem = firstProblem(
    () => checkBoolean(call, `${argument}.faults`, value.faults ?? true),
    () => checkBoolean(call, `${argument}.unmappedAccess`, value.unmappedAccess ?? false),
    () =>
      checkInteger(
        call,
        `${argument}.maxUnmappedAccessRecords`,
        value.maxUnmappedAccessRecords ?? DEFAULT_UNMAPPED_ACCESS_RECORDS,
        1,
        MAX_UNMAPPED_ACCESS_RECORDS,
      ),
  );
  if (problem) return problem;
  return {
    gpuValidation: (value.faults ?? true) as boolean,
    unmappedAccess: (value.unmappedAccess ?? false) as boolean,
    maxUnmappedAccessRecords: (value.maxUnmappedAccessRecords ?? DEFAULT_UNMAPPED_ACCESS_RECORDS) as number,
  };
}

/** createDevice's eviction modes: immediate (the default) and lazy (as Windows' video memory manager evicts). */
const EVICTION_MODES = ['immediate', 'lazy'] as const satisfies readonly EvictionMode[];

/** A texture cache slot's bytes: one 64 KiB tile. */
const TEXTURE_CACHE_GRANULE = TILE_SIZE;

/** createDevice(options): tiers 1..4 and 1..2, memory sizes positive integers, the texture cache in whole slots. */
export function validateCreateDevice(options: unknown): Checked<DeviceSettings> {
  const call = 'createDevice';
  const value = options ?? {};
  if (!isObject(value)) return invalidArg(call, 'options', `must be an object, got ${show(options)}`);
  const problem = firstProblem(
    () => checkInteger(call, 'options.tiledResourcesTier', value.tiledResourcesTier ?? 3, 1, 4),
    () => checkInteger(call, 'options.resourceHeapTier', value.resourceHeapTier ?? 2, 1, 2),
    () => {
      const checked = checkGpuValidation(call, value.gpuValidation);
      return checked instanceof D3D12Error ? checked : undefined;
    },
    () =>
      value.localMemoryBytes == null
        ? undefined
        : checkInteger(call, 'options.localMemoryBytes', value.localMemoryBytes, 1),
    () =>
      value.nonLocalMemoryBytes == null
        ? undefined
        : checkInteger(call, 'options.nonLocalMemoryBytes', value.nonLocalMemoryBytes, 1),
    () =>
      value.localMemoryBudget == null
        ? undefined
        : checkInteger(call, 'options.localMemoryBudget', value.localMemoryBudget, 0),
    () =>
      value.nonLocalMemoryBudget == null
        ? undefined
        : checkInteger(call, 'options.nonLocalMemoryBudget', value.nonLocalMemoryBudget, 0),
    () => checkTileBytes(call, 'textureCacheBytes', value.textureCacheBytes, 'a cache slot holds one 64 KiB tile'),
    () => checkTileBytes(call, 'textureMirrorBytes', value.textureMirrorBytes, 'a mirror holds whole 64 KiB tiles'),
    () =>
      checkName(call, 'options.onPageFault', value.onPageFault ?? 'remove-device', [
        'remove-device',
        'report',
      ] as const),
    () => checkName(call, 'options.eviction', value.eviction ?? 'immediate', EVICTION_MODES),
  );
  if (problem) return problem;
  return {
    tiledResourcesTier: (value.tiledResourcesTier ?? 3) as TiledResourcesTier,
    resourceHeapTier: (value.resourceHeapTier ?? 2) as ResourceHeapTier,
    ...(checkGpuValidation(call, value.gpuValidation) as Exclude<ReturnType<typeof checkGpuValidation>, D3D12Error>),
    localMemoryBytes: (value.localMemoryBytes ?? undefined) as number | undefined,
    nonLocalMemoryBytes: (value.nonLocalMemoryBytes ?? undefined) as number | undefined,
    localMemoryBudget: (value.localMemoryBudget ?? undefined) as number | undefined,
    nonLocalMemoryBudget: (value.nonLocalMemoryBudget ?? undefined) as number | undefined,
    textureCacheBytes: (value.textureCacheBytes ?? undefined) as number | undefined,
    textureMirrorBytes: (value.textureMirrorBytes ?? undefined) as number | undefined,
    onPageFault: (value.onPageFault ?? 'remove-device') as DeviceSettings['onPageFault'],
    eviction: (value.eviction ?? 'immediate') as EvictionMode,
    gpuDevice: value.gpuDevice as GPUDevice | null | undefined,
  };
}

export const FEATURES = ['OPTIONS', 'GPU_VIRTUAL_ADDRESS_SUPPORT', 'ARCHITECTURE', 'ROOT_SIGNATURE'] as const;
export type Feature = (typeof FEATURES)[number];

export function validateCheckFeatureSupport(feature: unknown): Checked<Feature> {
  return checkName('checkFeatureSupport', 'feature', feature, FEATURES) ?? (feature as Feature);
}

/** getResourceTiling(resource, firstSubresource?, numSubresources?): the subresources asked, clamped. */
export function validateGetResourceTiling(
  resource: ResourceView | undefined,
  first: unknown,
  count: unknown,
): Checked<{ first: number; count: number }> {
  const call = 'getResourceTiling';
  if (!resource) return invalidArg(call, 'resource', 'must be a resource created by this device');
  if (resource.released) return invalidArg(call, 'resource', `${resource.label} was released`);
  const problem = firstProblem(
    () => checkInteger(call, 'firstSubresource', first ?? 0, 0, 0xffffffff),
    () => (count === undefined ? undefined : checkInteger(call, 'numSubresources', count, 0, 0xffffffff)),
  );
  if (problem) return problem;
  const total = resource.layout.mipLevels * resource.layout.arraySize;
  const start = (first ?? 0) as number;
  // D3D12 clamps the count to the subresources that exist from the first one on (none past the end).
  const available = Math.max(0, total - start);
  return { first: start, count: Math.min(count === undefined ? available : (count as number), available) };
}

export function validateCreateCommandQueue(desc: unknown): Checked<Required<CommandQueueDesc>> {
  const call = 'createCommandQueue';
  if (!isObject(desc)) return invalidArg(call, 'desc', `must be a D3D12_COMMAND_QUEUE_DESC object, got ${show(desc)}`);
  const problem = firstProblem(
    () => checkName(call, 'desc.type', desc.type, COMMAND_LIST_TYPES),
    () => checkName(call, 'desc.priority', desc.priority ?? 'NORMAL', ['NORMAL', 'HIGH', 'GLOBAL_REALTIME'] as const),
    () => checkNames(call, 'desc.flags', desc.flags ?? [], ['NONE', 'DISABLE_GPU_TIMEOUT'] as const),
    () => checkInteger(call, 'desc.nodeMask', desc.nodeMask ?? 0, 0, 1),
  );
  if (problem) return problem;
  return {
    type: desc.type as CommandQueueDesc['type'],
    priority: (desc.priority ?? 'NORMAL') as Required<CommandQueueDesc>['priority'],
    flags: (desc.flags ?? []) as Required<CommandQueueDesc>['flags'],
    nodeMask: (desc.nodeMask ?? 0) as number,
  };
}

export function validateCreateCommandList(type: unknown, call = 'createCommandList'): Checked<CommandListType> {
  return checkName(call, 'type', type, COMMAND_LIST_TYPES) ?? (type as CommandListType);
}

/** A node mask of a single-adapter device: 0 or 1. */
export function checkNodeMask(call: string, nodeMask: unknown): Checked<number> {
  return checkInteger(call, 'nodeMask', nodeMask, 0, 1) ?? (nodeMask as number);
}

/** createComputePipelineState(desc): WGSL code and the name of its entry point. */
export function validateCreateComputePipelineState(
  desc: unknown,
): Checked<{ code: string; entryPoint: string; label?: string }> {
  const call = 'createComputePipelineState';
  if (!isObject(desc)) return invalidArg(call, 'desc', `must be {code, entryPoint}, got ${show(desc)}`);
  if (typeof desc.code !== 'string' || desc.code.trim() === '')
    return invalidArg(call, 'desc.code', `must be WGSL source text, got ${show(desc.code)}`);
  if (typeof desc.entryPoint !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(desc.entryPoint)) {
    return invalidArg(call, 'desc.entryPoint', `must be the name of a @compute function, got ${show(desc.entryPoint)}`);
  }
  if (/@group\s*\(/.test(desc.code) || /@binding\s*\(/.test(desc.code)) {
    return invalidArg(
      call,
      'desc.code',
      'declares bindings; shaders reach memory through the prelude (d3d12_load / d3d12_store by GPU virtual address) and take inputs as root constants',
    );
  }
  if (desc.label !== undefined && typeof desc.label !== 'string')
    return invalidArg(call, 'desc.label', `must be a string, got ${show(desc.label)}`);
  return { code: desc.code, entryPoint: desc.entryPoint, label: desc.label };
}

/** A byte count of whole 64 KiB tiles (textureCacheBytes, textureMirrorBytes), or null/undefined for the default. */
function checkTileBytes(call: string, option: string, bytes: unknown, why: string): D3D12Error | undefined {
  if (bytes == null) return undefined;
  const argument = `options.${option}`;
  return (
    checkInteger(call, argument, bytes, 0) ??
    ((bytes as number) % TEXTURE_CACHE_GRANULE === 0
      ? undefined
      : invalidArg(call, argument, `must be a multiple of ${TEXTURE_CACHE_GRANULE} (${why}), got ${bytes as number}`))
  );
}
