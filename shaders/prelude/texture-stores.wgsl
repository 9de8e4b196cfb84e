// Prelude, compute stage: texel stores into tiled 2D textures (after textures.wgsl and stores.wgsl),
// HLSL's RWTexture2D / RWTexture2DArray stores. A texel's address comes from the formula the loads
// use (d3d12_tex2d_texel_address_in); its bytes go through the prelude's stores, so a store to a NULL
// tile is dropped (and recorded when unmapped-access recording is on), and one to an evicted heap is
// a write fault, recorded and attributed like any other store. A `_checked` form reports in *status
// whether the texel reached mapped, resident memory (D3D12_STATUS_MAPPED), as d3d12_load_checked
// does; d3d12_check_access_fully_mapped reads it.
//
// Out of range (a mip or slice the texture does not have, coordinates outside the mip) the store is
// dropped and the status is 0 (**Chosen**: D3D12 drops out-of-bounds UAV writes). 1- and 2-byte
// texels merge into their word (d3d12_store_masked): not atomic, so two invocations must not store
// texels that share a word at once.

// D3D's FLOAT -> UNORM conversion (D3D11.3 functional spec, 3.2.3.6): NaN is 0, the value is clamped
// to [0, 1], scaled by 2^n - 1, and rounded by adding 0.5 and dropping the fraction. 8 bits per channel.
fn d3d12_pack_unorm8(value: vec4f) -> u32 {
  let c = select(clamp(value, vec4f(0.0), vec4f(1.0)), vec4f(0.0), value != value);
  let u = vec4u(floor(c * 255.0 + 0.5));
  return u.x | (u.y << 8u) | (u.z << 16u) | (u.w << 24u);
}

fn d3d12_linear_to_srgb(c: vec3f) -> vec3f {
  return select(1.055 * pow(c, vec3f(1.0 / 2.4)) - 0.055, c * 12.92, c <= vec3f(0.0031308));
}

// The texel bits of `value` in the texture's format: the inverse of d3d12_texel_decode (FLOAT to
// UNORM as above; 16-bit floats round to nearest even; integer formats take the values as integers,
// wrapped to their width as a cast would). A format the prelude does not decode gives 0.
fn d3d12_tex2d_encode(format: u32, value: vec4f) -> vec4u {
  var bits = vec4u(0u);
  switch (format) {
    case D3D12_TEXEL_RGBA8_UNORM: {
      bits.x = d3d12_pack_unorm8(value);
    }
    case D3D12_TEXEL_RGBA8_UNORM_SRGB: {
      let c = select(clamp(value.rgb, vec3f(0.0), vec3f(1.0)), vec3f(0.0), value.rgb != value.rgb);
      bits.x = d3d12_pack_unorm8(vec4f(d3d12_linear_to_srgb(c), value.a));
    }
    case D3D12_TEXEL_BGRA8_UNORM: {
      bits.x = d3d12_pack_unorm8(value.bgra);
    }
    case D3D12_TEXEL_R8_UNORM: {
      bits.x = d3d12_pack_unorm8(value) & 0xffu;
    }
    case D3D12_TEXEL_RG8_UNORM: {
      bits.x = d3d12_pack_unorm8(value) & 0xffffu;
    }
    case D3D12_TEXEL_R32_FLOAT: {
      bits.x = bitcast<u32>(value.x);
    }
    case D3D12_TEXEL_RG32_FLOAT: {
      bits = vec4u(bitcast<vec2u>(value.xy), 0u, 0u);
    }
    case D3D12_TEXEL_RGBA32_FLOAT: {
      bits = bitcast<vec4u>(value);
    }
    case D3D12_TEXEL_RGBA16_FLOAT: {
      bits = vec4u(pack2x16float(value.xy), pack2x16float(value.zw), 0u, 0u);
    }
    case D3D12_TEXEL_RGBA8_UINT, D3D12_TEXEL_R32_UINT, D3D12_TEXEL_RGBA32_UINT, D3D12_TEXEL_R32_SINT, D3D12_TEXEL_RGBA32_SINT: {
      bits = d3d12_tex2d_encode_uint(format, bitcast<vec4u>(vec4i(value)));
    }
    default: {
    }
  }
  return bits;
}

