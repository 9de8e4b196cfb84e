// Generates tiles of the virtual texture in place, through the page table: the scene maps each
// tile to a heap page first (updateTileMappings), then this kernel writes its 128 x 128 texels.
// Root descriptor 1: the texture descriptor (a root SRV). Root constants: 2 job count, 3.. jobs (mip | tile x << 4 |
// tile y << 11; a mip >= 8 is the whole mip, inside the packed tail). 256 workgroups per job.

@compute @workgroup_size(64)
fn generate(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_index) lane: u32) {
  if (group.y >= d3d12_root_constant(2u)) {
    return;
  }
  let job = d3d12_root_constant(3u + group.y);
  let mip = job & 15u;
  let local = group.x * 64u + lane;
  let texel = vec2u(((job >> 4u) & 127u) * 128u + local % 128u, ((job >> 11u) & 127u) * 128u + local / 128u);
  let size = VT_SIZE >> mip;
  if (texel.x >= size || texel.y >= size) {
    return;
  }
  let texture = d3d12_tex2d(d3d12_root_descriptor(1u));
  d3d12_store(d3d12_tex2d_texel_address(texture, mip, texel), vt_procedural(mip, texel.x, texel.y));
}
