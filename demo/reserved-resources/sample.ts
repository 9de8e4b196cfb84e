/**
 * Microsoft's D3D12ReservedResources (DirectX-Graphics-Samples, Samples/Desktop/D3D12ReservedResources)
 * on the emulator, D3D12 call for D3D12 call, in the sample's order and with its structure: the
 * class D3D12ReservedResources with loadPipeline, loadAssets, updateTileMapping, generateTextureData
 * (texture-data.ts), populateCommandList, onRender, waitForGpu, moveToNextFrame, onKeyDown's mip
 * step and onDestroy. See meta.ts for the summary.
 *
 * No DOM here: the sample takes a device, a DIRECT queue and a swap chain of FRAME_COUNT buffers,
 * so it runs on the demo page (main.ts, over a canvas) and in Node.js with Dawn (over
 * createOffscreenCanvasContext; test/gpu/operation/demo/reserved-resources-node.test.ts).
 *
 * Where it differs from the sample's window:
 * - The caller creates the device (with DEVICE_OPTIONS), the queue and the swap chain, in whatever
 *   format it likes (the page takes the canvas's preferred one rather than R8G8B8A8_UNORM); the
 *   pipeline's RTVFormats follow it.
 * - The sample's OnRender is populateCommandList, ExecuteCommandLists, Present, MoveToNextFrame:
 *   onRender() here is the first two, the caller presents (the page's shell does when its frame()
 *   returns), then calls moveToNextFrame() (the page: at the start of its next frame, and before
 *   onDestroy when it stops).
 * - The back buffer may change size: the viewport and scissor rectangle follow it each frame, and
 *   if its aspect ratio changes the quad's vertices (which hold it, as the sample's do) are
 *   uploaded again, so the quad stays square.
 * - The title bar's "Mip Level: N" is the caller's to show (the page's side panel): the read-only
 *   state below (activeMip, mip(n), uploads, snapshot()) is what it needs.
 */
import {
  DEFAULT_SHADER_4_COMPONENT_MAPPING,
  FLOAT32_MAX,
  TILE_SIZE,
  type BackBuffer,
  type CommandAllocator,
  type CommandQueue,
  type DescriptorHeap,
  type DescriptorRange,
  type Device,
  type Fence,
  type GraphicsCommandList,
  type Heap,
  type PackedMipInfo,
  type PipelineState,
  type Resource,
  type ResourceDesc,
  type ResourceTiling,
  type RootParameter,
  type RootSignature,
  type RootSignatureVersion,
  type ShaderResourceViewDesc,
  type StaticSamplerDesc,
  type SubresourceTiling,
  type SwapChain,
  type TileRangeFlag,
  type TileRegionSize,
  type TileShape,
  type TiledResourceCoordinate,
  type VertexBufferView,
} from '../../src/index.js';
import {
  bufferResourceDesc,
  cpuDescriptorHandle,
  d3dx12SerializeVersionedRootSignature,
  descriptorRange1,
  defaultBlendDesc,
  defaultRasterizerDesc,
  getRequiredIntermediateSize,
  heapDesc,
  heapProperties,
  rect,
  rootConstants,
  rootDescriptorTable,
  tiledResourceCoordinate,
  transitionBarrier,
  updateSubresources,
  versionedRootSignatureDesc_1_1,
  viewport,
  type SubresourceData,
} from '../../src/d3dx12/index.js';
import { getTileMappingForTesting } from '../../src/testing/index.js';
import shaders from './shaders.wgsl?raw';
import {
  generateTextureData,
  MIP_LEVELS,
  mipSize,
  TEXTURE_HEIGHT,
  TEXTURE_PIXEL_SIZE_IN_BYTES,
  TEXTURE_WIDTH,
} from './texture-data.js';

