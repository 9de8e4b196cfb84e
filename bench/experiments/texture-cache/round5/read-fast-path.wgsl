// A candidate prelude fast path: the prelude's reads, but a texture the cache serves whole (RGBA8 or
// BGRA8, 128 x 128 tiles, one slice, placed on a page, fewer than 65536 tiles) takes constant tile
// math from its first texel's address, with the prelude's clamps; anything else the general path.
alias TextureRef = D3D12Texture2D;
fn open_texture() -> TextureRef {
  return d3d12_tex2d(d3d12_root_descriptor(1u));
}
fn fast_ok(t: D3D12Texture2D) -> bool {
  let format = t.format == D3D12_TEXEL_RGBA8_UNORM || t.format == D3D12_TEXEL_BGRA8_UNORM;
  return d3d12_dispatch.texture_cache != 0u && format && all(t.tile == vec2u(128u)) && t.array_size <= 1u && (t.base.x & D3D12_PAGE_OFFSET_MASK) == 0u && t.standard_tiles < 65536u;
}
// Texel (inside the mip) of standard mip entry `mip`: its tag, and its address.
fn fast_tag(t: D3D12Texture2D, mip: vec4u, texel: vec2u) -> u32 {
  let tile = mip.x + (texel.x >> 7u) + (texel.y >> 7u) * mip.y;
  let va = d3d12_address_add(t.base, tile << 16u);
  let entry = d3d12_page_entry(va);
  var tag = 0u;
  if ((entry & D3D12_PTE_KIND_MASK) == D3D12_PTE_RESIDENT) {
    let page = entry >> (D3D12_PAGE_SHIFT - 2u);
    tag = d3d12_cache_tags[page];
    if (tag == 0u) {
      d3d12_cache_request(page);
    }
  }
  return tag;
}
fn load_texel(texture: TextureRef, mip: u32, texel: vec2u) -> vec4f {
  var status = 0u;
  let level = min(mip, texture.mip_levels - 1u);
  let entry = d3d12_tex2d_mip_clamped(texture, mip, level);
  if (fast_ok(texture) && entry.w == 0u) {
    let clamped = min(texel, d3d12_tex2d_mip_size(texture, level) - vec2u(1u));
    let tag = fast_tag(texture, entry, clamped);
    if (tag != 0u) {
      let at = d3d12_cache_origin(tag);
      return d3d12_cache_channels(texture.format, textureLoad(d3d12_cache_atlas, at.xy + (clamped & vec2u(127u)), at.z, 0));
    }
  }
  return d3d12_tex2d_load_in(texture, level, entry, texel, &status);
}
fn fast_bilinear(t: D3D12Texture2D, level: u32, mip: vec4u, uv: vec2f) -> vec4f {
  var status = 0u;
  let size = d3d12_tex2d_mip_size(t, level);
  let position = clamp(uv, vec2f(0.0), vec2f(1.0)) * vec2f(size) - 0.5;
  let first = floor(position);
  let corner = vec2u(max(first, vec2f(0.0)));
  let inside = all(first >= vec2f(0.0)) && all(corner + 1u < size) && all((corner & vec2u(127u)) != vec2u(127u));
  if (inside && fast_ok(t) && mip.w == 0u) {
    let tag = fast_tag(t, mip, corner);
    if (tag != 0u) {
      let at = d3d12_cache_origin(tag);
      let uv2 = (vec2f(at.xy) + (position - vec2f(corner & ~vec2u(127u))) + 0.5) / f32(D3D12_CACHE_LAYER_SIDE);
      return d3d12_cache_channels(t.format, textureSampleLevel(d3d12_cache_atlas, d3d12_cache_sampler, uv2, at.z, 0.0));
    }
  }
  return d3d12_tex2d_bilinear_in(t, level, mip, uv, &status);
}
fn sample_level(texture: TextureRef, uv: vec2f, lod: f32) -> vec4f {
  let level = clamp(lod, 0.0, f32(texture.mip_levels - 1u));
  let fine = u32(floor(level));
  let coarse = min(fine + 1u, texture.mip_levels - 1u);
  let t = level - f32(fine);
  let wanted = u32(floor(clamp(lod, 0.0, f32(D3D12_TEX2D_MAX_MIPS - 1u))));
  let a = fast_bilinear(texture, fine, d3d12_tex2d_mip_clamped(texture, wanted, fine), uv);
  if (t == 0.0 || coarse == fine) {
    return a;
  }
  let b = fast_bilinear(texture, coarse, d3d12_tex2d_mip_clamped(texture, wanted + 1u, coarse), uv);
  return mix(a, b, t);
}
