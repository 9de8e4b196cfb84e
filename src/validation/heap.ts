/**
 * Heaps: properties, flags, and createHeap's rules (D3D12_HEAP_DESC, D3D12_HEAP_PROPERTIES).
 *
 * The emulated adapter is discrete (not UMA): L1 is video memory (the LOCAL segment), L0 system
 * memory (NON_LOCAL). DEFAULT = CUSTOM(NOT_AVAILABLE, L1); UPLOAD = CUSTOM(WRITE_COMBINE, L0);
 * READBACK = CUSTOM(WRITE_BACK, L0).
 */
import { D3D12Error, invalidArg, show, type Checked } from '../api/errors.js';
import {
  CPU_PAGE_PROPERTIES,
  HEAP_FLAG_BITS,
  HEAP_FLAGS,
  HEAP_TYPES,
  MEMORY_POOLS,
  type CpuPageProperty,
  type HeapFlag,
  type HeapProperties,
  type MemoryPool,
  type MemorySegment,
  type ResourceHeapTier,
} from '../api/types.js';
import { checkInteger, checkName, checkNames, firstProblem, isObject, type Problem } from './common.js';

/** D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT. */
export const DEFAULT_ALIGNMENT = 65536;
/** D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT. */
export const MSAA_ALIGNMENT = 4194304;

export type ResourceCategory = 'buffer' | 'rt-ds-texture' | 'non-rt-ds-texture';

const DENY_BITS: Record<ResourceCategory, number> = {
  buffer: HEAP_FLAG_BITS.DENY_BUFFERS,
  'rt-ds-texture': HEAP_FLAG_BITS.DENY_RT_DS_TEXTURES,
  'non-rt-ds-texture': HEAP_FLAG_BITS.DENY_NON_RT_DS_TEXTURES,
};
const ALL_DENY_BITS =
  HEAP_FLAG_BITS.DENY_BUFFERS | HEAP_FLAG_BITS.DENY_RT_DS_TEXTURES | HEAP_FLAG_BITS.DENY_NON_RT_DS_TEXTURES;

const CATEGORY_NAMES: Record<ResourceCategory, string> = {
  buffer: 'buffers',
  'rt-ds-texture': 'render-target and depth-stencil textures',
  'non-rt-ds-texture': 'textures that are neither render targets nor depth-stencil',
};
export const categoryName = (category: ResourceCategory): string => CATEGORY_NAMES[category];

/** Flags the emulator cannot honour; refused rather than silently ignored. */
const UNSUPPORTED_HEAP_FLAGS: Partial<Record<HeapFlag, string>> = {
  SHARED: 'sharing heaps across processes or devices is not emulated',
  SHARED_CROSS_ADAPTER: 'cross-adapter heaps are not emulated (one adapter)',
  ALLOW_DISPLAY: 'heaps for display (swap chains) are not emulated',
  HARDWARE_PROTECTED: 'protected content is not emulated',
  ALLOW_WRITE_WATCH: 'write watch (GetWriteWatch) is not emulated',
  TOOLS_USE_MANUAL_WRITE_TRACKING: 'tools write tracking is not emulated',
};

/** Heap properties with every field filled in. */
export type FullHeapProperties = Required<HeapProperties>;

/** The heap's equivalent CUSTOM properties: page property and memory pool (discrete adapter). */
export function customEquivalent(properties: FullHeapProperties): { page: CpuPageProperty; pool: MemoryPool } {
  switch (properties.type) {
    case 'DEFAULT':
      return { page: 'NOT_AVAILABLE', pool: 'L1' };
    case 'UPLOAD':
      return { page: 'WRITE_COMBINE', pool: 'L0' };
    case 'READBACK':
      return { page: 'WRITE_BACK', pool: 'L0' };
    case 'CUSTOM':
      return { page: properties.cpuPageProperty, pool: properties.memoryPoolPreference };
  }
}

export const heapSegment = (properties: FullHeapProperties): MemorySegment =>
  customEquivalent(properties).pool === 'L1' ? 'LOCAL' : 'NON_LOCAL';

export const cpuAccessible = (properties: FullHeapProperties): boolean =>
  customEquivalent(properties).page !== 'NOT_AVAILABLE';

