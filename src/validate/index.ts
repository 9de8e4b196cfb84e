/**
 * d3d12-webgpu/validate: GPU-side validation as a product. A run drives a D3D12 device of its own
 * over a WebGPU device through the public API only, predicts every result on the CPU, and compares:
 * bytes read back from GPU memory, the GPU page table (device.validateTileMappings) against the CPU
 * authority, residency and the CPU page table against the run's own model.
 *
 *   runDifferential({ gpuDevice, seed, ops, tier })   seeded random operations (replayable)
 *   runScenarios({ gpuDevice })                       the conformance scenarios
 *   runValidation({ gpuDevice, seed, ops })           both, merged
 *
 * The building blocks (the seeded generator, the read-back helpers, the scenarios one by one, the
 * CPU models) are exported too: the project's tests use exactly these.
 */
/// <reference types="@webgpu/types" />
export type {
  CpuReferenceBugForTesting,
  PlantMode,
  ValidationMismatch,
  ValidationOptions,
  ValidationPhase,
  ValidationProgress,
  ValidationResult,
} from './types.js';
export { runDifferential } from './differential/run.js';
export { runScenarios, residencyBasicsChecks, type ScenarioOptions } from './scenarios/run.js';
export { runValidation, describeValidationFailure } from './run-validation.js';
export { describeOperation, type Operation } from './differential/operations.js';
export { Random } from './random.js';
export {
  check,
  checkThat,
  dataBytes,
  describeCheck,
  firstDifference,
  hexByte,
  parseSeed,
  pattern,
  roundUp,
  TILE,
  type Check,
} from './bytes.js';
export { flush, readBuffer, runList, uploadBuffer } from './d3d12-io.js';
export { dispatchOnce, readTiles, writeTiles } from './texture-io.js';
export { PageTableModel, TIER1_NULL_READ } from './page-table-model.js';
export { bufferGrid, coordinateOf, regionTiles, splitsTail, textureGrid, type TileGrid } from './tile-regions.js';
export { describeTileValidation } from './findings.js';
export { SCENARIOS, type ScenarioName } from './scenarios/index.js';
export { ScenarioContext } from './scenarios/context.js';
export { computeTiers } from './scenarios/compute-tiers.js';
export { mapCoherence } from './scenarios/map-coherence.js';
export { memorySemantics } from './scenarios/memory-semantics.js';
export { reinterpretCopies } from './scenarios/reinterpret-copies.js';
export { reservedBufferData, type ReservedBufferDataOptions } from './scenarios/reserved-buffer-data.js';
export { reservedTextureData } from './scenarios/reserved-texture-data.js';
export { residencyBasics, type ResidencyBasics } from './scenarios/residency-basics.js';
export { textureCache, textureMirrors, type TextureCacheOptions } from './scenarios/texture-cache.js';
export { textureCopies } from './scenarios/texture-copies.js';
export { textureCopyTiers } from './scenarios/texture-copy-tiers.js';
export { TextureModel, footprintRows, type Triple } from './texture-model.js';
export { uavClearBuffers } from './scenarios/uav-clear-buffers.js';
export { uavClearTextures } from './scenarios/uav-clear-textures.js';
