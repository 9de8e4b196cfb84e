/**
 * The virtual texture scene's baseline: the same picture drawn from a plain WebGPU texture, fully
 * resident (no streaming, no page table, no residency map), so a benchmark can set the scene's GPU
 * time per frame against what the same camera path costs natively. Demo code talking to WebGPU
 * directly, as the bench's raw baselines do.
 *
 * `create` makes an rgba8unorm texture with a full mip chain and fills every mip on the GPU with
 * vt_procedural (vt-native-generate.wgsl, one dispatch per mip): the virtual texture's texels. A
 * device whose maxTextureDimension2D is below VT_SIZE gets a texture VT_SIZE >> mipOffset wide whose
 * level m holds procedural mip m + mipOffset (the same picture without its finest mips). `draw`
 * renders the scene's full-screen plane (vt-native-draw.wgsl): vt_uv, the clear colour outside the
 * texture, a trilinear sample at the view's lod and the same optional mip tint as vt-draw.wgsl.
 *
 * Pipelines, the bind group layout and the sampler are made once per GPUDevice (a WeakMap); render
 * pipelines once per device and target format.
 */
import common from './vt-common.wgsl?raw';
import drawCode from './vt-native-draw.wgsl?raw';
import generateCode from './vt-native-generate.wgsl?raw';
import { VT_MIPS, VT_SIZE } from './procedural.js';

/** The scene's clear colour (main.ts's clearRenderTargetView, vt-draw.wgsl outside the texture). */
export const NATIVE_CLEAR_COLOR: readonly [number, number, number, number] = [0.063, 0.075, 0.09, 1];

/** The orthographic view, as the scene gives it to vt-view.wgsl: centre and texels per pixel in mip-0 texels. */
export interface NativeView {
  cx: number;
  cy: number;
  /** Mip-0 texels per pixel. */
  s: number;
  /** log2(s), from the CPU (exact at powers of two). */
  lod: number;
  /** The viewport in pixels. */
  width: number;
  height: number;
}

/** vt-native-generate.wgsl's workgroup side. */
const GROUP = 8;
/** vt-native-draw.wgsl's NativeView: centre, texels per pixel, lod, size, mip offset, flags. */
const VIEW_BYTES = 32;

interface DevicePipelines {
  generate: Promise<GPUComputePipeline>;
  drawLayout: GPUBindGroupLayout;
  drawPipelineLayout: GPUPipelineLayout;
  drawModule: GPUShaderModule;
  draws: Map<GPUTextureFormat, Promise<GPURenderPipeline>>;
  sampler: GPUSampler;
}

const pipelines = new WeakMap<GPUDevice, DevicePipelines>();

function pipelinesFor(device: GPUDevice): DevicePipelines {
  let cached = pipelines.get(device);
  if (!cached) {
    const generateLayout = device.createBindGroupLayout({
      label: 'native vt generate',
      entries: [
        {
          binding: 0,
          visibility: GPUShaderStage.COMPUTE,
          storageTexture: { access: 'write-only', format: 'rgba8unorm', viewDimension: '2d' },
        },
      ],
    });
    const drawLayout = device.createBindGroupLayout({
      label: 'native vt draw',
      entries: [
        { binding: 0, visibility: GPUShaderStage.FRAGMENT, buffer: { type: 'uniform', minBindingSize: VIEW_BYTES } },
        { binding: 1, visibility: GPUShaderStage.FRAGMENT, texture: { sampleType: 'float', viewDimension: '2d' } },
        { binding: 2, visibility: GPUShaderStage.FRAGMENT, sampler: { type: 'filtering' } },
      ],
    });
    cached = {
      generate: device.createComputePipelineAsync({
        label: 'native vt generate',
        layout: device.createPipelineLayout({ label: 'native vt generate', bindGroupLayouts: [generateLayout] }),
        compute: {
          module: device.createShaderModule({ label: 'vt-native-generate.wgsl', code: common + generateCode }),
          entryPoint: 'generate',
        },
      }),
      drawLayout,
      drawPipelineLayout: device.createPipelineLayout({ label: 'native vt draw', bindGroupLayouts: [drawLayout] }),
      drawModule: device.createShaderModule({ label: 'vt-native-draw.wgsl', code: common + drawCode }),
      draws: new Map(),
      sampler: device.createSampler({
        label: 'native vt trilinear',
        magFilter: 'linear',
        minFilter: 'linear',
        mipmapFilter: 'linear',
        addressModeU: 'clamp-to-edge',
        addressModeV: 'clamp-to-edge',
      }),
    };
    pipelines.set(device, cached);
  }
  return cached;
}