/** The sample's FrameCount: back buffers, and command allocators (one per frame in flight). */
export const FRAME_COUNT = 2;
/** The emulated LOCAL / NON_LOCAL pool sizes of the sample's device (createDevice's options). */
export const DEVICE_OPTIONS = { localMemoryBytes: 64 * 2 ** 20, nonLocalMemoryBytes: 32 * 2 ** 20 } as const;
const CLEAR_COLOR: [number, number, number, number] = [0.0, 0.2, 0.4, 1.0];
/** x, y, z, u, v. */
const VERTEX_FLOATS = 5;
const VERTEX_STRIDE = VERTEX_FLOATS * 4;

/** The sample's MipInfo: where a mip's tiles are and whether its heap is mapped now. */
export interface MipInfo {
  heapIndex: number;
  packedMip: boolean;
  mapped: boolean;
  startCoordinate: TiledResourceCoordinate;
  regionSize: TileRegionSize;
}

/** One generateTextureData + updateSubresources: subresources [firstSubresource, + count). */
export interface MipUpload {
  frame: number;
  firstSubresource: number;
  count: number;
  bytes: number;
}

export interface ReservedResourcesSnapshot {
  activeMip: number;
  mipLevels: number;
  packedMipInfo: PackedMipInfo;
  numTilesForEntireResource: number;
  /** Per heap: its tiles, the mips it backs and whether it is mapped into the texture now. */
  heaps: { tiles: number; mips: number[]; mapped: boolean }[];
  uploads: MipUpload[];
  /** Frames rendered and the back buffer index the next one draws into. */
  frames: number;
  frameIndex: number;
  backBuffer: { width: number; height: number };
  /** The aspect ratio the quad's vertices were made for (width / height, as a float32). */
  aspectRatio: number;
}

/** The tiling forTesting.tiling() reports: each standard mip's tiles, and the packed tail's. */
export interface ReservedResourcesTiling {
  subresourceTilings: SubresourceTiling[];
  packedMipDesc: PackedMipInfo;
}

export interface SampleContext {
  device: Device;
  /** A DIRECT queue (the sample's m_commandQueue). */
  queue: CommandQueue;
  /** FRAME_COUNT buffers. */
  swapChain: SwapChain;
}

export interface SampleOptions {
  /** The mip shown first, from 0 to MIP_LEVELS - 1; default the least detailed, as in the sample. */
  startMip?: number;
}

/**
 * The quad, as the sample makes it: a quarter of the viewport's width, square on screen, at the
 * centre; a triangle strip bottom left, top left, bottom right, top right, v = 0 at the top.
 */
function quadVertices(aspectRatio: number): Float32Array {
  const h = 0.25 * aspectRatio;
  // prettier-ignore
  return new Float32Array([
    -0.25, -h, 0.0, 0.0, 1.0, // bottom left
    -0.25, h, 0.0, 0.0, 0.0, // top left
    0.25, -h, 0.0, 1.0, 1.0, // bottom right
    0.25, h, 0.0, 1.0, 0.0, // top right
  ]);
}

function checkStartMip(mip: number | undefined): number {
  if (mip === undefined) return MIP_LEVELS - 1;
  if (!Number.isInteger(mip) || mip < 0 || mip >= MIP_LEVELS)
    throw new Error(`the start mip must be an integer from 0 to ${MIP_LEVELS - 1}, got ${mip}`);
  return mip;
}

export class D3D12ReservedResources {
  /** The constructor's part and onInit (loadPipeline, loadAssets): the sample, ready for its first frame. */
  static async create(context: SampleContext, options: SampleOptions = {}): Promise<D3D12ReservedResources> {
    const sample = new D3D12ReservedResources(context, options);
    sample.loadPipeline();
    await sample.loadAssets();
    return sample;
  }

  readonly device: Device;
  private readonly queue: CommandQueue;
  private readonly swapChain: SwapChain;

