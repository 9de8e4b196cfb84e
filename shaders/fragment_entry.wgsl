// The fragment entry point of a graphics pipeline state: the user's fragment entry point runs as a
// plain function (its stage and IO attributes removed, see src/gpu/entry-points.ts), then the faults
// its loads noted are logged once (shaders/prelude/bindings-fragment.wgsl). D3D12_FRAGMENT_PARAMS and
// D3D12_FRAGMENT_RESULT are the user's parameters and result type, attributes included; the call
// passes the parameters on. A fragment the shader discards logs nothing (its writes have no effect).

@fragment
fn d3d12_fragment_entry(D3D12_FRAGMENT_PARAMS) D3D12_FRAGMENT_RESULT {
  D3D12_FRAGMENT_BODY
}
