// Round 6: the store the design would make through a root UAV resolved before the dispatch: its
// pages resident and contiguous in the pool, so the CPU put the window's first pool word and length
// in the uniform (page-table changes are queue-ordered: the CPU knows the entries the dispatch sees).
// An address inside the window is a pool word with no page-table read; the page's cache tag is still
// read and cleared when set. Outside the window it would take the translated path (not here).

@group(0) @binding(5) var<storage, read_write> tags: array<u32>;

fn store_result(i: u32, value: u32) {
  let offset = i * 4u;
  if (offset < resolved.out_bytes) {
    let word = resolved.out_word + (offset >> 2u);
    let page = word >> (R6_PAGE_SHIFT - 2u);
    if (tags[page] != 0u) {
      tags[page] = 0u;
    }
    pool[word] = value;
  }
}
