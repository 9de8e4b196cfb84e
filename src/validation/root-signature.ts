/**
 * Root signatures (D3D12_VERSIONED_ROOT_SIGNATURE_DESC, versions 1.0 and 1.1), checked as
 * D3D12SerializeVersionedRootSignature and the debug layer check them, into a CheckedRootSignature:
 * the parameters with every default filled, each range's offset in its table resolved, and where
 * each parameter's arguments sit in a dispatch's root argument words.
 *
 * Rules: a version 1_0 or 1_1 with its own description; parameter types and visibilities of D3D12's
 * enums; a table has at least one range, of one kind (sampler ranges never beside CBV, SRV or UAV
 * ranges), each of at least one descriptor or unbounded (0xffffffff), and a range after an unbounded
 * one takes an explicit offset; ranges' registers, and every parameter's, do not run past 2^32; root
 * constants hold 1 or more values; root descriptors are CBV, SRV or UAV; register spaces below
 * 0xfffffff0 (the rest are reserved); no register of a kind (t, s, u, b) in a space is bound twice
 * where the visibilities meet (ALL meets every stage); the cost is at most 64 DWORDs (a table 1, a
 * constant 1, a root descriptor 2); at most 2032 static samplers, each checked as a sampler, on s
 * registers no table binds; version 1.0 has no
 * flags on ranges or root descriptors; version 1.1's flags combine as D3D12 allows (samplers: NONE or
 * DESCRIPTORS_VOLATILE; data flags one at a time; DATA_STATIC never with DESCRIPTORS_VOLATILE;
 * DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS never with DESCRIPTORS_VOLATILE).
 */
import { D3D12Error, invalidArg, show, type Checked } from '../api/errors.js';
import {
  DESCRIPTOR_RANGE_FLAGS,
  DESCRIPTOR_RANGE_OFFSET_APPEND,
  DESCRIPTOR_RANGE_TYPES,
  ROOT_DESCRIPTOR_FLAGS,
  ROOT_PARAMETER_TYPES,
  ROOT_SIGNATURE_FLAGS,
  ROOT_SIGNATURE_VERSIONS,
  SHADER_VISIBILITIES,
  UNBOUNDED_DESCRIPTOR_RANGE,
  type DescriptorRangeFlag,
  type DescriptorRangeType,
  type RootDescriptorFlag,
  type RootParameterType,
  type RootSignatureFlag,
  type RootSignatureVersion,
  type ShaderVisibility,
  type StaticBorderColor,
} from '../api/binding-types.js';
import { asNameList, checkInteger, checkName, isObject, type Problem } from './common.js';
import { validateStaticSampler, type SamplerPlan } from './samplers.js';

/** D3D12's root signature size limit, in DWORDs. */
export const MAX_ROOT_COST = 64;
/** The most static samplers a root signature holds. */
export const MAX_STATIC_SAMPLERS = 2032;
/** Register spaces from here on are reserved (D3D12_DRIVER_RESERVED_REGISTER_SPACE_VALUES_START). */
const RESERVED_SPACES = 0xfffffff0;

export interface CheckedRange {
  type: DescriptorRangeType;
  /** UNBOUNDED_DESCRIPTOR_RANGE: to the end of the heap. */
  count: number;
  register: number;
  space: number;
  /** Descriptors from the table's start (APPEND resolved). */
  offset: number;
  flags: DescriptorRangeFlag[];
}

export interface CheckedParameter {
  type: RootParameterType;
  visibility: ShaderVisibility;
  /** The first root argument word of the parameter, and how many it takes (a table or root descriptor 2, a constant 1 each). */
  word: number;
  words: number;
  /** Tables: their ranges; SAMPLER tables hold sampler ranges only. */
  ranges: CheckedRange[];
  /** Root constants, root descriptors: the register, its space, and (constants) how many values. */
  register: number;
  space: number;
  values: number;
  flags: RootDescriptorFlag[];
}

