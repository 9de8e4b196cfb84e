// ---- Tiled 2D textures ------------------------------------------------------------------------
//
// Shaders reach a texture through a descriptor in memory (device.writeTextureDescriptor writes one;
// copy it into any buffer and pass that buffer's address): the texture's address, size, format and
// the emulator's 64KB_UNDEFINED_SWIZZLE layout of each mip. Standard mips are grids of 64 KiB tiles,
// each holding one tile shape of texels row-major; packed mips sit in the mip tail after them,
// row-major. Array slices follow each other slice_pitch bytes apart, each with its own standard
// tiles and its own tail. Loads (here, every stage) and stores (texture-stores.wgsl, compute) reach
// a texel through one address formula, d3d12_tex2d_texel_address_in.

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
const D3D12_TEX2D_ARRAY_SIZE: u32 = 10u;
// Bytes from one array slice to the next, in units of 1 << D3D12_TEX2D_SLICE_PITCH_SHIFT bytes (slices
// start on 4 KiB boundaries: a slice's tail is rounded to 4 KiB or to whole tiles), so that a pitch
// of 4 GiB or more fits in a word.
const D3D12_TEX2D_SLICE_PITCH: u32 = 11u;
const D3D12_TEX2D_SLICE_PITCH_SHIFT: u32 = 12u;
// Per mip, from D3D12_TEX2D_MIPS + 4 * mip: offset (standard: first tile; packed: byte offset in
// the tail), width in tiles (standard), row pitch in bytes (packed), 1 if packed.
const D3D12_TEX2D_MIPS: u32 = 12u;
const D3D12_TEX2D_MAX_MIPS: u32 = 15u;
const D3D12_TEX2D_DESCRIPTOR_WORDS: u32 = 72u;

// Texel formats: texel-formats.wgsl (D3D12_TEXEL_*).

struct D3D12Texture2D {
  descriptor: vec2u,
  base: vec2u,
  size: vec2u,
  mip_levels: u32,
  format: u32,
  bytes_per_texel: u32,
  tile: vec2u,
  standard_tiles: u32,
  array_size: u32,
  // In units of 1 << D3D12_TEX2D_SLICE_PITCH_SHIFT bytes.
  slice_pitch: u32,
  // The descriptor's page, and 1 when the whole descriptor lies in it, 16-byte aligned: then the
  // header and every mip entry are read through this one translation (page-handle.wgsl).
  page: D3D12Page,
  in_page: u32,
  // Texture mirrors (texture-mirrors.wgsl): the bound slot + 1 whose mirror holds this texture (0:
  // none, the descriptor was read from memory), its resolution record, its first validity word, and
  // the mips whose every tile was valid when the dispatch's pre-pass ran (bit per mip).
  mirror: u32,
  mirror_record: u32,
  mirror_valid: u32,
  mirror_summary: u32,
}

// Reads a texture descriptor's header from memory (once per invocation; pass the result around):
// words 0-11, three 16-byte loads. A descriptor inside one page (every descriptor a descriptor heap
// or writeTextureDescriptor's buffer holds at a 16-byte offset, unless it crosses a 64 KiB line) is
// translated once, for the header and the mip entries read later; one across a line, or unaligned,
// translates each load (a texture load cost 2.75x native with the header read by three
// translations, 2.1x by one, H100, docs/texture-cache.md). An absent or unowned page faults once, at
// the descriptor's address, either way.
fn d3d12_tex2d(descriptor: vec2u) -> D3D12Texture2D {
  // A descriptor the dispatch's pre-pass resolved to a bound mirror is not read from memory.
  var mirrored: D3D12Texture2D;
  if (d3d12_mirror_open(descriptor, &mirrored)) {
    return mirrored;
  }
  let offset = descriptor.x & D3D12_PAGE_OFFSET_MASK;
  let in_page = (offset & 15u) == 0u && offset + D3D12_TEX2D_DESCRIPTOR_WORDS * 4u <= D3D12_PAGE_BYTES;
  var page = D3D12Page(vec2u(0u), 0u, 0u, 0u, 0u);
  var a: vec4u;
  var b: vec4u;
  var c: vec4u;
  if (in_page) {
    page = d3d12_page(descriptor);
    a = d3d12_page_load4(page, offset);
    b = d3d12_page_load4(page, offset + 16u);
    c = d3d12_page_load4(page, offset + 32u);
  } else {
    a = d3d12_load4(descriptor);
    b = d3d12_load4(d3d12_address_add(descriptor, 16u));
    c = d3d12_load4(d3d12_address_add(descriptor, 32u));
  }
  return D3D12Texture2D(descriptor, a.xy, a.zw, b.x, b.y, b.z, vec2u(b.w, c.x), c.y, c.z, c.w, page, select(0u, 1u, in_page), 0u, 0u, 0u, 0u);
}

