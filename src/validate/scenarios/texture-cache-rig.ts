/**
 * The texture-cache scenario's rig (texture-cache.ts): one device, its sampling and storing
 * pipelines (shaders/validate_texture_cache*.wgsl), 256² textures of two standard mips (4 + 1 tiles
 * of 128² texels) with their CPU models (texture-cache-model.ts), and the reads the scenario checks
 * with: every texel sampled by a dispatch, memory read back by copies (which never go through the
 * cache), and the cache's pool pages (readTextureCacheForTesting) against the texture's
 * (getTileMappingForTesting, getHeapPoolPagesForTesting).
 *
 * Invariant: every helper runs its work to completion on the rig's DIRECT queue and leaves the
 * textures in COMMON, so a step's reads see every write before it.
 */
import { createDevice } from '../../d3d12/create-device.js';
import type { CommandQueue } from '../../d3d12/command-queue.js';
import type { DescriptorHeap } from '../../d3d12/descriptor-heap.js';
import type { Device } from '../../d3d12/device.js';
import type { GraphicsCommandList } from '../../d3d12/command-list.js';
import type { Heap } from '../../d3d12/heap.js';
import type { PipelineState } from '../../d3d12/pipeline-state.js';
import type { Resource } from '../../d3d12/resource.js';
import type { ResourceBarrier } from '../../commands/resource-states.js';
import type { RootSignature } from '../../d3d12/root-signature.js';
import type { ResourceDesc } from '../../api/types.js';
import CACHE_WGSL from '../../../shaders/validate_texture_cache.wgsl?raw';
import VIEWS_WGSL from '../../../shaders/validate_texture_cache_views.wgsl?raw';
import { check, checkThat, pattern, TILE, type Check } from '../bytes.js';
import { runList, uploadBuffer } from '../d3d12-io.js';
import {
  getHeapPoolPagesForTesting,
  getTileMappingForTesting,
  readTextureCacheForTesting,
} from '../../testing/index.js';
import { CacheModel, OUT_WORDS, sampleChecks, textureCacheWord, type CacheFormat } from './texture-cache-model.js';

export const SIDE = 256;
/**
 * The rig's cache: 256 slots, one atlas layer (the default's 1,024 are four), more than the scenario
 * fills, so no slot is taken back from a page the checks expect cached.
 */
const RIG_CACHE_BYTES = 256 * TILE;
/** The rig's texture mirrors, with mirrors: 64 tiles, more than the scenario's textures hold at once. */
const RIG_MIRROR_BYTES = 64 * TILE;
/** shaders/validate_texture_cache.wgsl's modes. */
const TC_SAMPLE = 0;
export const TC_STORE = 1;
export const TC_STORE_RAW = 2;
/** One thread per texel of mip 1 (and 2 × 2 of mip 0). */
const THREADS = (SIDE / 2) * (SIDE / 2);
/** Tiles of a SIDE² texture of two mips: 2 × 2 for mip 0, one for mip 1. */
export const TEXTURE_TILES = 5;

export interface Rig {
  device: Device;
  queue: CommandQueue;
  /** shaders/validate_texture_cache.wgsl: samples (TC_SAMPLE) and stores. */
  pso: PipelineState;
  /** The descriptor-view pipeline, its root signature and its one SRV (absent with `views: false`). */
  views?: { pso: PipelineState; rootSignature: RootSignature; heap: DescriptorHeap };
  /** The sampling shaders' output. */
  out: Resource;
  /** Where reads come back: the samples' output, or a texture's tiles (copyTiles). */
  readback: Resource;
  seed: number;
  /**
   * Reads served by texture mirrors (textureMirrorBytes, no atlas) rather than the texture cache's
   * atlas: "cached" then means held by a valid mirror tile (readTextureCacheForTesting's mirroredPages).
   */
  mirrors: boolean;
}

export interface Tex {
  name: string;
  resource: Resource;
  model: CacheModel;
  /** The texture's descriptor (device.writeTextureDescriptor) in an UPLOAD buffer. */
  descriptor: Resource;
}

export type Path = 'raw' | 'view';

