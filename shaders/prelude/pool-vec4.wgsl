// Prelude: the pools viewed as 16-byte vectors (bindings 1 and 2), and their accessors. The view of
// a pipeline whose code makes 16-byte accesses (d3d12_load4, d3d12_store4, page handles; see
// src/gpu/prelude.ts): a 16-byte access is one vector access (H200: 16-byte loads through the page
// table 1.10x direct, against 2.8x for 4-byte loads), a word is a component of its vector. One
// view serves both: WebGPU forbids two writable views of one buffer in a dispatch.
// D3D12_POOL_ACCESS is read_write in compute, read in the graphics stages. Accessors as in
// pool-words.wgsl, with one return each for the same reason.

@group(0) @binding(1) var<storage, D3D12_POOL_ACCESS> d3d12_pool_local: array<vec4u>;
@group(0) @binding(2) var<storage, D3D12_POOL_ACCESS> d3d12_pool_non_local: array<vec4u>;

fn d3d12_pool_read(entry: u32, word: u32) -> u32 {
  var value: u32;
  if (d3d12_is_non_local(entry)) {
    value = d3d12_pool_non_local[word >> 2u][word & 3u];
  } else {
    value = d3d12_pool_local[word >> 2u][word & 3u];
  }
  return value;
}

fn d3d12_pool_read4(entry: u32, word: u32) -> vec4u {
  var value: vec4u;
  if (d3d12_is_non_local(entry)) {
    value = d3d12_pool_non_local[word >> 2u];
  } else {
    value = d3d12_pool_local[word >> 2u];
  }
  return value;
}
