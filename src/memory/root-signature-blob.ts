/**
 * Serialized root signatures, as D3D12SerializeVersionedRootSignature writes them and
 * CreateRootSignature reads them: a DXBC container with one RTS0 part, whose layout is D3D12's
 * (version, parameter and static-sampler tables, each parameter's payload; every offset counted from
 * the part's start; D3D12's enum values). The container's 16-byte hash is written as zeros and not
 * checked when read (**Chosen**: the runtime's hash is undocumented; nothing here trusts a blob for
 * more than its parse, and createRootSignature checks the description it holds as it checks any).
 */
import { invalidArg, type Checked } from '../api/errors.js';
import type {
  DescriptorRange,
  DescriptorRangeFlag,
  RootDescriptorFlag,
  RootParameter,
  RootSignatureFlag,
  StaticSamplerDesc,
  VersionedRootSignatureDesc,
} from '../api/binding-types.js';

const PARAMETER_TYPES = ['DESCRIPTOR_TABLE', '32BIT_CONSTANTS', 'CBV', 'SRV', 'UAV'] as const;
const VISIBILITIES = ['ALL', 'VERTEX', 'HULL', 'DOMAIN', 'GEOMETRY', 'PIXEL', 'AMPLIFICATION', 'MESH'] as const;
const RANGE_TYPES = ['SRV', 'UAV', 'CBV', 'SAMPLER'] as const;
const ADDRESS_MODES = [undefined, 'WRAP', 'MIRROR', 'CLAMP', 'BORDER', 'MIRROR_ONCE'] as const;
const COMPARISONS = [
  'NONE',
  'NEVER',
  'LESS',
  'EQUAL',
  'LESS_EQUAL',
  'GREATER',
  'NOT_EQUAL',
  'GREATER_EQUAL',
  'ALWAYS',
] as const;
const BORDERS = [
  'TRANSPARENT_BLACK',
  'OPAQUE_BLACK',
  'OPAQUE_WHITE',
  'OPAQUE_BLACK_UINT',
  'OPAQUE_WHITE_UINT',
] as const;
/** D3D12_FILTER's values (the COMPARISON_ variants add 0x80). */
const FILTER_VALUES: Record<string, number> = {
  MIN_MAG_MIP_POINT: 0x0,
  MIN_MAG_POINT_MIP_LINEAR: 0x1,
  MIN_POINT_MAG_LINEAR_MIP_POINT: 0x4,
  MIN_POINT_MAG_MIP_LINEAR: 0x5,
  MIN_LINEAR_MAG_MIP_POINT: 0x10,
  MIN_LINEAR_MAG_POINT_MIP_LINEAR: 0x11,
  MIN_MAG_LINEAR_MIP_POINT: 0x14,
  MIN_MAG_MIP_LINEAR: 0x15,
  ANISOTROPIC: 0x55,
};
const ROOT_FLAG_BITS: Record<string, number> = {
  ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT: 0x1,
  DENY_VERTEX_SHADER_ROOT_ACCESS: 0x2,
  DENY_HULL_SHADER_ROOT_ACCESS: 0x4,
  DENY_DOMAIN_SHADER_ROOT_ACCESS: 0x8,
  DENY_GEOMETRY_SHADER_ROOT_ACCESS: 0x10,
  DENY_PIXEL_SHADER_ROOT_ACCESS: 0x20,
  ALLOW_STREAM_OUTPUT: 0x40,
  LOCAL_ROOT_SIGNATURE: 0x80,
  DENY_AMPLIFICATION_SHADER_ROOT_ACCESS: 0x100,
  DENY_MESH_SHADER_ROOT_ACCESS: 0x200,
  CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED: 0x400,
  SAMPLER_HEAP_DIRECTLY_INDEXED: 0x800,
};
const RANGE_FLAG_BITS: Record<string, number> = {
  DESCRIPTORS_VOLATILE: 0x1,
  DATA_VOLATILE: 0x2,
  DATA_STATIC_WHILE_SET_AT_EXECUTE: 0x4,
  DATA_STATIC: 0x8,
  DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS: 0x10000,
};
const DESCRIPTOR_FLAG_BITS: Record<string, number> = {
  DATA_VOLATILE: 0x2,
  DATA_STATIC_WHILE_SET_AT_EXECUTE: 0x4,
  DATA_STATIC: 0x8,
};