export interface CheckedStaticSampler {
  plan: SamplerPlan;
  /** D3D12_STATIC_BORDER_COLOR (plan.border holds its RGBA). */
  borderColor: StaticBorderColor;
  register: number;
  space: number;
  visibility: ShaderVisibility;
}

export interface CheckedRootSignature {
  version: RootSignatureVersion;
  flags: RootSignatureFlag[];
  parameters: CheckedParameter[];
  staticSamplers: CheckedStaticSampler[];
  /** Root argument words all parameters take. */
  words: number;
}

/** The register kind each parameter or range type binds: t, s, u, b. */
export const REGISTER_KIND: Record<DescriptorRangeType | 'STATIC_SAMPLER', 't' | 's' | 'u' | 'b'> = {
  SRV: 't',
  UAV: 'u',
  CBV: 'b',
  SAMPLER: 's',
  STATIC_SAMPLER: 's',
};

interface Binding {
  kind: 't' | 's' | 'u' | 'b';
  space: number;
  first: number;
  /** Exclusive; Infinity for an unbounded range. */
  end: number;
  visibility: ShaderVisibility;
  what: string;
}

const meet = (a: ShaderVisibility, b: ShaderVisibility): boolean => a === 'ALL' || b === 'ALL' || a === b;

function flagList<T extends string>(
  call: string,
  argument: string,
  value: unknown,
  allowed: readonly T[],
): Checked<T[]> {
  if (value === undefined) return [];
  const list = asNameList(value);
  for (let i = 0; i < list.length; i++) {
    const problem = checkName(call, Array.isArray(value) ? `${argument}[${i}]` : argument, list[i], allowed);
    if (problem) return problem;
  }
  return (list as T[]).filter((flag) => flag !== 'NONE');
}

function checkRegister(call: string, argument: string, register: unknown, space: unknown): Problem {
  return (
    checkInteger(call, `${argument}.shaderRegister`, register, 0, 0xffffffff) ??
    checkInteger(call, `${argument}.registerSpace`, space, 0, RESERVED_SPACES - 1)
  );
}

function rangeFlagsProblem(
  call: string,
  argument: string,
  type: DescriptorRangeType,
  flags: DescriptorRangeFlag[],
): Problem {
  const has = (flag: DescriptorRangeFlag): boolean => flags.includes(flag);
  if (type === 'SAMPLER' && flags.some((flag) => flag !== 'DESCRIPTORS_VOLATILE'))
    return invalidArg(
      call,
      argument,
      `a SAMPLER range takes NONE or DESCRIPTORS_VOLATILE only, got ${flags.join(' | ')}`,
    );
  const data = flags.filter((flag) => flag.startsWith('DATA_'));
  if (data.length > 1) return invalidArg(call, argument, `takes one DATA_ flag at most, got ${data.join(' | ')}`);
  if (has('DESCRIPTORS_VOLATILE') && has('DATA_STATIC'))
    return invalidArg(call, argument, 'DATA_STATIC cannot go with DESCRIPTORS_VOLATILE');
  if (has('DESCRIPTORS_VOLATILE') && has('DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS'))
    return invalidArg(
      call,
      argument,
      'DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS cannot go with DESCRIPTORS_VOLATILE',
    );
  return undefined;
}