function drawPipelineFor(device: GPUDevice, format: GPUTextureFormat): Promise<GPURenderPipeline> {
  const cached = pipelinesFor(device);
  let pipeline = cached.draws.get(format);
  if (!pipeline) {
    pipeline = device.createRenderPipelineAsync({
      label: `native vt draw (${format})`,
      layout: cached.drawPipelineLayout,
      vertex: { module: cached.drawModule, entryPoint: 'vs' },
      fragment: { module: cached.drawModule, entryPoint: 'fs', targets: [{ format }] },
      primitive: { topology: 'triangle-list' },
    });
    // A failed compile is not cached: the next create tries again (and reports it again).
    pipeline.catch(() => cached.draws.delete(format));
    cached.draws.set(format, pipeline);
  }
  return pipeline;
}

/** The smallest k with VT_SIZE >> k within `maxTextureDimension2D`. */
export function nativeMipOffset(maxTextureDimension2D: number): number {
  let k = 0;
  while (VT_SIZE >> k > maxTextureDimension2D && k < VT_MIPS - 1) k++;
  return k;
}

export class NativeVirtualTexture {
  /** Procedural mips left out at the fine end: level m of `texture` holds procedural mip m + mipOffset. */
  readonly mipOffset: number;
  /** Width and height of `texture`'s level 0 (VT_SIZE >> mipOffset). */
  readonly size: number;
  /** Levels of `texture` (VT_MIPS - mipOffset, down to 1 x 1). */
  readonly mipLevels: number;
  readonly #device: GPUDevice;
  readonly #pipeline: GPURenderPipeline;
  readonly #viewBuffer: GPUBuffer;
  readonly #bindGroup: GPUBindGroup;
  readonly #viewWords = new ArrayBuffer(VIEW_BYTES);

  private constructor(
    device: GPUDevice,
    /** rgba8unorm, TEXTURE_BINDING | STORAGE_BINDING | COPY_SRC (tests read it back). */
    readonly texture: GPUTexture,
    mipOffset: number,
    /** The format `draw`'s target must have. */
    readonly targetFormat: GPUTextureFormat,
    pipeline: GPURenderPipeline,
  ) {
    this.#device = device;
    this.mipOffset = mipOffset;
    this.size = texture.width;
    this.mipLevels = texture.mipLevelCount;
    this.#pipeline = pipeline;
    this.#viewBuffer = device.createBuffer({
      label: 'native vt view',
      size: VIEW_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    const cached = pipelinesFor(device);
    this.#bindGroup = device.createBindGroup({
      label: 'native vt draw',
      layout: cached.drawLayout,
      entries: [
        { binding: 0, resource: { buffer: this.#viewBuffer } },
        { binding: 1, resource: texture.createView() },
        { binding: 2, resource: cached.sampler },
      ],
    });
  }

