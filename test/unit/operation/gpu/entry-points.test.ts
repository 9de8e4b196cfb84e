/**
 * WGSL entry points demoted to plain functions (src/gpu/entry-points.ts), for the fragment module and
 * the vertex-stage replay of graphics pipelines: stage and IO attributes go, everything else stays
 * byte for byte (lines too), comments are never touched as code.
 */
import { describe, expect, test } from 'vitest';
import {
  demoteEntryPoint,
  entryPointAttributes,
  entryPointSignature,
  vertexCall,
} from '../../../../src/gpu/entry-points.js';
import { makesPageHandles } from '../../../../src/gpu/prelude.js';

const CODE = `// @vertex fn vs() in a comment is not code
struct In { @builtin(instance_index) inst: u32, @builtin(vertex_index) vi: u32 }
/* a /* nested */ comment: fn vs( */
@vertex
fn vs(input: In) -> @builtin(position) vec4f { return vec4f(f32(input.vi)); }
@vertex fn vs2(@builtin(vertex_index) v: u32, @builtin( instance_index ) i: u32) -> @invariant @builtin(position) vec4f { return vec4f(f32(v + i)); }
@fragment fn fs(@location(0) @interpolate(flat) c: u32) -> @location(0) vec4f { return vec4f(f32(c)); }
`;

describe('demoteEntryPoint', () => {
  test('removes the stage attribute and the IO attributes of one function, keeping lines and everything else', () => {
    const out = demoteEntryPoint(CODE, 'vs');
    expect(out.split('\n')).toHaveLength(CODE.split('\n').length);
    expect(out).toContain('// @vertex fn vs() in a comment is not code');
    expect(out).toContain('/* a /* nested */ comment: fn vs( */');
    expect(out).toMatch(/\n\s*\n\s*fn vs\(input: In\) ->\s+vec4f \{ return vec4f\(f32\(input\.vi\)\); \}/);
    expect(out).toContain('struct In { @builtin(instance_index) inst: u32, @builtin(vertex_index) vi: u32 }');
    expect(out).toContain('@vertex fn vs2(@builtin(vertex_index) v: u32');
    const two = demoteEntryPoint(CODE, 'vs2');
    expect(two).toMatch(/\s+fn vs2\(\s*v: u32,\s+i: u32\) ->\s+vec4f \{/);
    const fs = demoteEntryPoint(CODE, 'fs');
    expect(fs).toMatch(/\s+fn fs\(\s+c: u32\) ->\s+vec4f \{/);
  });

  test('a function that is not there throws', () => {
    expect(() => demoteEntryPoint(CODE, 'vs3')).toThrow(/no function vs3/);
    expect(() => demoteEntryPoint('// fn ghost() {}', 'ghost')).toThrow(/no function ghost/);
  });
});

describe('vertexCall', () => {
  test('builtins as parameters or as members of a struct, in declaration order', () => {
    expect(vertexCall(CODE, 'vs', 'V', 'I')).toBe('vs(In(I, V))');
    expect(vertexCall(CODE, 'vs2', 'V', 'I')).toBe('vs2(V, I)');
    expect(vertexCall('@vertex fn none() -> @builtin(position) vec4f { return vec4f(); }', 'none', 'V', 'I')).toBe(
      'none()',
    );
  });

  test('a @location input cannot be replayed (vertices come from memory): it throws naming the rule', () => {
    expect(() =>
      vertexCall('@vertex fn vs(@location(0) p: vec4f) -> @builtin(position) vec4f { return p; }', 'vs', 'V', 'I'),
    ).toThrow(/takes a @location input/);
    expect(() => vertexCall(CODE, 'fs', 'V', 'I')).toThrow(/no vertex entry point fs/);
  });
});

describe('entryPointSignature', () => {
  test('the parameter list and result as written, attributes included, and the parameter names', () => {
    expect(entryPointSignature(CODE, 'fs')).toEqual({
      params: '@location(0) @interpolate(flat) c: u32',
      result: '-> @location(0) vec4f',
      names: ['c'],
    });
    expect(entryPointSignature(CODE, 'vs2')).toEqual({
      params: '@builtin(vertex_index) v: u32, @builtin( instance_index ) i: u32',
      result: '-> @invariant @builtin(position) vec4f',
      names: ['v', 'i'],
    });
    expect(entryPointSignature(CODE, 'vs').names).toEqual(['input']);
    const generic = '@fragment fn f(@location(0) a: vec2<f32>, @builtin(position) p: vec4<f32>) { }';
    expect(entryPointSignature(generic, 'f')).toEqual({
      params: '@location(0) a: vec2<f32>, @builtin(position) p: vec4<f32>',
      result: '',
      names: ['a', 'p'],
    });
  });
});

describe('compute entry points wrapped for page handles (shaders/compute_entry.wgsl)', () => {
  const compute = `const N = 8u;
// @compute @workgroup_size(1) fn main() in a comment
@compute /* size: */ @workgroup_size(N, 1)
fn main(@builtin(global_invocation_id) id: vec3u) { let p = d3d12_page(d3d12_root_descriptor(1u)); }
@compute @workgroup_size(64) fn other() { }`;
  test('the attributes as written, comments left out; the other entry point untouched', () => {
    expect(entryPointAttributes(compute, 'main').replace(/\s+/g, ' ')).toBe('@compute @workgroup_size(N, 1)');
    expect(entryPointAttributes(compute, 'other')).toBe('@compute @workgroup_size(64)');
    expect(() => entryPointAttributes(compute, 'missing')).toThrow(/no function missing/);
  });
  test('code makes page handles when it calls d3d12_page or d3d12_page_for_write, not in comments or other names', () => {
    expect(makesPageHandles(compute)).toBe(true);
    expect(makesPageHandles('fn f() { let p = d3d12_page_for_write (va); }')).toBe(true);
    expect(makesPageHandles('// d3d12_page(va)\nfn f() { let x = d3d12_page_load(p, 0u); }')).toBe(false);
    expect(makesPageHandles('fn f() { let x = d3d12_load4(va); }')).toBe(false);
  });
});
