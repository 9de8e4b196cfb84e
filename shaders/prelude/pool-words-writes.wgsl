// Prelude, compute stage: writes through the word view of the pools (pool-words.wgsl).

fn d3d12_pool_write(entry: u32, word: u32, value: u32) {
  if (d3d12_is_non_local(entry)) {
    d3d12_pool_non_local[word] = value;
  } else {
    d3d12_pool_local[word] = value;
  }
}

fn d3d12_pool_write4(entry: u32, word: u32, value: vec4u) {
  if (d3d12_is_non_local(entry)) {
    d3d12_pool_non_local[word] = value.x;
    d3d12_pool_non_local[word + 1u] = value.y;
    d3d12_pool_non_local[word + 2u] = value.z;
    d3d12_pool_non_local[word + 3u] = value.w;
  } else {
    d3d12_pool_local[word] = value.x;
    d3d12_pool_local[word + 1u] = value.y;
    d3d12_pool_local[word + 2u] = value.z;
    d3d12_pool_local[word + 3u] = value.w;
  }
}
