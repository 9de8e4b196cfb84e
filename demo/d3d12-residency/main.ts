/**
 * Microsoft's D3D12Residency sample (DirectX-Graphics-Samples, Samples/Desktop/D3D12Residency) on
 * the emulator, D3D12 call for D3D12 call: LoadPipeline, LoadAssets, LoadTexturesAsync, OnRender and
 * PopulateCommandList keep the sample's order. See meta.ts for the summary. Where the port differs:
 *   - the swap chain, its queue and the canvas come from the scene shell (the sample's
 *     CreateSwapChainForHwnd); FrameCount is the swap chain's buffer count, and, as DXGI's Present
 *     blocks with that many frames queued, a frame waits for the fence of the frame that many back;
 *   - the loader "threads" are async loops on this thread, each with its copy queue, allocator, list,
 *     residency set, fence and upload buffer, as the sample's; their copy lists are created and reset
 *     with no initial pipeline state (a COPY list takes none here);
 *   - the manager takes no MaxResidencyLatency (createResidencyManager refuses it: see
 *     src/residency/residency-manager.ts);
 *   - the sizes are scaled to the emulator: textures (default 512 of 256², 128 MiB) twice the LOCAL pool
 *     (default 64 MiB), which is the budget QueryVideoMemoryInfo reports, as the sample's 8 GiB of
 *     1 MiB textures are a few times a GPU's budget;
 *   - the textures carry their number (texture-data.ts) and sit in a grid of square-ish viewports
 *     (grid.ts) rather than 2-pixel strips.
 *
 * URL parameters: textures (count; default 512, 96 on a software adapter), textureSize (texels a side;
 * default 256, 32 on a software adapter), localMiB (the LOCAL pool, which is the budget; default 64),
 * budgetMiB (the debug budget override, UE's D3D12.ResidencyDebugBudgetMB, which the panel's slider
 * sets too; none by default, 4 on a software adapter), loaders (concurrent texture loaders; default
 * FrameCount + 1, the sample's MaxResidencyLatency + 1).
 */