/** The rig's device (Tier 2: NULL tiles read 0) and pipelines; `views: false` leaves the view pipeline out. */
export async function createRig(
  gpuDevice: GPUDevice,
  {
    textureCacheBytes = RIG_CACHE_BYTES,
    views = true,
    mirrors = false,
  }: { textureCacheBytes?: number; views?: boolean; mirrors?: boolean } = {},
): Promise<Rig> {
  const device = await createDevice({
    gpuDevice,
    tiledResourcesTier: 2,
    localMemoryBytes: 8 << 20,
    nonLocalMemoryBytes: 8 << 20,
    textureCacheBytes: mirrors ? 0 : textureCacheBytes,
    textureMirrorBytes: mirrors ? RIG_MIRROR_BYTES : 0,
  });
  // One after another: on SwiftShader, compiling at once takes longer.
  const pso = await device.createComputePipelineState({ code: CACHE_WGSL, entryPoint: 'main' });
  return {
    device,
    queue: device.createCommandQueue({ type: 'DIRECT' }),
    pso,
    ...(views ? { views: await viewPipeline(device) } : {}),
    out: device.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: THREADS * OUT_WORDS * 4, flags: ['ALLOW_UNORDERED_ACCESS'] },
      'COMMON',
    ),
    readback: device.createCommittedResource(
      { type: 'READBACK' },
      [],
      { dimension: 'BUFFER', width: Math.max(THREADS * OUT_WORDS * 4, TEXTURE_TILES * TILE) },
      'COPY_DEST',
    ),
    seed: 1,
    mirrors,
  };
}

/** shaders/validate_texture_cache_views.wgsl's pipeline: b0 constants, u0 a root UAV, t0 in a table, s0 static. */
async function viewPipeline(device: Device): Promise<NonNullable<Rig['views']>> {
  const rootSignature = device.createRootSignature(0, {
    version: '1_1',
    desc_1_1: {
      parameters: [
        { parameterType: '32BIT_CONSTANTS', constants: { shaderRegister: 0, num32BitValues: 2 } },
        { parameterType: 'UAV', descriptor: { shaderRegister: 0 } },
        {
          parameterType: 'DESCRIPTOR_TABLE',
          descriptorTable: { descriptorRanges: [{ rangeType: 'SRV', numDescriptors: 1, baseShaderRegister: 0 }] },
        },
      ],
      staticSamplers: [
        { filter: 'MIN_MAG_MIP_LINEAR', addressU: 'CLAMP', addressV: 'CLAMP', addressW: 'CLAMP', shaderRegister: 0 },
      ],
    },
  });
  return {
    pso: await device.createComputePipelineState({ code: VIEWS_WGSL, entryPoint: 'sample_views', rootSignature }),
    rootSignature,
    heap: device.createDescriptorHeap({ type: 'CBV_SRV_UAV', numDescriptors: 1, flags: 'SHADER_VISIBLE' }),
  };
}

/** The resource tile `tile` of a SIDE² texture of two mips, as a tiled-resource coordinate. */
export const coordinateOf = (tile: number): { x: number; y: number; z: number; subresource: number } =>
  tile < 4 ? { x: tile % 2, y: Math.floor(tile / 2), z: 0, subresource: 0 } : { x: 0, y: 0, z: 0, subresource: 1 };

/** Maps resource tiles `tiles` of `tex` to heap tiles from `heapTile` on, one each (null heap: NULL). */
export function mapTiles(rig: Rig, tex: Tex, tiles: readonly number[], heap: Heap | null, heapTile = 0): void {
  rig.queue.updateTileMappings(
    tex.resource,
    tiles.map(coordinateOf),
    tiles.map(() => ({ numTiles: 1 })),
    heap,
    tiles.map(() => (heap ? 'NONE' : 'NULL')),
    heap ? tiles.map((_, i) => heapTile + i) : null,
    heap ? tiles.map(() => 1) : null,
  );
  for (const tile of tiles) {
    if (heap) tex.model.nullTiles.delete(tile);
    else tex.model.nullTiles.add(tile);
  }
}

