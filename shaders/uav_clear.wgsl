// The emulator's UAV clear kernel: clearUnorderedAccessViewUint and ...Float run here, as stores
// through the prelude: texel stores (d3d12_tex2d_store_bits_in, texture-stores.wgsl) for textures,
// word stores for buffers. So a clear sees what shaders see: NULL tiles drop the writes (recorded as
// unmapped accesses when that is on), evicted heaps fault, and the faults name the clear command.
// The values arrive converted to the format's bits (src/memory/clear-values.ts); the kernel only
// places them.
//
// Root constants, by the indices below. One dispatch clears one rectangle of one mip over its
// slices (workgroup z: array slices, or a 3D texture's depth slices), or a run of a buffer's words.
// 1D and 2D texels are addressed by the prelude's formula (d3d12_tex2d_texel_address_in); the
// prelude has no 3D textures, so 3D texels are addressed here (d3d12_clear_volume_address), by the
// same tiled layout with a tile depth (src/memory/texel-layout.ts). Every destination word is
// written by one invocation: texels of 4 bytes and more are one invocation each; smaller texels
// (which share words) go a word's worth per invocation, so that no two invocations merge into the
// same word.

const D3D12_CLEAR_WORKGROUP: u32 = 64u;

// What an invocation clears.
// One texel (x, y) = (left + id.x, top + id.y): texels of 4, 8 or 16 bytes.
const D3D12_CLEAR_MODE_TEXELS: u32 = 0u;
// The texels of one 4-byte word of a row of a standard mip (1- and 2-byte texels; a tile's rows are
// whole words): x from (left rounded down to a word) + id.x * texels per word, y = top + id.y.
const D3D12_CLEAR_MODE_WORD_TEXELS: u32 = 1u;
// One 4-byte word of a packed mip (1- and 2-byte texels; rows are tightly pitched, so a word may hold
// the end of one row and the start of the next): word (first word + id.x) of the mip, counted from
// its first byte, and those of its texels that lie in the rectangle. A 3D mip's depth slices follow
// each other just as tightly, so its words run over all the depth slices cleared (workgroup z 1).
const D3D12_CLEAR_MODE_TAIL_WORDS: u32 = 2u;
// One 4-byte word of a buffer: word id.x from D3D12_CLEAR_BASE (16-byte aligned), its bytes in
// [first byte, end byte) written with the pattern's word (id.x % 4).
const D3D12_CLEAR_MODE_BUFFER: u32 = 3u;

// Root constant indices.
const D3D12_CLEAR_MODE: u32 = 0u;
// The texture's (or the buffer run's) GPU virtual address: low, high.
const D3D12_CLEAR_BASE: u32 = 1u;
// Four words: one texel's bits (textures), or the 16-byte pattern (buffers).
const D3D12_CLEAR_BITS: u32 = 4u;
// Textures: left, top, right, bottom of the rectangle. Buffers: the first byte, the end byte.
const D3D12_CLEAR_RECT: u32 = 8u;
// Textures: the first slice; the mip; TAIL_WORDS: the first word.
const D3D12_CLEAR_FIRST_SLICE: u32 = 12u;
const D3D12_CLEAR_LEVEL: u32 = 13u;
const D3D12_CLEAR_FIRST_WORD: u32 = 14u;
// The mip's descriptor entry (textures.wgsl: offset, width in tiles, row pitch, packed).
const D3D12_CLEAR_MIP: u32 = 16u;
// The texture: width, height, mip levels, bytes per texel, tile width, tile height, standard tiles
// per slice, array size, slice pitch (in D3D12_TEX2D_SLICE_PITCH_SHIFT units).
const D3D12_CLEAR_TEXTURE: u32 = 20u;
// A 3D texture: its tile depth (0 for 1D and 2D textures), the mip's height in tiles (standard
// mips), the mip's depth pitch in bytes (packed mips), and the end of the depth slices cleared.
const D3D12_CLEAR_VOLUME: u32 = 29u;
const D3D12_CLEAR_CONSTANTS: u32 = 33u;

fn d3d12_clear_constant4(index: u32) -> vec4u {
  return vec4u(d3d12_root_constant(index), d3d12_root_constant(index + 1u), d3d12_root_constant(index + 2u), d3d12_root_constant(index + 3u));
}

