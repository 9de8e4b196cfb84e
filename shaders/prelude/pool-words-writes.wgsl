// Prelude, compute stage: writes through the word view of the pool (pool-words.wgsl).

fn d3d12_pool_write(word: u32, value: u32) {
  d3d12_cache_invalidate(word);
  d3d12_pool[word] = value;
}

fn d3d12_pool_write4(word: u32, value: vec4u) {
  d3d12_cache_invalidate(word);
  d3d12_pool[word] = value.x;
  d3d12_pool[word + 1u] = value.y;
  d3d12_pool[word + 2u] = value.z;
  d3d12_pool[word + 3u] = value.w;
}
