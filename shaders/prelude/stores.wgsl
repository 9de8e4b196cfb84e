// Prelude, compute stage: stores.

// Stores value at va (4-byte aligned). Stores to NULL tiles are discarded (and recorded as
// unmapped accesses when that is on); stores to pages no resource owns, or to absent heaps, are
// discarded and recorded as faults.
fn d3d12_store(va: vec2u, value: u32) {
  if ((va.x & 3u) != 0u) {
    d3d12_record_fault(va, D3D12_FAULT_MISALIGNED, 0u);
    return;
  }
  let entry = d3d12_page_entry(va);
  switch (entry & D3D12_PTE_KIND_MASK) {
    case D3D12_PTE_RESIDENT: {
      let word = d3d12_word_index(entry, va);
      if (d3d12_is_non_local(entry)) {
        d3d12_pool_non_local[word] = value;
      } else {
        d3d12_pool_local[word] = value;
      }
    }
    case D3D12_PTE_NULL: {
      d3d12_record_unmapped(va, D3D12_ACCESS_WRITE);
    }
    case D3D12_PTE_ABSENT: {
      d3d12_record_fault(va, D3D12_FAULT_WRITE_ABSENT, entry);
    }
    default: {
      d3d12_record_fault(va, D3D12_FAULT_WRITE_UNOWNED, entry);
    }
  }
}

// Stores the bytes of value selected by mask into the word at va (4-byte aligned), keeping the
// word's other bytes: a byte-granular store. Like d3d12_store, it is dropped on NULL tiles and
// recorded as a write fault elsewhere (never as a read). Not atomic: two invocations must not
// merge into the same word at once.
fn d3d12_store_masked(va: vec2u, value: u32, mask: u32) {
  let entry = d3d12_page_entry(va);
  if ((va.x & 3u) != 0u || (entry & D3D12_PTE_KIND_MASK) != D3D12_PTE_RESIDENT) {
    d3d12_store(va, value);
    return;
  }
  let word = d3d12_word_index(entry, va);
  if (d3d12_is_non_local(entry)) {
    d3d12_pool_non_local[word] = (d3d12_pool_non_local[word] & ~mask) | (value & mask);
  } else {
    d3d12_pool_local[word] = (d3d12_pool_local[word] & ~mask) | (value & mask);
  }
}
