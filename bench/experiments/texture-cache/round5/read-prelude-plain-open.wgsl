// The prelude's reads after an open whose header loads skip the page handle's offset bookkeeping
// (the offsets are known aligned and inside the page when in_page).
alias TextureRef = D3D12Texture2D;
fn variant_load4(page: D3D12Page, offset: u32) -> vec4u {
  let value = d3d12_pool_read4(page.base + (offset >> 2u));
  d3d12_page_note_null(page, offset);
  return select(vec4u(page.fill), value, page.limit != 0u);
}
fn open_texture() -> TextureRef {
  let descriptor = d3d12_root_descriptor(1u);
  let offset = descriptor.x & D3D12_PAGE_OFFSET_MASK;
  let in_page = (offset & 15u) == 0u && offset + D3D12_TEX2D_DESCRIPTOR_WORDS * 4u <= D3D12_PAGE_BYTES;
  var page = D3D12Page(vec2u(0u), 0u, 0u, 0u, 0u);
  var a: vec4u;
  var b: vec4u;
  var c: vec4u;
  if (in_page) {
    page = d3d12_page(descriptor);
    a = variant_load4(page, offset);
    b = variant_load4(page, offset + 16u);
    c = variant_load4(page, offset + 32u);
  } else {
    a = d3d12_load4(descriptor);
    b = d3d12_load4(d3d12_address_add(descriptor, 16u));
    c = d3d12_load4(d3d12_address_add(descriptor, 32u));
  }
  return D3D12Texture2D(descriptor, a.xy, a.zw, b.x, b.y, b.z, vec2u(b.w, c.x), c.y, c.z, c.w, page, select(0u, 1u, in_page));
}
fn load_texel(texture: TextureRef, mip: u32, texel: vec2u) -> vec4f {
  var status = 0u;
  return d3d12_tex2d_load(texture, mip, texel, &status);
}
fn sample_level(texture: TextureRef, uv: vec2f, lod: f32) -> vec4f {
  var status = 0u;
  return d3d12_tex2d_sample_level(texture, uv, lod, 0.0, &status);
}
