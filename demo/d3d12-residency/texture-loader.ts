/**
 * The sample's CreateAndUpload, the body of each texture loading thread that LoadTexturesAsync
 * starts (sample.ts): a copy queue, allocator, list, residency set, fence and upload buffer of its
 * own, then texture after texture from the sample's queue of incomplete textures: a committed
 * texture, tracked by the residency manager, its SRV, its texels uploaded by a COPY list executed
 * through the manager with the texture in the list's residency set, a wait for the upload, and the
 * texture stored as loaded. The loop stops when no texture is left or the sample is cancelled.
 *
 * Here a "thread" is an async function on the caller's thread: it yields while its upload is on the
 * GPU (where the sample's thread blocks in WaitForSingleObject), so the loaders and the frames take
 * turns. The sample's lambda captures `this`; this one gets what it reads as a LoaderHost.
 */
import {
  DEFAULT_SHADER_4_COMPONENT_MAPPING,
  type DescriptorHeap,
  type Device,
  type PipelineState,
  type Resource,
  type ResidencyManager,
} from '../../src/index.js';
import {
  bufferResourceDesc,
  cpuDescriptorHandle,
  heapProperties,
  tex2DResourceDesc,
  updateSubresources,
} from '../../src/d3dx12/index.js';
import { TEXEL_BYTES, textureTexels } from './texture-data.js';

/** The sample's ManagedTexture: the texture (null until its loader creates it), its size and number. */
export interface ManagedTexture {
  texture: Resource | null;
  size: number;
  index: number;
}

/** What CreateAndUpload reads and calls of the sample. */
export interface LoaderHost {
  device: Device;
  residencyManager: ResidencyManager;
  /** The SRV heap (the sample's m_srvHeap): texture n's SRV goes into descriptor n. */
  srvHeap: DescriptorHeap;
  srvDescriptorSize: number;
  /** The sample's m_pipelineState: the copy list's initial state, which a COPY list ignores. */
  pipelineState: PipelineState;
  numTextures: number;
  textureWidth: number;
  textureHeight: number;
  /** m_cancel: set by OnDestroy. */
  cancelled(): boolean;
  /** m_totalAllocations += bytes. */
  countAllocation(bytes: number): void;
  /** GetNextIncompleteTexture: the next texture to load, or undefined when none is left. */
  getNextIncompleteTexture(): ManagedTexture | undefined;
  /** StoreCompletedTexture: the texture is loaded and may be drawn. */
  storeCompletedTexture(texture: ManagedTexture): void;
}

/** CreateAndUpload: one loader, until no texture is left or the sample is cancelled. */
export async function createAndUpload(host: LoaderHost): Promise<void> {
  const { device, residencyManager, srvHeap, pipelineState, textureWidth, textureHeight } = host;

  // A copy queue and what goes with it, for this loader alone.
  const residencySet = residencyManager.createResidencySet();
  const copyQueue = device.createCommandQueue({ type: 'COPY' });
  const commandAllocator = device.createCommandAllocator('COPY');
  const commandList = device.createCommandList(0, 'COPY', commandAllocator, pipelineState);
  commandList.close();
  const fence = device.createFence(0);
  let fenceValue = 1;

  // Describe the texture, and an upload buffer its size.
  const textureDesc = tex2DResourceDesc('R8G8B8A8_UNORM', textureWidth, textureHeight, 1, 1);
  const info = device.getResourceAllocationInfo([textureDesc]);
  const textureUploadHeap = device.createCommittedResource(
    heapProperties('UPLOAD'),
    [],
    bufferResourceDesc(info.sizeInBytes),
    'GENERIC_READ',
  );

  let pTexture = host.getNextIncompleteTexture();
  while (pTexture && !host.cancelled()) {
    // The texture's memory, and residency tracking for it.
    const texture = device.createCommittedResource(heapProperties('DEFAULT'), [], textureDesc, 'COMMON');
    texture.setName(`texture ${pTexture.index}`);
    pTexture.texture = texture;
    pTexture.size = info.sizeInBytes;
    host.countAllocation(info.sizeInBytes);
    residencyManager.beginTrackingObject(texture);

    device.createShaderResourceView(
      texture,
      {
        shader4ComponentMapping: DEFAULT_SHADER_4_COMPONENT_MAPPING,
        format: textureDesc.format ?? 'R8G8B8A8_UNORM',
        viewDimension: 'TEXTURE2D',
        texture2D: { mipLevels: 1 },
      },
      cpuDescriptorHandle(srvHeap.getCPUDescriptorHandleForHeapStart(), pTexture.index, host.srvDescriptorSize),
    );

    // Reclaim the upload resources of the previous texture.
    commandAllocator.reset();
    commandList.reset(commandAllocator, pipelineState);
    commandList.setName(`upload texture ${pTexture.index}`);
    residencySet.open();

    const rowPitch = textureWidth * TEXEL_BYTES;
    updateSubresources(commandList, texture, textureUploadHeap, 0, 0, 1, [
      {
        data: textureTexels(pTexture.index, host.numTextures, textureWidth),
        rowPitch,
        slicePitch: rowPitch * textureHeight,
      },
    ]);

    // The list needs the texture resident.
    residencySet.insert(texture);

    commandList.close();
    residencySet.close();

    // Schedule the upload and wait for it to complete.
    residencyManager.executeCommandLists(copyQueue, [commandList], [residencySet]);
    copyQueue.signal(fence, fenceValue);
    await fence.setEventOnCompletion(fenceValue);
    fenceValue++;

    host.storeCompletedTexture(pTexture);
    pTexture = host.getNextIncompleteTexture();
  }
  // Not in the sample (its ComPtr releases it when the thread ends): the upload buffer, idle now.
  textureUploadHeap.release();
}
