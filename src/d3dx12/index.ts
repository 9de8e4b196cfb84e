/**
 * d3d12-webgpu/d3dx12: the helpers of Microsoft's d3dx12.h as the library's own, so D3D12 code that
 * uses them ports line for line. Functions, not classes: CD3DX12_X(...) is x(...) here
 * (CD3DX12_RESOURCE_BARRIER::Transition is transitionBarrier, CD3DX12_CPU_DESCRIPTOR_HANDLE(h, i, n)
 * is cpuDescriptorHandle(h, i, n)), with d3dx12's default arguments. Docs: docs/d3dx12.md.
 */
export { getRequiredIntermediateSize, updateSubresources, type SubresourceData } from './update-subresources.js';
export {
  aliasingBarrier,
  RESOURCE_BARRIER_ALL_SUBRESOURCES,
  transitionBarrier,
  uavBarrier,
  type BarrierFlag,
} from './barriers.js';
export { cpuDescriptorHandle, gpuDescriptorHandle } from './descriptor-handles.js';
export {
  d3dx12SerializeVersionedRootSignature,
  descriptorRange,
  descriptorRange1,
  rootConstantBufferView,
  rootConstants,
  rootDescriptorTable,
  rootShaderResourceView,
  rootUnorderedAccessView,
  staticSamplerDesc,
  versionedRootSignatureDesc_1_0,
  versionedRootSignatureDesc_1_1,
  type StaticSamplerOptions,
} from './root-signature.js';
export {
  bufferResourceDesc,
  calcSubresource,
  defaultBlendDesc,
  defaultRasterizerDesc,
  heapDesc,
  heapProperties,
  rect,
  tex2DResourceDesc,
  tiledResourceCoordinate,
  tileRegionSize,
  viewport,
} from './descs.js';
