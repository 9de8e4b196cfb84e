/**
 * Microsoft's D3D12Residency sample (DirectX-Graphics-Samples, Samples/Desktop/D3D12Residency) on
 * the emulator, D3D12 call for D3D12 call, with the sample's structure: the class D3D12Residency
 * with onInit (loadPipeline, loadAssets, loadTexturesAsync, whose loaders are texture-loader.ts's
 * createAndUpload), onRender, onDestroy, populateCommandList and flushGpu, in the sample's order.
 * See meta.ts for the summary.
 *
 * No DOM here: the sample takes a device, a DIRECT queue and a swap chain, so it runs on the demo
 * page (main.ts, over a canvas) and in Node.js with Dawn (over createOffscreenCanvasContext;
 * test/gpu/operation/demo/d3d12-residency-node.test.ts).
 *
 * Where the port differs:
 *   - the caller creates the device (deviceOptions()), the queue and the swap chain (the sample's
 *     CreateSwapChainForHwnd), in whatever format it likes (the page takes the canvas's preferred
 *     one); the pipeline's RTVFormats follow it. FrameCount is the swap chain's buffer count and, as
 *     DXGI's Present(1, 0) blocks while that many frames are queued, onRender's present waits for the
 *     frame FrameCount - 1 back;
 *   - the loader "threads" are async loops on this thread (texture-loader.ts);
 *   - the manager takes no MaxResidencyLatency (createResidencyManager refuses it: see
 *     src/residency/residency-manager.ts);
 *   - the sizes are the caller's (SampleOptions); the page scales them to the emulator: textures
 *     (512 of 256², 128 MiB) twice the LOCAL pool (64 MiB), which is the budget QueryVideoMemoryInfo
 *     reports, as the sample's 8 GiB of 1 MiB textures are a few times a GPU's budget; a debug budget
 *     (setResidencyDebugBudget, UE's D3D12.ResidencyDebugBudgetMB) may lower it;
 *   - the textures carry their number (texture-data.ts) and sit in a grid of square-ish viewports
 *     (grid.ts) rather than 2-pixel strips; the viewport follows the back buffer's size each frame;
 *   - the window title's text is the caller's to show (windowText), and each frame's residency facts
 *     are measured after the manager's executeCommandLists (residency-frame.ts) for the panel and tests.
 */
import {
  createResidencyManager,
  type CommandAllocator,
  type CommandQueue,
  type DescriptorHeap,
  type Device,
  type Fence,
  type GraphicsCommandList,
  type PipelineState,
  type ResidencyManager,
  type ResidencySet,
  type ResidencyStats,
  type Resource,
  type RootSignature,
  type SwapChain,
  type VertexBufferView,
} from '../../src/index.js';
import {
  bufferResourceDesc,
  cpuDescriptorHandle,
  d3dx12SerializeVersionedRootSignature,
  defaultBlendDesc,
  defaultRasterizerDesc,
  descriptorRange1,
  gpuDescriptorHandle,
  heapProperties,
  rect,
  rootDescriptorTable,
  staticSamplerDesc,
  tex2DResourceDesc,
  transitionBarrier,
  updateSubresources,
  versionedRootSignatureDesc_1_1,
  viewport,
} from '../../src/d3dx12/index.js';
import { cellOf, gridFor } from './grid.js';
import { measureFrame, type RecordedFrame, type ResidencyFrame } from './residency-frame.js';
import shaders from './shaders.wgsl?raw';
import { createAndUpload, type LoaderHost, type ManagedTexture } from './texture-loader.js';

export type { ResidencyFrame } from './residency-frame.js';

const MiB = 2 ** 20;
/** The sample's CommandListSubmissionsPerFrame. */
const COMMAND_LIST_SUBMISSIONS_PER_FRAME = 1;
/** The sample draws textures up to this share of the budget per command list. */
const BUDGET_SHARE = 0.95;
const CLEAR_COLOR: [number, number, number, number] = [0, 0.2, 0.4, 1];
/** Frames the history keeps. */
const HISTORY_LENGTH = 600;
/** The LOCAL pool the page gives the device by default: the budget QueryVideoMemoryInfo reports unless a debug budget lowers it. */
export const DEFAULT_LOCAL_MIB = 64;

