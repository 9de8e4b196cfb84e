/**
 * The WGSL prelude (shaders/prelude/*.wgsl), composed for compute and for graphics pipelines, and the
 * layouts TypeScript shares with it: its constants (page-table entry encoding, fault kinds, limits,
 * texture descriptor offsets) and the byte layouts of its structs, read from the WGSL with
 * wgsl_reflect so that nothing is written twice.
 */
import common from '../../shaders/prelude/common.wgsl?raw';
import bindingsCompute from '../../shaders/prelude/bindings-compute.wgsl?raw';
import bindingsVertex from '../../shaders/prelude/bindings-vertex.wgsl?raw';
import bindingsFragment from '../../shaders/prelude/bindings-fragment.wgsl?raw';
import poolWords from '../../shaders/prelude/pool-words.wgsl?raw';
import poolWordsWrites from '../../shaders/prelude/pool-words-writes.wgsl?raw';
import poolVec4 from '../../shaders/prelude/pool-vec4.wgsl?raw';
import poolVec4Writes from '../../shaders/prelude/pool-vec4-writes.wgsl?raw';
import loads from '../../shaders/prelude/loads.wgsl?raw';
import pageHandle from '../../shaders/prelude/page-handle.wgsl?raw';
import texelFormats from '../../shaders/prelude/texel-formats.wgsl?raw';
import textures from '../../shaders/prelude/textures.wgsl?raw';
import textureCache from '../../shaders/prelude/texture-cache.wgsl?raw';
import textureMirrors from '../../shaders/prelude/texture-mirrors.wgsl?raw';
import textureMirrorsOff from '../../shaders/prelude/texture-mirrors-off.wgsl?raw';
import cacheRequests from '../../shaders/prelude/cache-requests.wgsl?raw';
import cacheRequest from '../../shaders/prelude/cache-request.wgsl?raw';
import descriptors from '../../shaders/prelude/descriptors.wgsl?raw';
import descriptorViews from '../../shaders/prelude/descriptor-views.wgsl?raw';
import descriptorViewsFragment from '../../shaders/prelude/descriptor-views-fragment.wgsl?raw';
import descriptorStores from '../../shaders/prelude/descriptor-stores.wgsl?raw';
import bindingsUnbound from '../../shaders/prelude/bindings-unbound.wgsl?raw';
import inputAssembler from '../../shaders/prelude/input-assembler.wgsl?raw';
import stores from '../../shaders/prelude/stores.wgsl?raw';
import textureStores from '../../shaders/prelude/texture-stores.wgsl?raw';
import unmappedAccess from '../../shaders/prelude/unmapped-access.wgsl?raw';
import unmappedAccessOff from '../../shaders/prelude/unmapped-access-off.wgsl?raw';
import { reflectDeclarations, uncommented, wgslConstants } from './wgsl-declarations.js';

/**
 * How a pipeline's prelude views the pools: as words (array<u32>) or as 16-byte vectors
 * (array<vec4u>). Both give every access; each makes its own width the fast one (pool-words.wgsl,
 * pool-vec4.wgsl say what was measured).
 */
export type PoolView = 'words' | 'vec4';

/**
 * The view for `code`: vectors where it calls a 16-byte or page-handle function or opens a texture,
 * else words. Comments are left out first: a comment naming d3d12_load4 (16 bytes) calls nothing.
 */
