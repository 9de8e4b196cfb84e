// The mirror read with no validity word and no fallback (not exact in general: a floor).
fn load_texel(texture: TextureRef, mip: u32, texel: vec2u) -> vec4f {
  let level = min(mip, texture.mip_levels - 1u);
  let clamped = min(texel, d3d12_tex2d_mip_size(texture, level) - vec2u(1u));
  return d3d12_mirror_texel(texture.mirror, clamped, level);
}
fn sample_level(texture: TextureRef, uv: vec2f, lod: f32) -> vec4f {
  let level = clamp(lod, 0.0, f32(texture.mip_levels - 1u));
  return d3d12_mirror_sample(texture.mirror, clamp(uv, vec2f(0.0), vec2f(1.0)), level);
}