/** The emulated memory of the sample's device (createDevice's options): `localMiB` of LOCAL, 64 MiB of NON_LOCAL. */
export function deviceOptions(localMiB = DEFAULT_LOCAL_MIB): { localMemoryBytes: number; nonLocalMemoryBytes: number } {
  return { localMemoryBytes: Math.round(localMiB * MiB), nonLocalMemoryBytes: 64 * MiB };
}

export interface SampleContext {
  device: Device;
  /** A DIRECT queue (the sample's m_commandQueue). */
  queue: CommandQueue;
  /** Its buffer count is the sample's FrameCount. */
  swapChain: SwapChain;
}

export interface SampleOptions {
  /** NumTextures (default 512). */
  textures?: number;
  /** TextureWidth = TextureHeight, in texels (default 256). */
  textureSize?: number;
  /** A debug budget for LOCAL memory, set with setResidencyDebugBudget before anything is created (default none). */
  debugBudgetBytes?: number;
  /** Concurrent texture loaders (default MaxResidencyLatency + 1, as the sample's numThreads). */
  loaders?: number;
}

/** The sample's ManagedCommandList. */
export interface ManagedCommandList {
  commandAllocator: CommandAllocator;
  commandList: GraphicsCommandList;
  residencySet: ResidencySet;
  fenceValue: number;
}

export interface ResidencySnapshot {
  textures: number;
  textureSize: number;
  textureBytes: number;
  loaded: number;
  totalAllocations: number;
  loadMs: number | null;
  frameCount: number;
  stats: ResidencyStats;
  residencyStats: { residentMemoryInBytes: number; evictedMemoryInBytes: number };
  history: ResidencyFrame[];
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`option ${name} must be a positive integer, got ${value}`);
  return value;
}

export class D3D12Residency {
  /** The constructor and onInit (loadPipeline, loadAssets, loadTexturesAsync): ready for its first frame, textures loading. */
  static async create(context: SampleContext, options: SampleOptions = {}): Promise<D3D12Residency> {
    const sample = new D3D12Residency(context, options);
    sample.loadPipeline();
    await sample.loadAssets();
    sample.loadTexturesAsync(options.loaders);
    return sample;
  }

  readonly device: Device;
  private readonly commandQueue: CommandQueue;
  private readonly swapChain: SwapChain;
  readonly numTextures: number;
  readonly textureWidth: number;
  readonly textureHeight: number;
  /** The sample's FrameCount (the swap chain's buffers) and MaxResidencyLatency. */
  readonly frameCount: number;
  readonly maxResidencyLatency: number;

  private frameIndex = 0;
  private rtvHeap!: DescriptorHeap;
  private srvHeap!: DescriptorHeap;
  private rtvDescriptorSize = 0;
  private srvDescriptorSize = 0;
  private commandAllocator!: CommandAllocator;
  private rootSignature!: RootSignature;
  private pipelineState!: PipelineState;
  private commandList!: GraphicsCommandList;
  private vertexBuffer!: Resource;
  private vertexBufferView!: VertexBufferView;
  private fence!: Fence;
  private fenceValue = 0;

  readonly residencyManager: ResidencyManager;
  private readonly loadedTextures: (ManagedTexture | null)[];
  private readonly incompleteTextures: ManagedTexture[] = [];
  private readonly commandListPool: ManagedCommandList[] = [];
  private threads: Promise<void>[] = [];
  private textureIndex = 0;
  private cancel = false;
  private loadedCount = 0;
  private allocated = 0;
  private loadError: Error | undefined;
  private loadStarted = 0;
  private loadTime: number | null = null;
  /** The fence values of the frames presented and maybe still on the GPU, oldest first. */
  private readonly framesInFlight: number[] = [];
  private frames = 0;
  private title = '';
  /** The frames rendered, the last HISTORY_LENGTH of them. */
  readonly history: ResidencyFrame[] = [];