const flagBits = (flags: unknown, bits: Record<string, number>): number =>
  (Array.isArray(flags) ? flags : flags === undefined ? [] : [flags]).reduce<number>(
    (sum, f) => sum | (bits[f as string] ?? 0),
    0,
  );
const flagNames = (value: number, bits: Record<string, number>): string[] =>
  Object.entries(bits)
    .filter(([, bit]) => (value & bit) !== 0)
    .map(([name]) => name);
const f32 = (value: number): number => new Uint32Array(new Float32Array([value]).buffer)[0] ?? 0;
const fromF32 = (bits: number): number => new Float32Array(new Uint32Array([bits]).buffer)[0] ?? 0;

/** DXBC container: magic, hash, version 1, size, part count, part offsets; each part: fourcc, size, data. */
const DXBC = 0x43425844; // 'DXBC'
const RTS0 = 0x30535452; // 'RTS0'
const CONTAINER_HEADER_BYTES = 32;

/** The RTS0 part of `desc` (a description validateRootSignatureDesc accepted), as D3D12 lays it out. */
function rts0(desc: VersionedRootSignatureDesc): Uint32Array {
  const v11 = desc.version === '1_1';
  const body = (v11 ? desc.desc_1_1 : desc.desc_1_0) ?? {};
  const parameters = body.parameters ?? [];
  const samplers = body.staticSamplers ?? [];
  const words: number[] = [
    v11 ? 2 : 1,
    parameters.length,
    24,
    samplers.length,
    0,
    flagBits(body.flags, ROOT_FLAG_BITS),
  ];
  const headers = words.length;
  for (let i = 0; i < parameters.length; i++) words.push(0, 0, 0);
  parameters.forEach((parameter: RootParameter, i) => {
    const header = headers + 3 * i;
    words[header] = PARAMETER_TYPES.indexOf(parameter.parameterType);
    words[header + 1] = VISIBILITIES.indexOf(parameter.shaderVisibility ?? 'ALL');
    words[header + 2] = words.length * 4;
    if (parameter.parameterType === 'DESCRIPTOR_TABLE') {
      const ranges = parameter.descriptorTable?.descriptorRanges ?? [];
      words.push(ranges.length, (words.length + 2) * 4);
      for (const range of ranges) {
        const offset = range.offsetInDescriptorsFromTableStart ?? 0xffffffff;
        words.push(
          RANGE_TYPES.indexOf(range.rangeType),
          range.numDescriptors >>> 0,
          range.baseShaderRegister,
          range.registerSpace ?? 0,
        );
        if (v11) words.push(flagBits(range.flags, RANGE_FLAG_BITS));
        words.push(offset >>> 0);
      }
    } else if (parameter.parameterType === '32BIT_CONSTANTS') {
      const c = parameter.constants ?? { shaderRegister: 0, num32BitValues: 0 };
      words.push(c.shaderRegister, c.registerSpace ?? 0, c.num32BitValues);
    } else {
      const d = parameter.descriptor ?? { shaderRegister: 0 };
      words.push(d.shaderRegister, d.registerSpace ?? 0);
      if (v11) words.push(flagBits(d.flags, DESCRIPTOR_FLAG_BITS));
    }
  });
  words[4] = words.length * 4;
  for (const sampler of samplers) {
    const comparison = sampler.filter.startsWith('COMPARISON_') ? 0x80 : 0;
    words.push(
      (FILTER_VALUES[sampler.filter.replace(/^COMPARISON_/, '')] ?? 0) | comparison,
      ADDRESS_MODES.indexOf(sampler.addressU ?? 'CLAMP'),
      ADDRESS_MODES.indexOf(sampler.addressV ?? 'CLAMP'),
      ADDRESS_MODES.indexOf(sampler.addressW ?? 'CLAMP'),
      f32(sampler.mipLODBias ?? 0),
      sampler.maxAnisotropy ?? 1,
      COMPARISONS.indexOf(sampler.comparisonFunc ?? 'NEVER'),
      BORDERS.indexOf(sampler.borderColor ?? 'TRANSPARENT_BLACK'),
      f32(sampler.minLOD ?? 0),
      f32(Math.min(sampler.maxLOD ?? 3.402823466e38, 3.4028234663852886e38)),
      sampler.shaderRegister,
      sampler.registerSpace ?? 0,
      VISIBILITIES.indexOf(sampler.shaderVisibility ?? 'ALL'),
    );
  }
  return Uint32Array.from(words);
}

