// Round 6: the mirror design with one validity word for the whole texture (any write into it drops
// the mirror until the next fill): the coarsest check, one broadcast load per read.

@group(0) @binding(7) var<storage, read> valid: array<u32>;

alias TextureRef = u32;

fn open_texture() -> TextureRef {
  return 0u;
}

fn r6_memory_texel(mip: u32, texel: vec2u) -> vec4f {
  let m = resolved.mip_tiles[min(mip, 11u)];
  let tile = m.x + (texel.y >> 7u) * m.y + (texel.x >> 7u);
  let entry = page_table[tile + 1024u];
  return unpack4x8unorm(pool[(entry & ~R6_KIND_MASK) + ((texel.y & 127u) << 7u) + (texel.x & 127u)]);
}

fn load_texel(texture: TextureRef, mip: u32, texel: vec2u) -> vec4f {
  if (valid[0] != 0u) {
    return textureLoad(texels, texel, mip);
  }
  return r6_memory_texel(mip, texel);
}

fn sample_level(texture: TextureRef, uv: vec2f, lod: f32) -> vec4f {
  if (valid[0] != 0u) {
    return textureSampleLevel(texels, linear_clamp, uv, lod);
  }
  let size = resolved.params.y;
  return r6_memory_texel(0u, min(vec2u(uv * f32(size)), vec2u(size - 1u)));
}
