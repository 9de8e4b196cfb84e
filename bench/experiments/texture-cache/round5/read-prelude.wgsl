// The prelude's reads, as the figure's rows make them.
alias TextureRef = D3D12Texture2D;
fn open_texture() -> TextureRef {
  return d3d12_tex2d(d3d12_root_descriptor(1u));
}
fn load_texel(texture: TextureRef, mip: u32, texel: vec2u) -> vec4f {
  var status = 0u;
  return d3d12_tex2d_load(texture, mip, texel, &status);
}
fn sample_level(texture: TextureRef, uv: vec2f, lod: f32) -> vec4f {
  var status = 0u;
  return d3d12_tex2d_sample_level(texture, uv, lod, 0.0, &status);
}
