/**
 * D3D12_SAMPLER_DESC (CreateSampler) and D3D12_STATIC_SAMPLER_DESC (a root signature's), checked as
 * the runtime checks them, into a SamplerPlan the descriptor encoder writes.
 *
 * Rules: a filter of D3D12_FILTER; address modes of D3D12_TEXTURE_ADDRESS_MODE; MipLODBias in
 * [-16, 15.99] (D3D12_MIP_LOD_BIAS_MIN / MAX); MaxAnisotropy 0 to 16 (D3D12_MAX_MAXANISOTROPY; 0
 * and 1 alike: no anisotropy); a comparison function other than NONE for COMPARISON_ filters (others
 * ignore it); MinLOD and MaxLOD numbers with MinLOD <= MaxLOD; a border color of four numbers
 * (static samplers: one of D3D12_STATIC_BORDER_COLOR). ANISOTROPIC filters filter as linear: the
 * prelude has no anisotropic footprint (documented in docs/binding.md).
 */
import { invalidArg, show, type Checked } from '../api/errors.js';
import {
  COMPARISON_FUNCS,
  FILTERS,
  FLOAT32_MAX,
  STATIC_BORDER_COLORS,
  TEXTURE_ADDRESS_MODES,
  type ComparisonFunc,
  type Filter,
  type TextureAddressMode,
} from '../api/binding-types.js';
import { checkInteger, checkName, isObject, type Problem } from './common.js';

export interface SamplerPlan {
  filter: Filter;
  address: [TextureAddressMode, TextureAddressMode, TextureAddressMode];
  mipLODBias: number;
  maxAnisotropy: number;
  comparison: ComparisonFunc;
  border: [number, number, number, number];
  minLOD: number;
  maxLOD: number;
}

/** D3D12_MIP_LOD_BIAS_MIN / MAX. */
const MIP_LOD_BIAS_MIN = -16;
const MIP_LOD_BIAS_MAX = 15.99;
/** D3D12_MAX_MAXANISOTROPY. */
const MAX_ANISOTROPY = 16;

const STATIC_BORDERS: Record<string, [number, number, number, number]> = {
  TRANSPARENT_BLACK: [0, 0, 0, 0],
  OPAQUE_BLACK: [0, 0, 0, 1],
  OPAQUE_WHITE: [1, 1, 1, 1],
  OPAQUE_BLACK_UINT: [0, 0, 0, 1],
  OPAQUE_WHITE_UINT: [1, 1, 1, 1],
};

function checkNumber(call: string, argument: string, value: unknown, min: number, max: number): Problem {
  if (typeof value !== 'number' || Number.isNaN(value))
    return invalidArg(call, argument, `must be a number, got ${show(value)}`);
  if (value < min || value > max) return invalidArg(call, argument, `must be within [${min}, ${max}], got ${value}`);
  return undefined;
}

/**
 * The fields D3D12_SAMPLER_DESC and D3D12_STATIC_SAMPLER_DESC share, checked at `argument` (e.g.
 * 'desc' or 'desc.staticSamplers[0]'); `border` is what the border field gave.
 */
function checkSamplerFields(
  call: string,
  argument: string,
  desc: Record<string, unknown>,
  border: [number, number, number, number],
): Checked<SamplerPlan> {
  const filterProblem = checkName(call, `${argument}.filter`, desc.filter, FILTERS);
  if (filterProblem) return filterProblem;
  const filter = desc.filter as Filter;
  const address: TextureAddressMode[] = [];
  for (const axis of ['addressU', 'addressV', 'addressW'] as const) {
    const mode = desc[axis] ?? 'CLAMP';
    const problem = checkName(call, `${argument}.${axis}`, mode, TEXTURE_ADDRESS_MODES);
    if (problem) return problem;
    address.push(mode as TextureAddressMode);
  }
  const bias = desc.mipLODBias ?? 0;
  const biasProblem = checkNumber(call, `${argument}.mipLODBias`, bias, MIP_LOD_BIAS_MIN, MIP_LOD_BIAS_MAX);
  if (biasProblem) return biasProblem;
  const anisotropy = desc.maxAnisotropy ?? 1;
  const anisotropyProblem = checkInteger(call, `${argument}.maxAnisotropy`, anisotropy, 0, MAX_ANISOTROPY);
  if (anisotropyProblem) return anisotropyProblem;
  const comparison = desc.comparisonFunc ?? 'NEVER';
  const comparisonProblem = checkName(call, `${argument}.comparisonFunc`, comparison, COMPARISON_FUNCS);
  if (comparisonProblem) return comparisonProblem;
  if (filter.startsWith('COMPARISON_') && comparison === 'NONE')
    return invalidArg(
      call,
      `${argument}.comparisonFunc`,
      `${filter} compares: it needs a comparison function other than NONE`,
    );
  const minLOD = desc.minLOD ?? 0;
  const maxLOD = desc.maxLOD ?? FLOAT32_MAX;
  const minProblem = checkNumber(call, `${argument}.minLOD`, minLOD, -Infinity, Infinity);
  if (minProblem) return minProblem;
  const maxProblem = checkNumber(call, `${argument}.maxLOD`, maxLOD, -Infinity, Infinity);
  if (maxProblem) return maxProblem;
  if ((minLOD as number) > (maxLOD as number))
    return invalidArg(
      call,
      `${argument}.minLOD`,
      `must be at most maxLOD (${maxLOD as number}), got ${minLOD as number}`,
    );
  return {
    filter,
    address: address as SamplerPlan['address'],
    mipLODBias: bias as number,
    maxAnisotropy: anisotropy as number,
    comparison: comparison as ComparisonFunc,
    border,
    minLOD: minLOD as number,
    maxLOD: maxLOD as number,
  };
}

/** CreateSampler(pDesc). */
export function validateSamplerDesc(desc: unknown): Checked<SamplerPlan> {
  const call = 'createSampler';
  if (!isObject(desc)) return invalidArg(call, 'desc', `must be a D3D12_SAMPLER_DESC object, got ${show(desc)}`);
  const border = desc.borderColor ?? [0, 0, 0, 0];
  if (!Array.isArray(border) || border.length !== 4 || border.some((c) => typeof c !== 'number' || Number.isNaN(c)))
    return invalidArg(call, 'desc.borderColor', `must be 4 numbers (RGBA), got ${show(border)}`);
  return checkSamplerFields(call, 'desc', desc, [...(border as number[])] as SamplerPlan['border']);
}

/** A root signature's static sampler at `argument` (its register and visibility are the root signature's checks). */
export function validateStaticSampler(call: string, argument: string, desc: unknown): Checked<SamplerPlan> {
  if (!isObject(desc))
    return invalidArg(call, argument, `must be a D3D12_STATIC_SAMPLER_DESC object, got ${show(desc)}`);
  const name = desc.borderColor ?? 'TRANSPARENT_BLACK';
  const problem = checkName(call, `${argument}.borderColor`, name, STATIC_BORDER_COLORS);
  if (problem) return problem;
  return checkSamplerFields(call, argument, desc, [
    ...(STATIC_BORDERS[name as string] ?? [0, 0, 0, 0]),
  ] as SamplerPlan['border']);
}
