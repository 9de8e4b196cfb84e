// Round 6: the figure's store as the library makes it (prelude d3d12_store of a root UAV): the
// address's page-table entry, its kind, the page's texture-cache tag read and cleared when set (plain
// accesses, as the prelude's d3d12_cache_invalidate), then the pool word. A non-resident entry counts
// a fault instead.

@group(0) @binding(5) var<storage, read_write> tags: array<u32>;
@group(0) @binding(8) var<storage, read_write> faults: atomic<u32>;

fn store_result(i: u32, value: u32) {
  let va = resolved.out_va + i * 4u;
  let entry = page_table[va >> R6_PAGE_SHIFT];
  if ((entry & R6_KIND_MASK) == R6_RESIDENT) {
    let word = (entry & ~R6_KIND_MASK) + ((va & 0xffffu) >> 2u);
    let page = word >> (R6_PAGE_SHIFT - 2u);
    if (tags[page] != 0u) {
      tags[page] = 0u;
    }
    pool[word] = value;
  } else {
    atomicAdd(&faults, 1u);
  }
}
