// Indirection cost, the library's 16-byte accessors (with indirection-cost-d3d12.wgsl, in front of
// indirection-cost-wide.wgsl): d3d12_load4, and page handles.

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

