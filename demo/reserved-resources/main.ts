/**
 * Microsoft's D3D12ReservedResources (DirectX-Graphics-Samples, Samples/Desktop/D3D12ReservedResources)
 * on the emulator, D3D12 call for D3D12 call, in the sample's order and with its structure:
 * loadPipeline, loadAssets, updateTileMapping, generateTextureData (texture-data.ts),
 * populateCommandList, waitForGpu, moveToNextFrame and onKeyDown. See meta.ts for the summary.
 *
 * Where the page differs from the sample's window:
 * - The scene shell (demo/common/scene-shell.ts) creates the device, the DIRECT queue and the swap
 *   chain (2 buffers, in the canvas's format rather than R8G8B8A8_UNORM, which the pipeline's
 *   RTVFormats follow), and presents each frame when frame() returns. So the sample's Present and
 *   MoveToNextFrame, which follow ExecuteCommandLists, run in that order here too: the shell's
 *   present, then moveToNextFrame at the start of the next frame() (and waitForGpu when the loop stops).
 * - The canvas resizes: the viewport and scissor rectangle follow the back buffer each frame, and
 *   if its aspect ratio changes the quad's vertices (which hold it, as the sample's do) are uploaded
 *   again, so the quad stays square.
 * - The title bar's "Mip Level: N" is the side panel, which also has buttons for the arrow keys.
 *
 * URL parameters (besides the shell's): `mip` (the mip shown first; default the least detailed, as
 * in the sample).
 */
