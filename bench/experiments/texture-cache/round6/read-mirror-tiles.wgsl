// Round 6: read-mirror.wgsl's reads as the figure's accessors (the footprint's tile bits only).

fn load_texel(texture: TextureRef, mip: u32, texel: vec2u) -> vec4f {
  return load_texel_tiles(texture, mip, texel);
}

fn sample_level(texture: TextureRef, uv: vec2f, lod: f32) -> vec4f {
  return sample_level_tiles(texture, uv, lod);
}
