// Prelude, fragment stage: memory is read-only, and faults are recorded. Fragment shaders may write
// storage, but some GPUs run every branch of a fragment shader under a lane mask (SwiftShader does),
// so whatever a faulting load does is paid at every load: a write or an atomic there made a
// trilinear sample 2.8x slower on SwiftShader, a private note (this) 1.4x. So a faulting load notes
// only the fault and a count in private memory; the fragment entry point the emulator wraps around
// the user's (shaders/fragment_entry.wgsl) logs the last fault of each fragment, and counts the
// others, once, at its end.
// (Composed after common.wgsl; the pool, binding 1, is declared by pool-words.wgsl or
// pool-vec4.wgsl; see src/gpu/prelude.ts.)

@group(0) @binding(0) var<storage, read> d3d12_page_table: array<u32>;
@group(0) @binding(2) var<uniform> d3d12_dispatch: D3D12DispatchInfo;
@group(0) @binding(3) var<storage, read_write> d3d12_faults: D3D12FaultLog;

// The fragment's last fault (va low, va high, kind, entry) and how many it had.
var<private> d3d12_fragment_fault: vec4u;
var<private> d3d12_fragment_faults: u32;

fn d3d12_record_fault(va: vec2u, kind: u32, entry: u32) {
  d3d12_fragment_fault = vec4u(va, kind, entry);
  d3d12_fragment_faults += 1u;
}

// Logs what d3d12_record_fault noted for this fragment (called once, at the end of the entry point).
fn d3d12_flush_fragment_faults() {
  d3d12_flush_page_misuse();
  if (d3d12_fragment_faults == 0u || d3d12_dispatch.validation == 0u) {
    return;
  }
  let slot = atomicAdd(&d3d12_faults.count, 1u);
  if (slot < d3d12_faults.capacity) {
    let f = d3d12_fragment_fault;
    d3d12_faults.records[slot] = D3D12FaultRecord(f.x, f.y, f.z, f.w, d3d12_dispatch.command_list, d3d12_dispatch.command_index);
  }
  if (d3d12_fragment_faults > 1u) {
    atomicAdd(&d3d12_faults.more, d3d12_fragment_faults - 1u);
  }
}

// The texture cache (texture-cache.wgsl): page tags (its requests, atlas and sampler: cache-request.wgsl).
@group(0) @binding(5) var<storage, read> d3d12_cache_tags: array<vec2u>;