function checkTable(
  call: string,
  argument: string,
  table: unknown,
  version: RootSignatureVersion,
): Checked<CheckedRange[]> {
  if (!isObject(table) || !Array.isArray(table.descriptorRanges))
    return invalidArg(
      call,
      argument,
      `must be { descriptorRanges: [...] } (D3D12_ROOT_DESCRIPTOR_TABLE), got ${show(table)}`,
    );
  const ranges = table.descriptorRanges as unknown[];
  if (ranges.length === 0) return invalidArg(call, `${argument}.descriptorRanges`, 'a table holds at least one range');
  const checked: CheckedRange[] = [];
  let next = 0;
  let afterUnbounded = false;
  for (let i = 0; i < ranges.length; i++) {
    const at = `${argument}.descriptorRanges[${i}]`;
    const range = ranges[i];
    if (!isObject(range)) return invalidArg(call, at, `must be a D3D12_DESCRIPTOR_RANGE object, got ${show(range)}`);
    const typeProblem = checkName(call, `${at}.rangeType`, range.rangeType, DESCRIPTOR_RANGE_TYPES);
    if (typeProblem) return typeProblem;
    const type = range.rangeType as DescriptorRangeType;
    if (checked.length > 0 && (type === 'SAMPLER') !== (checked[0]?.type === 'SAMPLER'))
      return invalidArg(call, `${at}.rangeType`, 'a table holds SAMPLER ranges only, or CBV, SRV and UAV ranges only');
    const countProblem = checkInteger(call, `${at}.numDescriptors`, range.numDescriptors, 1, 0xffffffff);
    if (countProblem) return countProblem;
    const count = range.numDescriptors as number;
    const space = range.registerSpace ?? 0;
    const registerProblem =
      checkInteger(call, `${at}.baseShaderRegister`, range.baseShaderRegister, 0, 0xffffffff) ??
      checkInteger(call, `${at}.registerSpace`, space, 0, RESERVED_SPACES - 1);
    if (registerProblem) return registerProblem;
    const register = range.baseShaderRegister as number;
    if (count !== UNBOUNDED_DESCRIPTOR_RANGE && register + count - 1 > 0xffffffff)
      return invalidArg(call, `${at}.numDescriptors`, `registers ${register} + ${count} run past 2^32`);
    const offsetValue = range.offsetInDescriptorsFromTableStart ?? DESCRIPTOR_RANGE_OFFSET_APPEND;
    const offsetProblem = checkInteger(call, `${at}.offsetInDescriptorsFromTableStart`, offsetValue, 0, 0xffffffff);
    if (offsetProblem) return offsetProblem;
    if (offsetValue === DESCRIPTOR_RANGE_OFFSET_APPEND && afterUnbounded)
      return invalidArg(
        call,
        `${at}.offsetInDescriptorsFromTableStart`,
        'a range after an unbounded one needs an explicit offset (APPEND has no end to follow)',
      );
    const offset = offsetValue === DESCRIPTOR_RANGE_OFFSET_APPEND ? next : (offsetValue as number);
    let flags: DescriptorRangeFlag[] = [];
    if (range.flags !== undefined) {
      if (version === '1_0')
        return invalidArg(call, `${at}.flags`, 'range flags are version 1_1; a 1_0 root signature has none');
      const listed = flagList(call, `${at}.flags`, range.flags, DESCRIPTOR_RANGE_FLAGS);
      if (listed instanceof D3D12Error) return listed;
      const problem = rangeFlagsProblem(call, `${at}.flags`, type, listed);
      if (problem) return problem;
      flags = listed;
    }
    const unbounded = count === UNBOUNDED_DESCRIPTOR_RANGE;
    afterUnbounded ||= unbounded;
    next = unbounded ? next : offset + count;
    checked.push({ type, count, register, space: space as number, offset, flags });
  }
  return checked;
}

/** Registers bound twice where visibilities meet (what the debug layer reports as overlapping bindings). */
function overlapProblem(call: string, bindings: Binding[]): Problem {
  for (let i = 0; i < bindings.length; i++) {
    for (let j = 0; j < i; j++) {
      const [a, b] = [bindings[j] as Binding, bindings[i] as Binding];
      if (
        a.kind === b.kind &&
        a.space === b.space &&
        meet(a.visibility, b.visibility) &&
        a.first < b.end &&
        b.first < a.end
      )
        return invalidArg(
          call,
          b.what,
          `binds ${b.kind}${Math.max(a.first, b.first)} in space ${a.space}, which ${a.what} binds too (visibilities ${a.visibility} and ${b.visibility} meet)`,
        );
    }
  }
  return undefined;
}