fn d3d12_clear_texture() -> D3D12Texture2D {
  let base = vec2u(d3d12_root_constant(D3D12_CLEAR_BASE), d3d12_root_constant(D3D12_CLEAR_BASE + 1u));
  let a = d3d12_clear_constant4(D3D12_CLEAR_TEXTURE);
  let b = d3d12_clear_constant4(D3D12_CLEAR_TEXTURE + 4u);
  let slice_pitch = d3d12_root_constant(D3D12_CLEAR_TEXTURE + 8u);
  // No descriptor in memory and no format: the kernel stores bits through the mip entry it is given.
  return D3D12Texture2D(vec2u(0u), base, a.xy, a.z, 0u, a.w, b.xy, b.z, b.w, slice_pitch, D3D12Page(vec2u(0u), 0u, 0u, 0u, 0u), 0u, 0u, 0u, 0u, 0u);
}

// Stores the texel if it lies in the rectangle (x in [left, right), y in [top, bottom)).
fn d3d12_clear_texel(texture: D3D12Texture2D, level: u32, mip: vec4u, slice: u32, texel: vec2u, rect: vec4u, bits: vec4u) {
  if (all(texel >= rect.xy) && all(texel < rect.zw)) {
    var status = 0u;
    d3d12_tex2d_store_bits_in(texture, level, mip, slice, texel, bits, &status);
  }
}

// base + tiles × 64 KiB, the carry into the high word kept: a volume's tiles may lie past 4 GiB.
fn d3d12_clear_add_tiles(base: vec2u, tiles: u32) -> vec2u {
  let low = base.x + (tiles << D3D12_PAGE_SHIFT);
  return vec2u(low, base.y + (tiles >> (32u - D3D12_PAGE_SHIFT)) + select(0u, 1u, low < base.x));
}

// The address of texel (x, y, z) of a 3D texture's mip whose entry is `mip`, `volume` the
// D3D12_CLEAR_VOLUME words: a standard mip's texel is in tile (x / tw, y / th, z / td) of the mip's
// grid (x fastest, then y, then z), at ((z % td) × th + y % th) × tw + x % tw texels into it; a
// packed mip's at the tail + its offset + z × depth pitch + y × row pitch + x × bytes.
fn d3d12_clear_volume_address(texture: D3D12Texture2D, mip: vec4u, volume: vec4u, texel: vec3u) -> vec2u {
  if (mip.w == 0u) {
    let tile = mip.x + texel.x / texture.tile.x + (texel.y / texture.tile.y) * mip.y + (texel.z / volume.x) * mip.y * volume.y;
    let within = (((texel.z % volume.x) * texture.tile.y + texel.y % texture.tile.y) * texture.tile.x + texel.x % texture.tile.x) * texture.bytes_per_texel;
    return d3d12_address_add(d3d12_clear_add_tiles(texture.base, tile), within);
  }
  let tail = d3d12_clear_add_tiles(texture.base, texture.standard_tiles);
  return d3d12_address_add(tail, mip.x + texel.z * volume.z + texel.y * mip.z + texel.x * texture.bytes_per_texel);
}

// Stores the texel of a 3D mip if it lies in the rectangle (x, y) and in the depth slices [first, end).
fn d3d12_clear_volume_texel(texture: D3D12Texture2D, level: u32, mip: vec4u, volume: vec4u, first: u32, texel: vec3u, rect: vec4u, bits: vec4u) {
  let size = d3d12_tex2d_mip_size(texture, level);
  if (all(texel.xy >= rect.xy) && all(texel.xy < min(rect.zw, size)) && texel.z >= first && texel.z < volume.w) {
    var status = 0u;
    d3d12_tex2d_write_bits(texture, d3d12_clear_volume_address(texture, mip, volume, texel), bits, &status);
  }
}

