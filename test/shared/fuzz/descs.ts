/**
 * Descriptions the API fuzzer passes: heap descs and properties, heap flags, resource descs for
 * every kind of resource it creates, resource states; each valid one small (the pools are 16 MiB
 * LOCAL and 8 MiB NON_LOCAL), each bad one a valid one with one field made wrong.
 *
 * Invariants: a valid description is accepted by D3D12 for the heap type it is built for; a bad
 * field is tagged 'invalid' only where D3D12 itself refuses it (values.ts), 'maybe' where only the
 * emulator does (MSAA, SHARED heaps) or the emulator's answer depends on memory (huge sizes).
 */
import {
  RESOURCE_STATE_BITS,
  type HeapFlag,
  type HeapProperties,
  type ResourceDesc,
  type ResourceState,
} from '../../../src/api/types.js';
import type { Random } from '../../../src/validate/random.js';
import { TILE } from '../d3d12-helpers.js';
import {} from './pool.js';
import { badEnum, badField, badUint, DELETE, invalid, maybe, notAStruct, withField, type Arg } from './values.js';

export const HEAP_TYPE_NAMES = ['DEFAULT', 'UPLOAD', 'READBACK', 'CUSTOM'] as const;
export const FORMATS = ['R8G8B8A8_UNORM', 'R8_UNORM', 'R32_FLOAT', 'R16G16B16A16_FLOAT', 'B8G8R8A8_UNORM'] as const;
export const STATE_NAMES = Object.keys(RESOURCE_STATE_BITS) as ResourceState[];

/** Heap properties of each kind the fuzzer uses. */
export function heapProperties(rng: Random, segment?: 'LOCAL' | 'NON_LOCAL'): HeapProperties {
  const local: HeapProperties[] = [
    { type: 'DEFAULT' },
    { type: 'CUSTOM', cpuPageProperty: 'NOT_AVAILABLE', memoryPoolPreference: 'L1' },
    { type: 'DEFAULT', creationNodeMask: 1, visibleNodeMask: 1 },
  ];
  const system: HeapProperties[] = [
    { type: 'UPLOAD' },
    { type: 'READBACK' },
    { type: 'CUSTOM', cpuPageProperty: 'WRITE_BACK', memoryPoolPreference: 'L0' },
    { type: 'CUSTOM', cpuPageProperty: 'WRITE_COMBINE', memoryPoolPreference: 'L0' },
  ];
  if (segment === 'LOCAL') return rng.pick(local);
  if (segment === 'NON_LOCAL') return rng.pick(system);
  return rng.chance(0.6) ? rng.pick(local) : rng.pick(system);
}

export function badHeapProperties(rng: Random, properties: HeapProperties): Arg {
  const r = rng.float();
  if (r < 0.15) return notAStruct(rng);
  if (r < 0.3) return invalid({ type: 'CUSTOM' });
  if (r < 0.4) return invalid({ type: 'DEFAULT', cpuPageProperty: 'WRITE_BACK' });
  if (r < 0.5) return invalid({ type: 'CUSTOM', cpuPageProperty: 'WRITE_BACK', memoryPoolPreference: 'L1' });
  return badField(rng, properties, {
    type: (g) => badEnum(g, HEAP_TYPE_NAMES),
    cpuPageProperty: (g) =>
      badEnum(g, ['UNKNOWN', 'NOT_AVAILABLE', 'WRITE_COMBINE', 'WRITE_BACK'], {
        optional: properties.type !== 'CUSTOM',
      }),
    memoryPoolPreference: (g) => badEnum(g, ['UNKNOWN', 'L0', 'L1'], { optional: properties.type !== 'CUSTOM' }),
    creationNodeMask: (g) => (g.chance(0.3) ? invalid(2) : badUint(g, { max: 1, optional: true })),
    visibleNodeMask: (g) => (g.chance(0.3) ? invalid(3) : badUint(g, { max: 1, optional: true })),
  });
}

