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
  // The page's start.
  start: vec2u,
  // The page-table entry, as translated.
  entry: u32,
  // RESIDENT: the index of the page's first word in its pool.
  base: u32,
  // D3D12_PAGE_BYTES when RESIDENT, else 0: an access at byte `offset` takes the fast path when
  // offset < limit, one test for "resident and inside the page".
  limit: u32,
}

fn d3d12_page_with_fault(va: vec2u, absent_kind: u32, unowned_kind: u32) -> D3D12Page {
  let start = vec2u(va.x & ~D3D12_PAGE_OFFSET_MASK, va.y);
  let entry = d3d12_page_entry(start);
  let kind = entry & D3D12_PTE_KIND_MASK;
  // One fault site for both kinds: less code between a handle and its first loads.
  if (kind == D3D12_PTE_ABSENT || kind == D3D12_PTE_UNOWNED) {
    d3d12_record_fault(va, select(unowned_kind, absent_kind, kind == D3D12_PTE_ABSENT), entry);
  }
  return D3D12Page(start, entry, entry & D3D12_PTE_WORD_BASE_MASK, select(0u, D3D12_PAGE_BYTES, kind == D3D12_PTE_RESIDENT));
}

// The handle of the page holding va, for reading.
fn d3d12_page(va: vec2u) -> D3D12Page {
  return d3d12_page_with_fault(va, D3D12_FAULT_READ_ABSENT, D3D12_FAULT_READ_UNOWNED);
}

// The 4-byte word at byte `offset` of the page. The pool is read before the test, as in
// d3d12_load_checked (loads.wgsl), so that loads through a handle keep no branch between them.
fn d3d12_page_load(page: D3D12Page, offset: u32) -> u32 {
  var value = d3d12_pool_read(page.entry, page.base + ((offset & D3D12_PAGE_OFFSET_MASK) >> 2u));
  if (offset >= page.limit || (offset & 3u) != 0u) {
    value = d3d12_page_load_other(page, offset);
  }
  return value;
}

// The rest of d3d12_page_load: outside the page or misaligned (the full path), NULL, not resident.
// One return (pool-words.wgsl says why).
fn d3d12_page_load_other(page: D3D12Page, offset: u32) -> u32 {
  var value = 0u;
  if ((offset & 3u) != 0u || offset >= D3D12_PAGE_BYTES) {
    value = d3d12_load(d3d12_address_add(page.start, offset));
  } else if ((page.entry & D3D12_PTE_KIND_MASK) == D3D12_PTE_NULL) {
    d3d12_record_unmapped(d3d12_address_add(page.start, offset), D3D12_ACCESS_READ);
    value = d3d12_null_read();
  }
  return value;
}

// The 16 bytes at byte `offset` of the page (16-byte aligned: one load).
fn d3d12_page_load4(page: D3D12Page, offset: u32) -> vec4u {
  var value = d3d12_pool_read4(page.entry, page.base + ((offset & D3D12_PAGE_OFFSET_MASK & ~15u) >> 2u));
  if (offset >= page.limit || (offset & 15u) != 0u) {
    value = vec4u(d3d12_page_load(page, offset), d3d12_page_load(page, offset + 4u), d3d12_page_load(page, offset + 8u), d3d12_page_load(page, offset + 12u));
  }
  return value;
}