  // The constructor's part: a mip chain down to 1 × 1, the least detailed shown first (or startMip).
  private readonly mips = new Array<MipInfo>(MIP_LEVELS);
  private currentMip: number;
  private activeMipChanged = true;
  private readonly fenceValues = new Array<number>(FRAME_COUNT).fill(0);
  private readonly uploadLog: MipUpload[] = [];
  private frames = 0;
  private frameIndex = 0;

  // Pipeline objects (loadPipeline).
  private rtvHeap!: DescriptorHeap;
  private srvHeap!: DescriptorHeap;
  private rtvDescriptorSize = 0;
  private readonly renderTargets: BackBuffer[] = [];
  private readonly commandAllocators: CommandAllocator[] = [];

  // Assets (loadAssets).
  private rootSignature!: RootSignature;
  private pipelineState!: PipelineState;
  private commandList!: GraphicsCommandList;
  private vertexBuffer!: Resource;
  private vertexBufferUpload!: Resource;
  private vertexBufferSize = 0;
  private vertexBufferView!: VertexBufferView;
  private aspectRatio = 1;
  private reservedResource!: Resource;
  private uploadHeap!: Resource;
  private resourceSize = 0;
  private tiling!: ResourceTiling;
  private readonly heaps: Heap[] = [];
  private fence!: Fence;

  private constructor({ device, queue, swapChain }: SampleContext, options: SampleOptions) {
    this.device = device;
    this.queue = queue;
    this.swapChain = swapChain;
    this.currentMip = checkStartMip(options.startMip);
  }

  // ---- LoadPipeline ---------------------------------------------------------------------------
  private loadPipeline(): void {
    const { device, swapChain } = this;
    const options = device.checkFeatureSupport('OPTIONS');
    const tilingSupport = options.tiledResourcesTier > 0;
    if (!tilingSupport) throw new Error('Reserved resources are not supported by this device.');
    // The command queue and the swap chain are the caller's (createCommandQueue DIRECT, createSwapChain).
    if (swapChain.bufferCount !== FRAME_COUNT)
      throw new Error(`the swap chain has ${swapChain.bufferCount} buffers; this sample renders ${FRAME_COUNT}`);
    this.frameIndex = swapChain.getCurrentBackBufferIndex();

    this.rtvHeap = device.createDescriptorHeap({ numDescriptors: FRAME_COUNT, type: 'RTV', flags: 'NONE' });
    this.srvHeap = device.createDescriptorHeap({ numDescriptors: 1, type: 'CBV_SRV_UAV', flags: 'SHADER_VISIBLE' });
    this.rtvDescriptorSize = device.getDescriptorHandleIncrementSize('RTV');

    for (let n = 0; n < FRAME_COUNT; n++) {
      const renderTarget = swapChain.getBuffer(n);
      this.renderTargets[n] = renderTarget;
      device.createRenderTargetView(
        renderTarget,
        null,
        cpuDescriptorHandle(this.rtvHeap.getCPUDescriptorHandleForHeapStart(), n, this.rtvDescriptorSize),
      );
      this.commandAllocators[n] = device.createCommandAllocator('DIRECT');
    }
  }

