// ---- Loads and stores ----------------------------------------------------------------------------

// Status bits of d3d12_load_checked: set when the access reached mapped, resident memory.
const D3D12_STATUS_MAPPED: u32 = 1u;

// Loads the 4-byte word at va (va must be 4-byte aligned), reporting in *status whether the access
// was fully mapped, as HLSL's Load with a status argument. The common case (aligned, resident) is
// one test and two loads, kept apart from the rest so that the compiler keeps the hot loop small.
fn d3d12_load_checked(va: vec2u, status: ptr<function, u32>) -> u32 {
  let entry = d3d12_page_entry(va);
  if ((entry & D3D12_PTE_KIND_MASK) == D3D12_PTE_RESIDENT && (va.x & 3u) == 0u) {
    *status = D3D12_STATUS_MAPPED;
    return d3d12_pool_read(entry, d3d12_word_index(entry, va));
  }
  *status = 0u;
  return d3d12_load_unmapped(va, entry);
}

// The rest of d3d12_load_checked: misaligned, NULL, absent and unowned accesses.
fn d3d12_load_unmapped(va: vec2u, entry: u32) -> u32 {
  if ((va.x & 3u) != 0u) {
    d3d12_record_fault(va, D3D12_FAULT_MISALIGNED, 0u);
    return 0u;
  }
  switch (entry & D3D12_PTE_KIND_MASK) {
    case D3D12_PTE_NULL: {
      d3d12_record_unmapped(va, D3D12_ACCESS_READ);
      return select(0u, D3D12_TIER1_NULL_READ, d3d12_dispatch.tiled_resources_tier == 1u);
    }
    case D3D12_PTE_ABSENT: {
      d3d12_record_fault(va, D3D12_FAULT_READ_ABSENT, entry);
      return 0u;
    }
    default: {
      d3d12_record_fault(va, D3D12_FAULT_READ_UNOWNED, entry);
      return 0u;
    }
  }
}

// HLSL's CheckAccessFullyMapped.
fn d3d12_check_access_fully_mapped(status: u32) -> bool {
  return (status & D3D12_STATUS_MAPPED) != 0u;
}

fn d3d12_load(va: vec2u) -> u32 {
  var status = 0u;
  return d3d12_load_checked(va, &status);
}

// Loads the 16 bytes at va (HLSL's ByteAddressBuffer.Load4), reporting whether all of them were
// mapped. 16-byte aligned and resident: one 16-byte load in the vector view of the pools (a 64 KiB
// page holds whole vectors, so an aligned access never crosses a page). Otherwise four 4-byte loads, each with its own translation,
// page and fault: what the same access does word by word.
fn d3d12_load4_checked(va: vec2u, status: ptr<function, u32>) -> vec4u {
  let entry = d3d12_page_entry(va);
  if ((entry & D3D12_PTE_KIND_MASK) == D3D12_PTE_RESIDENT && (va.x & 15u) == 0u) {
    *status = D3D12_STATUS_MAPPED;
    return d3d12_pool_read4(entry, d3d12_word_index(entry, va));
  }
  var s0 = 0u;
  var s1 = 0u;
  var s2 = 0u;
  var s3 = 0u;
  let value = vec4u(
    d3d12_load_checked(va, &s0),
    d3d12_load_checked(d3d12_address_add(va, 4u), &s1),
    d3d12_load_checked(d3d12_address_add(va, 8u), &s2),
    d3d12_load_checked(d3d12_address_add(va, 12u), &s3),
  );
  *status = s0 & s1 & s2 & s3;
  return value;
}

fn d3d12_load4(va: vec2u) -> vec4u {
  var status = 0u;
  return d3d12_load4_checked(va, &status);
}