/** D3D12SerializeVersionedRootSignature's blob for `desc` (already checked). */
export function serializeRootSignature(desc: VersionedRootSignatureDesc): Uint8Array {
  const part = rts0(desc);
  const partOffset = CONTAINER_HEADER_BYTES + 4;
  const total = partOffset + 8 + part.byteLength;
  const words = new Uint32Array(total / 4);
  words[0] = DXBC;
  // words 1-4: the hash, zero (see the header).
  words[5] = 1;
  words[6] = total;
  words[7] = 1;
  words[8] = partOffset;
  words[9] = RTS0;
  words[10] = part.byteLength;
  words.set(part, 11);
  return new Uint8Array(words.buffer);
}

/** Reads word `index` after byte `byteOffset` of the RTS0 part; throws RangeError outside it. */
type WordReader = (byteOffset: number, index?: number) => number;

/** A malformed part: the message of the refusal. */
class BlobError extends Error {}

function parseParameter(word: WordReader, i: number, v11: boolean): RootParameter {
  const header = word(8) + 12 * i;
  const type = PARAMETER_TYPES[word(header)];
  const visibility = VISIBILITIES[word(header, 1)];
  const payload = word(header, 2);
  if (!type || !visibility) throw new BlobError(`parameter ${i} has an unknown type or visibility`);
  if (type === 'DESCRIPTOR_TABLE') {
    const ranges: DescriptorRange[] = [];
    const stride = v11 ? 24 : 20;
    for (let r = 0; r < word(payload); r++) {
      const at = word(payload, 1) + stride * r;
      const rangeType = RANGE_TYPES[word(at)];
      if (!rangeType) throw new BlobError(`parameter ${i} range ${r} has an unknown type`);
      ranges.push({
        rangeType,
        numDescriptors: word(at, 1),
        baseShaderRegister: word(at, 2),
        registerSpace: word(at, 3),
        ...(v11 ? { flags: flagNames(word(at, 4), RANGE_FLAG_BITS) as DescriptorRangeFlag[] } : {}),
        offsetInDescriptorsFromTableStart: word(at, v11 ? 5 : 4),
      });
    }
    return { parameterType: type, shaderVisibility: visibility, descriptorTable: { descriptorRanges: ranges } };
  }
  if (type === '32BIT_CONSTANTS') {
    const constants = {
      shaderRegister: word(payload),
      registerSpace: word(payload, 1),
      num32BitValues: word(payload, 2),
    };
    return { parameterType: type, shaderVisibility: visibility, constants };
  }
  const descriptor = {
    shaderRegister: word(payload),
    registerSpace: word(payload, 1),
    ...(v11 ? { flags: flagNames(word(payload, 2), DESCRIPTOR_FLAG_BITS) as RootDescriptorFlag[] } : {}),
  };
  return { parameterType: type, shaderVisibility: visibility, descriptor };
}

