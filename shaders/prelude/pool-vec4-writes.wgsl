// Prelude, compute stage: writes through the vector view of the pools (pool-vec4.wgsl).

fn d3d12_pool_write(entry: u32, word: u32, value: u32) {
  if (d3d12_is_non_local(entry)) {
    d3d12_pool_non_local[word >> 2u][word & 3u] = value;
  } else {
    d3d12_pool_local[word >> 2u][word & 3u] = value;
  }
}

fn d3d12_pool_write4(entry: u32, word: u32, value: vec4u) {
  if (d3d12_is_non_local(entry)) {
    d3d12_pool_non_local[word >> 2u] = value;
  } else {
    d3d12_pool_local[word >> 2u] = value;
  }
}