  /**
   * Creates the texture and fills every mip on the GPU; resolves once the fill has completed on the
   * queue. Throws (and frees what it made) when WebGPU reports a validation or out-of-memory error,
   * or a pipeline fails to compile.
   */
  static async create(gpuDevice: GPUDevice, targetFormat: GPUTextureFormat): Promise<NativeVirtualTexture> {
    const mipOffset = nativeMipOffset(gpuDevice.limits.maxTextureDimension2D);
    const size = VT_SIZE >> mipOffset;
    const mipLevels = VT_MIPS - mipOffset;
    gpuDevice.pushErrorScope('out-of-memory');
    gpuDevice.pushErrorScope('validation');
    let texture: GPUTexture | undefined;
    let created: NativeVirtualTexture | undefined;
    let thrown: unknown;
    try {
      texture = gpuDevice.createTexture({
        label: `native virtual texture ${size}x${size}`,
        size: [size, size],
        mipLevelCount: mipLevels,
        format: 'rgba8unorm',
        usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_SRC,
      });
      const [generate, draw] = await Promise.all([
        pipelinesFor(gpuDevice).generate,
        drawPipelineFor(gpuDevice, targetFormat),
      ]);
      const encoder = gpuDevice.createCommandEncoder({ label: 'native vt fill' });
      const pass = encoder.beginComputePass({ label: 'native vt fill' });
      pass.setPipeline(generate);
      for (let level = 0; level < mipLevels; level++) {
        const side = Math.max(size >> level, 1);
        pass.setBindGroup(
          0,
          gpuDevice.createBindGroup({
            label: `native vt fill mip ${level}`,
            layout: generate.getBindGroupLayout(0),
            entries: [{ binding: 0, resource: texture.createView({ baseMipLevel: level, mipLevelCount: 1 }) }],
          }),
        );
        pass.dispatchWorkgroups(Math.ceil(side / GROUP), Math.ceil(side / GROUP));
      }
      pass.end();
      gpuDevice.queue.submit([encoder.finish()]);
      created = new NativeVirtualTexture(gpuDevice, texture, mipOffset, targetFormat, draw);
      await gpuDevice.queue.onSubmittedWorkDone();
    } catch (error) {
      thrown = error;
    }
    const validation = await gpuDevice.popErrorScope();
    const outOfMemory = await gpuDevice.popErrorScope();
    const reported = [validation, outOfMemory].filter((e): e is GPUError => e != null);
    if (reported.length > 0 || thrown !== undefined) {
      if (created) created.destroy();
      else texture?.destroy();
      const what = reported.map((e) => e.message.trim());
      if (thrown !== undefined) what.push(thrown instanceof Error ? thrown.message : JSON.stringify(thrown));
      throw new Error(
        `NativeVirtualTexture.create (${size}x${size}, ${mipLevels} mips, mipOffset ${mipOffset}) failed: ${what.join('; ')}`,
        { cause: thrown ?? reported[0] },
      );
    }
    if (!created) throw new Error('NativeVirtualTexture.create: unreachable');
    return created;
  }

  /**
   * Records one render pass into `encoder`: clears `target` (of `targetFormat`) to the scene's clear
   * colour and draws the plane at `view` (whose width and height are the target's, as in the scene:
   * the viewport is the whole target). The view goes through one uniform buffer written with
   * queue.writeBuffer, which lands before the next submit: submit each frame before drawing the next.
   */
  draw(
    encoder: GPUCommandEncoder,
    target: GPUTextureView,
    view: NativeView,
    tint: boolean,
    timestampWrites?: GPURenderPassTimestampWrites,
  ): void {
    const f32 = new Float32Array(this.#viewWords);
    f32.set([view.cx, view.cy, view.s, view.lod, view.width, view.height, this.mipOffset]);
    new Uint32Array(this.#viewWords)[7] = tint ? 1 : 0;
    this.#device.queue.writeBuffer(this.#viewBuffer, 0, this.#viewWords);
    const pass = encoder.beginRenderPass({
      label: 'native vt draw',
      colorAttachments: [{ view: target, clearValue: [...NATIVE_CLEAR_COLOR], loadOp: 'clear', storeOp: 'store' }],
      ...(timestampWrites ? { timestampWrites } : {}),
    });
    pass.setPipeline(this.#pipeline);
    pass.setBindGroup(0, this.#bindGroup);
    pass.draw(3);
    pass.end();
  }

  destroy(): void {
    this.texture.destroy();
    this.#viewBuffer.destroy();
  }
}
