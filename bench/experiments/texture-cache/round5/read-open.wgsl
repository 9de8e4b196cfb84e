// The descriptor opened (header and the mip entry) and nothing sampled (floor: open and store).
alias TextureRef = D3D12Texture2D;
fn open_texture() -> TextureRef {
  return d3d12_tex2d(d3d12_root_descriptor(1u));
}
fn load_texel(texture: TextureRef, mip: u32, texel: vec2u) -> vec4f {
  let entry = d3d12_tex2d_mip(texture, mip);
  return vec4f(vec2f((texel ^ texture.size ^ entry.xy) & vec2u(255u)) / 255.0, f32(texture.format), 1.0);
}
fn sample_level(texture: TextureRef, uv: vec2f, lod: f32) -> vec4f {
  let entry = d3d12_tex2d_mip(texture, 0u);
  return vec4f(uv, lod, f32((texture.size.x ^ entry.x) & 255u));
}
