// ---- Tiled 2D textures ------------------------------------------------------------------------
//
// Shaders reach a texture through a descriptor in memory (device.writeTextureDescriptor writes one;
// copy it into any buffer and pass that buffer's address): the texture's address, size, format and
// the emulator's 64KB_UNDEFINED_SWIZZLE layout of each mip. Standard mips are grids of 64 KiB tiles,
// each holding one tile shape of texels row-major; packed mips sit in the mip tail after them,
// row-major. Array slice 0 only.

// Word offsets in the descriptor.
const D3D12_TEX2D_BASE: u32 = 0u;
const D3D12_TEX2D_WIDTH: u32 = 2u;
const D3D12_TEX2D_HEIGHT: u32 = 3u;
const D3D12_TEX2D_MIP_LEVELS: u32 = 4u;
const D3D12_TEX2D_FORMAT: u32 = 5u;
const D3D12_TEX2D_BYTES_PER_TEXEL: u32 = 6u;
const D3D12_TEX2D_TILE_WIDTH: u32 = 7u;
const D3D12_TEX2D_TILE_HEIGHT: u32 = 8u;
const D3D12_TEX2D_STANDARD_TILES: u32 = 9u;
// Per mip, from D3D12_TEX2D_MIPS + 4 * mip: offset (standard: first tile; packed: byte offset in
// the tail), width in tiles (standard), row pitch in bytes (packed), 1 if packed.
const D3D12_TEX2D_MIPS: u32 = 12u;
const D3D12_TEX2D_MAX_MIPS: u32 = 15u;
const D3D12_TEX2D_DESCRIPTOR_WORDS: u32 = 72u;

// Texel formats the prelude decodes.
const D3D12_TEXEL_RGBA8_UNORM: u32 = 1u;
const D3D12_TEXEL_RGBA8_UNORM_SRGB: u32 = 2u;
const D3D12_TEXEL_BGRA8_UNORM: u32 = 3u;
const D3D12_TEXEL_R32_FLOAT: u32 = 4u;
const D3D12_TEXEL_RGBA32_FLOAT: u32 = 5u;

struct D3D12Texture2D {
  descriptor: vec2u,
  base: vec2u,
  size: vec2u,
  mip_levels: u32,
  format: u32,
  bytes_per_texel: u32,
  tile: vec2u,
  standard_tiles: u32,
}

// Reads a texture descriptor's header from memory (once per invocation; pass the result around):
// words 0-11, three 16-byte loads.
fn d3d12_tex2d(descriptor: vec2u) -> D3D12Texture2D {
  let a = d3d12_load4(descriptor);
  let b = d3d12_load4(d3d12_address_add(descriptor, 16u));
  let c = d3d12_load4(d3d12_address_add(descriptor, 32u));
  return D3D12Texture2D(descriptor, a.xy, a.zw, b.x, b.y, b.z, vec2u(b.w, c.x), c.y);
}

// The size in texels of a mip.
fn d3d12_tex2d_mip_size(texture: D3D12Texture2D, mip: u32) -> vec2u {
  return max(texture.size >> vec2u(mip), vec2u(1u));
}

// A mip's entry in the descriptor (D3D12_TEX2D_MIPS + 4 * mip): offset, width in tiles, row pitch,
// packed flag. Read with one 16-byte load, once per sample rather than once per texel: a bilinear
// sample then translates 5 addresses instead of 16.
fn d3d12_tex2d_mip(texture: D3D12Texture2D, mip: u32) -> vec4u {
  return d3d12_load4(d3d12_address_add(texture.descriptor, (D3D12_TEX2D_MIPS + 4u * mip) * 4u));
}

// The address of texel (x, y) of the mip whose entry is `mip` (d3d12_tex2d_mip), by the emulator's
// tiled layout.
fn d3d12_tex2d_mip_texel_address(texture: D3D12Texture2D, mip: vec4u, texel: vec2u) -> vec2u {
  var byte: u32;
  if (mip.w == 0u) {
    let tile = mip.x + texel.x / texture.tile.x + (texel.y / texture.tile.y) * mip.y;
    let within = ((texel.y % texture.tile.y) * texture.tile.x + texel.x % texture.tile.x) * texture.bytes_per_texel;
    byte = tile * D3D12_PAGE_BYTES + within;
  } else {
    byte = texture.standard_tiles * D3D12_PAGE_BYTES + mip.x + texel.y * mip.z + texel.x * texture.bytes_per_texel;
  }
  return d3d12_address_add(texture.base, byte);
}

// The address of texel (x, y) of `mip`, by the emulator's tiled layout.
fn d3d12_tex2d_texel_address(texture: D3D12Texture2D, mip: u32, texel: vec2u) -> vec2u {
  return d3d12_tex2d_mip_texel_address(texture, d3d12_tex2d_mip(texture, mip), texel);
}

fn d3d12_unpack_unorm8(word: u32) -> vec4f {
  return vec4f(f32(word & 0xffu), f32((word >> 8u) & 0xffu), f32((word >> 16u) & 0xffu), f32(word >> 24u)) / 255.0;
}

