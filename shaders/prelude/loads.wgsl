// ---- Loads and stores ----------------------------------------------------------------------------

// Status bits of d3d12_load_checked: set when the access reached mapped, resident memory.
const D3D12_STATUS_MAPPED: u32 = 1u;

// Loads the 4-byte word at va (va must be 4-byte aligned), reporting in *status whether the access
// was fully mapped, as HLSL's Load with a status argument. The pool is read before the entry is
// tested, whatever the entry says (the index is garbage for an entry that is not RESIDENT, kept in
// bounds by WebGPU, and the value is then replaced): the common case is two loads with no branch
// between them, so the compiler can have the loads of several accesses in flight at once. Testing
// first, with a branching page-table read, cost scalar loads 2.56x direct against 1.88x (H200,
// 256 MiB, a WGSL harness, one session; common.wgsl, d3d12_page_entry).
fn d3d12_load_checked(va: vec2u, status: ptr<function, u32>) -> u32 {
  let entry = d3d12_page_entry(va);
  var value = d3d12_pool_read(d3d12_word_index(entry, va));
  *status = D3D12_STATUS_MAPPED;
  if (!d3d12_fast_access(entry, va, 4u)) {
    *status = 0u;
    value = d3d12_load_unmapped(va, entry);
  }
  return value;
}

// What a read of a NULL tile returns: 0 under Tier 2+, the poison value under Tier 1.
fn d3d12_null_read() -> u32 {
  return select(0u, D3D12_TIER1_NULL_READ, d3d12_dispatch.tiled_resources_tier == 1u);
}

// The rest of d3d12_load_checked: misaligned, NULL, absent and unowned accesses. One return, as the
// pool accessors (pool-words.wgsl says why).
fn d3d12_load_unmapped(va: vec2u, entry: u32) -> u32 {
  let kind = entry & D3D12_PTE_KIND_MASK;
  var value = 0u;
  if ((va.x & 3u) != 0u) {
    d3d12_record_fault(va, D3D12_FAULT_MISALIGNED, 0u);
  } else if (kind == D3D12_PTE_NULL) {
    d3d12_record_unmapped(va, D3D12_ACCESS_READ);
    value = d3d12_null_read();
  } else if (kind == D3D12_PTE_ABSENT) {
    d3d12_record_fault(va, D3D12_FAULT_READ_ABSENT, entry);
  } else {
    d3d12_record_fault(va, D3D12_FAULT_READ_UNOWNED, entry);
  }
  return value;
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
// page holds whole vectors, so an aligned access never crosses a page), made before the test as in
// d3d12_load_checked. Otherwise four 4-byte loads, each with its own translation,
// page and fault: what the same access does word by word.
fn d3d12_load4_checked(va: vec2u, status: ptr<function, u32>) -> vec4u {
  let entry = d3d12_page_entry(va);
  var value = d3d12_pool_read4(d3d12_word_index(entry, va));
  *status = D3D12_STATUS_MAPPED;
  if (!d3d12_fast_access(entry, va, 16u)) {
    var s0 = 0u;
    var s1 = 0u;
    var s2 = 0u;
    var s3 = 0u;
    value = vec4u(
      d3d12_load_checked(va, &s0),
      d3d12_load_checked(d3d12_address_add(va, 4u), &s1),
      d3d12_load_checked(d3d12_address_add(va, 8u), &s2),
      d3d12_load_checked(d3d12_address_add(va, 12u), &s3),
    );
    *status = s0 & s1 & s2 & s3;
  }
  return value;
}

fn d3d12_load4(va: vec2u) -> vec4u {
  var status = 0u;
  return d3d12_load4_checked(va, &status);
}
