// Indirection cost, the library's accessors (put in front of indirection-cost.wgsl; the prelude goes
// in front of both): every load goes by GPU virtual address through the emulated page table, exactly
// as user shaders read resources: d3d12_load (4 bytes), d3d12_load4 (16 bytes), and page handles
// (d3d12_page once per 64 KiB page, then d3d12_page_load4 by offset).
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

fn load_vec4(i: u32) -> vec4u {
  return d3d12_load4(d3d12_address_add(d3d12_root_descriptor(1u), i * 16u));
}

alias PageRef = D3D12Page;

fn page_open(p: u32) -> PageRef {
  return d3d12_page(d3d12_address_add(d3d12_root_descriptor(1u), p * D3D12_PAGE_BYTES));
}

fn page_load4(page: PageRef, j: u32) -> vec4u {
  return d3d12_page_load4(page, j * 16u);
}

fn store_partial(i: u32, value: u32) {
  d3d12_store(d3d12_address_add(d3d12_root_descriptor(2u), i * 4u), value);
}