fn d3d12_srgb_to_linear(c: vec3f) -> vec3f {
  return select(pow((c + 0.055) / 1.055, vec3f(2.4)), c / 12.92, c <= vec3f(0.04045));
}

// Texel (x, y) of `mip` as RGBA; *status says whether every byte read was mapped (D3D12's
// CheckAccessFullyMapped). Coordinates outside the mip are clamped to its edge.
fn d3d12_tex2d_load(texture: D3D12Texture2D, mip: u32, texel: vec2u, status: ptr<function, u32>) -> vec4f {
  let level = min(mip, texture.mip_levels - 1u);
  return d3d12_tex2d_load_in(texture, level, d3d12_tex2d_mip(texture, level), texel, status);
}

// d3d12_tex2d_load of mip `level` (below mip_levels), whose entry `mip` is already read.
fn d3d12_tex2d_load_in(texture: D3D12Texture2D, level: u32, mip: vec4u, texel: vec2u, status: ptr<function, u32>) -> vec4f {
  let clamped = min(texel, d3d12_tex2d_mip_size(texture, level) - vec2u(1u));
  let address = d3d12_tex2d_mip_texel_address(texture, mip, clamped);
  var mapped = D3D12_STATUS_MAPPED;
  var word_status = 0u;
  let first = d3d12_load_checked(address, &word_status);
  mapped &= word_status;
  var color: vec4f;
  switch (texture.format) {
    case D3D12_TEXEL_RGBA8_UNORM: {
      color = d3d12_unpack_unorm8(first);
    }
    case D3D12_TEXEL_RGBA8_UNORM_SRGB: {
      let c = d3d12_unpack_unorm8(first);
      color = vec4f(d3d12_srgb_to_linear(c.rgb), c.a);
    }
    case D3D12_TEXEL_BGRA8_UNORM: {
      color = d3d12_unpack_unorm8(first).bgra;
    }
    case D3D12_TEXEL_R32_FLOAT: {
      color = vec4f(bitcast<f32>(first), 0.0, 0.0, 1.0);
    }
    case D3D12_TEXEL_RGBA32_FLOAT: {
      var rest: array<u32, 3>;
      for (var i = 0u; i < 3u; i++) {
        rest[i] = d3d12_load_checked(d3d12_address_add(address, 4u + 4u * i), &word_status);
        mapped &= word_status;
      }
      color = vec4f(bitcast<f32>(first), bitcast<f32>(rest[0]), bitcast<f32>(rest[1]), bitcast<f32>(rest[2]));
    }
    default: {
      color = vec4f(0.0);
    }
  }
  *status = mapped;
  return color;
}

// Bilinear filtering within one mip (below mip_levels), clamped to the edge.
fn d3d12_tex2d_bilinear(texture: D3D12Texture2D, level: u32, uv: vec2f, status: ptr<function, u32>) -> vec4f {
  let size = vec2f(d3d12_tex2d_mip_size(texture, level));
  let position = clamp(uv, vec2f(0.0), vec2f(1.0)) * size - 0.5;
  let base = floor(position);
  let f = position - base;
  let corner = vec2u(max(base, vec2f(0.0)));
  let next = vec2u(min(base + 1.0, size - 1.0));
  let mip = d3d12_tex2d_mip(texture, level);
  var mapped = D3D12_STATUS_MAPPED;
  var s = 0u;
  let c00 = d3d12_tex2d_load_in(texture, level, mip, corner, &s);
  mapped &= s;
  let c10 = d3d12_tex2d_load_in(texture, level, mip, vec2u(next.x, corner.y), &s);
  mapped &= s;
  let c01 = d3d12_tex2d_load_in(texture, level, mip, vec2u(corner.x, next.y), &s);
  mapped &= s;
  let c11 = d3d12_tex2d_load_in(texture, level, mip, next, &s);
  mapped &= s;
  *status = mapped;
  return mix(mix(c00, c10, f.x), mix(c01, c11, f.x), f.y);
}

// HLSL's SampleLevel with a trilinear filter and clamp addressing, at `lod` but no finer than
// `min_lod` (HLSL's MinLOD clamp, as tiled-resource shaders use to stay within mapped mips).
fn d3d12_tex2d_sample_level(texture: D3D12Texture2D, uv: vec2f, lod: f32, min_lod: f32, status: ptr<function, u32>) -> vec4f {
  let level = clamp(max(lod, min_lod), 0.0, f32(texture.mip_levels - 1u));
  let fine = u32(floor(level));
  let coarse = min(fine + 1u, texture.mip_levels - 1u);
  let t = level - f32(fine);
  var s0 = 0u;
  let a = d3d12_tex2d_bilinear(texture, fine, uv, &s0);
  // At a whole lod the coarser mip has no weight: it is neither read nor part of the status.
  if (t == 0.0 || coarse == fine) {
    *status = s0;
    return a;
  }
  var s1 = 0u;
  let b = d3d12_tex2d_bilinear(texture, coarse, uv, &s1);
  *status = s0 & s1;
  return mix(a, b, t);
}
