// The prelude's mirror reads, with the fallback's taps in loops: one copy of a tap's code (the
// texture cache, then memory, then the format's decode) where the prelude inlines four (bilinear)
// or eight (trilinear). The tap count is a root constant's 4 (the figure's fourth constant is 0), so
// the compiler cannot unroll the loop back into four copies.
fn r8_taps() -> u32 {
  return 4u + d3d12_root_constant(3u);
}
fn r8_bilinear(texture: TextureRef, level: u32, mip: vec4u, uv: vec2f) -> vec4f {
  let size = vec2f(d3d12_tex2d_mip_size(texture, level));
  let position = clamp(uv, vec2f(0.0), vec2f(1.0)) * size - 0.5;
  let base = floor(position);
  let f = position - base;
  let corner = vec2u(max(base, vec2f(0.0)));
  let next = vec2u(min(base + 1.0, size - 1.0));
  var value = vec4f(0.0);
  if (d3d12_cache_bilinear(texture, mip, level, 0u, position, &value)) {
    return value;
  }
  var c00 = vec4f(0.0);
  var c10 = vec4f(0.0);
  var c01 = vec4f(0.0);
  var c11 = vec4f(0.0);
  for (var i = 0u; i < r8_taps(); i++) {
    var s = 0u;
    let c = d3d12_tex2d_texel(texture, mip, 0u, select(corner, next, vec2<bool>((i & 1u) != 0u, (i & 2u) != 0u)), &s);
    switch (i) {
      case 0u: { c00 = c; }
      case 1u: { c10 = c; }
      case 2u: { c01 = c; }
      default: { c11 = c; }
    }
  }
  return mix(mix(c00, c10, f.x), mix(c01, c11, f.x), f.y);
}
fn load_texel(texture: TextureRef, mip: u32, texel: vec2u) -> vec4f {
  var status = 0u;
  return d3d12_tex2d_load(texture, mip, texel, &status);
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
  // The mips in a loop too: one bilinear's code for both.
  let count = select(1u, 2u, t != 0.0 && coarse != fine);
  var a = vec4f(0.0);
  var b = vec4f(0.0);
  for (var m = 0u; m < count; m++) {
    let level_m = select(fine, coarse, m == 1u);
    let v = r8_bilinear(texture, level_m, d3d12_tex2d_mip(texture, level_m), uv);
    if (m == 0u) {
      a = v;
    } else {
      b = v;
    }
  }
  return select(mix(a, b, t), a, count == 1u);
}
