import type { SceneMeta } from '../common/scene-meta.js';

export const meta: SceneMeta = {
  name: 'd3d12-residency',
  title: 'D3D12Residency, ported',
  tagline: "Microsoft's residency sample, call for call: twice the budget in textures, drawn as it allows.",
  pictureAlt:
    'A grid of small numbered tiles in rainbow colours, one per texture: a band of them drawn, the rest of the grid dark blue.',
  summary:
    "Microsoft's D3D12Residency sample (DirectX-Graphics-Samples) ported D3D12 call for D3D12 call: textures totalling twice " +
    'the memory budget are created and uploaded by asynchronous loaders on copy queues, each one a committed resource the ' +
    'ResidencyManager tracks (d3dx12residency.h). Every frame records one command list that draws as many textures as 95 % of ' +
    'the budget allows, each through its own SRV in a shader-visible descriptor heap (one descriptor table per draw, a static ' +
    'point sampler) into its own small viewport, and inserts each into the residency set that goes with the list; the ' +
    "manager's ExecuteCommandLists makes them resident, evicting others to stay within the budget. The window of drawn " +
    'textures moves on by one each frame, so one texture is paged in and another out every frame. Lower the budget (the ' +
    'debug override) and fewer textures fit.',
  calls: [
    'createCommandQueue(DIRECT)',
    'createDescriptorHeap(RTV)',
    'createDescriptorHeap(CBV_SRV_UAV, SHADER_VISIBLE)',
    'getDescriptorHandleIncrementSize',
    'SwapChain.getBuffer',
    'createRenderTargetView',
    'createCommandAllocator',
    'checkFeatureSupport(ROOT_SIGNATURE)',
    'd3dx12SerializeVersionedRootSignature',
    'createRootSignature',
    'createGraphicsPipelineState',
    'createCommandList',
    'createCommittedResource',
    'updateSubresources',
    'resourceBarrier',
    'executeCommandLists',
    'createFence',
    'signal',
    'setEventOnCompletion',
    'createResidencyManager',
    'createCommandQueue(COPY)',
    'ResidencyManager.createResidencySet',
    'getResourceAllocationInfo',
    'ResidencyManager.beginTrackingObject',
    'createShaderResourceView',
    'CommandAllocator.reset',
    'GraphicsCommandList.reset',
    'ResidencySet.open',
    'ResidencySet.insert',
    'ResidencySet.close',
    'ResidencyManager.executeCommandLists',
    'getCompletedValue',
    'queryVideoMemoryInfo',
    'ResidencyManager.queryResidencyStats',
    'setGraphicsRootSignature',
    'setDescriptorHeaps',
    'setGraphicsRootDescriptorTable',
    'rsSetViewports',
    'rsSetScissorRects',
    'omSetRenderTargets',
    'clearRenderTargetView',
    'iaSetPrimitiveTopology',
    'iaSetVertexBuffers',
    'drawInstanced',
    'SwapChain.present',
    'setResidencyDebugBudget',
  ],
};
