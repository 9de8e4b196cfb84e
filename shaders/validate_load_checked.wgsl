// The compute-tiers scenario (src/validate/scenarios/compute-tiers.ts), over the prelude: thread t
// reads word t of root SRV 1 with d3d12_load_checked and writes (value, mapped) to words 2t, 2t+1 of
// root UAV 2, so CheckAccessFullyMapped's answer for every word is read back and compared.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  var status = 0u;
  let value = d3d12_load_checked(d3d12_address_add(d3d12_root_descriptor(1u), id.x * 4u), &status);
  let out = d3d12_address_add(d3d12_root_descriptor(2u), id.x * 8u);
  d3d12_store(out, value);
  d3d12_store(d3d12_address_add(out, 4u), select(0u, 1u, d3d12_check_access_fully_mapped(status)));
}
