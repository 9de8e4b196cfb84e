// ---- Texel formats: the texel and element formats the prelude reads and writes ------------------
//
// A texture descriptor or view names its format by one of these codes (src/memory/view-formats.ts
// maps DXGI names to them). A texel's bits are the bytes of one texel, little-endian from .x: a 1-
// or 2-byte texel in the low bits of .x. Decoding follows D3D's format conversion rules (UNORM n:
// value / (2^n - 1); sRGB through the sRGB curve; missing channels read as 0, and alpha as 1).

const D3D12_TEXEL_RGBA8_UNORM: u32 = 1u;
const D3D12_TEXEL_RGBA8_UNORM_SRGB: u32 = 2u;
const D3D12_TEXEL_BGRA8_UNORM: u32 = 3u;
const D3D12_TEXEL_R32_FLOAT: u32 = 4u;
const D3D12_TEXEL_RGBA32_FLOAT: u32 = 5u;
const D3D12_TEXEL_R8_UNORM: u32 = 6u;
const D3D12_TEXEL_RG8_UNORM: u32 = 7u;
const D3D12_TEXEL_RGBA16_FLOAT: u32 = 8u;
const D3D12_TEXEL_RG32_FLOAT: u32 = 9u;
const D3D12_TEXEL_RGBA8_UINT: u32 = 10u;
const D3D12_TEXEL_R32_UINT: u32 = 11u;
const D3D12_TEXEL_RGBA32_UINT: u32 = 12u;
const D3D12_TEXEL_R32_SINT: u32 = 13u;
const D3D12_TEXEL_RGBA32_SINT: u32 = 14u;

fn d3d12_unpack_unorm8(word: u32) -> vec4f {
  return vec4f(f32(word & 0xffu), f32((word >> 8u) & 0xffu), f32((word >> 16u) & 0xffu), f32(word >> 24u)) / 255.0;
}

fn d3d12_srgb_to_linear(c: vec3f) -> vec3f {
  return select(pow((c + 0.055) / 1.055, vec3f(2.4)), c / 12.92, c <= vec3f(0.04045));
}

// A texel's bits as RGBA floats. Integer formats give their values as floats (HLSL reads them
// through Texture2D<uint4>: d3d12_texel_decode_uint); a code the prelude does not know gives 0.
fn d3d12_texel_decode(format: u32, bits: vec4u) -> vec4f {
  var color = vec4f(0.0, 0.0, 0.0, 1.0);
  switch (format) {
    case D3D12_TEXEL_RGBA8_UNORM: {
      color = d3d12_unpack_unorm8(bits.x);
    }
    case D3D12_TEXEL_RGBA8_UNORM_SRGB: {
      let c = d3d12_unpack_unorm8(bits.x);
      color = vec4f(d3d12_srgb_to_linear(c.rgb), c.a);
    }
    case D3D12_TEXEL_BGRA8_UNORM: {
      color = d3d12_unpack_unorm8(bits.x).bgra;
    }
    case D3D12_TEXEL_R8_UNORM: {
      color.r = f32(bits.x & 0xffu) / 255.0;
    }
    case D3D12_TEXEL_RG8_UNORM: {
      color = vec4f(d3d12_unpack_unorm8(bits.x).rg, 0.0, 1.0);
    }
    case D3D12_TEXEL_R32_FLOAT: {
      color.r = bitcast<f32>(bits.x);
    }
    case D3D12_TEXEL_RG32_FLOAT: {
      color = vec4f(bitcast<f32>(bits.x), bitcast<f32>(bits.y), 0.0, 1.0);
    }
    case D3D12_TEXEL_RGBA32_FLOAT: {
      color = bitcast<vec4f>(bits);
    }
    case D3D12_TEXEL_RGBA16_FLOAT: {
      color = vec4f(unpack2x16float(bits.x), unpack2x16float(bits.y));
    }
    case D3D12_TEXEL_RGBA8_UINT, D3D12_TEXEL_R32_UINT, D3D12_TEXEL_RGBA32_UINT: {
      color = vec4f(d3d12_texel_decode_uint(format, bits));
    }
    case D3D12_TEXEL_R32_SINT, D3D12_TEXEL_RGBA32_SINT: {
      color = vec4f(d3d12_texel_decode_sint(format, bits));
    }
    default: {
      color = vec4f(0.0);
    }
  }
  return color;
}

// A texel's bits as unsigned integers (Texture2D<uint4>, Buffer<uint4>): the UINT formats' channels,
// missing ones 0 and alpha 1; any other format's raw words.
fn d3d12_texel_decode_uint(format: u32, bits: vec4u) -> vec4u {
  switch (format) {
    case D3D12_TEXEL_RGBA8_UINT: {
      return (vec4u(bits.x) >> vec4u(0u, 8u, 16u, 24u)) & vec4u(0xffu);
    }
    case D3D12_TEXEL_R32_UINT, D3D12_TEXEL_R32_SINT: {
      return vec4u(bits.x, 0u, 0u, 1u);
    }
    default: {
      return bits;
    }
  }
}

// A texel's bits as signed integers (Texture2D<int4>).
fn d3d12_texel_decode_sint(format: u32, bits: vec4u) -> vec4i {
  return bitcast<vec4i>(d3d12_texel_decode_uint(format, bits));
}