function checkParameter(
  call: string,
  at: string,
  parameter: unknown,
  version: RootSignatureVersion,
  word: number,
  bindings: Binding[],
): Checked<CheckedParameter> {
  if (!isObject(parameter))
    return invalidArg(call, at, `must be a D3D12_ROOT_PARAMETER object, got ${show(parameter)}`);
  const typeProblem = checkName(call, `${at}.parameterType`, parameter.parameterType, ROOT_PARAMETER_TYPES);
  if (typeProblem) return typeProblem;
  const type = parameter.parameterType as RootParameterType;
  const visibility = parameter.shaderVisibility ?? 'ALL';
  const visibilityProblem = checkName(call, `${at}.shaderVisibility`, visibility, SHADER_VISIBILITIES);
  if (visibilityProblem) return visibilityProblem;
  const base = {
    type,
    visibility: visibility as ShaderVisibility,
    word,
    ranges: [],
    register: 0,
    space: 0,
    values: 0,
    flags: [],
  };
  if (type === 'DESCRIPTOR_TABLE') {
    const ranges = checkTable(call, `${at}.descriptorTable`, parameter.descriptorTable, version);
    if (ranges instanceof D3D12Error) return ranges;
    ranges.forEach((range, i) =>
      bindings.push({
        kind: REGISTER_KIND[range.type],
        space: range.space,
        first: range.register,
        end: range.count === UNBOUNDED_DESCRIPTOR_RANGE ? Infinity : range.register + range.count,
        visibility: visibility as ShaderVisibility,
        what: `${at}.descriptorTable.descriptorRanges[${i}]`,
      }),
    );
    return { ...base, words: 2, ranges };
  }
  if (type === '32BIT_CONSTANTS') {
    const constants = parameter.constants;
    if (!isObject(constants))
      return invalidArg(call, `${at}.constants`, `must be a D3D12_ROOT_CONSTANTS object, got ${show(constants)}`);
    const space = constants.registerSpace ?? 0;
    const problem =
      checkRegister(call, `${at}.constants`, constants.shaderRegister, space) ??
      checkInteger(call, `${at}.constants.num32BitValues`, constants.num32BitValues, 1, MAX_ROOT_COST);
    if (problem) return problem;
    const register = constants.shaderRegister as number;
    bindings.push({
      kind: 'b',
      space: space as number,
      first: register,
      end: register + 1,
      visibility: visibility as ShaderVisibility,
      what: `${at}.constants`,
    });
    const values = constants.num32BitValues as number;
    return { ...base, words: values, register, space: space as number, values };
  }
  const descriptor = parameter.descriptor;
  if (!isObject(descriptor))
    return invalidArg(call, `${at}.descriptor`, `must be a D3D12_ROOT_DESCRIPTOR object, got ${show(descriptor)}`);
  const space = descriptor.registerSpace ?? 0;
  const problem = checkRegister(call, `${at}.descriptor`, descriptor.shaderRegister, space);
  if (problem) return problem;
  let flags: RootDescriptorFlag[] = [];
  if (descriptor.flags !== undefined) {
    if (version === '1_0')
      return invalidArg(
        call,
        `${at}.descriptor.flags`,
        'root descriptor flags are version 1_1; a 1_0 root signature has none',
      );
    const listed = flagList(call, `${at}.descriptor.flags`, descriptor.flags, ROOT_DESCRIPTOR_FLAGS);
    if (listed instanceof D3D12Error) return listed;
    if (listed.length > 1)
      return invalidArg(call, `${at}.descriptor.flags`, `takes one DATA_ flag at most, got ${listed.join(' | ')}`);
    flags = listed;
  }
  const register = descriptor.shaderRegister as number;
  bindings.push({
    kind: REGISTER_KIND[type],
    space: space as number,
    first: register,
    end: register + 1,
    visibility: visibility as ShaderVisibility,
    what: `${at}.descriptor`,
  });
  return { ...base, words: 2, register, space: space as number, flags };
}

