// Round 6: the native store (the figure's baseline), into the same pool buffer at the results' offset.

fn store_result(i: u32, value: u32) {
  pool[(resolved.out_va >> 2u) + i] = value;
}
