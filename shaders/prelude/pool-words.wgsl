// Prelude: the pools viewed as 4-byte words (bindings 1 and 2), and their accessors. The view of a
// pipeline whose code makes no 16-byte access (src/gpu/prelude.ts picks it): scalar loads are one
// plain array access. (On the H200, 4-byte loads through a vec4u view took 2.81-2.85x the direct
// kernel against 2.58x through this view, bench figure 2 at 8e355fc and 6fd4d9e; SwiftShader's
// run-to-run spread, 15-26x, hides any difference.) D3D12_POOL_ACCESS is read_write in compute,
// read in the graphics stages.
//
// Accessors assign one result in if/else and return once: an early return inside the branch cost
// 4-byte loads 2.29x direct against 1.89x (H200, the indirection kernel with this prelude, one
// session), as the returns become flags and extra branches in the compiled code.
//
// Accessors, by word index in the pool that `entry` (a RESIDENT page-table entry) names:
//   d3d12_pool_read(entry, word), d3d12_pool_read4(entry, word) (word a multiple of 4)
// and in compute (pool-words-writes.wgsl) d3d12_pool_write, d3d12_pool_write4.

@group(0) @binding(1) var<storage, D3D12_POOL_ACCESS> d3d12_pool_local: array<u32>;
@group(0) @binding(2) var<storage, D3D12_POOL_ACCESS> d3d12_pool_non_local: array<u32>;

fn d3d12_pool_read(entry: u32, word: u32) -> u32 {
  var value: u32;
  if (d3d12_is_non_local(entry)) {
    value = d3d12_pool_non_local[word];
  } else {
    value = d3d12_pool_local[word];
  }
  return value;
}

fn d3d12_pool_read4(entry: u32, word: u32) -> vec4u {
  var value: vec4u;
  if (d3d12_is_non_local(entry)) {
    value = vec4u(d3d12_pool_non_local[word], d3d12_pool_non_local[word + 1u], d3d12_pool_non_local[word + 2u], d3d12_pool_non_local[word + 3u]);
  } else {
    value = vec4u(d3d12_pool_local[word], d3d12_pool_local[word + 1u], d3d12_pool_local[word + 2u], d3d12_pool_local[word + 3u]);
  }
  return value;
}