/** D3D12's cost of a parameter, in DWORDs: a table 1, a constant 1, a root descriptor 2. */
const cost = (parameter: CheckedParameter): number =>
  parameter.type === 'DESCRIPTOR_TABLE' ? 1 : parameter.type === '32BIT_CONSTANTS' ? parameter.values : 2;

/** A D3D12_VERSIONED_ROOT_SIGNATURE_DESC, checked for `call`. */
export function validateRootSignatureDesc(call: string, desc: unknown): Checked<CheckedRootSignature> {
  if (!isObject(desc))
    return invalidArg(call, 'desc', `must be a D3D12_VERSIONED_ROOT_SIGNATURE_DESC object, got ${show(desc)}`);
  const versionProblem = checkName(call, 'desc.version', desc.version, ROOT_SIGNATURE_VERSIONS);
  if (versionProblem) return versionProblem;
  const version = desc.version as RootSignatureVersion;
  const member = version === '1_0' ? 'desc_1_0' : 'desc_1_1';
  const body = desc[member];
  if (!isObject(body))
    return invalidArg(call, `desc.${member}`, `must be the version ${version} description, got ${show(body)}`);
  const flags = flagList(call, `desc.${member}.flags`, body.flags, ROOT_SIGNATURE_FLAGS);
  if (flags instanceof D3D12Error) return flags;
  const parameters = body.parameters ?? [];
  if (!Array.isArray(parameters))
    return invalidArg(
      call,
      `desc.${member}.parameters`,
      `must be an array of root parameters, got ${show(parameters)}`,
    );
  const bindings: Binding[] = [];
  const checked: CheckedParameter[] = [];
  let word = 0;
  for (let i = 0; i < parameters.length; i++) {
    const parameter = checkParameter(call, `desc.${member}.parameters[${i}]`, parameters[i], version, word, bindings);
    if (parameter instanceof D3D12Error) return parameter;
    checked.push(parameter);
    word += parameter.words;
  }
  const total = checked.reduce((sum, p) => sum + cost(p), 0);
  if (total > MAX_ROOT_COST)
    return invalidArg(
      call,
      `desc.${member}.parameters`,
      `cost ${total} DWORDs, over D3D12's ${MAX_ROOT_COST} (a table 1, a constant 1, a root descriptor 2)`,
    );
  const samplers = body.staticSamplers ?? [];
  if (!Array.isArray(samplers))
    return invalidArg(
      call,
      `desc.${member}.staticSamplers`,
      `must be an array of static samplers, got ${show(samplers)}`,
    );
  if (samplers.length > MAX_STATIC_SAMPLERS)
    return invalidArg(
      call,
      `desc.${member}.staticSamplers`,
      `holds ${samplers.length}, over the ${MAX_STATIC_SAMPLERS} a root signature may`,
    );
  const staticSamplers: CheckedStaticSampler[] = [];
  for (let i = 0; i < samplers.length; i++) {
    const at = `desc.${member}.staticSamplers[${i}]`;
    const plan = validateStaticSampler(call, at, samplers[i]);
    if (plan instanceof D3D12Error) return plan;
    const sampler = samplers[i] as Record<string, unknown>;
    const space = sampler.registerSpace ?? 0;
    const visibility = sampler.shaderVisibility ?? 'ALL';
    const problem =
      checkRegister(call, at, sampler.shaderRegister, space) ??
      checkName(call, `${at}.shaderVisibility`, visibility, SHADER_VISIBILITIES);
    if (problem) return problem;
    const register = sampler.shaderRegister as number;
    bindings.push({
      kind: 's',
      space: space as number,
      first: register,
      end: register + 1,
      visibility: visibility as ShaderVisibility,
      what: at,
    });
    staticSamplers.push({
      plan,
      borderColor: (sampler.borderColor ?? 'TRANSPARENT_BLACK') as StaticBorderColor,
      register,
      space: space as number,
      visibility: visibility as ShaderVisibility,
    });
  }
  const overlap = overlapProblem(call, bindings);
  if (overlap) return overlap;
  return { version, flags, parameters: checked, staticSamplers, words: word };
}
