// Prelude, compute stage: the bindings with write access, and fault recording.
// (Composed after common.wgsl; the pool, binding 1, is declared by pool-words.wgsl or
// pool-vec4.wgsl; see src/gpu/prelude.ts.)

@group(0) @binding(0) var<storage, read> d3d12_page_table: array<u32>;
@group(0) @binding(2) var<uniform> d3d12_dispatch: D3D12DispatchInfo;
@group(0) @binding(3) var<storage, read_write> d3d12_faults: D3D12FaultLog;

fn d3d12_record_fault(va: vec2u, kind: u32, entry: u32) {
  if (d3d12_dispatch.validation != 0u) {
    let slot = atomicAdd(&d3d12_faults.count, 1u);
    if (slot < d3d12_faults.capacity) {
      d3d12_faults.records[slot] = D3D12FaultRecord(va.x, va.y, kind, entry, d3d12_dispatch.command_list, d3d12_dispatch.command_index);
    }
  }
}

// The texture cache (texture-cache.wgsl) and the texture mirrors (texture-mirrors.wgsl): per pool
// page, x the page's atlas tag, y its mirror link (its mirror tile's validity word + 1, and
// D3D12_MIRROR_WATCH when a resolved descriptor lies in it). (Requests, atlas and sampler:
// cache-request.wgsl.)
@group(0) @binding(5) var<storage, read_write> d3d12_cache_tags: array<vec2u>;

// A store into pool word `word` leaves its page's copies stale: the page's atlas tag and mirror link
// are cleared (read first, both in one load: a page nothing copied, nearly every page a store
// reaches, costs no write).
fn d3d12_cache_invalidate(word: u32) {
  let page = word >> (D3D12_PAGE_SHIFT - 2u);
  let tag = d3d12_cache_tags[page];
  if (any(tag != vec2u(0u))) {
    d3d12_cache_tags[page] = vec2u(0u);
    d3d12_mirror_drop(tag.y);
  }
}
