// The compute entry point of a pipeline state whose code makes page handles: the user's entry point
// runs as a plain function (its attributes removed, see src/gpu/entry-points.ts), then the bad
// page-handle offset it noted, if any, is logged (shaders/prelude/page-handle.wgsl says why loads
// note it rather than log it). D3D12_COMPUTE_ATTRIBUTES are the user's (@compute, @workgroup_size),
// D3D12_COMPUTE_PARAMS the user's parameters, attributes included; the call passes them on.

D3D12_COMPUTE_ATTRIBUTES
fn d3d12_compute_entry(D3D12_COMPUTE_PARAMS) {
  D3D12_COMPUTE_CALL;
  d3d12_flush_page_misuse();
}