  // ---- LoadAssets -----------------------------------------------------------------------------
  private async loadAssets(): Promise<void> {
    const { device, queue, mips } = this;
    // The root signature: the mip as one root constant (b0) and a table with the texture's SRV (t0),
    // both for the pixel shader, and the sample's static sampler (s0).
    let highestVersion: RootSignatureVersion;
    try {
      highestVersion = device.checkFeatureSupport('ROOT_SIGNATURE').highestVersion;
    } catch {
      highestVersion = '1_0';
    }
    // The SRV does not change while a list that set the table runs: the default range flags (DATA_STATIC_WHILE_SET_AT_EXECUTE).
    const ranges: DescriptorRange[] = [descriptorRange1('SRV', 1, 0)];
    const rootParameters: RootParameter[] = [rootConstants(1, 0, 0, 'PIXEL'), rootDescriptorTable(ranges, 'PIXEL')];
    const sampler: StaticSamplerDesc = {
      filter: 'MIN_MAG_MIP_LINEAR',
      addressU: 'BORDER',
      addressV: 'BORDER',
      addressW: 'BORDER',
      mipLODBias: 0,
      maxAnisotropy: 0,
      comparisonFunc: 'NEVER',
      borderColor: 'TRANSPARENT_BLACK',
      minLOD: 0.0,
      maxLOD: FLOAT32_MAX,
      shaderRegister: 0,
      registerSpace: 0,
      shaderVisibility: 'PIXEL',
    };
    const rootSignatureDesc = versionedRootSignatureDesc_1_1(
      rootParameters,
      [sampler],
      'ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT',
    );
    const signature = d3dx12SerializeVersionedRootSignature(rootSignatureDesc, highestVersion);
    this.rootSignature = device.createRootSignature(0, signature);

    // The pipeline state: shaders.wgsl's VSMain and PSMain (the sample's shaders.hlsl).
    this.pipelineState = await device.createGraphicsPipelineState({
      inputLayout: {
        inputElementDescs: [
          {
            semanticName: 'POSITION',
            semanticIndex: 0,
            format: 'R32G32B32_FLOAT',
            inputSlot: 0,
            alignedByteOffset: 0,
            inputSlotClass: 'PER_VERTEX_DATA',
            instanceDataStepRate: 0,
          },
          {
            semanticName: 'TEXCOORD',
            semanticIndex: 0,
            format: 'R32G32_FLOAT',
            inputSlot: 0,
            alignedByteOffset: 12,
            inputSlotClass: 'PER_VERTEX_DATA',
            instanceDataStepRate: 0,
          },
        ],
      },
      rootSignature: this.rootSignature,
      code: shaders,
      vertexEntryPoint: 'VSMain',
      fragmentEntryPoint: 'PSMain',
      rasterizerState: defaultRasterizerDesc(),
      blendState: defaultBlendDesc(),
      depthStencilState: { depthEnable: false, stencilEnable: false },
      sampleMask: 0xffffffff,
      primitiveTopologyType: 'TRIANGLE',
      numRenderTargets: 1,
      rtvFormats: [this.swapChain.format],
      sampleDesc: { count: 1 },
      label: 'reserved-resources quad',
    });

    const commandList = device.createCommandList(
      0,
      'DIRECT',
      this.commandAllocators[this.frameIndex] as CommandAllocator,
      this.pipelineState,
    );
    this.commandList = commandList;

    // The vertex buffer: a DEFAULT buffer filled from an UPLOAD one. (The sample lets its upload buffer
    // go once the setup has run; this port keeps it to upload the quad again when the back buffer changes shape.)
    const firstTarget = this.renderTargets[this.frameIndex] as BackBuffer;
    this.aspectRatio = Math.fround(firstTarget.width / firstTarget.height);
    const vertexBufferSize = quadVertices(this.aspectRatio).byteLength;
    this.vertexBufferSize = vertexBufferSize;
    this.vertexBuffer = device.createCommittedResource(
      heapProperties('DEFAULT'),
      [],
      bufferResourceDesc(vertexBufferSize),
      'COPY_DEST',
    );
    this.vertexBuffer.setName('quad vertex buffer');
    this.vertexBufferUpload = device.createCommittedResource(
      heapProperties('UPLOAD'),
      [],
      bufferResourceDesc(vertexBufferSize),
      'GENERIC_READ',
    );
    this.vertexBufferUpload.setName('quad vertex upload buffer');
    this.uploadVertices();
    commandList.resourceBarrier([transitionBarrier(this.vertexBuffer, 'COPY_DEST', 'VERTEX_AND_CONSTANT_BUFFER')]);
    this.vertexBufferView = {
      bufferLocation: this.vertexBuffer.getGPUVirtualAddress(),
      strideInBytes: VERTEX_STRIDE,
      sizeInBytes: vertexBufferSize,
    };

    // The reserved texture: no memory until updateTileMapping maps a heap into it.
    const reservedTextureDesc: ResourceDesc = {
      mipLevels: mips.length,
      format: 'R8G8B8A8_UNORM',
      width: TEXTURE_WIDTH,
      height: TEXTURE_HEIGHT,
      flags: [],
      depthOrArraySize: 1,
      sampleDesc: { count: 1, quality: 0 },
      dimension: 'TEXTURE2D',
      layout: '64KB_UNDEFINED_SWIZZLE',
    };
    const reservedResource = device.createReservedResource(reservedTextureDesc, 'COPY_DEST');
    this.reservedResource = reservedResource;
    reservedResource.setName(`reserved texture ${TEXTURE_WIDTH}×${TEXTURE_HEIGHT}, ${mips.length} mips`);

    const srvDesc: ShaderResourceViewDesc = {
      shader4ComponentMapping: DEFAULT_SHADER_4_COMPONENT_MAPPING,
      format: reservedTextureDesc.format as string,
      viewDimension: 'TEXTURE2D',
      texture2D: { mipLevels: reservedTextureDesc.mipLevels as number },
    };
    device.createShaderResourceView(reservedResource, srvDesc, this.srvHeap.getCPUDescriptorHandleForHeapStart());

    // An upload buffer the size of the largest mip (every other mip, and the packed tail, fit in it).
    this.resourceSize = getRequiredIntermediateSize(reservedResource, 0, 1);
    this.uploadHeap = device.createCommittedResource(
      heapProperties('UPLOAD'),
      [],
      bufferResourceDesc(this.resourceSize),
      'GENERIC_READ',
    );
    this.uploadHeap.setName('texture upload buffer');

    // The tiling the emulator reports (always asked, never computed by hand).
    this.tiling = device.getResourceTiling(reservedResource);
    const packedMipInfo = this.tiling.packedMipDesc;
    const tilings = this.tiling.subresourceTilings;
    const heapCount = packedMipInfo.numStandardMips + (packedMipInfo.numPackedMips > 0 ? 1 : 0);
    for (let n = 0; n < mips.length; n++) {
      if (n < packedMipInfo.numStandardMips) {
        const t = tilings[n] as SubresourceTiling;
        mips[n] = {
          heapIndex: n,
          packedMip: false,
          mapped: false,
          startCoordinate: tiledResourceCoordinate(0, 0, 0, n),
          regionSize: {
            width: t.widthInTiles,
            height: t.heightInTiles,
            depth: t.depthInTiles,
            numTiles: t.widthInTiles * t.heightInTiles * t.depthInTiles,
            useBox: true,
          },
        };
      } else {
        // The packed mips share the last heap, one start coordinate and one region.
        mips[n] = {
          heapIndex: heapCount - 1,
          packedMip: true,
          mapped: false,
          startCoordinate: tiledResourceCoordinate(0, 0, 0, heapCount - 1),
          regionSize: { numTiles: packedMipInfo.numTilesForPackedMips, useBox: false },
        };
      }
    }

    // A heap per standard mip and one for the packed mips: a single heap would do, but the sample
    // maps tiles from several heaps into one resource on purpose.
    for (let n = 0; n < heapCount; n++) {
      const heapSize = (mips[n] as MipInfo).regionSize.numTiles * TILE_SIZE;
      const heap = device.createHeap(heapDesc(heapSize, 'DEFAULT', 0, ['DENY_BUFFERS', 'DENY_RT_DS_TEXTURES']));
      heap.setName(n < packedMipInfo.numStandardMips ? `mip ${n} heap` : 'packed mips heap');
      this.heaps[n] = heap;
    }

    this.updateTileMapping();
    commandList.resourceBarrier([transitionBarrier(reservedResource, 'COPY_DEST', 'PIXEL_SHADER_RESOURCE')]);

    commandList.close();
    queue.executeCommandLists([commandList]);

    this.fence = device.createFence(this.fenceValues[this.frameIndex]);
    this.fenceValues[this.frameIndex] = (this.fenceValues[this.frameIndex] as number) + 1;
    await this.waitForGpu();
  }

