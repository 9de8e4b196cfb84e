// The differential run's sampled reads (src/validate/differential/sampled-reads.ts), over the prelude:
// thread t loads texel i = first + t * stride of mip `mip` (row-major: (i % width, i / width)) of the
// texture whose descriptor is at root SRV 1, with d3d12_tex2d_load, and writes the texel, packed back
// to RGBA8, and whether it was fully mapped to words 2t and 2t + 1 of root UAV 2. Root constants:
// 0 mip, 1 width, 2 threads, 3 stride, 4 first.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x >= d3d12_root_constant(2u)) {
    return;
  }
  let texture = d3d12_tex2d(d3d12_root_descriptor(1u));
  let width = d3d12_root_constant(1u);
  let i = d3d12_root_constant(4u) + id.x * d3d12_root_constant(3u);
  var status = 0u;
  let color = d3d12_tex2d_load(texture, d3d12_root_constant(0u), vec2u(i % width, i / width), &status);
  let out = d3d12_address_add(d3d12_root_descriptor(2u), id.x * 8u);
  d3d12_store(out, pack4x8unorm(color));
  d3d12_store(d3d12_address_add(out, 4u), select(0u, 1u, d3d12_check_access_fully_mapped(status)));
}
