// Round 6: the mirror design with one validity word for the whole texture (any write into it drops
// the mirror until the next fill): the coarsest check, one broadcast load per read. Put after
// read-mirror.wgsl (its bindings and memory fallback).

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
