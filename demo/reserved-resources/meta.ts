import type { SceneMeta } from '../common/scene-meta.js';

export const meta: SceneMeta = {
  name: 'reserved-resources',
  title: 'Reserved resources',
  tagline: "Microsoft's D3D12ReservedResources sample, call for call: one mip of a reserved texture mapped at a time.",
  pictureAlt:
    'A red and white checkerboard quad, one mip of a 1024 × 1024 reserved texture, on a dark blue background.',
  summary:
    "Microsoft's DirectX-Graphics-Samples D3D12ReservedResources ported D3D12 call for D3D12 call: a 1024 × 1024 " +
    'R8G8B8A8_UNORM reserved texture with all 11 mips in the 64KB_UNDEFINED_SWIZZLE layout, whose tiling getResourceTiling ' +
    'reports (4 standard mips and a packed tail of 7 in one tile), backed by one heap per standard mip and one for the ' +
    'packed mips. Only the mip on screen has memory: stepping to another mip (the buttons, or the arrow keys as in the ' +
    'sample) maps its heap with updateTileMappings, unmaps the one shown before with a NULL range, and fills the new mip ' +
    'with its red and white checkerboard through an upload buffer sized by getRequiredIntermediateSize and ' +
    'updateSubresources. The quad is drawn through a root signature (one root constant, the mip, and a descriptor table ' +
    'holding the texture SRV, with a static linear sampler whose border is transparent black), a vertex buffer and input ' +
    "layout, RTVs of the swap chain's back buffers, a command allocator per frame and a fence, as the sample does; the " +
    'least detailed mip shows first.',
  calls: [
    'checkFeatureSupport',
    'createCommandQueue',
    'createSwapChain',
    'getCurrentBackBufferIndex',
    'createDescriptorHeap',
    'getDescriptorHandleIncrementSize',
    'getBuffer',
    'createRenderTargetView',
    'createCommandAllocator',
    'd3dx12SerializeVersionedRootSignature',
    'createRootSignature',
    'createGraphicsPipelineState',
    'createCommandList',
    'createCommittedResource',
    'updateSubresources',
    'resourceBarrier',
    'getGPUVirtualAddress',
    'createReservedResource',
    'createShaderResourceView',
    'getRequiredIntermediateSize',
    'getResourceTiling',
    'createHeap',
    'updateTileMappings',
    'close',
    'executeCommandLists',
    'createFence',
    'signal',
    'setEventOnCompletion',
    'CommandAllocator.reset',
    'GraphicsCommandList.reset',
    'setGraphicsRootSignature',
    'setDescriptorHeaps',
    'setGraphicsRoot32BitConstant',
    'setGraphicsRootDescriptorTable',
    'rsSetViewports',
    'rsSetScissorRects',
    'omSetRenderTargets',
    'clearRenderTargetView',
    'iaSetPrimitiveTopology',
    'iaSetVertexBuffers',
    'drawInstanced',
    'present',
    'getCompletedValue',
  ],
};
