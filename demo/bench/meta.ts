import type { SceneMeta } from '../common/scene-meta.js';

export const meta: SceneMeta = {
  name: 'bench',
  title: 'Measuring paging on this GPU',
  tagline: 'Paging, tile mapping and residency costs measured on this GPU, charted live against a raw WebGPU baseline.',
  pictureAlt:
    'The benchmark page after a quick run: the paging samples charted as they arrived, the evict/restore stream as GB/s over time, and the results table.',
  summary:
    'Runs the benchmark suite (bench/) on the GPU in front of you: paging throughput (evict and makeResident of 1 to 64 MiB heaps, ' +
    'and a long evict/restore stream drawn as GB/s over time so stalls show), the page-table indirection cost, the tile-mapping ' +
    "rate, the residency manager's overhead, its policy against Belady's MIN, tile validation, tile streaming, submit overhead and sampling a tiled texture against a native one. Every figure " +
    'is a ratio against a raw WebGPU baseline measured in the same run; samples are charted as they arrive, the table says which ' +
    'targets are met, committed results (the H200, SwiftShader) are drawn beside yours, and the run downloads as JSON in the ' +
    'format of bench/results. URL parameters (figures, quick, pagingMiB, streamSeconds, ref, run) reproduce a run.',
  calls: [
    'evict',
    'makeResident',
    'updateTileMappings',
    'copyTiles',
    'ResidencyManager.executeCommandLists',
    'validateTileMappings',
  ],
};
