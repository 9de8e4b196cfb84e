import type { SceneMeta } from '../common/scene-meta.js';

export const meta: SceneMeta = {
  name: 'validation',
  title: 'Validating tile mappings on this GPU',
  tagline: 'Proves this GPU sees exactly the memory the D3D12 calls describe, byte for byte against a CPU reference.',
  pictureAlt:
    'The validation page after a short run: passed, with its counters of operations, bytes compared and pages validated, and no mismatch.',
  summary:
    'Proves on the GPU in front of you that it sees exactly the memory the D3D12 API was told about. A seeded random sequence of ' +
    'operations (buffers and 2D and 3D reserved textures created and released, updateTileMappings with every flag and box, ' +
    'copyTileMappings, copyTiles both ways, copies, CPU writes through map(), dispatches through the WGSL prelude, evict and ' +
    'makeResident) runs on this GPU and on a CPU reference, compared byte for byte, with validateTileMappings checking the GPU ' +
    'page table against the CPU after every step; then the conformance scenarios run (mappings with every flag and box, ' +
    'copyTiles, CheckAccessFullyMapped at each tier). A mismatch names its seed and operation, and its replay link reruns exactly ' +
    'that sequence. URL parameters: seed, seeds, ops, tier, plant (a planted fault: corrupt-entry or drop-write), autostart.',
  calls: [
    'createReservedResource',
    'updateTileMappings',
    'copyTileMappings',
    'copyTiles',
    'map',
    'evict',
    'makeResident',
    'validateTileMappings',
  ],
};
