// The UAV clear scenarios (src/validate/scenarios/uav-clears.ts), over the prelude: thread t loads
// texel (t % width, t / width) of mip `mip` of array slice `slice` (root constants 0, 1, 2; 3: the
// texel count) of the texture whose descriptor is at root descriptor 1, with
// d3d12_tex2d_array_load_bits, and writes its first word and whether it was mapped to words 2t and
// 2t + 1 of root UAV 2.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x >= d3d12_root_constant(3u)) {
    return;
  }
  let texture = d3d12_tex2d(d3d12_root_descriptor(1u));
  let width = d3d12_root_constant(2u);
  var status = 0u;
  let bits = d3d12_tex2d_array_load_bits(texture, d3d12_root_constant(0u), d3d12_root_constant(1u), vec2u(id.x % width, id.x / width), &status);
  let out = d3d12_address_add(d3d12_root_descriptor(2u), id.x * 8u);
  d3d12_store(out, bits.x);
  d3d12_store(d3d12_address_add(out, 4u), select(0u, 1u, d3d12_check_access_fully_mapped(status)));
}
