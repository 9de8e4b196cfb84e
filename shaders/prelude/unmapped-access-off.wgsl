// Prelude, stages that record no unmapped accesses: the vertex stage (WebGPU vertex shaders cannot
// write storage; with gpuValidation.unmappedAccess each draw's vertex shader is replayed as a
// compute dispatch, shaders/vertex_replay.wgsl, and that records them), and the fragment stage on a
// device without the option. Some GPUs run every branch of a fragment shader under a lane mask
// (SwiftShader does: see bindings-fragment.wgsl), so leaving the code out is what costs nothing.
// (Composed after common.wgsl; see src/gpu/prelude.ts.)

fn d3d12_record_unmapped(va: vec2u, access: u32) {
}
