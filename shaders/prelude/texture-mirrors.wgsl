// ---- Texture mirrors: textures the texture units read whole, with a validity word per tile -------
//
// Heap memory is the truth; a mirror is a copy of one texture (src/gpu/texture-mirrors.ts): a real
// texture with the resource's standard mips, and per standard tile of its slice 0 a validity word
// (d3d12_mirror_valid) that is 1 only while the mirror holds that tile's bytes as memory has them
// now, mapped where the page table maps it now. The CPU fills tiles (copies from their pool pages at
// the start of a submission) and sets their words; it clears them when a tile's mapping or residency
// changes or a queue write reaches its page. Stores clear them on the GPU: the page a filled tile
// came from carries its link (d3d12_cache_tags[page].y = validity word + 1), and
// d3d12_cache_invalidate drops it (d3d12_mirror_drop), reporting the tile in the fault log so the
// CPU fills it again.
//
// A dispatch binds up to four mirrors (d3d12_mirror_0..3) and names up to four descriptor addresses
// (d3d12_dispatch.mirror_addresses, its root descriptors'). A pre-pass before the first dispatch of
// each set (shaders/texture_mirror_resolve.wgsl) compares the memory at each address with each bound
// mirror's descriptor words and writes the address's record (D3D12MirrorRecord: the slot + 1 that
// matched, and that mirror's descriptor words, validity base and per-mip summary), watching the page
// it read (D3D12_MIRROR_WATCH in the page's link): a store there clears the submission's "clean"
// word, and every later open goes to memory. d3d12_tex2d then opens a matched descriptor from its
// record without reading memory, and reads of it whose texels (a filter's whole footprint, in each
// mip it weighs) lie in valid tiles are one textureLoad or textureSampleLevel of the mirror. Anything
// else reads memory as before: what a served read returns is the read it replaces (loads
// bit-exact; filtered samples in the texture unit's fixed-point weights, within 2/255 of the
// shader's).
//
// Why records, summaries and the early texture read (round 7, bench/experiments/texture-cache, H100):
// every load an open or a read waits on delays every texel after it. Reaching the table through the
// match word, the slot and its entry cost a load 1.64x native where an open from known addresses
// cost 1.19x (nothing checked either way); a tile's validity word read per texel (and per footprint
// corner) cost filtered samples 0.3-0.6x native more than none. So the record sits at an address the
// dispatch's constants give, read in one round of loads; a mip whose tiles were all valid needs no
// tile word while no store has dropped a tile (the summaries word); and the texture unit's read is
// issued before its validity is known (a read of a bound texture: discarded when not valid).

// The watch bit of a page's link: a resolved descriptor lies in the page.
const D3D12_MIRROR_WATCH: u32 = 0x80000000u;
const D3D12_MIRROR_LINK_MASK: u32 = 0x7fffffffu;
// An empty slot (mirror_ids) or address (mirror_addresses).
const D3D12_MIRROR_NONE: u32 = 0xffffffffu;
// Mirrored textures have 128 x 128 tiles (the standard tile of a 4-byte format): shifts.
const D3D12_MIRROR_TILE_SHIFT: u32 = 7u;

// A mirror's table entry: its texture's descriptor words (what writeTextureDescriptor writes) and
// where its validity words start.
struct D3D12MirrorEntry {
  words: array<vec4u, 18>,
  valid_base: u32,
  // The standard mips the mirror holds.
  mips: u32,
  unused: vec2u,
}

// What the pre-pass resolved at one address of a set: the slot + 1 whose mirror matched (0: none; the
// rest is then unused), that mirror's validity base and descriptor words, and bit m set when
// every tile of standard mip m was valid as the pre-pass ran.
struct D3D12MirrorRecord {
  slot: u32,
  valid_base: u32,
  summary: u32,
  unused: u32,
  words: array<vec4u, 18>,
}

struct D3D12MirrorResolution {
  // 1 while no watched page was written in this submission.
  clean: u32,
  // 1 while no store dropped a mirror tile in this submission: until then the records' summaries hold.
  summaries: u32,
  unused: vec2u,
  // Per set, four records (one per address), from d3d12_dispatch.mirror_set - 1.
  records: array<D3D12MirrorRecord>,
}

@group(0) @binding(9) var<storage, read_write> d3d12_mirror_valid: array<u32>;
@group(0) @binding(10) var<storage, read> d3d12_mirror_table: array<D3D12MirrorEntry>;
@group(0) @binding(11) var<storage, read_write> d3d12_mirror_resolved: D3D12MirrorResolution;
@group(0) @binding(12) var d3d12_mirror_0: texture_2d<f32>;
@group(0) @binding(13) var d3d12_mirror_1: texture_2d<f32>;
@group(0) @binding(14) var d3d12_mirror_2: texture_2d<f32>;
@group(0) @binding(15) var d3d12_mirror_3: texture_2d<f32>;

