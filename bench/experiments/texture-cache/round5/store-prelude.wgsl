// The result stored as the figure's rows store it: d3d12_store (translation, the cache tag read and cleared when set).
fn store_result(i: u32, value: u32) {
  d3d12_store(d3d12_address_add(d3d12_root_descriptor(2u), i * 4u), value);
}
