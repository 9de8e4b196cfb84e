// Round 6: the mirror design's read. The texture's mirror (a real texture with its mips) is bound
// for the dispatch; a bit per tile of the resource (standard tiles, then one for the mip tail) says
// whether the mirror holds that tile as memory has it now (stores clear bits; a fill pass copies
// tiles and sets them). A read whose texels all lie in valid tiles is one hardware read; any other
// goes to memory (here a plain pool read of the texel through the page table: never taken, since
// every bit is set, but compiled in, as the fallback would be).

@group(0) @binding(7) var<storage, read> valid: array<u32>;

alias TextureRef = u32;

fn open_texture() -> TextureRef {
  return 0u;
}

// The tile holding texel `texel` of mip `mip` (the tail's one tile for a packed mip).
fn r6_tile(mip: u32, texel: vec2u) -> u32 {
  let m = resolved.mip_tiles[min(mip, 11u)];
  return select(m.x + (texel.y >> 7u) * m.y + (texel.x >> 7u), resolved.tail_tile, m.z != 0u);
}

fn r6_valid(tile: u32) -> bool {
  return (valid[tile >> 5u] & (1u << (tile & 31u))) != 0u;
}

// The fallback: texel `texel` of `mip` from memory (tile-major layout at pool word 0).
fn r6_memory_texel(mip: u32, texel: vec2u) -> vec4f {
  let tile = r6_tile(mip, texel);
  let entry = page_table[tile + 1024u];
  let word = (entry & ~R6_KIND_MASK) + ((texel.y & 127u) << 7u) + (texel.x & 127u);
  return unpack4x8unorm(pool[word]);
}

// The summary word's index in `valid` (read-mirror-summary.wgsl): after the tile bits.
const R6_SUMMARY_WORD: u32 = 15u;

fn load_texel_tiles(texture: TextureRef, mip: u32, texel: vec2u) -> vec4f {
  if (r6_valid(r6_tile(mip, texel))) {
    return textureLoad(texels, texel, mip);
  }
  return r6_memory_texel(mip, texel);
}

// Whether the bilinear footprint of `uv` in mip `mip` lies in valid tiles (its first and last texel's).
fn r6_footprint_valid(mip: u32, uv: vec2f) -> bool {
  let size = max(resolved.params.y >> mip, 1u);
  let position = clamp(uv, vec2f(0.0), vec2f(1.0)) * f32(size) - 0.5;
  let first = vec2u(max(floor(position), vec2f(0.0)));
  let last = min(first + 1u, vec2u(size - 1u));
  let a = r6_tile(mip, first);
  let b = r6_tile(mip, last);
  return r6_valid(a) && (a == b || (r6_valid(b) && r6_valid(r6_tile(mip, vec2u(first.x, last.y))) && r6_valid(r6_tile(mip, vec2u(last.x, first.y)))));
}

fn sample_level_tiles(texture: TextureRef, uv: vec2f, lod: f32) -> vec4f {
  let level = clamp(lod, 0.0, f32(resolved.mips - 1u));
  let fine = u32(floor(level));
  let coarse = min(fine + 1u, resolved.mips - 1u);
  var ok = r6_footprint_valid(fine, uv);
  if (level != f32(fine)) {
    ok = ok && r6_footprint_valid(coarse, uv);
  }
  if (ok) {
    return textureSampleLevel(texels, linear_clamp, uv, lod);
  }
  let size = max(resolved.params.y >> fine, 1u);
  return r6_memory_texel(fine, min(vec2u(uv * f32(size)), vec2u(size - 1u)));
}
