// The prelude's mirror reads, with a fallback that reads memory alone: the prelude's four (eight)
// taps without the texture cache's check in each (the cache of pages, texture-cache.wgsl).
fn r8_memory_bilinear(texture: TextureRef, level: u32, mip: vec4u, uv: vec2f) -> vec4f {
  let size = vec2f(d3d12_tex2d_mip_size(texture, level));
  let position = clamp(uv, vec2f(0.0), vec2f(1.0)) * size - 0.5;
  let base = floor(position);
  let f = position - base;
  let corner = vec2u(max(base, vec2f(0.0)));
  let next = vec2u(min(base + 1.0, size - 1.0));
  var s = 0u;
  let c00 = d3d12_tex2d_load_at(texture, d3d12_tex2d_texel_address_in(texture, mip, 0u, corner), &s);
  let c10 = d3d12_tex2d_load_at(texture, d3d12_tex2d_texel_address_in(texture, mip, 0u, vec2u(next.x, corner.y)), &s);
  let c01 = d3d12_tex2d_load_at(texture, d3d12_tex2d_texel_address_in(texture, mip, 0u, vec2u(corner.x, next.y)), &s);
  let c11 = d3d12_tex2d_load_at(texture, d3d12_tex2d_texel_address_in(texture, mip, 0u, next), &s);
  return mix(mix(c00, c10, f.x), mix(c01, c11, f.x), f.y);
}
fn load_texel(texture: TextureRef, mip: u32, texel: vec2u) -> vec4f {
  let level = min(mip, texture.mip_levels - 1u);
  let entry = d3d12_tex2d_mip(texture, level);
  let clamped = min(texel, d3d12_tex2d_mip_size(texture, level) - vec2u(1u));
  var value = vec4f(0.0);
  if (!d3d12_mirror_load(texture, level, entry, clamped, &value)) {
    var s = 0u;
    value = d3d12_tex2d_load_at(texture, d3d12_tex2d_texel_address_in(texture, entry, 0u, clamped), &s);
  }
  return value;
}
fn sample_level(texture: TextureRef, uv: vec2f, lod: f32) -> vec4f {
  let level = clamp(lod, 0.0, f32(texture.mip_levels - 1u));
  let fine = u32(floor(level));
  let coarse = min(fine + 1u, texture.mip_levels - 1u);
  let t = level - f32(fine);
  var value = vec4f(0.0);
  if (d3d12_mirror_trilinear(texture, clamp(uv, vec2f(0.0), vec2f(1.0)), level, fine, coarse, t != 0.0 && coarse != fine, &value)) {
    return value;
  }
  let a = r8_memory_bilinear(texture, fine, d3d12_tex2d_mip(texture, fine), uv);
  if (t == 0.0 || coarse == fine) {
    return a;
  }
  return mix(a, r8_memory_bilinear(texture, coarse, d3d12_tex2d_mip(texture, coarse), uv), t);
}
