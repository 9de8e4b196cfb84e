// The prelude's reads, as the figure's rows make them.
fn load_texel(texture: TextureRef, mip: u32, texel: vec2u) -> vec4f {
  var status = 0u;
  return d3d12_tex2d_load(texture, mip, texel, &status);
}
fn sample_level(texture: TextureRef, uv: vec2f, lod: f32) -> vec4f {
  var status = 0u;
  return d3d12_tex2d_sample_level(texture, uv, lod, 0.0, &status);
}