// The size in texels of a mip.
fn d3d12_tex2d_mip_size(texture: D3D12Texture2D, mip: u32) -> vec2u {
  return max(texture.size >> vec2u(mip), vec2u(1u));
}

// A mip's entry in the descriptor (D3D12_TEX2D_MIPS + 4 * mip): offset, width in tiles, row pitch,
// packed flag. Read with one 16-byte load, once per sample rather than once per texel: a bilinear
// sample then translates 5 addresses instead of 16.
fn d3d12_tex2d_mip(texture: D3D12Texture2D, mip: u32) -> vec4u {
  let at = (D3D12_TEX2D_MIPS + 4u * min(mip, D3D12_TEX2D_MAX_MIPS - 1u)) * 4u;
  var entry: vec4u;
  if (texture.mirror != 0u) {
    entry = d3d12_mirror_mip(texture, mip);
  } else if (texture.in_page != 0u) {
    entry = d3d12_page_load4(texture.page, (texture.descriptor.x & D3D12_PAGE_OFFSET_MASK) + at);
  } else {
    entry = d3d12_load4(d3d12_address_add(texture.descriptor, at));
  }
  return entry;
}

// The first byte of array slice `slice`. The offset is carried into the high word: slices past
// 4 GiB stay inside the texture.
fn d3d12_tex2d_slice_base(texture: D3D12Texture2D, slice: u32) -> vec2u {
  let units = slice * texture.slice_pitch;
  let low = texture.base.x + (units << D3D12_TEX2D_SLICE_PITCH_SHIFT);
  return vec2u(low, texture.base.y + (units >> (32u - D3D12_TEX2D_SLICE_PITCH_SHIFT)) + select(0u, 1u, low < texture.base.x));
}

// The address of texel (x, y) of array slice `slice` of the mip whose entry is `mip`
// (d3d12_tex2d_mip), by the emulator's tiled layout: the one formula loads and stores share.
fn d3d12_tex2d_texel_address_in(texture: D3D12Texture2D, mip: vec4u, slice: u32, texel: vec2u) -> vec2u {
  var byte: u32;
  if (mip.w == 0u) {
    // Tile shapes are powers of two: shifts and masks, not divisions by a uniform (which cost
    // loads 2.1x native against 1.75x, H100, docs/texture-cache.md).
    let shift = countTrailingZeros(texture.tile);
    let inside = texel & (texture.tile - 1u);
    let tile = mip.x + (texel.x >> shift.x) + (texel.y >> shift.y) * mip.y;
    let within = ((inside.y << shift.x) + inside.x) * texture.bytes_per_texel;
    byte = tile * D3D12_PAGE_BYTES + within;
  } else {
    byte = texture.standard_tiles * D3D12_PAGE_BYTES + mip.x + texel.y * mip.z + texel.x * texture.bytes_per_texel;
  }
  return d3d12_address_add(d3d12_tex2d_slice_base(texture, slice), byte);
}

// The address of texel (x, y) of array slice 0 of the mip whose entry is `mip`.
fn d3d12_tex2d_mip_texel_address(texture: D3D12Texture2D, mip: vec4u, texel: vec2u) -> vec2u {
  return d3d12_tex2d_texel_address_in(texture, mip, 0u, texel);
}

// The address of texel (x, y) of `mip` (array slice 0), by the emulator's tiled layout.
fn d3d12_tex2d_texel_address(texture: D3D12Texture2D, mip: u32, texel: vec2u) -> vec2u {
  return d3d12_tex2d_mip_texel_address(texture, d3d12_tex2d_mip(texture, mip), texel);
}

// The last array slice (a descriptor written before arrays were described says 0 slices: slice 0).
fn d3d12_tex2d_last_slice(texture: D3D12Texture2D) -> u32 {
  return max(texture.array_size, 1u) - 1u;
}

// Texel (x, y) of `mip` as RGBA; *status says whether every byte read was mapped (D3D12's
// CheckAccessFullyMapped). Coordinates outside the mip are clamped to its edge.
fn d3d12_tex2d_load(texture: D3D12Texture2D, mip: u32, texel: vec2u, status: ptr<function, u32>) -> vec4f {
  let level = min(mip, texture.mip_levels - 1u);
  return d3d12_tex2d_load_in(texture, level, d3d12_tex2d_mip_clamped(texture, mip, level), texel, status);
}

// The entry of mip `level`, the mip `wanted` clamped to the texture's (level = min(wanted,
// mip_levels - 1)). It is read at `wanted` first: that load does not wait for the header's
// mip_levels, so it is in flight with the header's loads rather than after them; it is read again at
// `level` only when the clamp moved it.
fn d3d12_tex2d_mip_clamped(texture: D3D12Texture2D, wanted: u32, level: u32) -> vec4u {
  var entry = d3d12_tex2d_mip(texture, wanted);
  if (level != wanted) {
    entry = d3d12_tex2d_mip(texture, level);
  }
  return entry;
}