// A store reached a page whose link is `link` (d3d12_cache_invalidate cleared it).
fn d3d12_mirror_drop(link: u32) {
  if ((link & D3D12_MIRROR_WATCH) != 0u) {
    d3d12_mirror_resolved.clean = 0u;
  }
  let tile = link & D3D12_MIRROR_LINK_MASK;
  if (tile != 0u) {
    d3d12_mirror_valid[tile - 1u] = 0u;
    d3d12_mirror_resolved.summaries = 0u;
    let slot = atomicAdd(&d3d12_faults.mirror_dirty, 1u);
    if (slot < D3D12_MIRROR_DIRTY_CAPACITY) {
      d3d12_faults.mirror_dirty_tiles[slot] = tile - 1u;
    }
  }
}

// The index + 1 of `descriptor`'s record in this dispatch's resolution set, or 0: compared with the
// dispatch's constants, no memory read.
fn d3d12_mirror_record_of(descriptor: vec2u) -> u32 {
  let first = d3d12_dispatch.mirror_set;
  let a = d3d12_dispatch.mirror_addresses;
  var record = 0u;
  if (first != 0u) {
    if (all(descriptor == a[0].xy)) {
      record = first;
    } else if (all(descriptor == a[0].zw)) {
      record = first + 1u;
    } else if (all(descriptor == a[1].xy)) {
      record = first + 2u;
    } else if (all(descriptor == a[1].zw)) {
      record = first + 3u;
    }
  }
  return record;
}

// Opens the descriptor at `descriptor` from its record into *texture when the pre-pass matched it to
// a bound mirror and no watched page was written since; else false (it is read from memory). The
// record's words, its match and the clean word are read in one round: none waits for another.
fn d3d12_mirror_open(descriptor: vec2u, texture: ptr<function, D3D12Texture2D>) -> bool {
  let record = d3d12_mirror_record_of(descriptor);
  var open = false;
  if (record != 0u) {
    let r = record - 1u;
    let slot = d3d12_mirror_resolved.records[r].slot;
    let clean = d3d12_mirror_resolved.clean;
    let a = d3d12_mirror_resolved.records[r].words[0];
    let b = d3d12_mirror_resolved.records[r].words[1];
    let c = d3d12_mirror_resolved.records[r].words[2];
    let valid = d3d12_mirror_resolved.records[r].valid_base;
    let summary = d3d12_mirror_resolved.records[r].summary;
    if (slot != 0u && clean != 0u) {
      *texture = D3D12Texture2D(descriptor, a.xy, a.zw, b.x, b.y, b.z, vec2u(b.w, c.x), c.y, c.z, c.w, D3D12Page(vec2u(0u), 0u, 0u, 0u, 0u), 0u, slot, r, valid, summary);
      open = true;
    }
  }
  return open;
}

// A mirrored texture's mip entry, from its record.
fn d3d12_mirror_mip(texture: D3D12Texture2D, mip: u32) -> vec4u {
  return d3d12_mirror_resolved.records[texture.mirror_record].words[3u + min(mip, D3D12_TEX2D_MAX_MIPS - 1u)];
}

// Whether every tile of standard mip `level` is valid: its summary bit, while no store has dropped a
// tile in this submission (read at every read, so an invocation's own store is seen by its later reads).
fn d3d12_mirror_mip_whole(texture: D3D12Texture2D, level: u32) -> bool {
  return (texture.mirror_summary & (1u << min(level, 31u))) != 0u && d3d12_mirror_resolved.summaries != 0u;
}

// Whether the mirror holds the standard tile of texel `texel` of the mip whose entry is `mip`.
fn d3d12_mirror_tile_valid(texture: D3D12Texture2D, mip: vec4u, texel: vec2u) -> bool {
  let tile = mip.x + (texel.x >> D3D12_MIRROR_TILE_SHIFT) + (texel.y >> D3D12_MIRROR_TILE_SHIFT) * mip.y;
  return d3d12_mirror_valid[texture.mirror_valid + tile] != 0u;
}

