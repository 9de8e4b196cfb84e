// Prelude: the pool viewed as 16-byte vectors (binding 1), and its accessors. The view of a pipeline
// whose code makes 16-byte accesses (d3d12_load4, d3d12_store4, page handles; see
// src/gpu/prelude.ts): a 16-byte access is one vector access (H200: 16-byte loads through the page
// table 1.10x direct, against 2.8x for 4-byte loads), a word is a component of its vector. One view
// serves both: WebGPU forbids two writable views of one buffer in a dispatch. D3D12_POOL_ACCESS is
// read_write in compute, read in the graphics stages. One binding for both segments, as in
// pool-words.wgsl.

@group(0) @binding(1) var<storage, D3D12_POOL_ACCESS> d3d12_pool: array<vec4u>;

fn d3d12_pool_read(word: u32) -> u32 {
  return d3d12_pool[word >> 2u][word & 3u];
}

fn d3d12_pool_read4(word: u32) -> vec4u {
  return d3d12_pool[word >> 2u];
}
