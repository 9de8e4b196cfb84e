// Prelude, compute stage: writes through the vector view of the pool (pool-vec4.wgsl).

fn d3d12_pool_write(word: u32, value: u32) {
  d3d12_cache_invalidate(word);
  d3d12_pool[word >> 2u][word & 3u] = value;
}

fn d3d12_pool_write4(word: u32, value: vec4u) {
  d3d12_cache_invalidate(word);
  d3d12_pool[word >> 2u] = value;
}
