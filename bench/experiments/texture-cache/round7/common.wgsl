// Round 7 variants: the library's params and store, as texture-sample-d3d12.wgsl has them.
fn params() -> SampleParams {
  return SampleParams(d3d12_root_constant(0u), d3d12_root_constant(1u), bitcast<f32>(d3d12_root_constant(2u)));
}
// Never called: keeps the pipeline one that opens textures (mirrors bound, the resolve pre-pass run).
fn variant_keep_texture_prelude() -> vec2u {
  return d3d12_tex2d(vec2u(0u)).size;
}
fn store_result(i: u32, value: u32) {
  d3d12_store(d3d12_address_add(d3d12_root_descriptor(2u), i * 4u), value);
}
// The tiny fallback (round 6's harness had one): one texel from memory, no cache, no decode, no filter.
fn r7_memory_texel(texture: D3D12Texture2D, mip: vec4u, texel: vec2u) -> vec4f {
  return unpack4x8unorm(d3d12_load(d3d12_tex2d_texel_address_in(texture, mip, 0u, texel)));
}
fn r7_fallback_sample(texture: D3D12Texture2D, uv: vec2f, fine: u32) -> vec4f {
  let size = d3d12_tex2d_mip_size(texture, fine);
  return r7_memory_texel(texture, d3d12_tex2d_mip(texture, fine), min(vec2u(clamp(uv, vec2f(0.0), vec2f(1.0)) * vec2f(size)), size - 1u));
}