// Whether a bilinear footprint at `uv` (clamped to [0, 1]) in mip `level` (entry `mip`) lies in
// valid tiles: the whole mip is (its summary), or its first and last texel's tiles are, and the other
// two corners' when those differ.
fn d3d12_mirror_footprint_valid(texture: D3D12Texture2D, level: u32, mip: vec4u, uv: vec2f) -> bool {
  var valid = mip.w == 0u;
  if (valid && !d3d12_mirror_mip_whole(texture, level)) {
    let size = d3d12_tex2d_mip_size(texture, level);
    let position = uv * vec2f(size) - 0.5;
    let first = vec2u(max(floor(position), vec2f(0.0)));
    let last = min(first + 1u, size - 1u);
    let a = first >> vec2u(D3D12_MIRROR_TILE_SHIFT);
    let b = last >> vec2u(D3D12_MIRROR_TILE_SHIFT);
    valid = d3d12_mirror_tile_valid(texture, mip, first);
    if (valid && any(a != b)) {
      valid = d3d12_mirror_tile_valid(texture, mip, last) && d3d12_mirror_tile_valid(texture, mip, vec2u(first.x, last.y)) && d3d12_mirror_tile_valid(texture, mip, vec2u(last.x, first.y));
    }
  }
  return valid;
}

fn d3d12_mirror_texel(slot: u32, texel: vec2u, level: u32) -> vec4f {
  switch (slot) {
    case 1u: {
      return textureLoad(d3d12_mirror_0, texel, level);
    }
    case 2u: {
      return textureLoad(d3d12_mirror_1, texel, level);
    }
    case 3u: {
      return textureLoad(d3d12_mirror_2, texel, level);
    }
    default: {
      return textureLoad(d3d12_mirror_3, texel, level);
    }
  }
}

fn d3d12_mirror_sample(slot: u32, uv: vec2f, level: f32) -> vec4f {
  switch (slot) {
    case 1u: {
      return textureSampleLevel(d3d12_mirror_0, d3d12_cache_sampler, uv, level);
    }
    case 2u: {
      return textureSampleLevel(d3d12_mirror_1, d3d12_cache_sampler, uv, level);
    }
    case 3u: {
      return textureSampleLevel(d3d12_mirror_2, d3d12_cache_sampler, uv, level);
    }
    default: {
      return textureSampleLevel(d3d12_mirror_3, d3d12_cache_sampler, uv, level);
    }
  }
}

// Texel `texel` (inside mip `level`, whose entry is `mip`) of slice 0 from the mirror into *value
// when its tile is valid; else false.
fn d3d12_mirror_load(texture: D3D12Texture2D, level: u32, mip: vec4u, texel: vec2u, value: ptr<function, vec4f>) -> bool {
  var hit = false;
  if (texture.mirror != 0u) {
    // Issued before the validity is known (see the header).
    let early = d3d12_mirror_texel(texture.mirror, texel, level);
    if (mip.w == 0u && (d3d12_mirror_mip_whole(texture, level) || d3d12_mirror_tile_valid(texture, mip, texel))) {
      *value = early;
      hit = true;
    }
  }
  return hit;
}

// A bilinear sample of mip `level` (entry `mip`) of slice 0 at `uv` (clamped to [0, 1]) from the
// mirror into *value when its footprint lies in valid tiles; else false. The sampler clamps to the
// edge as the prelude's filter does, and an integral level with a linear mip filter reads that mip.
fn d3d12_mirror_bilinear(texture: D3D12Texture2D, level: u32, mip: vec4u, uv: vec2f, value: ptr<function, vec4f>) -> bool {
  var hit = false;
  if (texture.mirror != 0u) {
    let early = d3d12_mirror_sample(texture.mirror, uv, f32(level));
    if (d3d12_mirror_footprint_valid(texture, level, mip, uv)) {
      *value = early;
      hit = true;
    }
  }
  return hit;
}

// A trilinear sample at `level` (clamped to the texture's mips) between mips `fine` and `coarse`
// (weighed when `both`) of slice 0 at `uv` (clamped to [0, 1]): one hardware sample of the mirror
// into *value when both mips are mirrored and both footprints lie in valid tiles; else false.
fn d3d12_mirror_trilinear(texture: D3D12Texture2D, uv: vec2f, level: f32, fine: u32, coarse: u32, both: bool, value: ptr<function, vec4f>) -> bool {
  var hit = false;
  if (texture.mirror != 0u) {
    let early = d3d12_mirror_sample(texture.mirror, uv, level);
    var valid = d3d12_mirror_footprint_valid(texture, fine, d3d12_mirror_mip(texture, fine), uv);
    if (valid && both) {
      valid = d3d12_mirror_footprint_valid(texture, coarse, d3d12_mirror_mip(texture, coarse), uv);
    }
    if (valid) {
      *value = early;
      hit = true;
    }
  }
  return hit;
}
