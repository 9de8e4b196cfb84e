// Prelude, vertex stage: memory is read-only, and this stage records no faults itself (WebGPU vertex
// shaders cannot write storage buffers); reads of pages no resource owns, or of absent heaps, return
// 0 as in compute. With gpuValidation on, each draw's vertex shader is also replayed as a compute
// dispatch just before the draw (shaders/vertex_replay.wgsl), and that replay records the faults.
// (Composed after common.wgsl; the pool, binding 1, is declared by pool-words.wgsl or
// pool-vec4.wgsl; see src/gpu/prelude.ts.)

@group(0) @binding(0) var<storage, read> d3d12_page_table: array<u32>;
@group(0) @binding(2) var<uniform> d3d12_dispatch: D3D12DispatchInfo;

fn d3d12_record_fault(va: vec2u, kind: u32, entry: u32) {
}

// The texture cache (texture-cache.wgsl): page tags, the atlas and its sampler. Vertex shaders
// cannot write storage, so they make no requests: a page they miss is read from memory.
@group(0) @binding(5) var<storage, read> d3d12_cache_tags: array<vec2u>;
@group(0) @binding(7) var d3d12_cache_atlas: texture_2d_array<f32>;
@group(0) @binding(8) var d3d12_cache_sampler: sampler;

fn d3d12_cache_request(page: u32) {
}
