/**
 * d3d12-webgpu: the Direct3D 12 memory model emulated on a real GPU through WebGPU.
 * The browser entry; `d3d12-webgpu/node` adds a Dawn-backed device for Node.js.
 */
/// <reference types="@webgpu/types" />
export {
  formatAdapter,
  requestDeviceWithAdapterLimits,
  requestWebGPUDevice,
  summarizeAdapter,
  type AdapterSummary,
} from './gpu/request-device.js';
export { createOffscreenCanvasContext, type OffscreenCanvasContext } from './gpu/offscreen-context.js';
export {
  runSmokePattern,
  smokePatternReference,
  type SmokePatternArgs,
  type SmokePatternOptions,
} from './gpu/smoke-pattern.js';
export { Device } from './d3d12/device.js';
export { createDevice, DEFAULT_LOCAL_MEMORY_BYTES, DEFAULT_NON_LOCAL_MEMORY_BYTES } from './d3d12/create-device.js';
export {
  VIRTUAL_ADDRESS_BITS,
  type FeatureData,
  type FeatureDataOptions,
  type FeatureDataGpuVirtualAddressSupport,
  type FeatureDataArchitecture,
} from './emulator/feature-support.js';
export { Heap } from './d3d12/heap.js';
export { Resource, type ResourceKind } from './d3d12/resource.js';
export { CommandQueue } from './d3d12/command-queue.js';
export { GraphicsCommandList, type ResourceBarrier } from './d3d12/command-list.js';
export type { TextureCopyLocation } from './commands/texture-copies.js';
export { ROOT_CONSTANT_COUNT, ROOT_DESCRIPTOR_COUNT } from './commands/root-arguments.js';
export { SwapChain, BackBuffer } from './d3d12/swap-chain.js';
export { DescriptorHeap } from './d3d12/descriptor-heap.js';
export {
  RootSignature,
  serializeVersionedRootSignature,
  serializeRootSignature10 as serializeRootSignature,
} from './d3d12/root-signature.js';
export { CommandAllocator } from './d3d12/command-allocator.js';
export {
  APPEND_ALIGNED_ELEMENT,
  DEFAULT_SHADER_4_COMPONENT_MAPPING,
  DESCRIPTOR_RANGE_OFFSET_APPEND,
  FLOAT32_MAX,
  UNBOUNDED_DESCRIPTOR_RANGE,
} from './api/binding-types.js';
export type * from './api/binding-types.js';
export { VIEW_FORMAT_NAMES } from './memory/view-formats.js';
export { VERTEX_FORMAT_NAMES } from './memory/vertex-formats.js';
export { TEXTURE_DESCRIPTOR_FORMATS } from './emulator/texture-descriptor.js';
export { Fence } from './d3d12/fence.js';
export { QueryHeap } from './d3d12/query-heap.js';
export {
  QUERY_HEAP_TYPES,
  QUERY_TYPES,
  type QueryHeapDesc,
  type QueryHeapType,
  type QueryType,
} from './validation/query.js';
export {
  PipelineState,
  PRIMITIVE_TOPOLOGIES,
  type ComputePipelineStateDesc,
  type GraphicsPipelineStateDesc,
  type PrimitiveTopology,
} from './d3d12/pipeline-state.js';
export type { FaultReport } from './emulator/fault-report.js';
export { MAX_DESCRIBED_MISMATCHES } from './emulator/tile-validation.js';
export type { MemoryStats, SegmentStats, HeapStats, ResourceStats, PagingStats } from './emulator/memory-stats.js';
export type { InfoQueue } from './d3d12/info-queue.js';
export type { Range } from './d3d12/resource.js';
export type { TileCopyFlag } from './validation/command-list.js';
export { PRELUDE_WGSL, VERTEX_PRELUDE_WGSL, FRAGMENT_PRELUDE_WGSL } from './gpu/prelude.js';
// The unmapped-access report (gpuValidation.unmappedAccess, Device.readUnmappedAccesses); its types are in api/types.ts.
export { DEFAULT_UNMAPPED_ACCESS_RECORDS, MAX_UNMAPPED_ACCESS_RECORDS } from './validation/device.js';
export { FRAGMENT_UNMAPPED_ACCESS_PRELUDE_WGSL } from './gpu/prelude.js';
export { D3D12Error, type HResult } from './api/errors.js';
export type * from './api/types.js';
export { FORMAT_NAMES } from './memory/formats.js';
export { TILE_SIZE, PACKED_TILE } from './memory/tiling.js';
export { TEXTURE_DATA_PITCH_ALIGNMENT, TEXTURE_DATA_PLACEMENT_ALIGNMENT } from './memory/footprints.js';
export {
  createResidencyManager,
  ResidencyManager,
  type ResidencyManagerOptions,
  type ResidencyStats,
  type ResidencyMemoryStats,
  type OverBudget,
} from './residency/residency-manager.js';
export { ResidencySet } from './residency/residency-set.js';
export { gracePeriodMs } from './residency/grace-period.js';
export {
  RESIDENCY_PRIORITIES,
  type Pageable,
  type ResidencyPriority,
  type ResidencyStatus,
  type VideoMemoryInfo,
} from './emulator/device-residency.js';
