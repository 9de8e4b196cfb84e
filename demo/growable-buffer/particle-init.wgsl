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
  // Two 16-byte stores (INSTANCE_BYTES is 32, so both are aligned): one page lookup each.
  d3d12_store4(base, vec4u(
    bitcast<u32>(f32(seed & 0xffffffu) / 16777216.0),
    bitcast<u32>(f32(spin & 0xffffffu) / 16777216.0),
    bitcast<u32>((f32(spin >> 16u) / 65536.0 - 0.5) * 0.04),
    bitcast<u32>((f32(seed >> 16u) / 65536.0 - 0.5) * 0.04),
  ));
  d3d12_store4(d3d12_address_add(base, 16u), vec4u(seed, index, INSTANCE_TAG, pcg(index ^ INSTANCE_TAG)));
}
