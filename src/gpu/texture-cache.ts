/**
 * TextureCache: copies of pool pages in a real texture, so that shaders reading tiled RGBA8 textures
 * through the prelude get the texture units' filtering after one page-table lookup
 * (shaders/prelude/texture-cache.wgsl says what is served and how; docs/texture-cache.md why).
 *
 * GPU objects: per pool page a tag (x: slot + 1, or 0; y: the page's texture-mirror link, which
 * src/gpu/texture-mirrors.ts keeps); the request list and its pending bits
 * (shaders/prelude/cache-requests.wgsl); per slot its owner page; the atlas, an rgba8unorm 2D-array
 * texture of LAYER_SIDE² layers cut into 128 × 128 slots; a linear, clamp-to-edge sampler. The atlas
 * is made when the first pipeline that reads textures is created (activate()); before that, and on a
 * device whose cache is off (textureCacheBytes: 0), a 1 × 1 placeholder is bound and
 * d3d12_dispatch.texture_cache is 0, so no shader reads tags.
 *
 * Invariants:
 *   - a non-zero tag of page p names a slot holding p's bytes as the queue has them now;
 *   - every write into the pool clears the tags of its pages before later work can read them: the
 *     prelude's stores clear them on the GPU (d3d12_pool_write), and every queue write into the pool
 *     (GpuMemory's clears and CPU writes, paging's restores, page moves) is followed at once by
 *     pagesWritten() for its pages, which clears their tags in queue order;
 *   - slots are filled only by the fill pass (encodeFill), which runs between dispatches, so no
 *     shader samples a slot while it is written.
 */
import fillWgsl from '../../shaders/texture_cache_fill.wgsl?raw';
import { CACHE_REQUESTS_WGSL, memberOffset, preludeConstant, preludeLayout } from './prelude.js';

/** A slot holds one 64 KiB page as a 128 × 128 tile of 4-byte texels (the standard tile of RGBA8). */
export const CACHE_TILE_SIDE = 128;
const CACHE_SLOT_BYTES = CACHE_TILE_SIDE * CACHE_TILE_SIDE * 4;
/** Atlas layers are 2048² (16 × 16 slots, 16 MiB): within every adapter's maxTextureDimension2D (8192 at least). Constants of the prelude. */
const ROW_SLOTS = preludeConstant('D3D12_CACHE_ROW_SLOTS');
const LAYER_SIDE = preludeConstant('D3D12_CACHE_LAYER_SIDE');
const LAYER_SLOTS = ROW_SLOTS * ROW_SLOTS;

/** The default cache: 1,024 slots (64 MiB), a 2048² texture with its full chain and more. */
export const DEFAULT_TEXTURE_CACHE_BYTES = 64 * 2 ** 20;

/** The slots `bytes` of cache hold. */
export function textureCacheSlots(bytes: number): number {
  return Math.floor(bytes / CACHE_SLOT_BYTES);
}

/** The most cache bytes `device` can hold: its maxTextureArrayLayers layers. */
export function maxTextureCacheBytes(device: GPUDevice): number {
  return device.limits.maxTextureArrayLayers * LAYER_SLOTS * CACHE_SLOT_BYTES;
}

interface FillPipelines {
  layout: GPUBindGroupLayout;
  fill: GPUComputePipeline;
  advance: GPUComputePipeline;
}

const fillPipelines = new WeakMap<GPUDevice, FillPipelines>();

function fillPipelinesFor(device: GPUDevice): FillPipelines {
  let made = fillPipelines.get(device);
  if (!made) {
    const storage = (binding: number, type: GPUBufferBindingType): GPUBindGroupLayoutEntry => ({
      binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: { type },
    });
    const layout = device.createBindGroupLayout({
      label: 'd3d12 texture cache fill',
      entries: [
        storage(0, 'read-only-storage'),
        storage(1, 'storage'),
        storage(2, 'storage'),
        storage(3, 'storage'),
        {
          binding: 4,
          visibility: GPUShaderStage.COMPUTE,
          storageTexture: { access: 'write-only', format: 'rgba8unorm', viewDimension: '2d-array' },
        },
        { binding: 5, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } },
      ],
    });
    const module = device.createShaderModule({
      label: 'd3d12 texture cache fill',
      code: `${CACHE_REQUESTS_WGSL}\n${fillWgsl}`,
    });
    const pipelineLayout = device.createPipelineLayout({
      label: 'd3d12 texture cache fill',
      bindGroupLayouts: [layout],
    });
    const pipeline = (entryPoint: string): GPUComputePipeline =>
      device.createComputePipeline({
        label: `d3d12 texture cache ${entryPoint}`,
        layout: pipelineLayout,
        compute: { module, entryPoint },
      });
    made = { layout, fill: pipeline('fill'), advance: pipeline('advance') };
    fillPipelines.set(device, made);
  }
  return made;
}

