// The differential run's dispatch (src/validate/differential/commands.ts), over the prelude: words
// [0, n) from the address in root descriptor 1 (a root UAV) become v * 3 + seed, with n in root
// constant 2 and seed in root constant 3. The CPU reference predicts the same per word
// (cpu-reference.ts: readModifyWrite); on a NULL tile the load reads what the tier says and the
// store is dropped, so the word's memory is unchanged.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let words = d3d12_root_constant(2u);
  if (id.x >= words) {
    return;
  }
  let va = d3d12_address_add(d3d12_root_descriptor(1u), id.x * 4u);
  d3d12_store(va, d3d12_load(va) * 3u + d3d12_root_constant(3u));
}
