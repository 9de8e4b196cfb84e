// No texture opened or read: a value made from the coordinates (the kernel and its store).
alias TextureRef = u32;
fn open_texture() -> TextureRef {
  return 0u;
}
fn load_texel(texture: TextureRef, mip: u32, texel: vec2u) -> vec4f {
  return vec4f(vec2f(texel & vec2u(255u)) / 255.0, f32(mip), 1.0);
}
fn sample_level(texture: TextureRef, uv: vec2f, lod: f32) -> vec4f {
  return vec4f(uv, lod, 1.0);
}