interface Atlas {
  texture: GPUTexture;
  owners: GPUBuffer;
  params: GPUBuffer;
  fillGroup: GPUBindGroup;
}

export class TextureCache {
  readonly tags: GPUBuffer;
  readonly requests: GPUBuffer;
  private readonly arguments: GPUBuffer;
  readonly sampler: GPUSampler;
  private readonly placeholder: GPUTexture;
  private atlas: Atlas | undefined;
  /** The view bound in group 0 (the atlas's, or the placeholder's); one object, so bind groups are reused. */
  private view: GPUTextureView;
  private readonly pendingOffset: number;

  constructor(
    private readonly device: GPUDevice,
    private readonly pool: GPUBuffer,
    private readonly poolPages: number,
    /** Slots of the atlas once made; 0: the cache is off. */
    readonly slots: number,
    create: (descriptor: GPUBufferDescriptor) => GPUBuffer,
  ) {
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    this.tags = create({
      label: 'd3d12 texture cache tags',
      size: Math.max(8, poolPages * 8),
      usage: usage | GPUBufferUsage.COPY_SRC,
    });
    const layout = preludeLayout().cacheRequests;
    this.pendingOffset = memberOffset(layout, 'pending');
    const pendingBytes = Math.max(4, Math.ceil(poolPages / 32) * 4);
    this.requests = create({
      label: 'd3d12 texture cache requests',
      size: this.pendingOffset + pendingBytes,
      usage: usage | GPUBufferUsage.COPY_SRC,
    });
    // A buffer the fill pass binds cannot also hold its indirect arguments: they are copied out first.
    this.arguments = create({
      label: 'd3d12 texture cache fill arguments',
      size: 16,
      usage: GPUBufferUsage.INDIRECT | GPUBufferUsage.COPY_DST,
    });
    // The indirect dispatch's y and z (the count, x, starts at 0).
    device.queue.writeBuffer(this.requests, memberOffset(layout, 'groups_y'), new Uint32Array([1, 1]));
    this.sampler = device.createSampler({
      label: 'd3d12 texture cache sampler',
      magFilter: 'linear',
      minFilter: 'linear',
      // The atlas has one mip; texture mirrors (texture-mirrors.ts) sample through this sampler too,
      // trilinear.
      mipmapFilter: 'linear',
      addressModeU: 'clamp-to-edge',
      addressModeV: 'clamp-to-edge',
    });
    this.placeholder = device.createTexture({
      label: 'd3d12 texture cache (none)',
      size: [1, 1, 1],
      format: 'rgba8unorm',
      usage: GPUTextureUsage.TEXTURE_BINDING,
    });
    this.view = this.placeholder.createView({ dimension: '2d-array' });
  }

  /** Whether the atlas exists, as shaders read it (d3d12_dispatch.texture_cache). */
  get active(): boolean {
    return this.atlas !== undefined;
  }

