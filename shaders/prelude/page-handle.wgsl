// Prelude, every stage: page handles (after loads.wgsl; stores through handles are in stores.wgsl).
//
// A page handle translates a 64 KiB page once; loads (and, in compute, stores) by byte offset inside
// the page then skip the page table. Valid for the whole dispatch: mappings and residency change
// only between submissions. A handle of a page that is not resident records its fault once, when it
// is made (d3d12_page: a read fault; d3d12_page_for_write: a write fault), and its accesses then
// read 0 and drop writes, as faulting accesses do. NULL tiles read 0 under Tier 2+ and the poison
// value under Tier 1, and drop writes; with unmapped-access recording on, each such access is
// recorded at its own address. An offset outside the page, or not aligned, takes the full path of
// d3d12_load / d3d12_load4 at the handle's address plus the offset.

struct D3D12Page {
  // The address given to d3d12_page, and the page's start.
  va: vec2u,
  start: vec2u,
  // The page-table entry, as translated.
  entry: u32,
  // RESIDENT: the index of the page's first word in its pool.
  base: u32,
}

fn d3d12_page_with_fault(va: vec2u, absent_kind: u32, unowned_kind: u32) -> D3D12Page {
  let start = vec2u(va.x & ~D3D12_PAGE_OFFSET_MASK, va.y);
  let entry = d3d12_page_entry(start);
  let kind = entry & D3D12_PTE_KIND_MASK;
  if (kind == D3D12_PTE_ABSENT) {
    d3d12_record_fault(va, absent_kind, entry);
  } else if (kind == D3D12_PTE_UNOWNED) {
    d3d12_record_fault(va, unowned_kind, entry);
  }
  let page = (entry >> D3D12_PTE_PAYLOAD_SHIFT) & D3D12_PTE_PAGE_MASK;
  return D3D12Page(va, start, entry, page * D3D12_WORDS_PER_PAGE);
}

// The handle of the page holding va, for reading.
fn d3d12_page(va: vec2u) -> D3D12Page {
  return d3d12_page_with_fault(va, D3D12_FAULT_READ_ABSENT, D3D12_FAULT_READ_UNOWNED);
}

fn d3d12_page_resident(page: D3D12Page) -> bool {
  return (page.entry & D3D12_PTE_KIND_MASK) == D3D12_PTE_RESIDENT;
}

// The 4-byte word at byte `offset` of the page.
fn d3d12_page_load(page: D3D12Page, offset: u32) -> u32 {
  if (d3d12_page_resident(page) && (offset & 3u) == 0u && offset < D3D12_PAGE_BYTES) {
    return d3d12_pool_read(page.entry, page.base + (offset >> 2u));
  }
  return d3d12_page_load_other(page, offset);
}

// The rest of d3d12_page_load: outside the page or misaligned (the full path), NULL, not resident.
fn d3d12_page_load_other(page: D3D12Page, offset: u32) -> u32 {
  if ((offset & 3u) != 0u || offset >= D3D12_PAGE_BYTES) {
    return d3d12_load(d3d12_address_add(page.start, offset));
  }
  if ((page.entry & D3D12_PTE_KIND_MASK) == D3D12_PTE_NULL) {
    d3d12_record_unmapped(d3d12_address_add(page.start, offset), D3D12_ACCESS_READ);
    return select(0u, D3D12_TIER1_NULL_READ, d3d12_dispatch.tiled_resources_tier == 1u);
  }
  return 0u;
}

// The 16 bytes at byte `offset` of the page (16-byte aligned: one load).
fn d3d12_page_load4(page: D3D12Page, offset: u32) -> vec4u {
  if (d3d12_page_resident(page) && (offset & 15u) == 0u && offset < D3D12_PAGE_BYTES) {
    return d3d12_pool_read4(page.entry, page.base + (offset >> 2u));
  }
  return vec4u(d3d12_page_load(page, offset), d3d12_page_load(page, offset + 4u), d3d12_page_load(page, offset + 8u), d3d12_page_load(page, offset + 12u));
}