// The texel bits of integer `value` (RWTexture2D<uint4> stores): UINT and SINT formats; any other
// format takes the words as they are.
fn d3d12_tex2d_encode_uint(format: u32, value: vec4u) -> vec4u {
  switch (format) {
    case D3D12_TEXEL_RGBA8_UINT: {
      let b = value & vec4u(0xffu);
      return vec4u(b.x | (b.y << 8u) | (b.z << 16u) | (b.w << 24u), 0u, 0u, 0u);
    }
    case D3D12_TEXEL_R32_UINT, D3D12_TEXEL_R32_SINT: {
      return vec4u(value.x, 0u, 0u, 0u);
    }
    default: {
      return value;
    }
  }
}

// Writes the texel bits at `address` (bytes_per_texel bytes, laid out as d3d12_tex2d_array_load_bits
// returns them) through the prelude's stores; *status: whether the texel's page was mapped and
// resident. A texel never straddles a page (texels are at most 16 bytes and aligned to their size).
// Word by word in a loop, one store call site: SwiftShader inlines every call, and a site per texel
// size (a 16-byte store, two, one, a masked one) made a shader storing texels in five forms take
// seconds to compile.
fn d3d12_tex2d_write_bits(texture: D3D12Texture2D, address: vec2u, bits: vec4u, status: ptr<function, u32>) {
  let aligned = vec2u(address.x & ~3u, address.y);
  *status = select(0u, D3D12_STATUS_MAPPED, d3d12_fast_access(d3d12_page_entry(aligned), aligned, 4u));
  if (texture.bytes_per_texel >= 4u) {
    for (var i = 0u; i < texture.bytes_per_texel / 4u; i++) {
      d3d12_store(d3d12_address_add(aligned, 4u * i), bits[i]);
    }
  } else {
    let shift = (address.x & 3u) * 8u;
    let mask = ((1u << (texture.bytes_per_texel * 8u)) - 1u) << shift;
    d3d12_store_masked(aligned, bits.x << shift, mask);
  }
}

// Stores the raw texel bits of texel (x, y) of mip `level`, whose descriptor entry `mip` is already
// read (d3d12_tex2d_mip), of array slice `slice`; dropped, with status 0, outside the texture.
fn d3d12_tex2d_store_bits_in(texture: D3D12Texture2D, level: u32, mip: vec4u, slice: u32, texel: vec2u, bits: vec4u, status: ptr<function, u32>) {
  *status = 0u;
  if (level < texture.mip_levels && slice <= d3d12_tex2d_last_slice(texture) && all(texel < d3d12_tex2d_mip_size(texture, level))) {
    d3d12_tex2d_write_bits(texture, d3d12_tex2d_texel_address_in(texture, mip, slice, texel), bits, status);
  }
}

// Stores the raw bits of texel (x, y) of `mip` of array slice `slice` (HLSL's store through a UINT
// view of the format: no conversion); *status as d3d12_tex2d_store_checked.
fn d3d12_tex2d_array_store_bits(texture: D3D12Texture2D, mip: u32, slice: u32, texel: vec2u, bits: vec4u, status: ptr<function, u32>) {
  let level = min(mip, D3D12_TEX2D_MAX_MIPS - 1u);
  d3d12_tex2d_store_bits_in(texture, mip, d3d12_tex2d_mip(texture, level), slice, texel, bits, status);
}

// Stores `value`, converted to the texture's format, at texel (x, y) of `mip` of array slice
// `slice` (RWTexture2DArray's store); *status: D3D12_STATUS_MAPPED when the texel reached mapped,
// resident memory, 0 when the store was dropped (a NULL tile, an evicted heap, out of range).
fn d3d12_tex2d_array_store_checked(texture: D3D12Texture2D, mip: u32, slice: u32, texel: vec2u, value: vec4f, status: ptr<function, u32>) {
  d3d12_tex2d_array_store_bits(texture, mip, slice, texel, d3d12_tex2d_encode(texture.format, value), status);
}

fn d3d12_tex2d_array_store(texture: D3D12Texture2D, mip: u32, slice: u32, texel: vec2u, value: vec4f) {
  var status = 0u;
  d3d12_tex2d_array_store_checked(texture, mip, slice, texel, value, &status);
}

// Stores `value` at texel (x, y) of `mip` (array slice 0), as d3d12_tex2d_array_store_checked.
fn d3d12_tex2d_store_checked(texture: D3D12Texture2D, mip: u32, texel: vec2u, value: vec4f, status: ptr<function, u32>) {
  d3d12_tex2d_array_store_checked(texture, mip, 0u, texel, value, status);
}

fn d3d12_tex2d_store(texture: D3D12Texture2D, mip: u32, texel: vec2u, value: vec4f) {
  var status = 0u;
  d3d12_tex2d_store_checked(texture, mip, texel, value, &status);
}