  private constructor({ device, queue, swapChain }: SampleContext, options: SampleOptions) {
    this.device = device;
    this.commandQueue = queue;
    this.swapChain = swapChain;
    this.numTextures = positiveInteger('textures', options.textures, 512);
    this.textureWidth = this.textureHeight = positiveInteger('textureSize', options.textureSize, 256);
    this.frameCount = swapChain.bufferCount;
    this.maxResidencyLatency = this.frameCount * COMMAND_LIST_SUBMISSIONS_PER_FRAME;
    if (options.debugBudgetBytes !== undefined) device.setResidencyDebugBudget(options.debugBudgetBytes);
    this.residencyManager = createResidencyManager(device);
    this.loadedTextures = new Array<ManagedTexture | null>(this.numTextures).fill(null);
  }

  /** LoadPipeline: the descriptor heaps, an RTV per back buffer and the command allocator (the queue and swap chain are the caller's). */
  loadPipeline(): void {
    const { device, swapChain } = this;
    this.frameIndex = swapChain.getCurrentBackBufferIndex();

    this.rtvHeap = device.createDescriptorHeap({ type: 'RTV', numDescriptors: this.frameCount, flags: 'NONE' });
    this.srvHeap = device.createDescriptorHeap({
      type: 'CBV_SRV_UAV',
      numDescriptors: this.numTextures,
      flags: 'SHADER_VISIBLE',
    });
    this.srvHeap.setName('texture SRVs');
    this.rtvDescriptorSize = device.getDescriptorHandleIncrementSize('RTV');
    this.srvDescriptorSize = device.getDescriptorHandleIncrementSize('CBV_SRV_UAV');

    for (let n = 0; n < this.frameCount; n++) {
      const rtvHandle = cpuDescriptorHandle(
        this.rtvHeap.getCPUDescriptorHandleForHeapStart(),
        n,
        this.rtvDescriptorSize,
      );
      device.createRenderTargetView(swapChain.getBuffer(n), null, rtvHandle);
    }
    this.commandAllocator = device.createCommandAllocator('DIRECT');
  }

