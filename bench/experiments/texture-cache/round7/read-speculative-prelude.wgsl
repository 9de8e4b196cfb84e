// The texture unit's read issued first, then the prelude's whole path when the footprint is not valid.
fn load_texel(texture: TextureRef, mip: u32, texel: vec2u) -> vec4f {
  let level = min(mip, texture.mip_levels - 1u);
  let entry = d3d12_tex2d_mip(texture, level);
  let clamped = min(texel, d3d12_tex2d_mip_size(texture, level) - vec2u(1u));
  let early = d3d12_mirror_texel(texture.mirror, clamped, level);
  var value = early;
  if (!(texture.mirror != 0u && entry.w == 0u && d3d12_mirror_tile_valid(texture, entry, clamped))) {
    var status = 0u;
    value = d3d12_tex2d_texel(texture, entry, 0u, clamped, &status);
  }
  return value;
}
fn sample_level(texture: TextureRef, uv: vec2f, lod: f32) -> vec4f {
  let level = clamp(lod, 0.0, f32(texture.mip_levels - 1u));
  let fine = u32(floor(level));
  let coarse = min(fine + 1u, texture.mip_levels - 1u);
  let t = level - f32(fine);
  let c = clamp(uv, vec2f(0.0), vec2f(1.0));
  let early = d3d12_mirror_sample(texture.mirror, c, level);
  var valid = texture.mirror != 0u && d3d12_mirror_footprint_valid(texture, fine, d3d12_mirror_mip(texture, fine), c);
  if (valid && t != 0.0 && coarse != fine) {
    valid = d3d12_mirror_footprint_valid(texture, coarse, d3d12_mirror_mip(texture, coarse), c);
  }
  var value = early;
  if (!valid) {
    var status = 0u;
    value = d3d12_tex2d_sample_level(texture, uv, lod, 0.0, &status);
  }
  return value;
}