function described(rig: Rig, name: string, resource: Resource, format: CacheFormat): Tex {
  resource.setName(name);
  const words = rig.device.writeTextureDescriptor(resource);
  const descriptor = uploadBuffer(rig.device, new Uint8Array(words.buffer, words.byteOffset, words.byteLength));
  return { name, resource, model: new CacheModel(rig.device, resource, format), descriptor };
}

const textureDesc = (format: CacheFormat): ResourceDesc => ({
  dimension: 'TEXTURE2D',
  width: SIDE,
  height: SIDE,
  mipLevels: 2,
  format,
  flags: ['ALLOW_UNORDERED_ACCESS'],
});

/** A reserved SIDE² texture of two mips, every tile mapped to `heap` from `heapTile` on. */
export function reservedTexture(rig: Rig, name: string, format: CacheFormat, heap: Heap, heapTile = 0): Tex {
  const resource = rig.device.createReservedResource(
    { ...textureDesc(format), layout: '64KB_UNDEFINED_SWIZZLE' },
    'COMMON',
  );
  const tex = described(rig, name, resource, format);
  mapTiles(rig, tex, [0, 1, 2, 3, 4], heap, heapTile);
  return tex;
}

/** A SIDE² texture of two mips placed in `heap` at `offset`. */
export function placedTexture(rig: Rig, name: string, format: CacheFormat, heap: Heap, offset: number): Tex {
  return described(rig, name, rig.device.createPlacedResource(heap, offset, textureDesc(format), 'COMMON'), format);
}

/** Random texels (R32_FLOAT: values in [0, 1], k / 255, so samples pack back near exactly). */
export function texelBytes(format: CacheFormat, length: number, seed: number): Uint8Array {
  const bytes = pattern(length, seed);
  if (format !== 'R32_FLOAT') return bytes;
  const values = new Float32Array(length / 4).map((_, i) => (bytes[i * 4] as number) / 255);
  return new Uint8Array(values.buffer);
}

/** Barriers taking subresources a copy promoted to COPY_DEST back to COMMON (a write promotion does not decay). */
export const copiedBack = (tex: Tex, subresources: readonly number[]): ResourceBarrier[] =>
  subresources.map((subresource) => ({
    type: 'TRANSITION',
    transition: { resource: tex.resource, subresource, stateBefore: 'COPY_DEST', stateAfter: 'COMMON' },
  }));

/** copyTiles of `bytes` into resource tiles from `first` on; the model follows. */
export async function copyTilesIn(rig: Rig, tex: Tex, first: number, bytes: Uint8Array): Promise<void> {
  const tiles = Array.from({ length: bytes.length / TILE }, (_, i) => first + i);
  const upload = uploadBuffer(rig.device, bytes);
  await runList(rig.device, rig.queue, (list) => {
    list.copyTiles(
      tex.resource,
      coordinateOf(first),
      { numTiles: bytes.length / TILE },
      upload,
      0,
      'LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE',
    );
    list.resourceBarrier(copiedBack(tex, [...new Set(tiles.map((tile) => coordinateOf(tile).subresource))]));
  });
  upload.release();
  for (let i = 0; i < bytes.length / TILE; i++)
    if (!tex.model.nullTiles.has(first + i)) tex.model.tile(first + i).set(bytes.subarray(i * TILE, (i + 1) * TILE));
}

/**
 * Every texel of `tex` through the sampling shader of `path`: its words (OUT_WORDS a thread).
 * `before` records work ahead of the sampling dispatch in the same command list.
 */