/** Heap flags valid for a heap of `type` that holds buffers (and, where allowed, textures). */
export function heapFlags(rng: Random, type: string, textures = false): HeapFlag[] {
  const cpu = type === 'UPLOAD' || type === 'READBACK';
  const options: HeapFlag[][] = [
    [],
    [],
    ['CREATE_NOT_RESIDENT'],
    ['CREATE_NOT_ZEROED'],
    ['ALLOW_SHADER_ATOMICS'],
    ['ALLOW_ALL_BUFFERS_AND_TEXTURES'],
  ];
  if (!textures) options.push(['ALLOW_ONLY_BUFFERS'], ['ALLOW_ONLY_BUFFERS', 'CREATE_NOT_RESIDENT']);
  if (textures && !cpu) options.push(['DENY_BUFFERS'], ['ALLOW_ONLY_NON_RT_DS_TEXTURES']);
  return [...rng.pick(options)];
}

export function badHeapFlags(rng: Random): Arg {
  const r = rng.float();
  // null (no flags) is the emulator's to take or refuse; a name or number instead of an array is wrong.
  if (r < 0.05) return maybe(null);
  if (r < 0.2) return invalid(rng.pick<unknown>(['NONE', 0, {}, Symbol('flags'), 0x800]));
  if (r < 0.5) {
    const bad = badEnum(rng, ['NONE', 'CREATE_NOT_RESIDENT']);
    return { value: ['NONE', bad.value], validity: bad.validity };
  }
  if (r < 0.7)
    return invalid(
      rng.pick([
        ['ALLOW_ALL_BUFFERS_AND_TEXTURES', 'DENY_BUFFERS'],
        ['DENY_BUFFERS', 'DENY_RT_DS_TEXTURES', 'DENY_NON_RT_DS_TEXTURES'],
        ['ALLOW_ONLY_BUFFERS', 'ALLOW_ONLY_NON_RT_DS_TEXTURES'],
      ]),
    );
  // Flags D3D12 has and the emulator refuses.
  return maybe([
    rng.pick([
      'SHARED',
      'ALLOW_DISPLAY',
      'HARDWARE_PROTECTED',
      'ALLOW_WRITE_WATCH',
      'SHARED_CROSS_ADAPTER',
      'TOOLS_USE_MANUAL_WRITE_TRACKING',
    ]),
  ]);
}

/** A heap size in bytes: a few tiles, sometimes not a whole number of them. */
export function heapSize(rng: Random): number {
  const tiles = rng.int(1, 6);
  return rng.chance(0.8) ? tiles * TILE : tiles * TILE - rng.int(1, TILE - 1);
}

export function badSize(rng: Random): Arg {
  if (rng.chance(0.25)) return invalid(0);
  // Sizes no pool holds (maybe: E_OUTOFMEMORY, or E_INVALIDARG past what the emulator addresses).
  if (rng.chance(0.2)) return maybe(rng.pick([2 ** 40, 2 ** 50, Number.MAX_SAFE_INTEGER, 2 ** 34 + 1]));
  return badUint(rng, { min: 1, wide: true });
}

export function heapDesc(rng: Random): {
  sizeInBytes: number;
  properties: HeapProperties;
  alignment?: number;
  flags?: HeapFlag[];
} {
  const properties = heapProperties(rng);
  const textures = properties.type === 'DEFAULT' && rng.chance(0.3);
  const desc: { sizeInBytes: number; properties: HeapProperties; alignment?: number; flags?: HeapFlag[] } = {
    sizeInBytes: heapSize(rng),
    properties,
  };
  if (rng.chance(0.3)) desc.alignment = rng.pick([0, 65536]);
  if (rng.chance(0.7)) desc.flags = heapFlags(rng, properties.type, textures);
  return desc;
}

export function badHeapDesc(rng: Random, desc: object): Arg {
  if (rng.chance(0.1)) return notAStruct(rng);
  return badField(rng, desc, {
    sizeInBytes: badSize,
    properties: (g) => badHeapProperties(g, (desc as { properties: HeapProperties }).properties),
    alignment: (g) => (g.chance(0.5) ? invalid(g.pick([1, 4096, 3, 65537, 2 ** 32])) : badUint(g, { optional: true })),
    flags: badHeapFlags,
  });
}

