// ---- Views, compute stage: stores through unordered access views (after descriptor-views.wgsl) ---
//
// RWByteAddressBuffer, RWStructuredBuffer, RWBuffer and RWTexture2D(Array) stores through a UAV a
// register names (d3d12_rw_buffer, d3d12_rw_texture2d). A store outside the view, or through a NULL
// or unusable view, is dropped (D3D12 drops out-of-bounds UAV writes); inside it, it goes through the
// prelude's stores, so NULL tiles drop it and evicted heaps fault, as every store does.

// RWByteAddressBuffer.Store(offset, value) (offset a multiple of 4).
fn d3d12_buffer_store_word(view: D3D12BufferView, offset: u32, value: u32) {
  if (d3d12_buffer_in_view(view, offset, 4u)) {
    d3d12_store(d3d12_address_add(view.address, offset), value);
  }
}

// RWByteAddressBuffer.Store4(offset, value).
fn d3d12_buffer_store_word4(view: D3D12BufferView, offset: u32, value: vec4u) {
  if (d3d12_buffer_in_view(view, offset, 16u)) {
    d3d12_store4(d3d12_address_add(view.address, offset), value);
  }
}

// RWStructuredBuffer[index] word at byte `member` of the element.
fn d3d12_buffer_store_structured(view: D3D12BufferView, index: u32, member: u32, value: u32) {
  if (index < view.elements && member < view.stride) {
    d3d12_buffer_store_word(view, index * view.stride + member, value);
  }
}

// RWBuffer<float4>[index] = value: converted to the view's format (d3d12_tex2d_encode).
fn d3d12_buffer_store(view: D3D12BufferView, index: u32, value: vec4f) {
  if (view.state == D3D12_VIEW_USABLE && index < view.elements) {
    d3d12_buffer_store_bits(view, index, d3d12_tex2d_encode(view.format, value));
  }
}

// RWBuffer<uint4>[index] = value.
fn d3d12_buffer_store_uint(view: D3D12BufferView, index: u32, value: vec4u) {
  if (view.state == D3D12_VIEW_USABLE && index < view.elements) {
    d3d12_buffer_store_bits(view, index, d3d12_tex2d_encode_uint(view.format, value));
  }
}

// An element's bits, word by word (a 1- or 2-byte element merges into its word).
fn d3d12_buffer_store_bits(view: D3D12BufferView, index: u32, bits: vec4u) {
  let address = d3d12_address_add(view.address, index * view.stride);
  let aligned = vec2u(address.x & ~3u, address.y);
  if (view.stride < 4u) {
    let shift = (address.x & 3u) * 8u;
    let mask = ((1u << (view.stride * 8u)) - 1u) << shift;
    d3d12_store_masked(aligned, bits.x << shift, mask);
    return;
  }
  for (var i = 0u; i < view.stride / 4u; i++) {
    d3d12_store(d3d12_address_add(aligned, 4u * i), bits[i]);
  }
}

// RWTexture2DArray[uint3(xy, slice)] = value, at the view's mip: converted to the texture's format.
fn d3d12_texture_array_store(view: D3D12TextureView, xy: vec2i, slice: u32, value: vec4f) {
  if (view.state == D3D12_VIEW_USABLE && slice < view.slice_count && all(xy >= vec2i(0))) {
    var status = 0u;
    d3d12_tex2d_array_store_checked(view.texture, view.first_mip, view.first_slice + slice, vec2u(xy), value, &status);
  }
}

// RWTexture2D[xy] = value.
fn d3d12_texture_store(view: D3D12TextureView, xy: vec2i, value: vec4f) {
  d3d12_texture_array_store(view, xy, 0u, value);
}