/** Checks D3D12_HEAP_PROPERTIES and fills in its defaults. */
export function checkHeapProperties(call: string, argument: string, value: unknown): Checked<FullHeapProperties> {
  if (!isObject(value)) return invalidArg(call, argument, `must be a D3D12_HEAP_PROPERTIES object, got ${show(value)}`);
  const properties: FullHeapProperties = {
    type: value.type as FullHeapProperties['type'],
    cpuPageProperty: (value.cpuPageProperty ?? 'UNKNOWN') as CpuPageProperty,
    memoryPoolPreference: (value.memoryPoolPreference ?? 'UNKNOWN') as MemoryPool,
    creationNodeMask: (value.creationNodeMask ?? 0) as number,
    visibleNodeMask: (value.visibleNodeMask ?? 0) as number,
  };
  const problem = firstProblem(
    () => checkName(call, `${argument}.type`, properties.type, HEAP_TYPES),
    () => checkName(call, `${argument}.cpuPageProperty`, properties.cpuPageProperty, CPU_PAGE_PROPERTIES),
    () => checkName(call, `${argument}.memoryPoolPreference`, properties.memoryPoolPreference, MEMORY_POOLS),
    () => checkInteger(call, `${argument}.creationNodeMask`, properties.creationNodeMask, 0, 1),
    () => checkInteger(call, `${argument}.visibleNodeMask`, properties.visibleNodeMask, 0, 1),
    () => {
      if (properties.type === 'CUSTOM') {
        if (properties.cpuPageProperty === 'UNKNOWN') {
          return invalidArg(
            call,
            `${argument}.cpuPageProperty`,
            'a CUSTOM heap must name its CPU page property (NOT_AVAILABLE, WRITE_COMBINE or WRITE_BACK)',
          );
        }
        if (properties.memoryPoolPreference === 'UNKNOWN') {
          return invalidArg(
            call,
            `${argument}.memoryPoolPreference`,
            'a CUSTOM heap must name its memory pool (L0 or L1)',
          );
        }
        if (properties.memoryPoolPreference === 'L1' && properties.cpuPageProperty !== 'NOT_AVAILABLE') {
          return invalidArg(
            call,
            `${argument}.cpuPageProperty`,
            `L1 (video memory) is not CPU-accessible on this discrete adapter: the page property must be NOT_AVAILABLE, got ${show(properties.cpuPageProperty)}`,
          );
        }
        return undefined;
      }
      if (properties.cpuPageProperty !== 'UNKNOWN') {
        return invalidArg(
          call,
          `${argument}.cpuPageProperty`,
          `must be UNKNOWN unless the heap type is CUSTOM, got ${show(properties.cpuPageProperty)}`,
        );
      }
      if (properties.memoryPoolPreference !== 'UNKNOWN') {
        return invalidArg(
          call,
          `${argument}.memoryPoolPreference`,
          `must be UNKNOWN unless the heap type is CUSTOM, got ${show(properties.memoryPoolPreference)}`,
        );
      }
      return undefined;
    },
  );
  return problem ?? properties;
}

/** Checks a heap-flag list and returns its bits. Refuses flags the emulator cannot honour. */
export function checkHeapFlags(call: string, argument: string, value: unknown): Checked<number> {
  const flags = value ?? [];
  const problem = checkNames(call, argument, flags, HEAP_FLAGS);
  if (problem) return problem;
  const names = flags as HeapFlag[];
  let bits = 0;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as HeapFlag;
    const unsupported = UNSUPPORTED_HEAP_FLAGS[name];
    if (unsupported) return invalidArg(call, `${argument}[${i}]`, `${name}: ${unsupported}`);
    bits |= HEAP_FLAG_BITS[name];
  }
  if (names.includes('ALLOW_ALL_BUFFERS_AND_TEXTURES') && (bits & ALL_DENY_BITS) !== 0) {
    return invalidArg(
      call,
      argument,
      'ALLOW_ALL_BUFFERS_AND_TEXTURES cannot be combined with DENY_* or ALLOW_ONLY_* flags',
    );
  }
  if ((bits & ALL_DENY_BITS) === ALL_DENY_BITS) {
    return invalidArg(call, argument, 'denies buffers and both kinds of textures: such a heap could hold nothing');
  }
  return bits;
}

export const heapAllows = (flagBits: number, category: ResourceCategory): boolean =>
  (flagBits & DENY_BITS[category]) === 0;

