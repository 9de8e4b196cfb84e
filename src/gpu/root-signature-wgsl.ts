/**
 * The WGSL a root signature becomes, per shader stage: d3d12_t, d3d12_s, d3d12_u and d3d12_b
 * (register, space) answer where the register's view is (shaders/prelude/descriptors.wgsl's
 * D3D12Binding), as a compiler resolves HLSL registers against a root signature; d3d12_static_sampler
 * holds the static samplers. A stage sees the parameters whose visibility is ALL or its own (compute:
 * ALL only, as D3D12's compute shaders do), none when the root signature denies the stage.
 * A pipeline without a root signature (the emulator's fixed one: root constants and root descriptors
 * by address) gets shaders/prelude/bindings-unbound.wgsl instead: every register unbound.
 */
import { preludeConstant } from './prelude.js';

export type BindingStage = 'compute' | 'vertex' | 'fragment';

/** What the generator reads of a checked root signature (src/validation/root-signature.ts). */
export interface RootSignatureLayout {
  flags: readonly string[];
  parameters: readonly {
    type: string;
    visibility: string;
    word: number;
    ranges: readonly { type: string; count: number; register: number; space: number; offset: number }[];
    register: number;
    space: number;
    values: number;
  }[];
}

export interface StaticSamplerWords {
  register: number;
  space: number;
  visibility: string;
  /** The sampler's descriptor words (src/emulator/descriptor-encoding.ts's encodeSampler). */
  words: Uint32Array;
}

const KINDS = ['t', 's', 'u', 'b'] as const;
type RegisterKind = (typeof KINDS)[number];
const CLASS: Record<RegisterKind, string> = {
  t: 'D3D12_REGISTER_T',
  s: 'D3D12_REGISTER_S',
  u: 'D3D12_REGISTER_U',
  b: 'D3D12_REGISTER_B',
};
const RANGE_KIND: Record<string, RegisterKind> = { SRV: 't', UAV: 'u', CBV: 'b', SAMPLER: 's' };
const DENY: Record<BindingStage, string | undefined> = {
  compute: undefined,
  vertex: 'DENY_VERTEX_SHADER_ROOT_ACCESS',
  fragment: 'DENY_PIXEL_SHADER_ROOT_ACCESS',
};
const STAGE_VISIBILITY: Record<BindingStage, string | undefined> = {
  compute: undefined,
  vertex: 'VERTEX',
  fragment: 'PIXEL',
};
const UNBOUNDED = 0xffffffff;

const u = (value: number): string => `${value >>> 0}u`;

/** `index` within [first, first + count) of `space` (count UNBOUNDED: first and above). */
function inRange(space: number, first: number, count: number): string {
  const low = first === 0 ? '' : ` && index >= ${u(first)}`;
  const high = count === UNBOUNDED ? '' : ` && index - ${u(first)} < ${u(count)}`;
  return `space == ${u(space)}${low}${high}`;
}

const binding = (kind: string, address: string, slot: string): string =>
  `return D3D12Binding(${kind}, ${address}, ${slot});`;