  /** Makes the atlas (once; nothing when the cache is off): a pipeline that reads textures was created. */
  activate(): void {
    if (this.atlas || this.slots === 0) return;
    const layers = Math.ceil(this.slots / LAYER_SLOTS);
    const texture = this.device.createTexture({
      label: `d3d12 texture cache (${this.slots} slots)`,
      size: [LAYER_SIDE, LAYER_SIDE, layers],
      format: 'rgba8unorm',
      usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.STORAGE_BINDING,
    });
    const owners = this.device.createBuffer({
      label: 'd3d12 texture cache owners',
      size: this.slots * 4,
      usage: GPUBufferUsage.STORAGE,
    });
    const params = this.device.createBuffer({
      label: 'd3d12 texture cache params',
      size: 16,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.device.queue.writeBuffer(params, 0, new Uint32Array([this.slots, ROW_SLOTS, LAYER_SLOTS, 0]));
    const fillGroup = this.device.createBindGroup({
      label: 'd3d12 texture cache fill',
      layout: fillPipelinesFor(this.device).layout,
      entries: [
        { binding: 0, resource: { buffer: this.pool } },
        { binding: 1, resource: { buffer: this.tags } },
        { binding: 2, resource: { buffer: this.requests } },
        { binding: 3, resource: { buffer: owners } },
        { binding: 4, resource: texture.createView({ dimension: '2d-array' }) },
        { binding: 5, resource: { buffer: params } },
      ],
    });
    this.atlas = { texture, owners, params, fillGroup };
    this.view = texture.createView({ dimension: '2d-array' });
  }

  /** Group 0's texture-cache bindings (5 to 8; shaders/prelude/bindings-*.wgsl). */
  bindings(): GPUBindGroupEntry[] {
    return [
      { binding: 5, resource: { buffer: this.tags } },
      { binding: 6, resource: { buffer: this.requests } },
      { binding: 7, resource: this.view },
      { binding: 8, resource: this.sampler },
    ];
  }

  /**
   * Encodes the fill pass (at the start of a submission that runs shaders): the pages requested since
   * the last fill go into slots, then the list and its pending bits are cleared. Nothing without an atlas.
   */
  encodeFill(encoder: GPUCommandEncoder): void {
    const atlas = this.atlas;
    if (!atlas) return;
    const pipelines = fillPipelinesFor(this.device);
    // One workgroup per request: the list's count and the two 1s after it are the arguments.
    encoder.copyBufferToBuffer(this.requests, 0, this.arguments, 0, 12);
    const pass = encoder.beginComputePass({ label: 'd3d12 texture cache fill' });
    pass.setBindGroup(0, atlas.fillGroup);
    pass.setPipeline(pipelines.fill);
    pass.dispatchWorkgroupsIndirect(this.arguments, 0);
    pass.setPipeline(pipelines.advance);
    pass.dispatchWorkgroups(1);
    pass.end();
    encoder.clearBuffer(this.requests, this.pendingOffset, this.requests.size - this.pendingOffset);
  }

  /**
   * Queue writes changed the bytes of pool pages `first` to `first + count - 1` (pool-wide page
   * numbers): their tags are cleared, in queue order after the writes. Call at once after queueing them.
   */
  pagesWritten(first: number, count: number): void {
    if (!this.atlas || count <= 0) return;
    const end = Math.min(first + count, this.poolPages);
    if (end <= first) return;
    // x only would take a write per page: both words go (TextureMirrors.pagesWritten drops the
    // links of these pages too, in the same queue order).
    this.device.queue.writeBuffer(this.tags, first * 8, new Uint32Array(2 * (end - first)));
  }

  /** The pool pages whose tags name a slot, after all work submitted so far. */
  async cachedPagesForTesting(): Promise<number[]> {
    const tags = await readBufferForTesting(this.device, this.tags);
    const pages: number[] = [];
    for (let page = 0; 2 * page < tags.length; page++) if (tags[2 * page] !== 0) pages.push(page);
    return pages;
  }

  destroy(): void {
    this.tags.destroy();
    this.requests.destroy();
    this.arguments.destroy();
    this.placeholder.destroy();
    if (this.atlas) {
      this.atlas.texture.destroy();
      this.atlas.owners.destroy();
      this.atlas.params.destroy();
    }
  }
}

/** The whole of `buffer` (STORAGE with COPY_SRC) after the work submitted so far, for test hooks. */
export async function readBufferForTesting(device: GPUDevice, buffer: GPUBuffer): Promise<Uint32Array> {
  const staging = device.createBuffer({
    label: `${buffer.label} (read for testing)`,
    size: buffer.size,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const encoder = device.createCommandEncoder({ label: `d3d12 read ${buffer.label} for testing` });
  encoder.copyBufferToBuffer(buffer, 0, staging, 0, buffer.size);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const words = new Uint32Array(staging.getMappedRange().slice(0));
  staging.destroy();
  return words;
}
