// Round 6: the bound texture read with no check (the floor of a design that binds a mirror).

alias TextureRef = u32;

fn open_texture() -> TextureRef {
  return 0u;
}

fn load_texel(texture: TextureRef, mip: u32, texel: vec2u) -> vec4f {
  return textureLoad(texels, texel, mip);
}

fn sample_level(texture: TextureRef, uv: vec2f, lod: f32) -> vec4f {
  return textureSampleLevel(texels, linear_clamp, uv, lod);
}