// Texel (x, y) of `mip` of array slice `slice` (Texture2DArray.Load), as d3d12_tex2d_load; the mip
// and slice are clamped to the texture's, the coordinates to the mip's edge.
fn d3d12_tex2d_array_load(texture: D3D12Texture2D, mip: u32, slice: u32, texel: vec2u, status: ptr<function, u32>) -> vec4f {
  let level = min(mip, texture.mip_levels - 1u);
  let clamped = min(texel, d3d12_tex2d_mip_size(texture, level) - vec2u(1u));
  return d3d12_tex2d_texel(texture, d3d12_tex2d_mip(texture, level), min(slice, d3d12_tex2d_last_slice(texture)), clamped, status);
}

// The raw bits of texel (x, y) of `mip` of array slice `slice`, clamped as d3d12_tex2d_array_load:
// bytes_per_texel bytes, little-endian from .x (a 1- or 2-byte texel in the low bits of .x), as
// HLSL's Load of a UINT view of the format; *status as d3d12_tex2d_load.
fn d3d12_tex2d_array_load_bits(texture: D3D12Texture2D, mip: u32, slice: u32, texel: vec2u, status: ptr<function, u32>) -> vec4u {
  let level = min(mip, texture.mip_levels - 1u);
  let clamped = min(texel, d3d12_tex2d_mip_size(texture, level) - vec2u(1u));
  let address = d3d12_tex2d_texel_address_in(texture, d3d12_tex2d_mip(texture, level), min(slice, d3d12_tex2d_last_slice(texture)), clamped);
  return d3d12_texel_bits_at(address, texture.bytes_per_texel, status);
}

// The bits of the `bytes`-byte texel at `address` (1, 2, 4, 8 or 16 bytes, aligned to its size or
// to 4): a 1- or 2-byte texel in the low bits of .x; *status as d3d12_load_checked's, for all of it.
fn d3d12_texel_bits_at(address: vec2u, bytes: u32, status: ptr<function, u32>) -> vec4u {
  // A texel lies in one aligned word, or fills whole words from an aligned one.
  let aligned = vec2u(address.x & ~3u, address.y);
  var bits = vec4u(0u);
  var mapped = D3D12_STATUS_MAPPED;
  var word_status = 0u;
  let words = max(bytes / 4u, 1u);
  for (var i = 0u; i < words; i++) {
    bits[i] = d3d12_load_checked(d3d12_address_add(aligned, 4u * i), &word_status);
    mapped &= word_status;
  }
  if (bytes < 4u) {
    bits.x = extractBits(bits.x, (address.x & 3u) * 8u, bytes * 8u);
  }
  *status = mapped;
  return bits;
}

// d3d12_tex2d_load of mip `level` (below mip_levels), whose entry `mip` is already read.
fn d3d12_tex2d_load_in(texture: D3D12Texture2D, level: u32, mip: vec4u, texel: vec2u, status: ptr<function, u32>) -> vec4f {
  let clamped = min(texel, d3d12_tex2d_mip_size(texture, level) - vec2u(1u));
  var value = vec4f(0.0);
  if (d3d12_mirror_load(texture, level, mip, clamped, &value)) {
    *status = D3D12_STATUS_MAPPED;
    return value;
  }
  return d3d12_tex2d_texel(texture, mip, 0u, clamped, status);
}

// Texel (x, y), inside its mip, of array slice `slice` of the mip whose entry is `mip`, as RGBA:
// from the texture cache when it holds the texel's tile (texture-cache.wgsl), else from memory.
fn d3d12_tex2d_texel(texture: D3D12Texture2D, mip: vec4u, slice: u32, texel: vec2u, status: ptr<function, u32>) -> vec4f {
  let address = d3d12_tex2d_texel_address_in(texture, mip, slice, texel);
  var value = vec4f(0.0);
  if (d3d12_cache_load(texture, mip, address, texel, &value)) {
    *status = D3D12_STATUS_MAPPED;
  } else {
    value = d3d12_tex2d_load_at(texture, address, status);
  }
  return value;
}

// The texel at `address` as RGBA, decoded from the texture's format (texel-formats.wgsl).
fn d3d12_tex2d_load_at(texture: D3D12Texture2D, address: vec2u, status: ptr<function, u32>) -> vec4f {
  return d3d12_texel_decode(texture.format, d3d12_texel_bits_at(address, texture.bytes_per_texel, status));
}