function parseStaticSampler(word: WordReader, i: number): StaticSamplerDesc {
  const at = word(16) + 52 * i;
  const filterValue = word(at);
  const filterName = Object.entries(FILTER_VALUES).find(([, value]) => value === (filterValue & ~0x80))?.[0];
  const addresses = [1, 2, 3].map((k) => ADDRESS_MODES[word(at, k)]);
  const comparison = COMPARISONS[word(at, 6)];
  const border = BORDERS[word(at, 7)];
  const visibility = VISIBILITIES[word(at, 12)];
  if (!filterName || addresses.some((a) => !a) || !comparison || !border || !visibility)
    throw new BlobError(
      `static sampler ${i} has an unknown filter, address mode, comparison, border color or visibility`,
    );
  return {
    filter: `${filterValue & 0x80 ? 'COMPARISON_' : ''}${filterName}` as StaticSamplerDesc['filter'],
    addressU: addresses[0],
    addressV: addresses[1],
    addressW: addresses[2],
    mipLODBias: fromF32(word(at, 4)),
    maxAnisotropy: word(at, 5),
    comparisonFunc: comparison,
    borderColor: border,
    minLOD: fromF32(word(at, 8)),
    maxLOD: fromF32(word(at, 9)),
    shaderRegister: word(at, 10),
    registerSpace: word(at, 11),
    shaderVisibility: visibility,
  };
}

/** The RTS0 part of a DXBC container, or why there is none. */
function rts0Part(blob: Uint8Array): Uint32Array | string {
  if (blob.byteLength < CONTAINER_HEADER_BYTES + 12 || blob.byteLength % 4 !== 0)
    return `is ${blob.byteLength} bytes: too short, or not whole DWORDs, for a DXBC container with an RTS0 part`;
  const all = new Uint32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
  if (all[0] !== DXBC) return 'is not a DXBC container (no DXBC magic)';
  if (all[6] !== blob.byteLength) return `says it is ${all[6]} bytes long, but holds ${blob.byteLength}`;
  const parts = all[7] ?? 0;
  for (let i = 0; i < parts && 8 + i < all.length; i++) {
    const at = (all[8 + i] ?? 0) / 4;
    if (all[at] !== RTS0) continue;
    const size = all[at + 1] ?? 0;
    if (at * 4 + 8 + size > blob.byteLength) return 'has an RTS0 part that runs past its end';
    return all.subarray(at + 2, at + 2 + size / 4);
  }
  return 'holds no RTS0 (root signature) part';
}

/** The description a serialized root signature holds (CreateRootSignature's parse), or why it is not one. */
export function parseRootSignatureBlob(call: string, blob: Uint8Array): Checked<VersionedRootSignatureDesc> {
  const bad = (rule: string) => invalidArg(call, 'blobWithRootSignature', rule);
  const data = rts0Part(blob);
  if (typeof data === 'string') return bad(data);
  const word: WordReader = (byteOffset, index = 0) => {
    const at = byteOffset / 4 + index;
    if (!Number.isInteger(at) || at >= data.length) throw new RangeError(`offset ${byteOffset} + ${index * 4}`);
    return data[at] as number;
  };
  try {
    const version = word(0);
    if (version !== 1 && version !== 2)
      return bad(`holds root signature version ${version}; 1 (1_0) and 2 (1_1) are known`);
    const v11 = version === 2;
    const parameters = Array.from({ length: word(4) }, (_, i) => parseParameter(word, i, v11));
    const staticSamplers = Array.from({ length: word(12) }, (_, i) => parseStaticSampler(word, i));
    const body = { parameters, staticSamplers, flags: flagNames(word(20), ROOT_FLAG_BITS) as RootSignatureFlag[] };
    return v11 ? { version: '1_1', desc_1_1: body } : { version: '1_0', desc_1_0: body };
  } catch (error) {
    if (error instanceof BlobError) return bad(error.message);
    return bad(`has an offset outside its RTS0 part (${error instanceof Error ? error.message : String(error)})`);
  }
}
