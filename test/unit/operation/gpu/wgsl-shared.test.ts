/**
 * Numbers the TypeScript side and the WGSL side both use: where a layer below the GPU layer cannot
 * read them from the WGSL (src/memory's tile size), one test pins them to it; everything else is
 * read from the WGSL, and a missing name throws instead of falling back to a guess.
 */
import { describe, expect, test } from 'vitest';
import { TILE_SIZE } from '../../../../src/memory/tiling.js';
import { VA_PAGE_SIZE } from '../../../../src/memory/virtual-address-space.js';
import { VIRTUAL_ADDRESS_BITS } from '../../../../src/emulator/feature-support.js';
import {
  memberOffset,
  preludeConstant,
  preludeLayout,
  requireConstant,
  requireStruct,
  requireWorkgroupSize,
} from '../../../../src/gpu/prelude.js';
import { preludeBindGroupEntries } from '../../../../src/gpu/pipelines.js';
import { COMPUTE_UNMAPPED_ACCESS_PRELUDE_WGSL, poolViewFor, PRELUDE_WGSL } from '../../../../src/gpu/prelude.js';

describe('constants shared with the WGSL', () => {
  test("the tile size and the virtual page are the prelude's page", () => {
    expect(TILE_SIZE).toBe(2 ** preludeConstant('D3D12_PAGE_SHIFT'));
    expect(TILE_SIZE).toBe(preludeConstant('D3D12_PAGE_BYTES'));
    expect(VA_PAGE_SIZE).toBe(TILE_SIZE);
    expect(preludeConstant('D3D12_WORDS_PER_PAGE')).toBe(TILE_SIZE / 4);
  });

  test("the address space is the prelude's: 40 bits, the high word below 2^8", () => {
    expect(VIRTUAL_ADDRESS_BITS).toBe(40);
    expect(preludeConstant('D3D12_VA_HIGH_LIMIT')).toBe(2 ** (VIRTUAL_ADDRESS_BITS - 32));
  });

  test('a name the WGSL does not have throws, naming it', () => {
    expect(() => preludeConstant('D3D12_NO_SUCH')).toThrow(/no constant D3D12_NO_SUCH/);
    expect(() => requireConstant('const a: u32 = 1u;', 'b', 'x.wgsl')).toThrow(/x\.wgsl has no constant b/);
    expect(() => requireStruct('struct S { a: u32 }', 'T', 'x.wgsl')).toThrow(/x\.wgsl has no struct T/);
    expect(() => requireWorkgroupSize('@compute @workgroup_size(8) fn f() {}', 'g', 'x.wgsl')).toThrow(
      /no compute entry point g/,
    );
    expect(() => memberOffset(preludeLayout().faultLog, 'gone')).toThrow(/no member gone/);
    // Controls.
    expect(requireConstant('const a: u32 = 1u << 4u;', 'a', 'x.wgsl')).toBe(16);
    expect(requireWorkgroupSize('@compute @workgroup_size(8) fn f() {}', 'f', 'x.wgsl')).toBe(8);
    // count, capacity, more, mirror_dirty, then the 256 stale mirror tiles' words.
    expect(memberOffset(preludeLayout().faultLog, 'records')).toBe(16 + 256 * 4);
  });

  test("group 0's layout comes from the prelude's declarations", () => {
    const entries = preludeBindGroupEntries([{ code: COMPUTE_UNMAPPED_ACCESS_PRELUDE_WGSL, visibility: 4 }]);
    const shape = (list: GPUBindGroupLayoutEntry[]): unknown[] =>
      list.map((entry) => [
        entry.binding,
        entry.buffer?.type ?? entry.texture?.viewDimension ?? entry.sampler?.type,
        entry.buffer?.hasDynamicOffset ?? false,
      ]);
    const textureCache = [
      [5, 'storage', false],
      [6, 'storage', false],
      [7, '2d-array', false],
      [8, 'filtering', false],
      // Texture mirrors (texture-mirrors.wgsl): validity, table, resolved words, four mirrors.
      [9, 'storage', false],
      [10, 'read-only-storage', false],
      [11, 'storage', false],
      [12, '2d', false],
      [13, '2d', false],
      [14, '2d', false],
      [15, '2d', false],
    ];
    expect(shape(entries)).toEqual([
      [0, 'read-only-storage', false],
      [1, 'storage', false],
      [2, 'uniform', true],
      [3, 'storage', false],
      [4, 'storage', false],
      ...textureCache,
    ]);
    expect(entries[2]?.buffer?.minBindingSize).toBe(preludeLayout().dispatchInfo.size);
    // The plain compute prelude (devices without gpuValidation.unmappedAccess) is the same less the
    // unmapped-access log: its code is left out, not only skipped by a uniform branch.
    expect(shape(preludeBindGroupEntries([{ code: PRELUDE_WGSL, visibility: 4 }]))).toEqual([
      ...shape(entries).slice(0, 4),
      ...textureCache,
    ]);
    expect(PRELUDE_WGSL).not.toContain('d3d12_unmapped.');
    expect(COMPUTE_UNMAPPED_ACCESS_PRELUDE_WGSL).toContain('d3d12_unmapped.');
  });
});

describe('pool views', () => {
  test('vectors for code that calls a 16-byte or page-handle function; words otherwise, comments ignored', () => {
    expect(poolViewFor('fn f(va: vec2u) -> u32 { return d3d12_load(va); }')).toBe('words');
    for (const call of [
      'd3d12_load4(va)',
      'd3d12_load4_checked(va, &s)',
      'd3d12_store4(va, v)',
      'd3d12_page(va)',
      'd3d12_page_for_write (va)',
      'd3d12_page_load4(p, 0u)',
    ]) {
      expect(poolViewFor(`fn f() { let x = ${call}; }`), call).toBe('vec4');
    }
    expect(
      poolViewFor('// d3d12_load4 (16 bytes) is not called here\nfn f(va: vec2u) -> u32 { return d3d12_load(va); }'),
    ).toBe('words');
    expect(poolViewFor('/* d3d12_page(va) */ fn f(va: vec2u) -> u32 { return d3d12_load(va); }')).toBe('words');
    // A name that merely starts like one is no call of it.
    expect(poolViewFor('fn my_d3d12_load4_like(x: u32) -> u32 { return x; }')).toBe('words');
  });
});