// Bilinear filtering within one mip (below mip_levels), clamped to the edge: one sample of the
// texture cache when it holds the footprint's tile (texture-cache.wgsl), else four taps.
fn d3d12_tex2d_bilinear(texture: D3D12Texture2D, level: u32, uv: vec2f, status: ptr<function, u32>) -> vec4f {
  return d3d12_tex2d_bilinear_in(texture, level, d3d12_tex2d_mip(texture, level), uv, status);
}

// d3d12_tex2d_bilinear of mip `level`, whose entry `mip` is already read.
fn d3d12_tex2d_bilinear_in(texture: D3D12Texture2D, level: u32, mip: vec4u, uv: vec2f, status: ptr<function, u32>) -> vec4f {
  var mirrored = vec4f(0.0);
  if (d3d12_mirror_bilinear(texture, level, mip, clamp(uv, vec2f(0.0), vec2f(1.0)), &mirrored)) {
    *status = D3D12_STATUS_MAPPED;
    return mirrored;
  }
  return d3d12_tex2d_bilinear_unmirrored(texture, level, mip, uv, status);
}

// d3d12_tex2d_bilinear_in from the texture cache or memory, the mirror not asked (its caller asked
// it, for the whole sample): no mirror read in the four taps either, so a read the mirror served
// carries no second copy of its code (round 7: a larger fallback cost filtered reads about 0.5x
// native where the mirror served them, in registers, bench/experiments/texture-cache/README.md).
fn d3d12_tex2d_bilinear_unmirrored(texture: D3D12Texture2D, level: u32, mip: vec4u, uv: vec2f, status: ptr<function, u32>) -> vec4f {
  let size = vec2f(d3d12_tex2d_mip_size(texture, level));
  let position = clamp(uv, vec2f(0.0), vec2f(1.0)) * size - 0.5;
  let base = floor(position);
  let f = position - base;
  let corner = vec2u(max(base, vec2f(0.0)));
  let next = vec2u(min(base + 1.0, size - 1.0));
  var value = vec4f(0.0);
  if (d3d12_cache_bilinear(texture, mip, level, 0u, position, &value)) {
    *status = D3D12_STATUS_MAPPED;
  } else {
    var mapped = D3D12_STATUS_MAPPED;
    var s = 0u;
    // corner and next lie inside the mip.
    let c00 = d3d12_tex2d_texel(texture, mip, 0u, corner, &s);
    mapped &= s;
    let c10 = d3d12_tex2d_texel(texture, mip, 0u, vec2u(next.x, corner.y), &s);
    mapped &= s;
    let c01 = d3d12_tex2d_texel(texture, mip, 0u, vec2u(corner.x, next.y), &s);
    mapped &= s;
    let c11 = d3d12_tex2d_texel(texture, mip, 0u, next, &s);
    mapped &= s;
    *status = mapped;
    value = mix(mix(c00, c10, f.x), mix(c01, c11, f.x), f.y);
  }
  return value;
}

// HLSL's SampleLevel with a trilinear filter and clamp addressing, at `lod` but no finer than
// `min_lod` (HLSL's MinLOD clamp, as tiled-resource shaders use to stay within mapped mips).
fn d3d12_tex2d_sample_level(texture: D3D12Texture2D, uv: vec2f, lod: f32, min_lod: f32, status: ptr<function, u32>) -> vec4f {
  let level = clamp(max(lod, min_lod), 0.0, f32(texture.mip_levels - 1u));
  let fine = u32(floor(level));
  let coarse = min(fine + 1u, texture.mip_levels - 1u);
  let t = level - f32(fine);
  // A mirrored texture whose footprints lie in valid tiles: one hardware trilinear sample.
  var mirrored = vec4f(0.0);
  if (d3d12_mirror_trilinear(texture, clamp(uv, vec2f(0.0), vec2f(1.0)), level, fine, coarse, t != 0.0 && coarse != fine, &mirrored)) {
    *status = D3D12_STATUS_MAPPED;
    return mirrored;
  }
  // The finer mip's entry as the lod asks for it, before mip_levels is known (d3d12_tex2d_mip_clamped).
  let wanted = u32(floor(clamp(max(lod, min_lod), 0.0, f32(D3D12_TEX2D_MAX_MIPS - 1u))));
  var s0 = 0u;
  let a = d3d12_tex2d_bilinear_unmirrored(texture, fine, d3d12_tex2d_mip_clamped(texture, wanted, fine), uv, &s0);
  // At a whole lod the coarser mip has no weight: it is neither read nor part of the status.
  if (t == 0.0 || coarse == fine) {
    *status = s0;
    return a;
  }
  var s1 = 0u;
  let b = d3d12_tex2d_bilinear_unmirrored(texture, coarse, d3d12_tex2d_mip_clamped(texture, wanted + 1u, coarse), uv, &s1);
  *status = s0 & s1;
  return mix(a, b, t);
}
