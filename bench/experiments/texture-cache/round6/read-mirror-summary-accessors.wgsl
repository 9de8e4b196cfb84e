// Round 6: read-mirror-summary.wgsl's reads as the figure's accessors (summary word, then tile bits).

fn load_texel(texture: TextureRef, mip: u32, texel: vec2u) -> vec4f {
  return load_texel_summary(texture, mip, texel);
}

fn sample_level(texture: TextureRef, uv: vec2f, lod: f32) -> vec4f {
  return sample_level_summary(texture, uv, lod);
}
