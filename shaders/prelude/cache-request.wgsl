// Prelude, compute and fragment stages (the stages that may write storage; the vertex stage's
// d3d12_cache_request, in bindings-vertex.wgsl, does nothing): the texture cache's request list
// (binding 6, cache-requests.wgsl) and the one function that appends to it, its atlas and sampler.

@group(0) @binding(6) var<storage, read_write> d3d12_cache_requests: D3D12CacheRequests;
@group(0) @binding(7) var d3d12_cache_atlas: texture_2d_array<f32>;
@group(0) @binding(8) var d3d12_cache_sampler: sampler;

// Requests pool page `page` for the texture cache, once until the next fill (cache-requests.wgsl).
fn d3d12_cache_request(page: u32) {
  let bit = 1u << (page & 31u);
  if ((atomicLoad(&d3d12_cache_requests.pending[page >> 5u]) & bit) == 0u) {
    if ((atomicOr(&d3d12_cache_requests.pending[page >> 5u], bit) & bit) == 0u) {
      let i = atomicAdd(&d3d12_cache_requests.count, 1u);
      if (i < D3D12_CACHE_REQUEST_CAPACITY) {
        d3d12_cache_requests.pages[i] = page;
      }
    }
  }
}