// A 3D texture's clear, by mode as for 2D: depth slice first + id.z, or (TAIL_WORDS) the depth slice
// the word's byte lies in.
fn d3d12_clear_volume(id: vec3u, mode: u32, texture: D3D12Texture2D, level: u32, mip: vec4u, volume: vec4u, rect: vec4u, bits: vec4u) {
  let first = d3d12_root_constant(D3D12_CLEAR_FIRST_SLICE);
  let per_word = 4u / max(texture.bytes_per_texel, 1u);
  if (mode == D3D12_CLEAR_MODE_TEXELS) {
    d3d12_clear_volume_texel(texture, level, mip, volume, first, vec3u(rect.xy + id.xy, first + id.z), rect, bits);
  } else if (mode == D3D12_CLEAR_MODE_WORD_TEXELS) {
    let x = (rect.x / per_word) * per_word + id.x * per_word;
    for (var i = 0u; i < per_word; i++) {
      d3d12_clear_volume_texel(texture, level, mip, volume, first, vec3u(x + i, rect.y + id.y, first + id.z), rect, bits);
    }
  } else {
    // mip.z is the packed mip's row pitch, volume.z its depth pitch.
    let word = d3d12_root_constant(D3D12_CLEAR_FIRST_WORD) + id.x;
    for (var i = 0u; i < per_word; i++) {
      let byte = word * 4u + i * texture.bytes_per_texel;
      let rest = byte % volume.z;
      d3d12_clear_volume_texel(texture, level, mip, volume, first, vec3u((rest % mip.z) / texture.bytes_per_texel, rest / mip.z, byte / volume.z), rect, bits);
    }
  }
}

fn d3d12_clear_buffer_word(word: u32, bits: vec4u, rect: vec4u) {
  let start = word * 4u;
  if (start + 4u <= rect.x || start >= rect.y) {
    return;
  }
  let base = vec2u(d3d12_root_constant(D3D12_CLEAR_BASE), d3d12_root_constant(D3D12_CLEAR_BASE + 1u));
  let va = d3d12_address_add(base, start);
  let value = bits[word % 4u];
  // The word's bytes inside [first, end): all four, or a partial word at either end.
  let low = max(rect.x, start) - start;
  let high = min(rect.y, start + 4u) - start;
  if (low == 0u && high == 4u) {
    d3d12_store(va, value);
  } else {
    let mask = (0xffffffffu >> (32u - (high - low) * 8u)) << (low * 8u);
    d3d12_store_masked(va, value, mask);
  }
}

@compute @workgroup_size(D3D12_CLEAR_WORKGROUP)
fn d3d12_clear(@builtin(global_invocation_id) id: vec3u) {
  let mode = d3d12_root_constant(D3D12_CLEAR_MODE);
  let bits = d3d12_clear_constant4(D3D12_CLEAR_BITS);
  let rect = d3d12_clear_constant4(D3D12_CLEAR_RECT);
  if (mode == D3D12_CLEAR_MODE_BUFFER) {
    d3d12_clear_buffer_word(id.x, bits, rect);
    return;
  }
  let texture = d3d12_clear_texture();
  let level = d3d12_root_constant(D3D12_CLEAR_LEVEL);
  let mip = d3d12_clear_constant4(D3D12_CLEAR_MIP);
  let volume = d3d12_clear_constant4(D3D12_CLEAR_VOLUME);
  if (volume.x != 0u) {
    d3d12_clear_volume(id, mode, texture, level, mip, volume, rect, bits);
    return;
  }
  let slice = d3d12_root_constant(D3D12_CLEAR_FIRST_SLICE) + id.z;
  let per_word = 4u / max(texture.bytes_per_texel, 1u);
  if (mode == D3D12_CLEAR_MODE_TEXELS) {
    d3d12_clear_texel(texture, level, mip, slice, rect.xy + id.xy, rect, bits);
  } else if (mode == D3D12_CLEAR_MODE_WORD_TEXELS) {
    let first = (rect.x / per_word) * per_word + id.x * per_word;
    for (var i = 0u; i < per_word; i++) {
      d3d12_clear_texel(texture, level, mip, slice, vec2u(first + i, rect.y + id.y), rect, bits);
    }
  } else {
    // mip.z is the packed mip's row pitch.
    let word = d3d12_root_constant(D3D12_CLEAR_FIRST_WORD) + id.x;
    for (var i = 0u; i < per_word; i++) {
      let byte = word * 4u + i * texture.bytes_per_texel;
      d3d12_clear_texel(texture, level, mip, slice, vec2u((byte % mip.z) / texture.bytes_per_texel, byte / mip.z), rect, bits);
    }
  }
}