  /** The quad's vertices for the current aspect ratio, through the upload buffer (recorded on the command list). */
  private uploadVertices(): void {
    const size = this.vertexBufferSize;
    const vertexData: SubresourceData = { data: quadVertices(this.aspectRatio), rowPitch: size, slicePitch: size };
    updateSubresources(this.commandList, this.vertexBuffer, this.vertexBufferUpload, 0, 0, 1, [vertexData]);
  }

  /**
   * UpdateTileMapping: the active mip's heap mapped (and its texels generated and uploaded) unless it
   * is already; every other mapped heap unmapped with a NULL range.
   */
  updateTileMapping(): void {
    const { mips, heaps, tiling } = this;
    const active = mips[this.currentMip] as MipInfo;
    const firstSubresource = active.heapIndex;
    const subresourceCount = active.packedMip ? tiling.packedMipDesc.numPackedMips : 1;
    if (!(mips[firstSubresource] as MipInfo).mapped) {
      // As in the sample, one upload buffer serves every change; the emulator sends CPU writes to it in
      // queue order, so a copy from it that is still in flight reads the bytes it was recorded with.
      const texture = generateTextureData(firstSubresource, subresourceCount);
      for (let n = 0; n < heaps.length; n++) {
        const mip = mips[n] as MipInfo;
        if (!mip.mapped && n !== firstSubresource) continue; // unchanged
        let rangeFlags: TileRangeFlag;
        if (n === firstSubresource) {
          rangeFlags = 'NONE';
          mip.mapped = true;
        } else {
          rangeFlags = 'NULL';
          mip.mapped = false;
        }
        const heapRangeStartOffsets = 0; // each heap holds one region
        const rangeTileCounts = mip.regionSize.numTiles;
        this.queue.updateTileMappings(
          this.reservedResource,
          [mip.startCoordinate],
          [mip.regionSize],
          heaps[n] as Heap,
          [rangeFlags],
          [heapRangeStartOffsets],
          [rangeTileCounts],
          'NONE',
        );
      }

      const data: SubresourceData[] = [];
      let mipOffset = 0;
      for (let n = 0; n < subresourceCount; n++) {
        const { width, height } = mipSize(firstSubresource + n);
        const rowPitch = width * TEXTURE_PIXEL_SIZE_IN_BYTES;
        const slicePitch = rowPitch * height;
        data.push({ data: texture.subarray(mipOffset, mipOffset + slicePitch), rowPitch, slicePitch });
        mipOffset += slicePitch;
      }
      updateSubresources(
        this.commandList,
        this.reservedResource,
        this.uploadHeap,
        0,
        firstSubresource,
        subresourceCount,
        data,
      );
      this.uploadLog.push({ frame: this.frames, firstSubresource, count: subresourceCount, bytes: texture.byteLength });
    }
    this.activeMipChanged = false;
  }

