// Round 5 variants: the library's params, as texture-sample-d3d12.wgsl has them.
fn params() -> SampleParams {
  return SampleParams(d3d12_root_constant(0u), d3d12_root_constant(1u), bitcast<f32>(d3d12_root_constant(2u)));
}
// Never called: keeps the texture bindings and the vector pool view the prelude rows have.
fn variant_keep_texture_prelude() -> vec2u {
  return d3d12_tex2d(vec2u(0u)).size;
}
