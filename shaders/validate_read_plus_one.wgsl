// The residency-basics scenario (src/validate/scenarios/residency-basics.ts), over the prelude:
// word t of root SRV 1, plus one, to word t of root UAV 2. Its read of a heap left out of the
// residency set is the planted fault the scenario expects reported.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let value = d3d12_load(d3d12_address_add(d3d12_root_descriptor(1u), id.x * 4u));
  d3d12_store(d3d12_address_add(d3d12_root_descriptor(2u), id.x * 4u), value + 1u);
}