export function poolViewFor(code: string): PoolView {
  // Opening a texture reads its descriptor in 16-byte loads (textures.wgsl): a texture load through
  // the vector view took 3.70x native against 3.86x (H100, docs/texture-cache.md).
  return /\bd3d12_(load4|store4|page)\w*\s*\(/.test(uncommented(code)) || readsTextures(code) ? 'vec4' : 'words';
}

/**
 * Whether `code` makes page handles (calls d3d12_page or d3d12_page_for_write): its entry point then
 * logs their bad offsets at its end (shaders/prelude/page-handle.wgsl).
 */
export function makesPageHandles(code: string): boolean {
  return /\bd3d12_page(_for_write)?\s*\(/.test(uncommented(code));
}

/**
 * Whether `code` opens a texture to read it (d3d12_tex2d, d3d12_texture2d, d3d12_rw_texture2d): a
 * pipeline of it may be served by the texture cache (src/gpu/texture-cache.ts).
 */
export function readsTextures(code: string): boolean {
  return /\bd3d12_(tex2d|texture2d|rw_texture2d)\s*\(/.test(uncommented(code));
}

function pools(view: PoolView, stage: 'compute' | 'graphics'): string {
  const declared = (view === 'vec4' ? poolVec4 : poolWords).replaceAll(
    'D3D12_POOL_ACCESS',
    stage === 'compute' ? 'read_write' : 'read',
  );
  return stage === 'compute' ? `${declared}\n${view === 'vec4' ? poolVec4Writes : poolWordsWrites}` : declared;
}

export interface PreludeVariant {
  /** gpuValidation.unmappedAccess: the variant that records accesses to NULL tiles. */
  unmappedAccess?: boolean;
  poolView?: PoolView;
  /** The registers' functions: a root signature's (src/gpu/root-signature-wgsl.ts), or none bound. */
  bindings?: string;
}

/** The prelude of a compute pipeline: memory read and written, faults recorded. */
export function computePrelude({
  unmappedAccess: recording = false,
  poolView = 'words',
  bindings = bindingsUnbound,
}: PreludeVariant = {}): string {
  return [
    common,
    cacheRequests,
    bindingsCompute,
    cacheRequest,
    pools(poolView, 'compute'),
    recording ? unmappedAccess : unmappedAccessOff,
    loads,
    pageHandle,
    texelFormats,
    textures,
    textureCache,
    textureMirrors,
    descriptors,
    descriptorViews,
    // A graphics pipeline's code holds its pixel shader in the vertex-stage replay's module too.
    descriptorViewsFragment,
    inputAssembler,
    bindings,
    stores,
    textureStores,
    descriptorStores,
  ].join('\n');
}

/**
 * A graphics stage's prelude: memory read only. Both stages compile the user's whole code (vertex
 * and pixel shader together), so both get every read function, Sample included (derivatives are
 * refused only where a vertex or compute entry point reaches them); they differ in their binding
 * entry points and in whether unmapped accesses are recorded.
 */
function graphicsPrelude(stageBindings: string, recordUnmapped: boolean, poolView: PoolView, bindings: string): string {
  return [
    common,
    cacheRequests,
    stageBindings,
    pools(poolView, 'graphics'),
    recordUnmapped ? unmappedAccess : unmappedAccessOff,
    loads,
    pageHandle,
    texelFormats,
    textures,
    textureCache,
    textureMirrorsOff,
    descriptors,
    descriptorViews,
    descriptorViewsFragment,
    inputAssembler,
    bindings,
  ].join('\n');
}

/** The prelude of a graphics pipeline's vertex stage: faults and unmapped accesses recorded by its replay. */
export function vertexPrelude(poolView: PoolView = 'words', bindings: string = bindingsUnbound): string {
  return graphicsPrelude(bindingsVertex, false, poolView, bindings);
}

/** The prelude of a graphics pipeline's fragment stage: faults recorded, and unmapped accesses where asked. */
export function fragmentPrelude({
  unmappedAccess: recording = false,
  poolView = 'words',
  bindings = bindingsUnbound,
}: PreludeVariant = {}): string {
  return graphicsPrelude(`${bindingsFragment}\n${cacheRequest}`, recording, poolView, bindings);
}

/** The texture cache's request list (its struct and capacity), which the fill kernel shares with the prelude. */
export const CACHE_REQUESTS_WGSL: string = cacheRequests;

/** The registers of a pipeline without a root signature: none bound (shaders/prelude/bindings-unbound.wgsl). */
export const UNBOUND_REGISTERS_WGSL: string = bindingsUnbound;

/** The prelude of compute pipelines (word view): memory read and written, faults recorded. */
export const PRELUDE_WGSL: string = computePrelude();
/**
 * The compute prelude of a device with gpuValidation.unmappedAccess: PRELUDE_WGSL that also records
 * unmapped accesses. A variant chosen when the pipeline is created, not a uniform branch alone:
 * SwiftShader runs a branch its lanes skip under a mask, and the recording code in the NULL path
 * made its memory-bound kernel 1.5x slower (bench/results/node-google-swiftshader.json at c90a656).
 */
export const COMPUTE_UNMAPPED_ACCESS_PRELUDE_WGSL: string = computePrelude({ unmappedAccess: true });
/** The prelude of a graphics pipeline's vertex stage (word view). */
export const VERTEX_PRELUDE_WGSL: string = vertexPrelude();
/** The prelude of a graphics pipeline's fragment stage (word view): memory read only, faults recorded. */
export const FRAGMENT_PRELUDE_WGSL: string = fragmentPrelude();
/**
 * The fragment prelude of a device with gpuValidation.unmappedAccess: FRAGMENT_PRELUDE_WGSL that
 * also records unmapped accesses (a variant chosen when the pipeline is created, so a device
 * without the option runs none of its code).
 */
export const FRAGMENT_UNMAPPED_ACCESS_PRELUDE_WGSL: string = fragmentPrelude({ unmappedAccess: true });

export interface StructLayout {
  size: number;
  offsets: Record<string, number>;
}

export interface PreludeLayout {
  /** Every `const` of the prelude, evaluated. */
  constants: Record<string, number>;
  dispatchInfo: StructLayout;
  faultRecord: StructLayout;
  /** The fault log's header: count and capacity, then records from `offsets.records`. */
  faultLog: StructLayout;
  /** The unmapped-access log's header (counts, capacity, bitmap), then its words from `offsets.words`. */
  unmappedAccessLog: StructLayout;
  /** The texture cache's requests (shaders/prelude/cache-requests.wgsl): count, cursor, pages, then the pending bits. */
  cacheRequests: StructLayout;
  /** A texture mirror's table entry (shaders/prelude/texture-mirrors.wgsl): descriptor words, validity base, mips. */
  mirrorEntry: StructLayout;
  /** The resolution words (clean, summaries), then records from `offsets.records`, each a mirrorRecord. */
  mirrorResolution: StructLayout;
  mirrorRecord: StructLayout;
}

/** A `const` of `code` by name; throws if the WGSL lost it (a rename must reach both sides). */
export function requireConstant(code: string, name: string, file: string): number {
  const value = wgslConstants(code)[name];
  if (value === undefined) throw new Error(`${file} has no constant ${name}`);
  return value;
}

/** The byte layout of struct `name` of `code`; throws if the WGSL lost it. */
export function requireStruct(code: string, name: string, file: string): StructLayout {
  const struct = reflectDeclarations(code).structs.find((s) => s.name === name);
  if (!struct) throw new Error(`${file} has no struct ${name}`);
  return {
    size: struct.size,
    offsets: Object.fromEntries(struct.members.map((member) => [member.name, member.offset])),
  };
}

/** The workgroup size along x of compute entry point `name` of `code`; throws if there is none. */
export function requireWorkgroupSize(code: string, name: string, file: string): number {
  const size = reflectDeclarations(code).entry.compute.find((entry) => entry.name === name)?.workgroupSize?.[0];
  if (typeof size !== 'number') throw new Error(`${file} has no compute entry point ${name} with a workgroup size`);
  return size;
}

/** The byte offset of `member` in a reflected struct; throws if the WGSL lost it. */
export function memberOffset(struct: StructLayout, member: string): number {
  const offset = struct.offsets[member];
  if (offset === undefined) throw new Error(`prelude.wgsl's struct has no member ${member}`);
  return offset;
}

let cached: PreludeLayout | undefined;

/** The prelude's shared layouts (reflected once). */
export function preludeLayout(): PreludeLayout {
  if (!cached) {
    cached = {
      // The recording variant is the superset: every constant and struct of the prelude.
      constants: wgslConstants(COMPUTE_UNMAPPED_ACCESS_PRELUDE_WGSL),
      dispatchInfo: requireStruct(PRELUDE_WGSL, 'D3D12DispatchInfo', 'the prelude'),
      faultRecord: requireStruct(PRELUDE_WGSL, 'D3D12FaultRecord', 'the prelude'),
      faultLog: requireStruct(PRELUDE_WGSL, 'D3D12FaultLog', 'the prelude'),
      unmappedAccessLog: requireStruct(COMPUTE_UNMAPPED_ACCESS_PRELUDE_WGSL, 'D3D12UnmappedAccessLog', 'the prelude'),
      cacheRequests: requireStruct(PRELUDE_WGSL, 'D3D12CacheRequests', 'the prelude'),
      mirrorEntry: requireStruct(PRELUDE_WGSL, 'D3D12MirrorEntry', 'the prelude'),
      mirrorResolution: requireStruct(PRELUDE_WGSL, 'D3D12MirrorResolution', 'the prelude'),
      mirrorRecord: requireStruct(PRELUDE_WGSL, 'D3D12MirrorRecord', 'the prelude'),
    };
  }
  return cached;
}

/** A prelude constant by name; throws if the prelude lost it (a rename must reach both sides). */
export function preludeConstant(name: string): number {
  const value = preludeLayout().constants[name];
  if (value === undefined) throw new Error(`prelude.wgsl has no constant ${name}`);
  return value;
}