  // ---- The frame ------------------------------------------------------------------------------
  populateCommandList(): void {
    const { commandList, reservedResource } = this;
    const allocator = this.commandAllocators[this.frameIndex] as CommandAllocator;
    allocator.reset();
    commandList.reset(allocator, this.pipelineState);

    if (this.activeMipChanged) {
      commandList.resourceBarrier([transitionBarrier(reservedResource, 'PIXEL_SHADER_RESOURCE', 'COPY_DEST')]);
      this.updateTileMapping();
      commandList.resourceBarrier([transitionBarrier(reservedResource, 'COPY_DEST', 'PIXEL_SHADER_RESOURCE')]);
    }

    const renderTarget = this.renderTargets[this.frameIndex] as BackBuffer;
    const shape = Math.fround(renderTarget.width / renderTarget.height);
    if (shape !== this.aspectRatio) {
      // Not in the sample, whose window keeps its size: the quad's vertices for the back buffer's new
      // shape. A buffer decays to COMMON when the list that used it completes, and the copy promotes
      // it to COPY_DEST; from there it needs a barrier before the draw reads it.
      this.aspectRatio = shape;
      this.uploadVertices();
      commandList.resourceBarrier([transitionBarrier(this.vertexBuffer, 'COPY_DEST', 'VERTEX_AND_CONSTANT_BUFFER')]);
    }

    commandList.setGraphicsRootSignature(this.rootSignature);
    commandList.setDescriptorHeaps([this.srvHeap]);
    commandList.setGraphicsRoot32BitConstant(0, this.currentMip, 0);
    commandList.setGraphicsRootDescriptorTable(1, this.srvHeap.getGPUDescriptorHandleForHeapStart());
    commandList.rsSetViewports([viewport(0, 0, renderTarget.width, renderTarget.height)]);
    commandList.rsSetScissorRects([rect(0, 0, renderTarget.width, renderTarget.height)]);

    commandList.resourceBarrier([transitionBarrier(renderTarget, 'PRESENT', 'RENDER_TARGET')]);
    const rtvHandle = cpuDescriptorHandle(
      this.rtvHeap.getCPUDescriptorHandleForHeapStart(),
      this.frameIndex,
      this.rtvDescriptorSize,
    );
    commandList.omSetRenderTargets([rtvHandle], false, null);

    commandList.clearRenderTargetView(rtvHandle, CLEAR_COLOR, null);
    commandList.iaSetPrimitiveTopology('TRIANGLESTRIP');
    commandList.iaSetVertexBuffers(0, [this.vertexBufferView]);
    commandList.drawInstanced(4, 1, 0, 0);

    commandList.resourceBarrier([transitionBarrier(renderTarget, 'RENDER_TARGET', 'PRESENT')]);
    commandList.close();
  }