import {
  DEFAULT_SHADER_4_COMPONENT_MAPPING,
  createResidencyManager,
  type CommandAllocator,
  type GraphicsCommandList,
  type Resource,
  type ResidencySet,
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
import { formatBytes, LiveChart } from '../common/live-chart.js';
import { section, slider, StatTable } from '../common/panel.js';
import { runScene, type SceneContext } from '../common/scene-shell.js';
import { isSoftwareAdapter } from '../common/webgpu-access.js';
import { cellOf, gridFor, type Grid } from './grid.js';
import { meta } from './meta.js';
import shaders from './shaders.wgsl?raw';
import { TEXEL_BYTES, textureTexels } from './texture-data.js';

const MiB = 2 ** 20;

/** The sample's CommandListSubmissionsPerFrame. */
const COMMAND_LIST_SUBMISSIONS_PER_FRAME = 1;
/** The sample draws textures up to this share of the budget per command list. */
const BUDGET_SHARE = 0.95;
/** The sample's clear colour. */
const CLEAR_COLOR: [number, number, number, number] = [0, 0.2, 0.4, 1];

/** Defaults on a GPU, and on a CPU rasterizer (SwiftShader), where each draw costs far more. */
const DEFAULTS = { textures: 512, textureSize: 256 };
const SOFTWARE_DEFAULTS = { textures: 96, textureSize: 32, budgetMiB: 4 };
/** The LOCAL pool: the budget QueryVideoMemoryInfo reports unless the debug override lowers it. */
const DEFAULT_LOCAL_MIB = 64;

/** One frame, as the browser tests and the JSON read it. */
export interface ResidencyFrame {
  frame: number;
  /** The back buffer's size and the grid drawn into it. */
  width: number;
  height: number;
  grid: Grid;
  /** Textures loaded when the list was recorded (the sample's LoadedTextureCount()). */
  loaded: number;
  /** The first texture of the window (m_textureIndex when the list was recorded). */
  windowStart: number;
  /** The textures the list drew, in draw order (each inserted into the list's residency set). */
  drawn: number[];
  /** LOCAL budget and usage when the list was recorded, and usage right after the manager's executeCommandLists. */
  budget: number;
  usageBefore: number;
  usage: number;
  /** The manager's counters for this frame's batch. */
  evictions: number;
  madeResident: number;
  overBudget: boolean;
  /** Drawn textures that were not resident right after the manager's executeCommandLists (should be none). */
  drawnNotResident: number[];
  /** Drawn textures the emulated OS had demoted to NON_LOCAL memory then. */
  drawnDemoted: number[];
  /** Loaded textures resident after the frame's batch, and those of them the emulated OS had demoted to NON_LOCAL. */
  resident: number;
  demoted: number;
  /** NON_LOCAL usage right after the manager's executeCommandLists. */
  nonLocalUsage: number;
  /** What the manager reported when the batch did not fit (null when it did). */
  overBudgetBy: { segment: string; usage: number; budget: number } | null;
}

/** The sample's ManagedTexture. */
interface ManagedTexture {
  texture: Resource | null;
  size: number;
  index: number;
}

/** The sample's ManagedCommandList. */
interface ManagedCommandList {
  commandAllocator: CommandAllocator;
  commandList: GraphicsCommandList;
  residencySet: ResidencySet;
  fenceValue: number;
}

function numberParam(params: URLSearchParams, name: string, fallback: number): number {
  const value = Number(params.get(name));
  return params.has(name) && Number.isFinite(value) && value > 0 ? value : fallback;
}

function sizes(params: URLSearchParams, software: boolean): typeof DEFAULTS {
  const defaults = software ? SOFTWARE_DEFAULTS : DEFAULTS;
  return {
    textures: Math.floor(numberParam(params, 'textures', defaults.textures)),
    textureSize: Math.floor(numberParam(params, 'textureSize', defaults.textureSize)),
  };
}

async function createScene({ device, gpuDevice, queue: commandQueue, swapChain, panel, params }: SceneContext) {
  const software = isSoftwareAdapter(gpuDevice);
  const { textures: numTextures, textureSize } = sizes(params, software);
  const textureWidth = textureSize;
  const textureHeight = textureSize;
  const debugBudgetMiB = numberParam(params, 'budgetMiB', software ? SOFTWARE_DEFAULTS.budgetMiB : 0);
  if (debugBudgetMiB > 0) device.setResidencyDebugBudget(Math.round(debugBudgetMiB * MiB));

  // ---- LoadPipeline (the queue and swap chain are the shell's) ------------------------------------
  const frameCount = swapChain.bufferCount;
  const maxResidencyLatency = frameCount * COMMAND_LIST_SUBMISSIONS_PER_FRAME;
  let frameIndex = swapChain.getCurrentBackBufferIndex();

  const rtvHeap = device.createDescriptorHeap({ type: 'RTV', numDescriptors: frameCount, flags: 'NONE' });
  const srvHeap = device.createDescriptorHeap({
    type: 'CBV_SRV_UAV',
    numDescriptors: numTextures,
    flags: 'SHADER_VISIBLE',
  });
  srvHeap.setName('texture SRVs');
  const rtvDescriptorSize = device.getDescriptorHandleIncrementSize('RTV');
  const srvDescriptorSize = device.getDescriptorHandleIncrementSize('CBV_SRV_UAV');

  for (let n = 0; n < frameCount; n++) {
    const rtvHandle = cpuDescriptorHandle(rtvHeap.getCPUDescriptorHandleForHeapStart(), n, rtvDescriptorSize);
    device.createRenderTargetView(swapChain.getBuffer(n), null, rtvHandle);
  }
  const commandAllocator = device.createCommandAllocator('DIRECT');

  // ---- LoadAssets ---------------------------------------------------------------------------------
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
  const rootSignature = device.createRootSignature(0, signature);

  const pipelineState = await device.createGraphicsPipelineState({
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
    rootSignature,
    code: shaders,
    vertexEntryPoint: 'VSMain',
    fragmentEntryPoint: 'PSMain',
    rasterizerState: defaultRasterizerDesc(),
    blendState: defaultBlendDesc(),
    depthStencilState: { depthEnable: false, stencilEnable: false },
    sampleMask: 0xffffffff,
    primitiveTopologyType: 'TRIANGLE',
    numRenderTargets: 1,
    rtvFormats: [swapChain.format],
    sampleDesc: { count: 1 },
    label: 'textured quad',
  });

  const commandList = device.createCommandList(0, 'DIRECT', commandAllocator, pipelineState);
  commandList.setName('load assets');

  // The quad: x y z, u v; a triangle strip over the viewport, v = 0 at its bottom (the sample's).
  const quadVertices = new Float32Array([-1, -1, 0, 0, 0, -1, 1, 0, 0, 1, 1, -1, 0, 1, 0, 1, 1, 0, 1, 1]);
  const vertexBufferSize = quadVertices.byteLength;
  const vertexBuffer = device.createCommittedResource(
    heapProperties('DEFAULT'),
    [],
    bufferResourceDesc(vertexBufferSize),
    'COPY_DEST',
  );
  vertexBuffer.setName('quad vertices');
  const vertexBufferUpload = device.createCommittedResource(
    heapProperties('UPLOAD'),
    [],
    bufferResourceDesc(vertexBufferSize),
    'GENERIC_READ',
  );
  updateSubresources(commandList, vertexBuffer, vertexBufferUpload, 0, 0, 1, [
    { data: quadVertices, rowPitch: vertexBufferSize, slicePitch: vertexBufferSize },
  ]);
  commandList.resourceBarrier([transitionBarrier(vertexBuffer, 'COPY_DEST', 'VERTEX_AND_CONSTANT_BUFFER')]);
  const vertexBufferView: VertexBufferView = {
    bufferLocation: vertexBuffer.getGPUVirtualAddress(),
    strideInBytes: 5 * 4,
    sizeInBytes: vertexBufferSize,
  };
  commandList.close();
  commandQueue.executeCommandLists([commandList]);

  const fence = device.createFence(0);
  let fenceValue = 1;
  const flushGpu = async (): Promise<void> => {
    const value = fenceValue;
    commandQueue.signal(fence, value);
    fenceValue++;
    if (fence.getCompletedValue() < value) await fence.setEventOnCompletion(value);
  };
  await flushGpu();
  vertexBufferUpload.release();

  // ---- LoadTexturesAsync --------------------------------------------------------------------------
  // Only the textures are tracked, as in the sample (the vertex buffer and descriptor heap stay resident).
  const residencyManager = createResidencyManager(device);
  const loadedTextures: (ManagedTexture | null)[] = new Array<ManagedTexture | null>(numTextures).fill(null);
  const incompleteTextures: ManagedTexture[] = Array.from({ length: numTextures }, (_, index) => ({
    texture: null,
    size: 0,
    index,
  }));
  let loadedTextureCount = 0;
  let totalAllocations = 0;
  let textureIndex = 0;
  let cancel = false;
  let loadError: Error | undefined;
  const loadStarted = performance.now();
  let loadMs: number | null = null;

  const createAndUpload = async (): Promise<void> => {
    const copyQueue = device.createCommandQueue({ type: 'COPY' });
    const allocator = device.createCommandAllocator('COPY');
    const list = device.createCommandList(0, 'COPY', allocator, null);
    const residencySet = residencyManager.createResidencySet();
    list.close();
    const uploadFence = device.createFence(0);
    let uploadFenceValue = 1;

    const textureDesc = tex2DResourceDesc('R8G8B8A8_UNORM', textureWidth, textureHeight, 1, 1);
    const info = device.getResourceAllocationInfo([textureDesc]);
    const textureUploadHeap = device.createCommittedResource(
      heapProperties('UPLOAD'),
      [],
      bufferResourceDesc(info.sizeInBytes),
      'GENERIC_READ',
    );

    for (let pTexture = incompleteTextures.shift(); pTexture && !cancel; pTexture = incompleteTextures.shift()) {
      const texture = device.createCommittedResource(heapProperties('DEFAULT'), [], textureDesc, 'COMMON');
      texture.setName(`texture ${pTexture.index}`);
      pTexture.texture = texture;
      pTexture.size = info.sizeInBytes;
      totalAllocations += info.sizeInBytes;
      residencyManager.beginTrackingObject(texture);

      device.createShaderResourceView(
        texture,
        {
          shader4ComponentMapping: DEFAULT_SHADER_4_COMPONENT_MAPPING,
          format: textureDesc.format ?? 'R8G8B8A8_UNORM',
          viewDimension: 'TEXTURE2D',
          texture2D: { mipLevels: 1 },
        },
        cpuDescriptorHandle(srvHeap.getCPUDescriptorHandleForHeapStart(), pTexture.index, srvDescriptorSize),
      );

      allocator.reset();
      list.reset(allocator, null);
      list.setName(`upload texture ${pTexture.index}`);
      residencySet.open();
      const rowPitch = textureWidth * TEXEL_BYTES;
      updateSubresources(list, texture, textureUploadHeap, 0, 0, 1, [
        {
          data: textureTexels(pTexture.index, numTextures, textureWidth),
          rowPitch,
          slicePitch: rowPitch * textureHeight,
        },
      ]);
      residencySet.insert(texture);
      list.close();
      residencySet.close();

      residencyManager.executeCommandLists(copyQueue, [list], [residencySet]);
      copyQueue.signal(uploadFence, uploadFenceValue);
      await uploadFence.setEventOnCompletion(uploadFenceValue);
      uploadFenceValue++;

      loadedTextures[pTexture.index] = pTexture;
      loadedTextureCount++;
    }
    textureUploadHeap.release();
  };

  const numThreads = Math.floor(numberParam(params, 'loaders', maxResidencyLatency + 1));
  const threads = Array.from({ length: numThreads }, () =>
    createAndUpload().catch((error: unknown) => {
      loadError ??= error instanceof Error ? error : new Error('a texture loader failed', { cause: error });
      cancel = true;
    }),
  );
  void Promise.all(threads).then(() => {
    if (loadedTextureCount === numTextures) loadMs = performance.now() - loadStarted;
  });

  // ---- the panel: the sample's window title, and more -------------------------------------------
  const title = document.createElement('p');
  title.className = 'window-title';
  section(panel, 'Window title').append(title);
  const now = new StatTable(section(panel, 'Now'), [
    'textures',
    'budget (LOCAL)',
    'usage (LOCAL)',
    'resident',
    'evicted',
    'drawn this frame',
    'this frame',
    'since start',
  ]);
  const charts = section(panel, 'Live');
  const memoryChart = new LiveChart(charts, 'Memory (MiB)', [
    { label: 'budget', color: '#f0776b', dash: true },
    { label: 'usage', color: '#5ad17f' },
    { label: 'drawn', color: '#7fb4ff' },
  ]);
  const pagingChart = new LiveChart(charts, 'Per frame', [
    { label: 'evicted', color: '#f5c26b' },
    { label: 'made resident', color: '#7fb4ff' },
  ]);
  const controls = section(panel, 'Controls');
  const poolMiB = Math.floor(device.getMemoryStats().segments.LOCAL.poolBytes / MiB);
  slider(
    controls,
    'budget (debug override)',
    {
      min: 1,
      max: poolMiB,
      step: 1,
      value: Math.min(poolMiB, Math.round(device.queryVideoMemoryInfo('LOCAL').budget / MiB)),
    },
    (v) => (v >= poolMiB ? `${v} MiB (the pool: no override)` : `${v} MiB`),
    (v) => device.setResidencyDebugBudget(v >= poolMiB ? null : v * MiB),
  );

  // ---- OnRender and PopulateCommandList ----------------------------------------------------------
  const commandListPool: ManagedCommandList[] = [];
  /** The fence value of each frame still in flight, by frame index. */
  const frameFences = new Map<number, number>();
  const history: ResidencyFrame[] = [];

  /** What the frame's list recorded (the rest of its ResidencyFrame comes after execution). */
  type Recorded = Pick<
    ResidencyFrame,
    'frame' | 'width' | 'height' | 'grid' | 'loaded' | 'windowStart' | 'drawn' | 'budget' | 'usageBefore'
  > & { drawnBytes: number };

  const populateCommandList = (managed: ManagedCommandList, index: number): Recorded => {
    const memoryInfo = device.queryVideoMemoryInfo('LOCAL');
    const { evictedMemoryInBytes } = residencyManager.queryResidencyStats();
    title.textContent =
      `Total Allocated: ${Math.floor(totalAllocations / MiB)} MB | Budget: ${Math.floor(memoryInfo.budget / MiB)} MB | ` +
      `Using: ${Math.floor(memoryInfo.currentUsage / MiB)} MB | Evicted: ${Math.floor(evictedMemoryInBytes / MiB)} MB`;

    const list = managed.commandList;
    list.setName(`frame ${index}`);
    managed.residencySet.open();

    const backBuffer = swapChain.getBuffer(frameIndex);
    const { width, height } = backBuffer;
    list.setGraphicsRootSignature(rootSignature);
    list.setDescriptorHeaps([srvHeap]);
    list.setGraphicsRootDescriptorTable(0, srvHeap.getGPUDescriptorHandleForHeapStart());
    list.rsSetViewports([viewport(0, 0, width, height)]);
    list.rsSetScissorRects([rect(0, 0, width, height)]);

    list.resourceBarrier([transitionBarrier(backBuffer, 'PRESENT', 'RENDER_TARGET')]);
    const rtvHandle = cpuDescriptorHandle(rtvHeap.getCPUDescriptorHandleForHeapStart(), frameIndex, rtvDescriptorSize);
    list.omSetRenderTargets([rtvHandle], false, null);

    list.clearRenderTargetView(rtvHandle, CLEAR_COLOR, null);
    list.iaSetPrimitiveTopology('TRIANGLESTRIP');
    list.iaSetVertexBuffers(0, [vertexBufferView]);

    // One viewport per texture; a back buffer too small for one pixel each draws none (the set still holds them).
    const grid = gridFor(numTextures, width, height);
    const visible = grid.cellWidth > 0 && grid.cellHeight > 0;

    // Only as much memory as the budget allows resident at once is referenced by this list.
    const memoryToUse = Math.floor(memoryInfo.budget * BUDGET_SHARE);
    const textureCount = loadedTextureCount;
    const windowStart = textureIndex;
    const drawn: number[] = [];
    let sizeUsed = 0;
    if (textureCount > 0) {
      let next = textureIndex;
      do {
        const pTexture = loadedTextures[next];
        if (pTexture?.texture) {
          const gpuHandle = gpuDescriptorHandle(
            srvHeap.getGPUDescriptorHandleForHeapStart(),
            pTexture.index,
            srvDescriptorSize,
          );
          list.setGraphicsRootDescriptorTable(0, gpuHandle);
          managed.residencySet.insert(pTexture.texture);
          sizeUsed += pTexture.size;
          drawn.push(pTexture.index);
          if (visible) {
            const cell = cellOf(grid, next);
            list.rsSetViewports([viewport(cell.x, cell.y, grid.cellWidth, grid.cellHeight)]);
            list.drawInstanced(4, 1, 0, 0);
          }
        }
        next = (next + 1) % textureCount;
      } while (sizeUsed < memoryToUse && next !== textureIndex);
      // Once more textures are loaded than the budget lets one list draw, the window moves on.
      if (next !== textureIndex) textureIndex = (textureIndex + 1) % textureCount;
    }

    list.resourceBarrier([transitionBarrier(backBuffer, 'RENDER_TARGET', 'PRESENT')]);
    list.close();
    managed.residencySet.close();
    return {
      frame: index,
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
  };

  const onRender = (index: number): ResidencyFrame => {
    let managed: ManagedCommandList;
    const front = commandListPool[0];
    if (!front || front.fenceValue > fence.getCompletedValue()) {
      const allocator = device.createCommandAllocator('DIRECT');
      managed = {
        commandAllocator: allocator,
        commandList: device.createCommandList(0, 'DIRECT', allocator, pipelineState),
        residencySet: residencyManager.createResidencySet(),
        fenceValue: 0,
      };
    } else {
      managed = commandListPool.shift() as ManagedCommandList;
      managed.commandAllocator.reset();
      managed.commandList.reset(managed.commandAllocator, pipelineState);
    }
    commandListPool.push(managed);

    const recorded = populateCommandList(managed, index);

    const before = residencyManager.getStats();
    residencyManager.executeCommandLists(commandQueue, [managed.commandList], [managed.residencySet]);
    const after = residencyManager.getStats();
    const usage = device.queryVideoMemoryInfo('LOCAL').currentUsage;
    const drawnNotResident: number[] = [];
    const drawnDemoted: number[] = [];
    for (const k of recorded.drawn) {
      const status = device.getResidencyStatus(loadedTextures[k]?.texture as Resource);
      if (!status.resident) drawnNotResident.push(k);
      else if (status.demoted) drawnDemoted.push(k);
    }
    let resident = 0;
    let demoted = 0;
    for (const t of loadedTextures) {
      if (!t?.texture) continue;
      const status = device.getResidencyStatus(t.texture);
      if (status.resident) resident++;
      if (status.resident && status.demoted) demoted++;
    }

    const value = fenceValue;
    commandQueue.signal(fence, value);
    fenceValue++;
    swapChain.present(1);
    managed.fenceValue = value;

    const { drawnBytes, ...rest } = recorded;
    const entry: ResidencyFrame = {
      ...rest,
      usage,
      evictions: after.evictions - before.evictions,
      madeResident: after.madeResident - before.madeResident,
      overBudget: after.overBudgetBatches > before.overBudgetBatches,
      drawnNotResident,
      drawnDemoted,
      resident,
      demoted,
      nonLocalUsage: device.queryVideoMemoryInfo('NON_LOCAL').currentUsage,
      overBudgetBy: after.overBudgetBatches > before.overBudgetBatches ? after.lastOverBudget : null,
    };
    memoryChart.push(index, [entry.budget / MiB, usage / MiB, drawnBytes / MiB]);
    pagingChart.push(index, [entry.evictions, entry.madeResident]);
    now.set({
      textures: `${loadedTextureCount} of ${numTextures} loaded, ${textureWidth}² each (${formatBytes(totalAllocations)})`,
      'budget (LOCAL)': formatBytes(entry.budget),
      'usage (LOCAL)': `${formatBytes(usage)}${entry.overBudget ? ' (over budget: the batch does not fit)' : ''}`,
      resident: `${resident} textures`,
      evicted: `${loadedTextureCount - resident} textures (${formatBytes(residencyManager.queryResidencyStats().evictedMemoryInBytes)})`,
      'drawn this frame': `${entry.drawn.length} textures, ${formatBytes(drawnBytes)}, from texture ${entry.windowStart}`,
      'this frame': `${entry.evictions} evicted, ${entry.madeResident} made resident`,
      'since start': `${after.evictions} evicted, ${after.madeResident} made resident${loadMs === null ? '' : `; loaded in ${(loadMs / 1000).toFixed(1)} s`}`,
    });
    return entry;
  };

  return {
    async frame(index: number): Promise<boolean> {
      if (loadError) throw loadError;
      if (device.getDeviceRemovedReason() !== 'S_OK')
        throw new Error(`the device was removed (${device.getDeviceRemovedReason()})`);
      // Present(1, 0) blocks while FrameCount frames are queued: wait for the fence of the frame that many back.
      const waitFor = frameFences.get(index - frameCount);
      if (waitFor !== undefined && fence.getCompletedValue() < waitFor) await fence.setEventOnCompletion(waitFor);
      // The shell presents after each frame too, so the current buffer is read here (m_frameIndex).
      frameIndex = swapChain.getCurrentBackBufferIndex();
      const entry = onRender(index);
      frameFences.set(index, fenceValue - 1);
      frameFences.delete(index - frameCount);
      history.push(entry);
      if (history.length > 600) history.shift();
      return true;
    },
    snapshot() {
      return {
        textures: numTextures,
        textureSize,
        textureBytes: device.getResourceAllocationInfo([
          tex2DResourceDesc('R8G8B8A8_UNORM', textureSize, textureSize, 1, 1),
        ]).sizeInBytes,
        loaded: loadedTextureCount,
        totalAllocations,
        loadMs,
        frameCount,
        stats: residencyManager.getStats(),
        residencyStats: residencyManager.queryResidencyStats(),
        history,
      };
    },
    stop() {
      // OnDestroy: the loaders stop after the texture in hand.
      cancel = true;
    },
  };
}

void runScene(
  meta,
  (params) => ({
    localMemoryBytes: Math.round(numberParam(params, 'localMiB', DEFAULT_LOCAL_MIB) * MiB),
    nonLocalMemoryBytes: 64 * MiB,
  }),
  createScene,
);
