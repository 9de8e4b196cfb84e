// The store without touching the cache tag (not exact: a floor for what the tag costs).
fn store_result(i: u32, value: u32) {
  let va = d3d12_address_add(d3d12_root_descriptor(2u), i * 4u);
  let entry = d3d12_page_entry(va);
  if (d3d12_fast_access(entry, va, 4u)) {
    let word = d3d12_word_index(entry, va);
    d3d12_pool[word >> 2u][word & 3u] = value;
  } else {
    d3d12_store(va, value);
  }
}
