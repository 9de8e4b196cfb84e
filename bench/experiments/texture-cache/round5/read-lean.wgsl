// Experiment: the texture read by hand over prelude internals. Descriptor header through one page
// handle; power-of-two tile math; the cache looked up directly. true selects the cache path.
struct TextureRef {
  base: vec2u,
  size: vec2u,
  mip0_tiles_x: u32,
  mip1_first: u32,
  mip1_tiles_x: u32,
}

fn open_texture() -> TextureRef {
  let page = d3d12_page(d3d12_root_descriptor(1u));
  let a = d3d12_page_load4(page, 0u);
  let m0 = d3d12_page_load4(page, (D3D12_TEX2D_MIPS) * 4u);
  let m1 = d3d12_page_load4(page, (D3D12_TEX2D_MIPS + 4u) * 4u);
  return TextureRef(a.xy, a.zw, m0.y, m1.x, m1.y);
}

fn lean_address(t: TextureRef, first: u32, tiles_x: u32, texel: vec2u) -> vec2u {
  let tile = first + (texel.x >> 7u) + (texel.y >> 7u) * tiles_x;
  return d3d12_address_add(t.base, tile * 65536u + (((texel.y & 127u) << 7u) | (texel.x & 127u)) * 4u);
}

fn lean_texel(t: TextureRef, first: u32, tiles_x: u32, texel: vec2u) -> vec4f {
  let va = lean_address(t, first, tiles_x, texel);
  let entry = d3d12_page_entry(va);
  var value = vec4f(0.0);
  var tag = 0u;
  if (true) {
    tag = d3d12_cache_tags[entry >> 14u];
  }
  if (tag != 0u) {
    let at = d3d12_cache_origin(tag);
    value = textureLoad(d3d12_cache_atlas, at.xy + (texel & vec2u(127u)), at.z, 0);
  } else {
    value = unpack4x8unorm(d3d12_pool_read(d3d12_word_index(entry, va)));
  }
  return value;
}

fn load_texel(t: TextureRef, mip: u32, texel: vec2u) -> vec4f {
  return lean_texel(t, 0u, t.mip0_tiles_x, texel);
}

fn lean_bilinear(t: TextureRef, first: u32, tiles_x: u32, size: vec2u, uv: vec2f) -> vec4f {
  let position = uv * vec2f(size) - 0.5;
  let base = floor(position);
  let corner = vec2u(max(base, vec2f(0.0)));
  let next = vec2u(min(base + 1.0, vec2f(size) - 1.0));
  var value = vec4f(0.0);
  var done = false;
  if (true && all(base >= vec2f(0.0)) && all((corner >> vec2u(7u)) == (next >> vec2u(7u))) && all(corner + 1u < size)) {
    let va = lean_address(t, first, tiles_x, corner);
    let tag = d3d12_cache_tags[d3d12_page_entry(va) >> 14u];
    if (tag != 0u) {
      let at = d3d12_cache_origin(tag);
      let side = 2048.0;
      let uv2 = (vec2f(at.xy) + (position - vec2f(corner & ~vec2u(127u))) + 0.5) / side;
      value = textureSampleLevel(d3d12_cache_atlas, d3d12_cache_sampler, uv2, at.z, 0.0);
      done = true;
    }
  }
  if (!done) {
    let f = position - base;
    let c00 = lean_texel(t, first, tiles_x, corner);
    let c10 = lean_texel(t, first, tiles_x, vec2u(next.x, corner.y));
    let c01 = lean_texel(t, first, tiles_x, vec2u(corner.x, next.y));
    let c11 = lean_texel(t, first, tiles_x, next);
    value = mix(mix(c00, c10, f.x), mix(c01, c11, f.x), f.y);
  }
  return value;
}

fn sample_level(t: TextureRef, uv: vec2f, lod: f32) -> vec4f {
  let a = lean_bilinear(t, 0u, t.mip0_tiles_x, t.size, uv);
  var value = a;
  if (lod > 0.0) {
    let b = lean_bilinear(t, t.mip1_first, t.mip1_tiles_x, t.size >> vec2u(1u), uv);
    value = mix(a, b, lod);
  }
  return value;
}