  /**
   * OnRender up to Present: the frame's command list, recorded and executed. The caller presents,
   * then calls moveToNextFrame() before the next onRender().
   */
  async onRender(): Promise<void> {
    const target = this.renderTargets[this.frameIndex] as BackBuffer;
    // The back buffer changed shape: populateCommandList rewrites the vertex upload buffer, which no
    // earlier frame may still be reading (rare enough to wait for the GPU).
    if (Math.fround(target.width / target.height) !== this.aspectRatio) await this.waitForGpu();
    this.populateCommandList();
    this.queue.executeCommandLists([this.commandList]);
    this.frames++;
  }

  /** WaitForGpu: a signal, and a wait for it. */
  async waitForGpu(): Promise<void> {
    const { fence, fenceValues, frameIndex } = this;
    this.queue.signal(fence, fenceValues[frameIndex] as number);
    await fence.setEventOnCompletion(fenceValues[frameIndex] as number);
    fenceValues[frameIndex] = (fenceValues[frameIndex] as number) + 1;
  }

  /** MoveToNextFrame: signal the frame just presented, then wait until the next back buffer's last frame is done. */
  async moveToNextFrame(): Promise<void> {
    const { fence, fenceValues } = this;
    const currentFenceValue = fenceValues[this.frameIndex] as number;
    this.queue.signal(fence, currentFenceValue);
    this.frameIndex = this.swapChain.getCurrentBackBufferIndex();
    if (fence.getCompletedValue() < (fenceValues[this.frameIndex] as number))
      await fence.setEventOnCompletion(fenceValues[this.frameIndex] as number);
    fenceValues[this.frameIndex] = currentFenceValue + 1;
  }

