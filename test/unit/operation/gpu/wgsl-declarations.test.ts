/**
 * src/gpu/wgsl-declarations.ts: the library reflects its shaders with their function bodies emptied.
 * For every shader it reflects (each file of shaders/ and each prelude variant), the emptied text must
 * reflect to the same structs (sizes, member offsets), constants, module-scope bindings and compute
 * workgroup sizes as the whole text; and the emptying must keep declarations between functions.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  COMPUTE_UNMAPPED_ACCESS_PRELUDE_WGSL,
  computePrelude,
  fragmentPrelude,
  PRELUDE_WGSL,
  vertexPrelude,
} from '../../../../src/gpu/prelude.js';
import { declarationsOf, reflectDeclarations, wgslConstants } from '../../../../src/gpu/wgsl-declarations.js';
import { Const, WgslParser, WgslReflect } from '../../../../src/gpu/wgsl-reflect.js';

const SHADERS = join(process.cwd(), 'shaders');

/**
 * The texts the library reflects: its kernels (their structs, constants and workgroup sizes) and the
 * prelude variants (their bindings and shared layouts). The other files of shaders/ are shaders
 * written over the prelude, which the library never reflects alone.
 */
const KERNELS = [
  'copy.wgsl',
  'smoke_pattern.wgsl',
  'texture_cache_fill.wgsl',
  'uav_clear.wgsl',
  'validate_tile_mappings.wgsl',
  'vertex_replay.wgsl',
];
const TEXTS: [string, string][] = [
  ...KERNELS.map((file): [string, string] => [file, readFileSync(join(SHADERS, file), 'utf8')]),
  ['the compute prelude', PRELUDE_WGSL],
  ['the compute prelude recording unmapped accesses', COMPUTE_UNMAPPED_ACCESS_PRELUDE_WGSL],
  ['the compute prelude, vector pool view', computePrelude({ poolView: 'vec4' })],
  ['the vertex prelude', vertexPrelude()],
  ['the fragment prelude recording unmapped accesses', fragmentPrelude({ unmappedAccess: true })],
];

test('every kernel named exists in shaders/', () => {
  const files = readdirSync(SHADERS);
  for (const file of KERNELS) expect(files).toContain(file);
});

/** What the library reads of a reflection, as plain data. */
function summary(reflect: WgslReflect) {
  return {
    structs: reflect.structs.map((s) => ({
      name: s.name,
      size: s.size,
      members: s.members.map((m) => [m.name, m.offset, m.size]),
    })),
    bindings: reflect
      .getBindGroups()
      .map((group) =>
        group.map(
          (v) => v && { name: v.name, binding: v.binding, type: v.resourceType, size: v.size, access: v.access },
        ),
      ),
    compute: reflect.entry.compute.map((e) => ({ name: e.name, workgroupSize: e.workgroupSize })),
  };
}

function wholeConstants(code: string): Record<string, number> {
  const constants: Record<string, number> = {};
  for (const node of new WgslParser().parse(code)) {
    if (node instanceof Const) {
      const value = node.value.constEvaluate(undefined as never) as unknown as { data?: ArrayLike<number> } | number;
      const scalar = typeof value === 'number' ? value : value.data?.[0];
      if (typeof scalar === 'number') constants[node.name] = scalar;
    }
  }
  return constants;
}

describe('reflecting declarations only gives what reflecting the whole text gives', () => {
  test.each(TEXTS)('%s', (_, code) => {
    const whole = summary(new WgslReflect(code));
    expect(summary(reflectDeclarations(code))).toEqual(whole);
    expect(wgslConstants(code)).toEqual(wholeConstants(code));
    // Something was compared: every text the library reflects declares a struct, a binding or a constant.
    expect(
      whole.structs.length + whole.bindings.flat().length + Object.keys(wgslConstants(code)).length,
    ).toBeGreaterThan(0);
  });

  test('the prelude is mostly bodies: its declarations are a fraction of it', () => {
    expect(declarationsOf(PRELUDE_WGSL).length).toBeLessThan(PRELUDE_WGSL.length / 3);
  });
});

describe('declarationsOf', () => {
  const code = [
    'struct A { x: u32, y: vec2u }',
    '// fn commented(a: u32) -> u32 { return a; }',
    'const N: u32 = 4u;',
    'fn f(a: A) -> u32 { if (a.x > 0u) { return a.x; } return N; }',
    'var<private> v: array<u32, N>;',
    '/* { */ @compute @workgroup_size(N) fn main(@builtin(global_invocation_id) id: vec3u) { v[id.x] = f(A(1u, vec2u(0u))); }',
    'alias B = A;',
  ].join('\n');

  test('empties every function body, nested braces included, and keeps what lies between', () => {
    const out = declarationsOf(code);
    expect(out).toContain('struct A { x: u32, y: vec2u }');
    expect(out).toContain('const N: u32 = 4u;');
    expect(out).toContain('fn f(a: A) -> u32 {}');
    expect(out).toContain('var<private> v: array<u32, N>;');
    expect(out).toContain('@compute @workgroup_size(N) fn main(@builtin(global_invocation_id) id: vec3u) {}');
    expect(out).toContain('alias B = A;');
    expect(out).not.toContain('return');
    expect(out).not.toContain('commented');
  });

  test('a text without functions is unchanged but for comments', () => {
    expect(declarationsOf('struct A { x: u32 } // done')).toBe('struct A { x: u32 }  ');
  });
});
