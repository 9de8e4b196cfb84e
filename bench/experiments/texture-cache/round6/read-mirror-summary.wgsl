// Round 6: the mirror design with a summary word in front of the tile bits: bit m set when every tile
// of mip m is valid (fills set it when they complete a mip, writes clear it with the tile's bit).
// A read of mips whose bits are set is one broadcast word and the hardware read; any other read
// checks the footprint's tile bits (read-mirror.wgsl, whose functions this reuses: put after it).

fn r6_mips_valid(fine: u32, coarse: u32) -> bool {
  let mask = (1u << fine) | (1u << coarse);
  return (valid[R6_SUMMARY_WORD] & mask) == mask;
}

fn load_texel_summary(texture: TextureRef, mip: u32, texel: vec2u) -> vec4f {
  if (r6_mips_valid(mip, mip) || r6_valid(r6_tile(mip, texel))) {
    return textureLoad(texels, texel, mip);
  }
  return r6_memory_texel(mip, texel);
}

fn sample_level_summary(texture: TextureRef, uv: vec2f, lod: f32) -> vec4f {
  let level = clamp(lod, 0.0, f32(resolved.mips - 1u));
  let fine = u32(floor(level));
  let coarse = min(fine + 1u, resolved.mips - 1u);
  var ok = r6_mips_valid(fine, select(fine, coarse, level != f32(fine)));
  if (!ok) {
    ok = r6_footprint_valid(fine, uv) && (level == f32(fine) || r6_footprint_valid(coarse, uv));
  }
  if (ok) {
    return textureSampleLevel(texels, linear_clamp, uv, lod);
  }
  let size = max(resolved.params.y >> fine, 1u);
  return r6_memory_texel(fine, min(vec2u(uv * f32(size)), vec2u(size - 1u)));
}
