/**
 * The registers a shader names, checked against its pipeline's root signature as CreateGraphicsPipelineState
 * and CreateComputePipelineState check them: D3D12 refuses a pipeline whose shader uses a register the
 * root signature does not bind for that stage ("Root Signature doesn't match Pixel Shader: Shader SRV
 * descriptor range ... is not fully bound in root signature").
 *
 * An HLSL compiler knows every register a shader uses; here a register is named in WGSL by
 * d3d12_t / d3d12_s / d3d12_u / d3d12_b (register, space), so the check reads the calls whose two
 * arguments are integer literals in the functions reachable from the entry point (a light parse of the
 * user's code: comments dropped, functions found by `fn name(...) {`, bodies by brace matching). A
 * register computed at run time cannot be known here; reading it unbound is the GPU-side fault
 * 'unbound-register' instead, as GPU-based validation reports it.
 */
import type { ShaderVisibility } from '../api/binding-types.js';
import { REGISTER_KIND, type CheckedRootSignature } from './root-signature.js';

export type RegisterKind = 't' | 's' | 'u' | 'b';
export type ShaderStage = 'compute' | 'vertex' | 'fragment';

export interface RegisterUse {
  kind: RegisterKind;
  register: number;
  space: number;
}

const USE = /\bd3d12_([tsub])\s*\(\s*(\d+)u?\s*,\s*(\d+)u?\s*\)/g;
const FUNCTION = /\bfn\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(/g;
const CALL = /\b([A-Za-z_][A-Za-z0-9_]*)\s*\(/g;

const withoutComments = (code: string): string => code.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, '');

/** Each function's body (from its opening brace to the matching one), by name. */
function functionBodies(code: string): Map<string, string> {
  const bodies = new Map<string, string>();
  for (const match of code.matchAll(FUNCTION)) {
    const open = code.indexOf('{', match.index + match[0].length);
    if (open < 0) continue;
    let depth = 0;
    let end = open;
    for (; end < code.length; end++) {
      if (code[end] === '{') depth++;
      else if (code[end] === '}' && --depth === 0) break;
    }
    bodies.set(match[1] as string, code.slice(open, end + 1));
  }
  return bodies;
}

/** The literal register uses of the functions reachable from `entryPoint` in `code` (none if it is not there). */
export function literalRegisterUses(code: string, entryPoint: string): RegisterUse[] {
  const bodies = functionBodies(withoutComments(code));
  const seen = new Set<string>();
  const uses = new Map<string, RegisterUse>();
  const visit = (name: string): void => {
    const body = bodies.get(name);
    if (body === undefined || seen.has(name)) return;
    seen.add(name);
    for (const [, kind, register, space] of body.matchAll(USE)) {
      const use = { kind: kind as RegisterKind, register: Number(register), space: Number(space) };
      uses.set(`${use.kind}${use.register}:${use.space}`, use);
    }
    for (const [, callee] of body.matchAll(CALL)) visit(callee as string);
  };
  visit(entryPoint);
  return [...uses.values()];
}

const STAGE_VISIBILITY: Record<ShaderStage, ShaderVisibility | undefined> = {
  compute: undefined,
  vertex: 'VERTEX',
  fragment: 'PIXEL',
};
const DENY_FLAG: Record<ShaderStage, string | undefined> = {
  compute: undefined,
  vertex: 'DENY_VERTEX_SHADER_ROOT_ACCESS',
  fragment: 'DENY_PIXEL_SHADER_ROOT_ACCESS',
};
const ROOT_PARAMETER_KIND: Record<string, RegisterKind | undefined> = {
  '32BIT_CONSTANTS': 'b',
  CBV: 'b',
  SRV: 't',
  UAV: 'u',
};

/** Whether `layout` binds `use` for `stage` (a parameter of visibility ALL or the stage's own, unless the stage is denied). */
function binds(layout: CheckedRootSignature, stage: ShaderStage, use: RegisterUse): boolean {
  const deny = DENY_FLAG[stage];
  if (deny !== undefined && layout.flags.includes(deny as never)) return false;
  const visible = (visibility: ShaderVisibility): boolean =>
    visibility === 'ALL' || visibility === STAGE_VISIBILITY[stage];
  const inRange = (first: number, count: number, space: number): boolean =>
    space === use.space && use.register >= first && (count === 0xffffffff || use.register < first + count);
  for (const parameter of layout.parameters) {
    if (!visible(parameter.visibility)) continue;
    if (parameter.type === 'DESCRIPTOR_TABLE') {
      if (parameter.ranges.some((r) => REGISTER_KIND[r.type] === use.kind && inRange(r.register, r.count, r.space)))
        return true;
    } else if (ROOT_PARAMETER_KIND[parameter.type] === use.kind && inRange(parameter.register, 1, parameter.space)) {
      return true;
    }
  }
  return (
    use.kind === 's' && layout.staticSamplers.some((s) => visible(s.visibility) && inRange(s.register, 1, s.space))
  );
}

/** The first of `uses` that `layout` (undefined: no root signature, so nothing is bound) leaves unbound for `stage`. */
export function unboundRegister(
  layout: CheckedRootSignature | undefined,
  stage: ShaderStage,
  uses: readonly RegisterUse[],
): RegisterUse | undefined {
  return uses.find((use) => !layout || !binds(layout, stage, use));
}
