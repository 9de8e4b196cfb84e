// Prelude, compute stage: stores. Each function has one exit, if/else rather than early returns
// (pool-words.wgsl says why); the common case (resident, aligned) is tested first.

// Stores value at va (4-byte aligned). Stores to NULL tiles are discarded (and recorded as
// unmapped accesses when that is on); stores to pages no resource owns, or to absent heaps, are
// discarded and recorded as faults.
fn d3d12_store(va: vec2u, value: u32) {
  let entry = d3d12_page_entry(va);
  let kind = entry & D3D12_PTE_KIND_MASK;
  if (d3d12_fast_access(entry, va, 4u)) {
    d3d12_pool_write(d3d12_word_index(entry, va), value);
  } else if ((va.x & 3u) != 0u) {
    d3d12_record_fault(va, D3D12_FAULT_MISALIGNED, 0u);
  } else if (kind == D3D12_PTE_NULL) {
    d3d12_record_unmapped(va, D3D12_ACCESS_WRITE);
  } else if (kind == D3D12_PTE_ABSENT) {
    d3d12_record_fault(va, D3D12_FAULT_WRITE_ABSENT, entry);
  } else {
    d3d12_record_fault(va, D3D12_FAULT_WRITE_UNOWNED, entry);
  }
}

// Stores the bytes of value selected by mask into the word at va (4-byte aligned), keeping the
// word's other bytes: a byte-granular store. Like d3d12_store, it is dropped on NULL tiles and
// recorded as a write fault elsewhere (never as a read). Not atomic: two invocations must not
// merge into the same word at once.
fn d3d12_store_masked(va: vec2u, value: u32, mask: u32) {
  let entry = d3d12_page_entry(va);
  if (d3d12_fast_access(entry, va, 4u)) {
    let word = d3d12_word_index(entry, va);
    d3d12_pool_write(word, (d3d12_pool_read(word) & ~mask) | (value & mask));
  } else {
    d3d12_store(va, value);
  }
}

// Stores the 16 bytes of value at va (HLSL's RWByteAddressBuffer.Store4). 16-byte aligned and
// resident: one 16-byte store. Otherwise four 4-byte stores, each dropped or faulting on its own.
fn d3d12_store4(va: vec2u, value: vec4u) {
  let entry = d3d12_page_entry(va);
  if (d3d12_fast_access(entry, va, 16u)) {
    d3d12_pool_write4(d3d12_word_index(entry, va), value);
  } else {
    d3d12_store(va, value.x);
    d3d12_store(d3d12_address_add(va, 4u), value.y);
    d3d12_store(d3d12_address_add(va, 8u), value.z);
    d3d12_store(d3d12_address_add(va, 12u), value.w);
  }
}

// ---- Stores through page handles (page-handle.wgsl) -------------------------------------------

// The handle of the page holding va, for writing: a page that is not resident records a write fault.
fn d3d12_page_for_write(va: vec2u) -> D3D12Page {
  return d3d12_page_with_fault(va, D3D12_FAULT_WRITE_ABSENT, D3D12_FAULT_WRITE_UNOWNED);
}

// Stores value at byte `offset` of the page (4-byte aligned); dropped on NULL and non-resident pages.
// A bad offset (page-handle.wgsl) drops the store and records its page-offset fault at once: a store
// has its branch anyway, and must never land at another address.
fn d3d12_page_store(page: D3D12Page, offset: u32, value: u32) {
  d3d12_page_store_sized(page, offset, vec4u(value, 0u, 0u, 0u), 4u);
}

// Stores the 16 bytes of value at byte `offset` of the page (16-byte aligned: one store).
fn d3d12_page_store4(page: D3D12Page, offset: u32, value: vec4u) {
  d3d12_page_store_sized(page, offset, value, 16u);
}

// d3d12_page_store (size 4: value.x) and d3d12_page_store4 (size 16).
fn d3d12_page_store_sized(page: D3D12Page, offset: u32, value: vec4u, size: u32) {
  if (!d3d12_page_offset_ok(offset, size)) {
    d3d12_record_fault(d3d12_address_add(page.start, offset), D3D12_FAULT_PAGE_OFFSET, 0u);
  } else if (offset < page.limit) {
    if (size == 16u) {
      d3d12_pool_write4(page.base + (offset >> 2u), value);
    } else {
      d3d12_pool_write(page.base + (offset >> 2u), value.x);
    }
  } else if ((page.entry & D3D12_PTE_KIND_MASK) == D3D12_PTE_NULL) {
    d3d12_record_unmapped(d3d12_address_add(page.start, offset), D3D12_ACCESS_WRITE);
  }
}
