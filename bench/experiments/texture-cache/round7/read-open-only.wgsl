// The texture opened and its mip entry read; nothing sampled (a value made from what was read).
fn load_texel(texture: TextureRef, mip: u32, texel: vec2u) -> vec4f {
  let entry = d3d12_tex2d_mip(texture, min(mip, texture.mip_levels - 1u));
  return vec4f(f32(entry.x & 255u), f32(texture.mirror_valid & 255u), f32(texel.x & 255u), f32(texel.y & 255u)) / 255.0;
}
fn sample_level(texture: TextureRef, uv: vec2f, lod: f32) -> vec4f {
  let entry = d3d12_tex2d_mip(texture, u32(lod));
  return vec4f(f32(entry.x & 255u) / 255.0, f32(texture.mirror_valid & 255u) / 255.0, uv);
}