/** Resource heap tier 1: a heap holds exactly one category (one of the ALLOW_ONLY_* flags). */
export function checkHeapTier(call: string, argument: string, flagBits: number, tier: ResourceHeapTier): Problem {
  if (tier === 1) {
    const allowed = (Object.keys(DENY_BITS) as ResourceCategory[]).filter((category) => heapAllows(flagBits, category));
    if (allowed.length !== 1) {
      return invalidArg(
        call,
        argument,
        `resource heap tier 1 needs a heap of one category (ALLOW_ONLY_BUFFERS, ALLOW_ONLY_NON_RT_DS_TEXTURES or ALLOW_ONLY_RT_DS_TEXTURES); these flags allow ${allowed.map(categoryName).join(' and ')}`,
      );
    }
  }
  return undefined;
}

/** The names that describe `bits`, preferring D3D12's ALLOW_ONLY_* combinations. */
export function heapFlagNames(bits: number): HeapFlag[] {
  const names: HeapFlag[] = [];
  const deny = bits & ALL_DENY_BITS;
  const combination = (
    ['ALLOW_ONLY_BUFFERS', 'ALLOW_ONLY_NON_RT_DS_TEXTURES', 'ALLOW_ONLY_RT_DS_TEXTURES'] as const
  ).find((name) => HEAP_FLAG_BITS[name] === deny);
  if (combination) names.push(combination);
  for (const name of HEAP_FLAGS) {
    const bit = HEAP_FLAG_BITS[name];
    if (bit === 0 || name.startsWith('ALLOW_ONLY') || (combination && (bit & ALL_DENY_BITS) !== 0)) continue;
    if ((bits & bit) === bit) names.push(name);
  }
  return names;
}

export interface FullHeapDesc {
  sizeInBytes: number;
  properties: FullHeapProperties;
  alignment: number;
  flags: HeapFlag[];
}

/** What createHeap needs to know of the device. */
export interface HeapCaps {
  resourceHeapTier: ResourceHeapTier;
}

/** createHeap(desc). */
export function validateCreateHeap(desc: unknown, caps: HeapCaps): Checked<FullHeapDesc & { flagBits: number }> {
  const call = 'createHeap';
  if (!isObject(desc)) return invalidArg(call, 'desc', `must be a D3D12_HEAP_DESC object, got ${show(desc)}`);
  const sizeProblem = checkInteger(call, 'desc.sizeInBytes', desc.sizeInBytes, 1);
  if (sizeProblem) return sizeProblem;
  const properties = checkHeapProperties(call, 'desc.properties', desc.properties);
  if (properties instanceof D3D12Error) return properties;
  const alignment = desc.alignment ?? 0;
  if (![0, DEFAULT_ALIGNMENT, MSAA_ALIGNMENT].includes(alignment as number)) {
    return invalidArg(call, 'desc.alignment', `must be 0, 65536 (64 KiB) or 4194304 (4 MiB), got ${show(alignment)}`);
  }
  const flagBits = checkHeapFlags(call, 'desc.flags', desc.flags);
  if (flagBits instanceof D3D12Error) return flagBits;
  const tierProblem = checkHeapTier(call, 'desc.flags', flagBits, caps.resourceHeapTier);
  if (tierProblem) return tierProblem;
  // CPU-accessible heaps hold buffers (and, CUSTOM ones, non-RT/DS textures): a heap that allows
  // none of those could hold nothing.
  if (properties.type === 'UPLOAD' || properties.type === 'READBACK') {
    if (!heapAllows(flagBits, 'buffer')) {
      return invalidArg(call, 'desc.flags', `an ${properties.type} heap holds only buffers, so it cannot deny them`);
    }
  } else if (
    cpuAccessible(properties) &&
    !heapAllows(flagBits, 'buffer') &&
    !heapAllows(flagBits, 'non-rt-ds-texture')
  ) {
    return invalidArg(
      call,
      'desc.flags',
      'a CPU-accessible heap cannot hold render-target or depth-stencil textures, and these flags deny everything else',
    );
  }
  return {
    sizeInBytes: desc.sizeInBytes as number,
    properties,
    alignment: alignment === 0 ? DEFAULT_ALIGNMENT : (alignment as number),
    flags: heapFlagNames(flagBits),
    flagBits,
  };
}