// ---- resource descriptions ------------------------------------------------------------------

export type DescKind = 'buffer' | 'texture' | 'reserved-texture';

/** A buffer of `maxBytes` at most: whole tiles, or a few bytes, or an odd size. */
export function bufferDesc(rng: Random, maxBytes = 4 * TILE): ResourceDesc {
  const r = rng.float();
  const width =
    r < 0.5
      ? rng.int(1, Math.max(1, Math.floor(maxBytes / TILE))) * TILE
      : r < 0.75
        ? rng.int(1, 4096)
        : rng.int(1, maxBytes);
  const desc: ResourceDesc = { dimension: 'BUFFER', width: Math.min(width, maxBytes) };
  if (rng.chance(0.2)) desc.flags = ['ALLOW_UNORDERED_ACCESS'];
  if (rng.chance(0.1)) desc.layout = 'ROW_MAJOR';
  return desc;
}

/** A small texture for committed and placed resources (at most 64 KiB of texels, often less). */
export function textureDesc(rng: Random): ResourceDesc {
  return structuredClone(
    rng.pick<ResourceDesc>([
      { dimension: 'TEXTURE2D', width: 64, height: 64, format: 'R8G8B8A8_UNORM' },
      { dimension: 'TEXTURE2D', width: 64, height: 64, format: 'R8G8B8A8_UNORM', mipLevels: 0 },
      { dimension: 'TEXTURE2D', width: 128, height: 32, format: 'R8_UNORM', depthOrArraySize: 2 },
      { dimension: 'TEXTURE2D', width: 32, height: 32, format: 'R32_FLOAT', flags: ['ALLOW_UNORDERED_ACCESS'] },
      { dimension: 'TEXTURE1D', width: 256, format: 'R8G8B8A8_UNORM' },
      { dimension: 'TEXTURE3D', width: 16, height: 16, depthOrArraySize: 4, format: 'R8G8B8A8_UNORM' },
      { dimension: 'TEXTURE2D', width: 16, height: 16, format: 'R8G8B8A8_UNORM', alignment: 4096 },
    ]),
  );
}

/** A reserved texture of a few dozen tiles at most (2D with a mip tail, a 2D array, a 3D texture at tier 3+). */
export function reservedTextureDesc(rng: Random, tier: number): ResourceDesc {
  const options: ResourceDesc[] = [
    {
      dimension: 'TEXTURE2D',
      width: 256,
      height: 256,
      mipLevels: 0,
      format: 'R8G8B8A8_UNORM',
      layout: '64KB_UNDEFINED_SWIZZLE',
    },
    {
      dimension: 'TEXTURE2D',
      width: 512,
      height: 256,
      depthOrArraySize: 2,
      format: 'R8G8B8A8_UNORM',
      layout: '64KB_UNDEFINED_SWIZZLE',
    },
    {
      dimension: 'TEXTURE2D',
      width: 512,
      height: 512,
      mipLevels: 3,
      format: 'R8_UNORM',
      layout: '64KB_UNDEFINED_SWIZZLE',
    },
  ];
  if (tier >= 3)
    options.push({
      dimension: 'TEXTURE3D',
      width: 64,
      height: 32,
      depthOrArraySize: 32,
      format: 'R8G8B8A8_UNORM',
      layout: '64KB_UNDEFINED_SWIZZLE',
    });
  return structuredClone(rng.pick(options));
}