  /**
   * OnKeyDown's rule (left or up: -1, right or down: +1): one mip at a time, within the chain.
   * Returns whether the mip changed; the next populateCommandList maps it.
   */
  stepMip(delta: -1 | 1): boolean {
    if (delta < 0 && this.currentMip !== 0) {
      this.currentMip--;
      this.activeMipChanged = true;
      return true;
    }
    if (delta > 0 && this.currentMip < this.mips.length - 1) {
      this.currentMip++;
      this.activeMipChanged = true;
      return true;
    }
    return false;
  }

  /** OnDestroy: nothing may still use the objects once the caller lets them go (after moveToNextFrame, if a frame was presented). */
  async onDestroy(): Promise<void> {
    await this.waitForGpu();
  }

  // ---- Read-only state, for the page's panel and the tests --------------------------------------

  /** The mip shown (the root constant of the next frame). */
  get activeMip(): number {
    return this.currentMip;
  }

  get mipLevels(): number {
    return this.mips.length;
  }

  /** Mip `n`'s MipInfo: its heap, its tiles and whether that heap is mapped now. */
  mip(n: number): Readonly<MipInfo> {
    const mip = this.mips[n];
    if (!mip) throw new Error(`no mip ${n}: the texture has ${this.mips.length}`);
    return mip;
  }

  get packedMipInfo(): Readonly<PackedMipInfo> {
    return this.tiling.packedMipDesc;
  }

  get tileShape(): Readonly<TileShape> {
    return this.tiling.standardTileShapeForNonPackedMips;
  }

  get numTilesForEntireResource(): number {
    return this.tiling.numTilesForEntireResource;
  }

  get heapCount(): number {
    return this.heaps.length;
  }

  /** The mips heap `n` backs (one standard mip, or the packed tail). */
  heapMips(n: number): number[] {
    return this.mips.flatMap((mip, index) => (mip.heapIndex === n ? [index] : []));
  }

  /** The texture uploads so far, in order. */
  get uploads(): readonly Readonly<MipUpload>[] {
    return this.uploadLog;
  }

  /** The texture upload buffer's size (getRequiredIntermediateSize of mip 0). */
  get uploadBufferSize(): number {
    return this.resourceSize;
  }

  /** Frames rendered (onRender calls). */
  get framesRendered(): number {
    return this.frames;
  }

  snapshot(): ReservedResourcesSnapshot {
    const target = this.renderTargets[this.frameIndex] as BackBuffer;
    return {
      activeMip: this.currentMip,
      mipLevels: this.mips.length,
      packedMipInfo: { ...this.tiling.packedMipDesc },
      numTilesForEntireResource: this.tiling.numTilesForEntireResource,
      heaps: this.heaps.map((_, n) => ({
        tiles: (this.mips[n] as MipInfo).regionSize.numTiles,
        mips: this.heapMips(n),
        mapped: (this.mips[n] as MipInfo).mapped,
      })),
      uploads: this.uploadLog.map((upload) => ({ ...upload })),
      frames: this.frames,
      frameIndex: this.frameIndex,
      backBuffer: { width: target.width, height: target.height },
      aspectRatio: this.aspectRatio,
    };
  }

  /** Hooks for the tests (the page hands them to window.d3d12Demo.forTesting). */
  readonly forTesting = {
    /** Per tile of the texture: [index of its heap in the sample's list, heap tile], or null (NULL tile). */
    tileMappings: (): ([number, number] | null)[] =>
      Array.from({ length: this.tiling.numTilesForEntireResource }, (_, tile) => {
        const mapping = getTileMappingForTesting(this.reservedResource, tile);
        return mapping ? [this.heaps.indexOf(mapping.heap), mapping.heapTileOffset] : null;
      }),
    /** Each subresource's first tile and tile count (standard mips), and the packed tail's. */
    tiling: (): ReservedResourcesTiling => ({
      subresourceTilings: this.tiling.subresourceTilings.map((t) => ({ ...t })),
      packedMipDesc: { ...this.tiling.packedMipDesc },
    }),
  };
}