  /** LoadAssets: the root signature, the pipeline state, the quad's vertex buffer (uploaded), the fence. */
  async loadAssets(): Promise<void> {
    const { device } = this;
    const { highestVersion } = device.checkFeatureSupport('ROOT_SIGNATURE');
    const ranges = [descriptorRange1('SRV', 1, 0, 0, 'DESCRIPTORS_VOLATILE')];
    const rootParameters = [rootDescriptorTable(ranges, 'PIXEL')];
    const sampler = staticSamplerDesc(0, { filter: 'MIN_MAG_MIP_POINT', shaderVisibility: 'PIXEL' });
    const rootSignatureDesc = versionedRootSignatureDesc_1_1(
      rootParameters,
      [sampler],
      'ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT',
    );
    const signature = d3dx12SerializeVersionedRootSignature(rootSignatureDesc, highestVersion);
    this.rootSignature = device.createRootSignature(0, signature);

    const perVertex = {
      semanticIndex: 0,
      inputSlot: 0,
      inputSlotClass: 'PER_VERTEX_DATA',
      instanceDataStepRate: 0,
    } as const;
    this.pipelineState = await device.createGraphicsPipelineState({
      inputLayout: {
        inputElementDescs: [
          { ...perVertex, semanticName: 'POSITION', format: 'R32G32B32_FLOAT', alignedByteOffset: 0 },
          { ...perVertex, semanticName: 'TEXCOORD', format: 'R32G32_FLOAT', alignedByteOffset: 12 },
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
      label: 'textured quad',
    });

    const commandList = device.createCommandList(0, 'DIRECT', this.commandAllocator, this.pipelineState);
    this.commandList = commandList;
    commandList.setName('load assets');

    // The quad: x y z, u v; a triangle strip over the viewport, v = 0 at its bottom (the sample's).
    const quadVertices = new Float32Array([-1, -1, 0, 0, 0, -1, 1, 0, 0, 1, 1, -1, 0, 1, 0, 1, 1, 0, 1, 1]);
    const vertexBufferSize = quadVertices.byteLength;
    this.vertexBuffer = device.createCommittedResource(
      heapProperties('DEFAULT'),
      [],
      bufferResourceDesc(vertexBufferSize),
      'COPY_DEST',
    );
    this.vertexBuffer.setName('quad vertices');
    const vertexBufferUpload = device.createCommittedResource(
      heapProperties('UPLOAD'),
      [],
      bufferResourceDesc(vertexBufferSize),
      'GENERIC_READ',
    );
    updateSubresources(commandList, this.vertexBuffer, vertexBufferUpload, 0, 0, 1, [
      { data: quadVertices, rowPitch: vertexBufferSize, slicePitch: vertexBufferSize },
    ]);
    commandList.resourceBarrier([transitionBarrier(this.vertexBuffer, 'COPY_DEST', 'VERTEX_AND_CONSTANT_BUFFER')]);
    this.vertexBufferView = {
      bufferLocation: this.vertexBuffer.getGPUVirtualAddress(),
      strideInBytes: 5 * 4,
      sizeInBytes: vertexBufferSize,
    };
    commandList.close();
    this.commandQueue.executeCommandLists([commandList]);

    this.fence = device.createFence(0);
    this.fenceValue = 1;
    await this.flushGpu();
    // The sample's ComPtr lets the upload buffer go when LoadAssets returns, the GPU done with it.
    vertexBufferUpload.release();
  }

  /**
   * LoadTexturesAsync: the manager tracks the textures alone (the vertex buffer and descriptor heap
   * stay resident); `loaders` createAndUpload loops (texture-loader.ts) load them, in any order.
   */
  loadTexturesAsync(loaders = this.maxResidencyLatency + 1): void {
    for (let n = 0; n < this.numTextures; n++) this.incompleteTextures.push({ texture: null, size: 0, index: n });
    const host: LoaderHost = {
      device: this.device,
      residencyManager: this.residencyManager,
      srvHeap: this.srvHeap,
      srvDescriptorSize: this.srvDescriptorSize,
      pipelineState: this.pipelineState,
      numTextures: this.numTextures,
      textureWidth: this.textureWidth,
      textureHeight: this.textureHeight,
      cancelled: () => this.cancel,
      countAllocation: (bytes) => {
        this.allocated += bytes;
      },
      getNextIncompleteTexture: () => this.incompleteTextures.shift(),
      storeCompletedTexture: (texture) => {
        this.loadedTextures[texture.index] = texture;
        this.loadedCount++;
      },
    };
    const numThreads = positiveInteger('loaders', loaders, this.maxResidencyLatency + 1);
    this.loadStarted = performance.now();
    this.threads = Array.from({ length: numThreads }, () =>
      createAndUpload(host).catch((error: unknown) => {
        this.loadError ??= error instanceof Error ? error : new Error('a texture loader failed', { cause: error });
        this.cancel = true;
      }),
    );
    void Promise.all(this.threads).then(() => {
      if (this.loadedCount === this.numTextures) this.loadTime = performance.now() - this.loadStarted;
    });
  }

  /**
   * OnRender: a managed command list from the pool (or a new one while the oldest is in flight),
   * populateCommandList, the manager's executeCommandLists, the fence signalled, Present, the next
   * back buffer. Returns what the frame did (and keeps it in `history`). A loader's failure is
   * thrown here (where the sample's std::async would rethrow it at OnDestroy).
   */
  async onRender(): Promise<ResidencyFrame> {
    if (this.loadError) throw this.loadError;
    const { device, residencyManager } = this;
    let pManagedCommandList: ManagedCommandList;
    const front = this.commandListPool[0];
    if (!front || front.fenceValue > this.fence.getCompletedValue()) {
      const commandAllocator = device.createCommandAllocator('DIRECT');
      pManagedCommandList = {
        commandAllocator,
        commandList: device.createCommandList(0, 'DIRECT', commandAllocator, this.pipelineState),
        residencySet: residencyManager.createResidencySet(),
        fenceValue: 0,
      };
    } else {
      pManagedCommandList = this.commandListPool.shift() as ManagedCommandList;
      pManagedCommandList.commandAllocator.reset();
      pManagedCommandList.commandList.reset(pManagedCommandList.commandAllocator, this.pipelineState);
    }
    this.commandListPool.push(pManagedCommandList);

    const recorded = this.populateCommandList(pManagedCommandList);

    const before = residencyManager.getStats();
    residencyManager.executeCommandLists(
      this.commandQueue,
      [pManagedCommandList.commandList],
      [pManagedCommandList.residencySet],
    );
    const entry = measureFrame(device, recorded, before, residencyManager.getStats(), this.loadedTextures);

    const fence = this.fenceValue;
    this.commandQueue.signal(this.fence, fence);
    this.fenceValue++;

    await this.present(fence);
    this.frameIndex = this.swapChain.getCurrentBackBufferIndex();

    pManagedCommandList.fenceValue = fence;
    this.frames++;
    this.history.push(entry);
    if (this.history.length > HISTORY_LENGTH) this.history.shift();
    return entry;
  }

  /** Present(1, 0), which blocks while FrameCount frames are queued: here it waits for the frame FrameCount - 1 back. */
  private async present(fence: number): Promise<void> {
    this.swapChain.present(1);
    this.framesInFlight.push(fence);
    while (this.framesInFlight.length > this.frameCount - 1) {
      const oldest = this.framesInFlight.shift() as number;
      if (this.fence.getCompletedValue() < oldest) await this.fence.setEventOnCompletion(oldest);
    }
  }

  /** OnDestroy: the loaders stop after the texture in hand, and the GPU finishes what it has. */
  async onDestroy(): Promise<void> {
    this.cancel = true;
    await Promise.all(this.threads);
    await this.flushGpu();
  }

  /**
   * PopulateCommandList: the window title's numbers, then one draw per texture of the window (each
   * through its own descriptor table, into its own viewport, inserted into the list's residency set)
   * until 95 % of the budget is referenced; the window moves on by one while it holds fewer textures
   * than are loaded.
   */
  populateCommandList(pManagedCommandList: ManagedCommandList): RecordedFrame {
    const { residencyManager, srvHeap } = this;
    const memoryInfo = this.device.queryVideoMemoryInfo('LOCAL');
    const { evictedMemoryInBytes } = residencyManager.queryResidencyStats();
    this.title =
      `Total Allocated: ${Math.floor(this.allocated / MiB)} MB | Budget: ${Math.floor(memoryInfo.budget / MiB)} MB | ` +
      `Using: ${Math.floor(memoryInfo.currentUsage / MiB)} MB | Evicted: ${Math.floor(evictedMemoryInBytes / MiB)} MB`;

    const commandList = pManagedCommandList.commandList;
    commandList.setName(`frame ${this.frames}`);
    pManagedCommandList.residencySet.open();

    const backBuffer = this.swapChain.getBuffer(this.frameIndex);
    const { width, height } = backBuffer;
    commandList.setGraphicsRootSignature(this.rootSignature);
    commandList.setDescriptorHeaps([srvHeap]);
    commandList.setGraphicsRootDescriptorTable(0, srvHeap.getGPUDescriptorHandleForHeapStart());
    commandList.rsSetViewports([viewport(0, 0, width, height)]);
    commandList.rsSetScissorRects([rect(0, 0, width, height)]);

    commandList.resourceBarrier([transitionBarrier(backBuffer, 'PRESENT', 'RENDER_TARGET')]);
    const rtvHandle = cpuDescriptorHandle(
      this.rtvHeap.getCPUDescriptorHandleForHeapStart(),
      this.frameIndex,
      this.rtvDescriptorSize,
    );
    commandList.omSetRenderTargets([rtvHandle], false, null);

    commandList.clearRenderTargetView(rtvHandle, CLEAR_COLOR, null);
    commandList.iaSetPrimitiveTopology('TRIANGLESTRIP');
    commandList.iaSetVertexBuffers(0, [this.vertexBufferView]);

    // One viewport per texture; a back buffer too small for one pixel each draws none (the set still holds them).
    const grid = gridFor(this.numTextures, width, height);
    const visible = grid.cellWidth > 0 && grid.cellHeight > 0;

    // Only as much memory as the budget allows resident at once is referenced by this list.
    const memoryToUse = Math.floor(memoryInfo.budget * BUDGET_SHARE);
    const textureCount = this.loadedTextureCount;
    const windowStart = this.textureIndex;
    const drawn: number[] = [];
    let sizeUsed = 0;
    if (textureCount > 0) {
      let textureIndex = this.textureIndex;
      do {
        const pTexture = this.loadedTextures[textureIndex];
        if (pTexture?.texture) {
          const gpuHandle = gpuDescriptorHandle(
            srvHeap.getGPUDescriptorHandleForHeapStart(),
            pTexture.index,
            this.srvDescriptorSize,
          );
          commandList.setGraphicsRootDescriptorTable(0, gpuHandle);
          pManagedCommandList.residencySet.insert(pTexture.texture);
          sizeUsed += pTexture.size;
          drawn.push(pTexture.index);
          if (visible) {
            const cell = cellOf(grid, textureIndex);
            commandList.rsSetViewports([viewport(cell.x, cell.y, grid.cellWidth, grid.cellHeight)]);
            commandList.drawInstanced(4, 1, 0, 0);
          }
        }
        textureIndex = (textureIndex + 1) % textureCount;
      } while (sizeUsed < memoryToUse && textureIndex !== this.textureIndex);
      // Once more textures are loaded than the budget lets one list draw, the window moves on.
      if (textureIndex !== this.textureIndex) this.textureIndex = (this.textureIndex + 1) % textureCount;
    }

    commandList.resourceBarrier([transitionBarrier(backBuffer, 'RENDER_TARGET', 'PRESENT')]);
    commandList.close();
    pManagedCommandList.residencySet.close();
    return {
      frame: this.frames,
      width,
      height,
      grid,
      loaded: textureCount,
      windowStart,
      drawn,
      drawnBytes: sizeUsed,
      budget: memoryInfo.budget,
      usageBefore: memoryInfo.currentUsage,
    };
  }

  /** FlushGpu: a signal, and a wait for it. */
  async flushGpu(): Promise<void> {
    const fence = this.fenceValue;
    this.commandQueue.signal(this.fence, fence);
    this.fenceValue++;
    if (this.fence.getCompletedValue() < fence) await this.fence.setEventOnCompletion(fence);
  }

  // ---- Read-only state, for the page's panel and the tests --------------------------------------

  /** The sample's window title (SetCustomWindowText), as the last populateCommandList made it. */
  get windowText(): string {
    return this.title;
  }

  /** LoadedTextureCount(): textures the loaders have stored. */
  get loadedTextureCount(): number {
    return this.loadedCount;
  }

  /** m_totalAllocations: bytes of the textures created so far. */
  get totalAllocations(): number {
    return this.allocated;
  }

  /** Milliseconds from LoadTexturesAsync until every texture was loaded (null until then). */
  get loadMs(): number | null {
    return this.loadTime;
  }

  /** Frames rendered (onRender calls). */
  get framesRendered(): number {
    return this.frames;
  }

  /** One texture's size (getResourceAllocationInfo of the sample's texture desc). */
  get textureBytes(): number {
    const desc = tex2DResourceDesc('R8G8B8A8_UNORM', this.textureWidth, this.textureHeight, 1, 1);
    return this.device.getResourceAllocationInfo([desc]).sizeInBytes;
  }

  snapshot(): ResidencySnapshot {
    return {
      textures: this.numTextures,
      textureSize: this.textureWidth,
      textureBytes: this.textureBytes,
      loaded: this.loadedCount,
      totalAllocations: this.allocated,
      loadMs: this.loadTime,
      frameCount: this.frameCount,
      stats: this.residencyManager.getStats(),
      residencyStats: this.residencyManager.queryResidencyStats(),
      history: this.history,
    };
  }

  /** Hooks for the tests (the page hands them to window.d3d12Demo.forTesting). */
  readonly forTesting = {
    /** Resolves once every loader has stopped (all textures loaded, or cancelled), with the count loaded. */
    whenLoaded: async (): Promise<number> => {
      await Promise.all(this.threads);
      if (this.loadError) throw this.loadError;
      return this.loadedCount;
    },
    /** Per texture: null until loaded, else whether it is resident now and demoted to NON_LOCAL. */
    residency: (): ({ resident: boolean; demoted: boolean } | null)[] =>
      this.loadedTextures.map((t) => {
        if (!t?.texture) return null;
        const { resident, demoted } = this.device.getResidencyStatus(t.texture);
        return { resident, demoted };
      }),
  };
}