import {
  DEFAULT_SHADER_4_COMPONENT_MAPPING,
  FLOAT32_MAX,
  TILE_SIZE,
  type BackBuffer,
  type CommandAllocator,
  type DescriptorRange,
  type Fence,
  type GraphicsCommandList,
  type Heap,
  type PackedMipInfo,
  type PipelineState,
  type Resource,
  type ResourceDesc,
  type RootParameter,
  type RootSignatureVersion,
  type ShaderResourceViewDesc,
  type StaticSamplerDesc,
  type SubresourceTiling,
  type TileRangeFlag,
  type TileRegionSize,
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
import { formatBytes } from '../common/live-chart.js';
import { button, section, StatTable } from '../common/panel.js';
import { runScene, type SceneContext } from '../common/scene-shell.js';
import { meta } from './meta.js';
import shaders from './shaders.wgsl?raw';
import {
  generateTextureData,
  mipLevelsOf,
  mipSize,
  TEXTURE_HEIGHT,
  TEXTURE_PIXEL_SIZE_IN_BYTES,
  TEXTURE_WIDTH,
} from './texture-data.js';

/** The sample's FrameCount: back buffers, and command allocators (one per frame in flight). */
const FRAME_COUNT = 2;
/** x, y, z, u, v. */
const VERTEX_FLOATS = 5;
const VERTEX_STRIDE = VERTEX_FLOATS * 4;
const CLEAR_COLOR: [number, number, number, number] = [0.0, 0.2, 0.4, 1.0];

/** The sample's MipInfo: where a mip's tiles are and whether its heap is mapped now. */
interface MipInfo {
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

function startMip(params: URLSearchParams, mipLevels: number): number {
  if (!params.has('mip')) return mipLevels - 1;
  const mip = Number(params.get('mip'));
  if (!Number.isInteger(mip) || mip < 0 || mip >= mipLevels)
    throw new Error(`URL parameter mip must be an integer from 0 to ${mipLevels - 1}, got '${params.get('mip')}'`);
  return mip;
}

async function createScene({ device, queue, swapChain, panel, params }: SceneContext) {
  // The constructor's part: a mip chain down to 1 × 1, the least detailed shown first (or `mip`).
  const mips = new Array<MipInfo>(mipLevelsOf(TEXTURE_WIDTH, TEXTURE_HEIGHT));
  let activeMip = startMip(params, mips.length);
  let activeMipChanged = true;
  const fenceValues = new Array<number>(FRAME_COUNT).fill(0);
  const uploads: MipUpload[] = [];
  let framesRendered = 0;

  // ---- LoadPipeline ---------------------------------------------------------------------------
  const options = device.checkFeatureSupport('OPTIONS');
  const tilingSupport = options.tiledResourcesTier > 0;
  if (!tilingSupport) throw new Error('Reserved resources are not supported by this device.');
  // The command queue and the swap chain are the shell's (createCommandQueue DIRECT, createSwapChain).
  if (swapChain.bufferCount !== FRAME_COUNT)
    throw new Error(`the swap chain has ${swapChain.bufferCount} buffers; this scene renders ${FRAME_COUNT}`);
  let frameIndex = swapChain.getCurrentBackBufferIndex();

  const rtvHeap = device.createDescriptorHeap({ numDescriptors: FRAME_COUNT, type: 'RTV', flags: 'NONE' });
  const srvHeap = device.createDescriptorHeap({ numDescriptors: 1, type: 'CBV_SRV_UAV', flags: 'SHADER_VISIBLE' });
  const rtvDescriptorSize = device.getDescriptorHandleIncrementSize('RTV');

  const renderTargets: BackBuffer[] = [];
  const commandAllocators: CommandAllocator[] = [];
  for (let n = 0; n < FRAME_COUNT; n++) {
    const renderTarget = swapChain.getBuffer(n);
    renderTargets[n] = renderTarget;
    device.createRenderTargetView(
      renderTarget,
      null,
      cpuDescriptorHandle(rtvHeap.getCPUDescriptorHandleForHeapStart(), n, rtvDescriptorSize),
    );
    commandAllocators[n] = device.createCommandAllocator('DIRECT');
  }

  // ---- LoadAssets -----------------------------------------------------------------------------
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
  const rootSignature = device.createRootSignature(0, signature);

  // The pipeline state: shaders.wgsl's VSMain and PSMain (the sample's shaders.hlsl).
  const pipelineState: PipelineState = await device.createGraphicsPipelineState({
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
    label: 'reserved-resources quad',
  });

  const commandList: GraphicsCommandList = device.createCommandList(
    0,
    'DIRECT',
    commandAllocators[frameIndex] as CommandAllocator,
    pipelineState,
  );

  // The vertex buffer: a DEFAULT buffer filled from an UPLOAD one. (The sample lets its upload buffer
  // go once the setup has run; this page keeps it to upload the quad again when the canvas changes shape.)
  const firstTarget = renderTargets[frameIndex] as BackBuffer;
  let aspectRatio = Math.fround(firstTarget.width / firstTarget.height);
  const vertexBufferSize = quadVertices(aspectRatio).byteLength;
  const vertexBuffer = device.createCommittedResource(
    heapProperties('DEFAULT'),
    [],
    bufferResourceDesc(vertexBufferSize),
    'COPY_DEST',
  );
  vertexBuffer.setName('quad vertex buffer');
  const vertexBufferUpload = device.createCommittedResource(
    heapProperties('UPLOAD'),
    [],
    bufferResourceDesc(vertexBufferSize),
    'GENERIC_READ',
  );
  vertexBufferUpload.setName('quad vertex upload buffer');
  const uploadVertices = (): void => {
    const vertexData: SubresourceData = {
      data: quadVertices(aspectRatio),
      rowPitch: vertexBufferSize,
      slicePitch: vertexBufferSize,
    };
    updateSubresources(commandList, vertexBuffer, vertexBufferUpload, 0, 0, 1, [vertexData]);
  };
  uploadVertices();
  commandList.resourceBarrier([transitionBarrier(vertexBuffer, 'COPY_DEST', 'VERTEX_AND_CONSTANT_BUFFER')]);
  const vertexBufferView: VertexBufferView = {
    bufferLocation: vertexBuffer.getGPUVirtualAddress(),
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
  const reservedResource: Resource = device.createReservedResource(reservedTextureDesc, 'COPY_DEST');
  reservedResource.setName(`reserved texture ${TEXTURE_WIDTH}×${TEXTURE_HEIGHT}, ${mips.length} mips`);

  const srvDesc: ShaderResourceViewDesc = {
    shader4ComponentMapping: DEFAULT_SHADER_4_COMPONENT_MAPPING,
    format: reservedTextureDesc.format as string,
    viewDimension: 'TEXTURE2D',
    texture2D: { mipLevels: reservedTextureDesc.mipLevels as number },
  };
  device.createShaderResourceView(reservedResource, srvDesc, srvHeap.getCPUDescriptorHandleForHeapStart());

  // An upload buffer the size of the largest mip (every other mip, and the packed tail, fit in it).
  const resourceSize = getRequiredIntermediateSize(reservedResource, 0, 1);
  const uploadHeap = device.createCommittedResource(
    heapProperties('UPLOAD'),
    [],
    bufferResourceDesc(resourceSize),
    'GENERIC_READ',
  );
  uploadHeap.setName('texture upload buffer');

  // The tiling the emulator reports (always asked, never computed by hand).
  const tiling = device.getResourceTiling(reservedResource);
  const packedMipInfo = tiling.packedMipDesc;
  const tileShape = tiling.standardTileShapeForNonPackedMips;
  const tilings: SubresourceTiling[] = tiling.subresourceTilings;
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
  const heaps: Heap[] = [];
  for (let n = 0; n < heapCount; n++) {
    const heapSize = (mips[n] as MipInfo).regionSize.numTiles * TILE_SIZE;
    heaps[n] = device.createHeap(heapDesc(heapSize, 'DEFAULT', 0, ['DENY_BUFFERS', 'DENY_RT_DS_TEXTURES']));
    heaps[n]?.setName(n < packedMipInfo.numStandardMips ? `mip ${n} heap` : 'packed mips heap');
  }

  /**
   * UpdateTileMapping: the active mip's heap mapped (and its texels generated and uploaded) unless it
   * is already; every other mapped heap unmapped with a NULL range.
   */
  const updateTileMapping = (): void => {
    const active = mips[activeMip] as MipInfo;
    const firstSubresource = active.heapIndex;
    const subresourceCount = active.packedMip ? packedMipInfo.numPackedMips : 1;
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
        queue.updateTileMappings(
          reservedResource,
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
      updateSubresources(commandList, reservedResource, uploadHeap, 0, firstSubresource, subresourceCount, data);
      uploads.push({ frame: framesRendered, firstSubresource, count: subresourceCount, bytes: texture.byteLength });
    }
    activeMipChanged = false;
  };

  updateTileMapping();
  commandList.resourceBarrier([transitionBarrier(reservedResource, 'COPY_DEST', 'PIXEL_SHADER_RESOURCE')]);

  commandList.close();
  queue.executeCommandLists([commandList]);

  const fence: Fence = device.createFence(fenceValues[frameIndex]);
  fenceValues[frameIndex] = (fenceValues[frameIndex] as number) + 1;

  /** WaitForGpu: a signal, and a wait for it. */
  const waitForGpu = async (): Promise<void> => {
    queue.signal(fence, fenceValues[frameIndex] as number);
    await fence.setEventOnCompletion(fenceValues[frameIndex] as number);
    fenceValues[frameIndex] = (fenceValues[frameIndex] as number) + 1;
  };
  await waitForGpu();

  // ---- The frame ------------------------------------------------------------------------------
  const populateCommandList = (): void => {
    const allocator = commandAllocators[frameIndex] as CommandAllocator;
    allocator.reset();
    commandList.reset(allocator, pipelineState);

    if (activeMipChanged) {
      commandList.resourceBarrier([transitionBarrier(reservedResource, 'PIXEL_SHADER_RESOURCE', 'COPY_DEST')]);
      updateTileMapping();
      commandList.resourceBarrier([transitionBarrier(reservedResource, 'COPY_DEST', 'PIXEL_SHADER_RESOURCE')]);
    }

    const renderTarget = renderTargets[frameIndex] as BackBuffer;
    const shape = Math.fround(renderTarget.width / renderTarget.height);
    if (shape !== aspectRatio) {
      // Not in the sample, whose window keeps its size: the quad's vertices for the canvas's new shape.
      // A buffer decays to COMMON when the list that used it completes, and the copy promotes it to
      // COPY_DEST; from there it needs a barrier before the draw reads it.
      aspectRatio = shape;
      uploadVertices();
      commandList.resourceBarrier([transitionBarrier(vertexBuffer, 'COPY_DEST', 'VERTEX_AND_CONSTANT_BUFFER')]);
    }

    commandList.setGraphicsRootSignature(rootSignature);
    commandList.setDescriptorHeaps([srvHeap]);
    commandList.setGraphicsRoot32BitConstant(0, activeMip, 0);
    commandList.setGraphicsRootDescriptorTable(1, srvHeap.getGPUDescriptorHandleForHeapStart());
    commandList.rsSetViewports([viewport(0, 0, renderTarget.width, renderTarget.height)]);
    commandList.rsSetScissorRects([rect(0, 0, renderTarget.width, renderTarget.height)]);

    commandList.resourceBarrier([transitionBarrier(renderTarget, 'PRESENT', 'RENDER_TARGET')]);
    const rtvHandle = cpuDescriptorHandle(rtvHeap.getCPUDescriptorHandleForHeapStart(), frameIndex, rtvDescriptorSize);
    commandList.omSetRenderTargets([rtvHandle], false, null);

    commandList.clearRenderTargetView(rtvHandle, CLEAR_COLOR, null);
    commandList.iaSetPrimitiveTopology('TRIANGLESTRIP');
    commandList.iaSetVertexBuffers(0, [vertexBufferView]);
    commandList.drawInstanced(4, 1, 0, 0);

    commandList.resourceBarrier([transitionBarrier(renderTarget, 'RENDER_TARGET', 'PRESENT')]);
    commandList.close();
  };

  /** MoveToNextFrame: signal the frame just presented, then wait until the next back buffer's last frame is done. */
  const moveToNextFrame = async (): Promise<void> => {
    const currentFenceValue = fenceValues[frameIndex] as number;
    queue.signal(fence, currentFenceValue);
    frameIndex = swapChain.getCurrentBackBufferIndex();
    if (fence.getCompletedValue() < (fenceValues[frameIndex] as number))
      await fence.setEventOnCompletion(fenceValues[frameIndex] as number);
    fenceValues[frameIndex] = currentFenceValue + 1;
  };

  /** OnKeyDown's rule, for the keys and the panel's buttons: one mip at a time, within the chain. */
  const stepMip = (delta: -1 | 1): void => {
    if (delta < 0 && activeMip !== 0) {
      activeMip--;
      activeMipChanged = true;
    } else if (delta > 0 && activeMip < mips.length - 1) {
      activeMip++;
      activeMipChanged = true;
    }
    showMip();
  };

  // ---- The side panel ---------------------------------------------------------------------------
  const heapMips = (n: number): number[] => mips.flatMap((mip, index) => (mip.heapIndex === n ? [index] : []));
  const heapKey = (n: number): string => {
    const covered = heapMips(n);
    return covered.length === 1
      ? `heap ${n} · mip ${covered[0]}`
      : `heap ${n} · mips ${covered[0]}–${covered.at(-1)} (packed)`;
  };
  const mipSection = section(panel, 'Mip level');
  const mipStats = new StatTable(mipSection, ['mip shown', 'size', 'its tiles']);
  const controls = document.createElement('div');
  controls.className = 'controls';
  const finer = button(controls, 'more detail (mip − 1)', () => stepMip(-1));
  finer.id = 'mip-finer';
  const coarser = button(controls, 'less detail (mip + 1)', () => stepMip(1));
  coarser.id = 'mip-coarser';
  const hint = document.createElement('p');
  hint.className = 'legend';
  hint.textContent = 'Or the arrow keys, as in the sample: left or up for more detail, right or down for less.';
  mipSection.append(controls, hint);
  const heapStats = new StatTable(
    section(panel, 'Heaps mapped into the texture'),
    heaps.map((_, n) => heapKey(n)),
  );
  const memoryStats = new StatTable(section(panel, 'Memory'), [
    'tiles mapped',
    'heaps',
    'LOCAL in use',
    'NON_LOCAL in use',
    'uploads',
  ]);

  function showMip(): void {
    const mip = mips[activeMip] as MipInfo;
    const { width, height } = mipSize(activeMip);
    mipStats.set({
      'mip shown': `${activeMip} of 0–${mips.length - 1}${activeMip === mips.length - 1 ? ' (least detailed)' : ''}`,
      size: `${width} × ${height} texels · ${formatBytes(width * height * TEXTURE_PIXEL_SIZE_IN_BYTES)}`,
      'its tiles': mip.packedMip
        ? `packed: mips ${packedMipInfo.numStandardMips}–${mips.length - 1} share ${mip.regionSize.numTiles} tile, in heap ${mip.heapIndex}`
        : `${mip.regionSize.width} × ${mip.regionSize.height} tiles of ${tileShape.widthInTexels} × ${tileShape.heightInTexels} texels, in heap ${mip.heapIndex}`,
    });
    finer.disabled = activeMip === 0;
    coarser.disabled = activeMip === mips.length - 1;
  }

  const showMemory = (): void => {
    heapStats.set(
      Object.fromEntries(
        heaps.map((heap, n) => {
          const tiles = (mips[n] as MipInfo).regionSize.numTiles;
          const mapped = (mips[n] as MipInfo).mapped;
          return [heapKey(n), `${tiles} tile${tiles === 1 ? '' : 's'} · ${mapped ? 'mapped' : 'unmapped'}`];
        }),
      ),
    );
    const mappedTiles = heaps.reduce(
      (sum, _, n) => sum + ((mips[n] as MipInfo).mapped ? (mips[n] as MipInfo).regionSize.numTiles : 0),
      0,
    );
    const heapTiles = heaps.reduce((sum, _, n) => sum + (mips[n] as MipInfo).regionSize.numTiles, 0);
    memoryStats.set({
      'tiles mapped': `${mappedTiles} of ${tiling.numTilesForEntireResource} (${formatBytes(mappedTiles * TILE_SIZE)} of ${formatBytes(tiling.numTilesForEntireResource * TILE_SIZE)} reserved)`,
      heaps: `${heaps.length}, ${heapTiles} tiles: ${formatBytes(heapTiles * TILE_SIZE)}`,
      'LOCAL in use': formatBytes(device.queryVideoMemoryInfo('LOCAL').currentUsage),
      'NON_LOCAL in use': `${formatBytes(device.queryVideoMemoryInfo('NON_LOCAL').currentUsage)} (upload buffer ${formatBytes(resourceSize)})`,
      uploads: `${uploads.length}, last ${uploads.length > 0 ? formatBytes((uploads.at(-1) as MipUpload).bytes) : '—'}`,
    });
  };
  showMip();
  showMemory();

  const onKeyDown = (event: KeyboardEvent): void => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target as HTMLElement | null;
    if (target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
    const delta = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key] as -1 | 1 | undefined;
    if (delta === undefined) return;
    event.preventDefault();
    stepMip(delta);
  };
  window.addEventListener('keydown', onKeyDown);

  let presentedOnce = false;
  return {
    async frame() {
      // The previous frame was presented by the shell after frame() returned: finish it as the sample does.
      if (presentedOnce) await moveToNextFrame();
      const target = renderTargets[frameIndex] as BackBuffer;
      // The canvas changed shape: populateCommandList rewrites the vertex upload buffer, which no
      // earlier frame may still be reading (rare enough to wait for the GPU).
      if (Math.fround(target.width / target.height) !== aspectRatio) await waitForGpu();
      populateCommandList();
      queue.executeCommandLists([commandList]);
      presentedOnce = true;
      framesRendered++;
      showMemory();
    },
    snapshot(): ReservedResourcesSnapshot {
      const target = renderTargets[frameIndex] as BackBuffer;
      return {
        activeMip,
        mipLevels: mips.length,
        packedMipInfo: { ...packedMipInfo },
        numTilesForEntireResource: tiling.numTilesForEntireResource,
        heaps: heaps.map((_, n) => ({
          tiles: (mips[n] as MipInfo).regionSize.numTiles,
          mips: heapMips(n),
          mapped: (mips[n] as MipInfo).mapped,
        })),
        uploads: uploads.map((upload) => ({ ...upload })),
        frames: framesRendered,
        frameIndex,
        backBuffer: { width: target.width, height: target.height },
        aspectRatio,
      };
    },
    stop() {
      window.removeEventListener('keydown', onKeyDown);
      // OnDestroy: nothing may still use the objects once the page lets them go.
      void (presentedOnce ? moveToNextFrame() : Promise.resolve()).then(waitForGpu);
    },
    forTesting: {
      /** Per tile of the texture: [index of its heap in the scene's list, heap tile], or null (NULL tile). */
      tileMappings(): ([number, number] | null)[] {
        return Array.from({ length: tiling.numTilesForEntireResource }, (_, tile) => {
          const mapping = getTileMappingForTesting(reservedResource, tile);
          return mapping ? [heaps.indexOf(mapping.heap), mapping.heapTileOffset] : null;
        });
      },
      /** Each subresource's first tile and tile count (standard mips), and the packed tail's. */
      tiling() {
        return {
          subresourceTilings: tilings.map((t) => ({ ...t })),
          packedMipDesc: { ...packedMipInfo },
        };
      },
    },
  };
}

void runScene(meta, { localMemoryBytes: 64 * 2 ** 20, nonLocalMemoryBytes: 32 * 2 ** 20 }, createScene);
