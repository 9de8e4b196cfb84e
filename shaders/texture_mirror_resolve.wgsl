// Texture mirrors' resolve pre-pass (src/gpu/texture-mirrors.ts), over the compute prelude: run with
// the constants of the first dispatch of a resolution set, just before it. Invocation i compares the
// memory at the set's descriptor address i with each bound mirror's descriptor words and records
// which matched (slot + 1, or 0) in d3d12_mirror_resolved[set + i]. Only a descriptor that lies in
// one resident page, 16-byte aligned, can match (nothing faults here: a dispatch that finds no match
// opens the descriptor from memory, with its faults); its page is watched (D3D12_MIRROR_WATCH), so a
// later store there sends every later open of this submission to memory.

@compute @workgroup_size(4)
fn d3d12_mirror_resolve(@builtin(local_invocation_index) i: u32) {
  let resolution = d3d12_dispatch.mirror_set;
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
      let page = first >> (D3D12_PAGE_SHIFT - 2u);
      d3d12_cache_tags[page].y = d3d12_cache_tags[page].y | D3D12_MIRROR_WATCH;
    }
  }
  d3d12_mirror_resolved[resolution + i] = found;
}