export async function sample(
  rig: Rig,
  tex: Tex,
  path: Path = 'raw',
  before?: (list: GraphicsCommandList) => void,
): Promise<Uint32Array> {
  const { device, queue, out, views } = rig;
  const bytes = THREADS * OUT_WORDS * 4;
  const view = path === 'view' ? views : undefined;
  if (path === 'view' && !view) throw new Error('the rig was made without the view pipeline');
  if (view) device.createShaderResourceView(tex.resource, null, view.heap.getCPUDescriptorHandleForHeapStart());
  await runList(device, queue, (list) => {
    before?.(list);
    if (!view) {
      list.setPipelineState(rig.pso);
      list.setComputeRootShaderResourceView(1, tex.descriptor.getGPUVirtualAddress());
      list.setComputeRootUnorderedAccessView(2, out.getGPUVirtualAddress());
      list.setComputeRoot32BitConstants(0, [TC_SAMPLE, THREADS]);
    } else {
      list.setComputeRootSignature(view.rootSignature);
      list.setPipelineState(view.pso);
      list.setDescriptorHeaps([view.heap]);
      list.setComputeRoot32BitConstants(0, [0, THREADS]);
      list.setComputeRootUnorderedAccessView(1, out.getGPUVirtualAddress());
      list.setComputeRootDescriptorTable(2, view.heap.getGPUDescriptorHandleForHeapStart());
    }
    list.dispatch(THREADS / 64);
    list.resourceBarrier([{ type: 'UAV', uav: { resource: out } }]);
    list.copyBufferRegion(rig.readback, 0, out, 0, bytes);
  });
  return new Uint32Array(readBack(rig, bytes).buffer);
}

/** The first `bytes` of the rig's READBACK buffer (after the work that copied them there completed). */
function readBack(rig: Rig, bytes: number): Uint8Array {
  const read = rig.readback.map().slice(0, bytes);
  rig.readback.unmap(0, { begin: 0, end: 0 });
  return read;
}

/** The pool pages behind `tiles` of `tex` (NULL tiles have none). */
export function pagesOf(rig: Rig, tex: Tex, tiles: readonly number[] = [0, 1, 2, 3, 4]): number[] {
  return tiles.flatMap((tile) => {
    const mapping = getTileMappingForTesting(tex.resource, tile);
    const pages = mapping && getHeapPoolPagesForTesting(rig.device, mapping.heap);
    return pages ? [pages[mapping.heapTileOffset] as number] : [];
  });
}

/** Whether each of `pages` is (`want`) or is not cached now, as a check. */
export async function cacheCheck(rig: Rig, name: string, pages: readonly number[], want: boolean): Promise<Check> {
  const state = await readTextureCacheForTesting(rig.device);
  const cached = new Set(rig.mirrors ? state.mirroredPages : state.cachedPages);
  const wrong = pages.filter((page) => cached.has(page) !== want);
  return checkThat(
    name,
    pages.length > 0 && wrong.length === 0,
    `pool pages ${wrong.join(', ') || '(none given)'} of ${pages.join(', ')} are ${want ? 'not ' : ''}cached`,
  );
}

/** Memory read back by copies (copyTiles; `alias`: a buffer over the texture's bytes), against the model. */
export async function memoryCheck(rig: Rig, tex: Tex, name: string, alias?: Resource): Promise<Check> {
  const bytes = TEXTURE_TILES * TILE;
  await runList(rig.device, rig.queue, (list) => {
    if (alias) list.copyBufferRegion(rig.readback, 0, alias, 0, bytes);
    else
      list.copyTiles(
        tex.resource,
        coordinateOf(0),
        { numTiles: TEXTURE_TILES },
        rig.readback,
        0,
        'SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER',
      );
  });
  return check(
    `${name}: memory, read back by ${alias ? 'the aliasing buffer' : 'copyTiles'}, holds what the model says`,
    readBack(rig, bytes),
    tex.model.readable(),
  );
}

/**
 * After a write `what` to `tex`: memory as the model says, then every texel sampled right after the
 * write (the written pages' copies must be gone) and again after the refill (the new copies), each
 * against the model, and the texture's mapped pages cached again.
 */
export async function afterWrite(
  rig: Rig,
  tex: Tex,
  what: string,
  path: Path = 'raw',
  alias?: Resource,
): Promise<Check[]> {
  const through = path === 'view' ? ' through a descriptor view' : '';
  const checks = [await memoryCheck(rig, tex, what, alias)];
  checks.push(
    ...sampleChecks(
      `${what}: sampled${through} right after it`,
      await sample(rig, tex, path),
      tex.model,
      path === 'view',
    ),
  );
  checks.push(
    ...sampleChecks(
      `${what}: sampled${through} after the refill`,
      await sample(rig, tex, path),
      tex.model,
      path === 'view',
    ),
  );
  checks.push(
    await cacheCheck(
      rig,
      `${what}: the texture's mapped pages are cached again after the refill`,
      pagesOf(rig, tex),
      true,
    ),
  );
  return checks;
}

