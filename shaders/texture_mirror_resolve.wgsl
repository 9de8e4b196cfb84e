// Texture mirrors' resolve pre-pass (src/gpu/texture-mirrors.ts), over the compute prelude: run with
// the constants of the first dispatch of a resolution set, just before it. Invocation i compares the
// memory at the set's descriptor address i with each bound mirror's descriptor words and writes the
// address's record (d3d12_mirror_resolved.records[set - 1 + i]): the slot + 1 that matched (or 0)
// and, for a match, that mirror's descriptor words, validity base and summary (bit m: every
// tile of standard mip m is valid now, read from the validity words in queue order). Only a
// descriptor that lies in one resident page, 16-byte aligned, can match (nothing faults here: a
// dispatch that finds no match opens the descriptor from memory, with its faults); its page is
// watched (D3D12_MIRROR_WATCH), so a later store there sends every later open of this submission to
// memory.

// Bit m of a mip's summary: every standard tile of mip m is valid (at most 2,048 tiles a mip are
// looked at: a 16K x 16K mip 0; larger mips get no summary and are checked tile by tile).
const D3D12_MIRROR_SUMMARY_MAX_TILES: u32 = 2048u;

fn d3d12_mirror_summary(id: u32) -> u32 {
  let base = d3d12_mirror_table[id].valid_base;
  let height = d3d12_mirror_table[id].words[0].w;
  var summary = 0u;
  for (var m = 0u; m < min(d3d12_mirror_table[id].mips, D3D12_TEX2D_MAX_MIPS); m++) {
    let mip = d3d12_mirror_table[id].words[3u + m];
    let rows = (max(height >> m, 1u) + (1u << D3D12_MIRROR_TILE_SHIFT) - 1u) >> D3D12_MIRROR_TILE_SHIFT;
    let tiles = mip.y * rows;
    var whole = mip.w == 0u && tiles <= D3D12_MIRROR_SUMMARY_MAX_TILES;
    for (var t = 0u; t < tiles && whole; t++) {
      whole = d3d12_mirror_valid[base + mip.x + t] != 0u;
    }
    if (whole) {
      summary |= 1u << m;
    }
  }
  return summary;
}

@compute @workgroup_size(4)
fn d3d12_mirror_resolve(@builtin(local_invocation_index) i: u32) {
  let record = d3d12_dispatch.mirror_set - 1u + i;
  let pair = d3d12_dispatch.mirror_addresses[i >> 1u];
  let address = select(pair.xy, pair.zw, (i & 1u) == 1u);
  let offset = address.x & D3D12_PAGE_OFFSET_MASK;
  let entry = d3d12_page_entry(address);
  var found = 0u;
  let fits = (offset & 15u) == 0u && offset + D3D12_TEX2D_DESCRIPTOR_WORDS * 4u <= D3D12_PAGE_BYTES;
  if (all(address != vec2u(D3D12_MIRROR_NONE)) && fits && (entry & D3D12_PTE_KIND_MASK) == D3D12_PTE_RESIDENT) {
    let first = d3d12_word_index(entry, address);
    for (var slot = 0u; slot < 4u && found == 0u; slot++) {
      let id = d3d12_dispatch.mirror_ids[slot];
      if (id != D3D12_MIRROR_NONE) {
        var same = true;
        for (var v = 0u; v < D3D12_TEX2D_DESCRIPTOR_WORDS / 4u; v++) {
          same = same && all(d3d12_pool_read4(first + 4u * v) == d3d12_mirror_table[id].words[v]);
        }
        if (same) {
          found = slot + 1u;
        }
      }
    }
    if (found != 0u) {
      let id = d3d12_dispatch.mirror_ids[found - 1u];
      d3d12_mirror_resolved.records[record].valid_base = d3d12_mirror_table[id].valid_base;
      d3d12_mirror_resolved.records[record].words = d3d12_mirror_table[id].words;
      d3d12_mirror_resolved.records[record].summary = d3d12_mirror_summary(id);
      let page = first >> (D3D12_PAGE_SHIFT - 2u);
      d3d12_cache_tags[page].y = d3d12_cache_tags[page].y | D3D12_MIRROR_WATCH;
    }
  }
  d3d12_mirror_resolved.records[record].slot = found;
}
