// Prelude, every stage: page handles (after loads.wgsl; stores through handles are in stores.wgsl).
//
// A page handle translates a 64 KiB page once; loads (and, in compute, stores) by byte offset inside
// the page then skip the page table. Valid for the whole dispatch: mappings and residency change
// only between submissions. A handle of a page that is not resident records its fault once, when it
// is made (d3d12_page: a read fault; d3d12_page_for_write: a write fault), and its loads then read
// 0 and its stores are dropped, as faulting accesses do. NULL tiles read 0 under Tier 2+ and the
// poison value under Tier 1, and drop writes; with unmapped-access recording on, each such access is
// recorded at its own address.
//
// Offsets are inside the page and aligned to the access (4 bytes; 16 for the 4-word forms). Any other
// offset is a page-offset fault, recorded at the address it names (the handle's start plus the
// offset) and attributed like any other fault, which removes the device. Page loads have no branch:
// the pool is read at the offset taken inside the page (so a bad offset reads a word of this page,
// never another), select() gives NULL and absent pages their value, and a bad offset is noted in a
// private variable that the entry point's end logs (d3d12_flush_page_misuse; the compute entry point
// the emulator wraps around user code that makes handles, shaders/compute_entry.wgsl, the fragment
// stage's flush and the vertex replay call it). A branch per load, even one whose body only
// recorded a fault, cost page loads 1.06x the direct kernel against 1.02x without (H200, 256 MiB,
// bench figure 2, one session); on SwiftShader 40x against 2.8x.

struct D3D12Page {
  // The page's start.
  start: vec2u,
  // The page-table entry, as translated.
  entry: u32,
  // RESIDENT: the index of the page's first word in the pool; 0 otherwise (reads of it are discarded).
  base: u32,
  // D3D12_PAGE_BYTES when RESIDENT, else 0: an access at byte `offset` takes the fast path when
  // offset < limit, one test for "resident and inside the page" (stores).
  limit: u32,
  // What a load of a page that is not RESIDENT returns: the NULL read for NULL tiles, else 0.
  fill: u32,
}

// The first bad offset of this invocation: its address, and 1 in z once one was noted.
var<private> d3d12_page_misuse: vec3u;

fn d3d12_page_with_fault(va: vec2u, absent_kind: u32, unowned_kind: u32) -> D3D12Page {
  let start = vec2u(va.x & ~D3D12_PAGE_OFFSET_MASK, va.y);
  let entry = d3d12_page_entry(start);
  let kind = entry & D3D12_PTE_KIND_MASK;
  // One fault site for both kinds: less code between a handle and its first loads.
  if (kind == D3D12_PTE_ABSENT || kind == D3D12_PTE_UNOWNED) {
    d3d12_record_fault(va, select(unowned_kind, absent_kind, kind == D3D12_PTE_ABSENT), entry);
  }
  let resident = kind == D3D12_PTE_RESIDENT;
  return D3D12Page(start, entry, select(0u, entry & D3D12_PTE_WORD_BASE_MASK, resident), select(0u, D3D12_PAGE_BYTES, resident), select(0u, d3d12_null_read(), kind == D3D12_PTE_NULL));
}

// The handle of the page holding va, for reading.
fn d3d12_page(va: vec2u) -> D3D12Page {
  return d3d12_page_with_fault(va, D3D12_FAULT_READ_ABSENT, D3D12_FAULT_READ_UNOWNED);
}

// Whether `offset` is a page offset aligned to `size` bytes (4 or 16).
fn d3d12_page_offset_ok(offset: u32, size: u32) -> bool {
  return (offset & ~(D3D12_PAGE_OFFSET_MASK & ~(size - 1u))) == 0u;
}

// Notes the invocation's first bad offset, without a branch.
fn d3d12_page_note_offset(page: D3D12Page, offset: u32, size: u32) {
  let first = !d3d12_page_offset_ok(offset, size) && d3d12_page_misuse.z == 0u;
  d3d12_page_misuse = select(d3d12_page_misuse, vec3u(d3d12_address_add(page.start, offset), 1u), first);
}

// Logs the bad offset noted, if any (at the end of an entry point; see the header).
fn d3d12_flush_page_misuse() {
  if (d3d12_page_misuse.z != 0u) {
    d3d12_record_fault(d3d12_page_misuse.xy, D3D12_FAULT_PAGE_OFFSET, 0u);
    d3d12_page_misuse = vec3u(0u);
  }
}

// A load of a NULL page is an unmapped access; the address is the word's inside the page. Without
// unmapped-access recording d3d12_record_unmapped is empty and this goes with it.
fn d3d12_page_note_null(page: D3D12Page, offset: u32) {
  if ((page.entry & D3D12_PTE_KIND_MASK) == D3D12_PTE_NULL) {
    d3d12_record_unmapped(vec2u(page.start.x | (offset & D3D12_PAGE_OFFSET_MASK & ~3u), page.start.y), D3D12_ACCESS_READ);
  }
}

// The 4-byte word at byte `offset` of the page (4-byte aligned).
fn d3d12_page_load(page: D3D12Page, offset: u32) -> u32 {
  let value = d3d12_pool_read(page.base + ((offset & D3D12_PAGE_OFFSET_MASK) >> 2u));
  d3d12_page_note_offset(page, offset, 4u);
  d3d12_page_note_null(page, offset);
  return select(page.fill, value, page.limit != 0u);
}

// The 16 bytes at byte `offset` of the page (16-byte aligned: one load).
fn d3d12_page_load4(page: D3D12Page, offset: u32) -> vec4u {
  let value = d3d12_pool_read4(page.base + ((offset & D3D12_PAGE_OFFSET_MASK & ~15u) >> 2u));
  d3d12_page_note_offset(page, offset, 16u);
  d3d12_page_note_null(page, offset);
  return select(vec4u(page.fill), value, page.limit != 0u);
}
