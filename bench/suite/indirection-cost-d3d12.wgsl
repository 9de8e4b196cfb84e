// Indirection cost, the library's accessors (put in front of indirection-cost.wgsl; the prelude goes
// in front of both): every load goes by GPU virtual address through the emulated page table, exactly
// as user shaders read resources: d3d12_load (4 bytes) here; d3d12_load4 (16 bytes) and page
// handles (d3d12_page once per 64 KiB page, then d3d12_page_load4 by offset) in
// indirection-cost-d3d12-wide.wgsl.
//
// Root descriptors: 1 the words (a root SRV: a placed or a reserved buffer), 2 the output buffer (a
// root UAV). Root constant 4: the number of words. The words span less than 4 GiB, so i * 4u does not
// overflow.

fn word_count() -> u32 {
  return d3d12_root_constant(4u);
}

fn load_word(i: u32) -> u32 {
  return d3d12_load(d3d12_address_add(d3d12_root_descriptor(1u), i * 4u));
}

fn store_partial(i: u32, value: u32) {
  d3d12_store(d3d12_address_add(d3d12_root_descriptor(2u), i * 4u), value);
}
