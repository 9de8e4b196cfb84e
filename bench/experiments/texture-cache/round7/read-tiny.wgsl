// The mirror's reads (validity, then the texture unit), with round 6's tiny fallback.
fn load_texel(texture: TextureRef, mip: u32, texel: vec2u) -> vec4f {
  let level = min(mip, texture.mip_levels - 1u);
  let entry = d3d12_tex2d_mip(texture, level);
  let clamped = min(texel, d3d12_tex2d_mip_size(texture, level) - vec2u(1u));
  var value = vec4f(0.0);
  if (!d3d12_mirror_load(texture, level, entry, clamped, &value)) {
    value = r7_memory_texel(texture, entry, clamped);
  }
  return value;
}
fn sample_level(texture: TextureRef, uv: vec2f, lod: f32) -> vec4f {
  let level = clamp(lod, 0.0, f32(texture.mip_levels - 1u));
  let fine = u32(floor(level));
  let coarse = min(fine + 1u, texture.mip_levels - 1u);
  let t = level - f32(fine);
  var value = vec4f(0.0);
  if (!d3d12_mirror_trilinear(texture, clamp(uv, vec2f(0.0), vec2f(1.0)), level, fine, coarse, t != 0.0 && coarse != fine, &value)) {
    value = r7_fallback_sample(texture, uv, fine);
  }
  return value;
}