/** `desc` with one field made wrong. */
export function badResourceDesc(rng: Random, desc: ResourceDesc): Arg {
  if (rng.chance(0.08)) return notAStruct(rng);
  const buffer = desc.dimension === 'BUFFER';
  if (rng.chance(0.15)) {
    // Fields right in themselves, wrong for this dimension.
    const wrong: [string, unknown][] = buffer
      ? [
          ['height', 2],
          ['format', 'R8G8B8A8_UNORM'],
          ['layout', 'UNKNOWN'],
          ['mipLevels', 2],
          ['depthOrArraySize', 3],
        ]
      : [
          ['format', 'UNKNOWN'],
          ['layout', 'ROW_MAJOR'],
          ['mipLevels', 12],
          ['width', 0],
        ];
    const [field, value] = rng.pick(wrong);
    return invalid(withField(desc, field, value));
  }
  return badField(rng, desc, {
    dimension: (g) => (g.chance(0.2) ? invalid(DELETE) : badEnum(g, ['BUFFER', 'TEXTURE1D', 'TEXTURE2D', 'TEXTURE3D'])),
    width: (g) =>
      g.chance(0.3)
        ? invalid(g.pick([0, 2 ** 53, 1e300]))
        : g.chance(0.15)
          ? maybe(g.pick([2 ** 40, 2 ** 36]))
          : badUint(g, { min: 1, wide: buffer }),
    height: (g) => badUint(g, { min: 1, optional: true }),
    depthOrArraySize: (g) => badUint(g, { min: 1, max: 0xffff, optional: true }),
    mipLevels: (g) =>
      g.chance(0.3) ? invalid(g.pick([16, 100, 0xffff + 1])) : badUint(g, { max: 0xffff, optional: true }),
    format: (g) => badEnum(g, FORMATS, { optional: buffer }),
    sampleDesc: (g) =>
      g.chance(0.4)
        ? invalid(
            g.pick<unknown>([{ count: 0, quality: 0 }, { count: 1, quality: -1 }, { count: NaN, quality: 0 }, 5, 'x']),
          )
        : maybe({ count: 4, quality: 0 }),
    layout: (g) =>
      badEnum(g, ['UNKNOWN', 'ROW_MAJOR', '64KB_UNDEFINED_SWIZZLE', '64KB_STANDARD_SWIZZLE'], { optional: true }),
    flags: (g) =>
      g.chance(0.1)
        ? maybe(null)
        : g.chance(0.4)
          ? invalid(g.pick<unknown>(['ALLOW_UNORDERED_ACCESS', 8, {}]))
          : { value: [badEnum(g, ['NONE']).value], validity: 'invalid' },
    alignment: (g) =>
      g.chance(0.5) ? invalid(g.pick([1, 3, 512, 65537])) : badUint(g, { optional: true, wide: true }),
  });
}

/** A state a resource in a heap of `heapType` (undefined: reserved) may be created in. */
export function initialState(
  rng: Random,
  heapType: string | undefined,
  desc: ResourceDesc,
): ResourceState | ResourceState[] {
  if (heapType === 'UPLOAD') return 'GENERIC_READ';
  if (heapType === 'READBACK') return 'COPY_DEST';
  const options: (ResourceState | ResourceState[])[] = [
    'COMMON',
    'COMMON',
    'COPY_DEST',
    'COPY_SOURCE',
    ['NON_PIXEL_SHADER_RESOURCE', 'PIXEL_SHADER_RESOURCE'],
  ];
  if (desc.flags?.includes('ALLOW_UNORDERED_ACCESS')) options.push('UNORDERED_ACCESS');
  return rng.pick(options);
}

export function badState(rng: Random): Arg {
  const r = rng.float();
  if (r < 0.5) return badEnum(rng, STATE_NAMES);
  if (r < 0.7)
    return invalid(
      rng.pick([[], ['COPY_DEST', 'COPY_SOURCE'], ['UNORDERED_ACCESS', 'COPY_DEST'], ['COMMON', 'toString']]),
    );
  return invalid(rng.pick<unknown>([0x400, null, undefined, {}, ['COPY_DEST', 5]]));
}

/** The names of a state's bits (COMMON for 0), as resourceBarrier takes them. */
export function stateNamesOf(bits: number): ResourceState | ResourceState[] {
  if (bits === 0) return 'COMMON';
  if (bits === RESOURCE_STATE_BITS.GENERIC_READ) return 'GENERIC_READ';
  const singles = STATE_NAMES.filter((name) => {
    const bit = RESOURCE_STATE_BITS[name];
    return bit !== 0 && (bit & (bit - 1)) === 0 && name !== 'PREDICATION' && (bits & bit) === bit;
  });
  return singles.length === 1 ? (singles[0] as ResourceState) : singles;
}
