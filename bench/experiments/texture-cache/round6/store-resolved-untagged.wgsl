// Round 6: store-resolved.wgsl for a window the CPU knows no cached texture tile can lie in (no
// texture the cache serves is placed on, or mapped to, its pages): no tag read either.

fn store_result(i: u32, value: u32) {
  let offset = i * 4u;
  if (offset < resolved.out_bytes) {
    pool[resolved.out_word + (offset >> 2u)] = value;
  }
}
