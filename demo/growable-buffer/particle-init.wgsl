// Writes instances [first, first + count) of an instance buffer, through the page table: the new
// tail after a resize. Root descriptor 1: the buffer (a root UAV); root constants: 2 first, 3 count,
// 4 workgroups per row.

@compute @workgroup_size(64)
fn init(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_index) lane: u32) {
  let offset = (group.y * d3d12_root_constant(4u) + group.x) * 64u + lane;
  if (offset >= d3d12_root_constant(3u)) {
    return;
  }
  let index = d3d12_root_constant(2u) + offset;
  let seed = pcg(index);
  let spin = pcg(seed);
  let base = d3d12_address_add(d3d12_root_descriptor(1u), index * INSTANCE_BYTES);
  d3d12_store(base, bitcast<u32>(f32(seed & 0xffffffu) / 16777216.0));
  d3d12_store(d3d12_address_add(base, 4u), bitcast<u32>(f32(spin & 0xffffffu) / 16777216.0));
  d3d12_store(d3d12_address_add(base, 8u), bitcast<u32>((f32(spin >> 16u) / 65536.0 - 0.5) * 0.04));
  d3d12_store(d3d12_address_add(base, 12u), bitcast<u32>((f32(seed >> 16u) / 65536.0 - 0.5) * 0.04));
  d3d12_store(d3d12_address_add(base, 16u), seed);
  d3d12_store(d3d12_address_add(base, 20u), index);
  d3d12_store(d3d12_address_add(base, 24u), INSTANCE_TAG);
  d3d12_store(d3d12_address_add(base, 28u), pcg(index ^ INSTANCE_TAG));
}