/** The WGSL of `layout` for `stage`. */
export function rootSignatureWgsl(
  layout: RootSignatureLayout,
  samplers: readonly StaticSamplerWords[],
  stage: BindingStage,
): string {
  const cases: Record<RegisterKind, string[]> = { t: [], s: [], u: [], b: [] };
  const visible = (visibility: string): boolean => visibility === 'ALL' || visibility === STAGE_VISIBILITY[stage];
  const deny = DENY[stage];
  const denied = deny !== undefined && layout.flags.includes(deny);
  const slot = (kind: RegisterKind): string => `(index & 0xffffffu) | (${CLASS[kind]} << 24u)`;
  for (const parameter of denied ? [] : layout.parameters) {
    if (!visible(parameter.visibility)) continue;
    const word = parameter.word;
    if (parameter.type === 'DESCRIPTOR_TABLE') {
      for (const range of parameter.ranges) {
        const kind = RANGE_KIND[range.type] as RegisterKind;
        const stride = kind === 's' ? 'D3D12_SAMPLER_DESCRIPTOR_BYTES' : 'D3D12_CBV_SRV_UAV_DESCRIPTOR_BYTES';
        const index = `${u(range.offset)} + (index - ${u(range.register)})`;
        cases[kind].push(
          `  if (${inRange(range.space, range.register, range.count)}) { ${binding('D3D12_BINDING_DESCRIPTOR', `d3d12_table_entry(${u(word)}, ${index}, ${stride})`, slot(kind))} }`,
        );
      }
    } else if (parameter.type === '32BIT_CONSTANTS') {
      cases.b.push(
        `  if (${inRange(parameter.space, parameter.register, 1)}) { ${binding('D3D12_BINDING_ROOT_CONSTANTS', `vec2u(${u(word)}, ${u(parameter.values)})`, slot('b'))} }`,
      );
    } else {
      const kind = RANGE_KIND[parameter.type] as RegisterKind;
      const address = `vec2u(d3d12_root_word(${u(word)}), d3d12_root_word(${u(word + 1)}))`;
      cases[kind].push(
        `  if (${inRange(parameter.space, parameter.register, 1)}) { ${binding('D3D12_BINDING_ROOT_DESCRIPTOR', address, slot(kind))} }`,
      );
    }
  }
  const statics = denied ? [] : samplers.filter((sampler) => visible(sampler.visibility));
  statics.forEach((sampler, i) =>
    cases.s.push(
      `  if (${inRange(sampler.space, sampler.register, 1)}) { ${binding('D3D12_BINDING_STATIC_SAMPLER', `vec2u(${u(i)}, 0u)`, slot('s'))} }`,
    ),
  );
  const functions = KINDS.map(
    (kind) =>
      `fn d3d12_${kind}(index: u32, space: u32) -> D3D12Binding {\n${cases[kind].join('\n')}${cases[kind].length ? '\n' : ''}  return d3d12_unbound(${CLASS[kind]}, index, space);\n}`,
  );
  return [
    `// The root signature's registers for the ${stage} stage (src/gpu/root-signature-wgsl.ts).`,
    ...functions,
    staticSamplerFunction(statics),
  ].join('\n');
}

/** d3d12_static_sampler(i): static sampler i of the stage, as a D3D12Sampler literal. */
function staticSamplerFunction(samplers: readonly StaticSamplerWords[]): string {
  const c = preludeConstant;
  const literal = (words: Uint32Array): string => {
    const w = (name: string, offset = 0): number => words[c(name) + offset] ?? 0;
    const f = (name: string, offset = 0): string => `bitcast<f32>(${u(w(name, offset))})`;
    return `D3D12Sampler(${u(w('D3D12_SAMPLER_FILTER'))}, ${u(w('D3D12_SAMPLER_ADDRESS'))}, ${u(w('D3D12_SAMPLER_COMPARISON'))}, ${f('D3D12_SAMPLER_MIP_LOD_BIAS')}, ${u(w('D3D12_SAMPLER_MAX_ANISOTROPY'))}, ${f('D3D12_SAMPLER_MIN_LOD')}, ${f('D3D12_SAMPLER_MAX_LOD')}, vec4f(${[0, 1, 2, 3].map((i) => f('D3D12_SAMPLER_BORDER', i)).join(', ')}))`;
  };
  const lines = samplers.map((sampler, i) => `    case ${u(i)}: { return ${literal(sampler.words)}; }`);
  const fallback = 'D3D12Sampler(0u, 0x333u, 0u, 0.0, 1u, 0.0, 3.4028234663852886e38, vec4f(0.0))';
  return `fn d3d12_static_sampler(index: u32) -> D3D12Sampler {\n  switch (index) {\n${lines.join('\n')}${lines.length ? '\n' : ''}    default: { return ${fallback}; }\n  }\n}`;
}