/** Before a write `what`: the texture's mapped pages are cached, so reads right after it could be stale. */
export async function hot(rig: Rig, tex: Tex, what: string): Promise<Check> {
  return cacheCheck(rig, `${what}: before it, ${tex.name}'s mapped pages are cached`, pagesOf(rig, tex), true);
}

/** A copy of the model's bytes, to tell afterwards which tiles a write changed. */
export const snapshot = (tex: Tex): Uint8Array => tex.model.bytes.slice();

/** The mapped tiles whose bytes differ from `before`. */
function changedTiles(tex: Tex, before: Uint8Array): number[] {
  const tiles: number[] = [];
  for (let tile = 0; tile < tex.model.tiles; tile++) {
    if (tex.model.nullTiles.has(tile)) continue;
    const now = tex.model.tile(tile);
    const then = before.subarray(tile * TILE, (tile + 1) * TILE);
    if (now.some((b, i) => b !== then[i])) tiles.push(tile);
  }
  return tiles;
}

/** After an in-place write: the pages of the tiles it changed are no longer cached (before any shader ran). */
export async function dropped(rig: Rig, tex: Tex, what: string, before: Uint8Array): Promise<Check> {
  const tiles = changedTiles(tex, before);
  return cacheCheck(
    rig,
    `${what}: the cached copies of the ${tiles.length} page(s) it wrote are dropped`,
    pagesOf(rig, tex, tiles),
    false,
  );
}

export function release(...objects: { release(): unknown }[]): void {
  for (const object of objects) object.release();
}

/**
 * Stores over a rectangle of `mip`, then in the same command list, after a UAV barrier, every texel
 * sampled: reads after a store in one submission, through the records and summaries the dispatches'
 * pre-pass resolved before the store (the store must drop them: shaders/prelude/texture-mirrors.wgsl).
 */
export async function storeThenSample(
  rig: Rig,
  tex: Tex,
  what: string,
  mip: number,
  rect: [number, number, number, number],
) {
  const [x0, y0, width, height] = rect;
  const seed = rig.seed++;
  const before = await hot(rig, tex, what);
  const words = await sample(rig, tex, 'raw', (list) => {
    list.setPipelineState(rig.pso);
    list.setComputeRootShaderResourceView(1, tex.descriptor.getGPUVirtualAddress());
    list.setComputeRootUnorderedAccessView(2, rig.out.getGPUVirtualAddress());
    list.setComputeRoot32BitConstants(0, [TC_STORE, width * height, x0, y0, width, mip, seed]);
    list.dispatch(Math.ceil((width * height) / 64));
    list.resourceBarrier([{ type: 'UAV', uav: { resource: null } }]);
  });
  for (let y = y0; y < y0 + height; y++)
    for (let x = x0; x < x0 + width; x++) tex.model.setWord(mip, x, y, textureCacheWord(x, y, seed));
  return [
    before,
    ...sampleChecks(`${what}: sampled in the same submission, after the stores`, words, tex.model, false),
    ...(await afterWrite(rig, tex, what)),
  ];
}

/** Stores over a rectangle of `mip` (TC_STORE: d3d12_tex2d_store; TC_STORE_RAW: d3d12_store at the texel's address). */
export async function storeRect(rig: Rig, tex: Tex, mip: number, rect: [number, number, number, number], raw: boolean) {
  const [x0, y0, width, height] = rect;
  const seed = rig.seed++;
  await runList(rig.device, rig.queue, (list) => {
    list.setPipelineState(rig.pso);
    list.setComputeRootShaderResourceView(1, tex.descriptor.getGPUVirtualAddress());
    list.setComputeRoot32BitConstants(0, [raw ? TC_STORE_RAW : TC_STORE, width * height, x0, y0, width, mip, seed]);
    list.dispatch(Math.ceil((width * height) / 64));
  });
  for (let y = y0; y < y0 + height; y++)
    for (let x = x0; x < x0 + width; x++) tex.model.setWord(mip, x, y, textureCacheWord(x, y, seed));
}
