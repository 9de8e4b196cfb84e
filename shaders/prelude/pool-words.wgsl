// Prelude: the pool viewed as 4-byte words (binding 1), and its accessors. The view of a pipeline
// whose code makes no 16-byte access (src/gpu/prelude.ts picks it): scalar loads are one plain array
// access. (On the H200, 4-byte loads through a vec4u view took 2.81-2.85x the direct kernel against
// 2.58x through this view, bench figure 2 at 8e355fc and 6fd4d9e; SwiftShader's run-to-run spread,
// 15-26x, hides any difference.) D3D12_POOL_ACCESS is read_write in compute, read in the graphics
// stages.
//
// One binding holds both segments, LOCAL's pages then NON_LOCAL's (src/gpu/gpu-memory.ts): a
// RESIDENT entry's word index is already an index into it, so no access tests the segment bit.
//
// Accessors, by word index in the pool (from a RESIDENT page-table entry):
//   d3d12_pool_read(word), d3d12_pool_read4(word) (word a multiple of 4)
// and in compute (pool-words-writes.wgsl) d3d12_pool_write, d3d12_pool_write4.

@group(0) @binding(1) var<storage, D3D12_POOL_ACCESS> d3d12_pool: array<u32>;

fn d3d12_pool_read(word: u32) -> u32 {
  return d3d12_pool[word];
}

fn d3d12_pool_read4(word: u32) -> vec4u {
  return vec4u(d3d12_pool[word], d3d12_pool[word + 1u], d3d12_pool[word + 2u], d3d12_pool[word + 3u]);
}
