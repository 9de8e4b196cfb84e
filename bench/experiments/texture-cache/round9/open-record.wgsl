// Open: the record the dispatch's constants name for the descriptor, read with no branch around it (no
// slot or clean check, no memory path): the record's loads alone. The
// slot is the record's, so every later `texture.mirror != 0u` and the slot switch stay.
alias TextureRef = D3D12Texture2D;
fn open_texture() -> TextureRef {
  let descriptor = d3d12_root_descriptor(1u);
  let r = d3d12_mirror_record_of(descriptor) - 1u;
  let a = d3d12_mirror_resolved.records[r].words[0];
  let b = d3d12_mirror_resolved.records[r].words[1];
  let c = d3d12_mirror_resolved.records[r].words[2];
  return D3D12Texture2D(descriptor, a.xy, a.zw, b.x, b.y, b.z, vec2u(b.w, c.x), c.y, c.z, c.w, D3D12Page(vec2u(0u), 0u, 0u, 0u, 0u), 0u, d3d12_mirror_resolved.records[r].slot, r, d3d12_mirror_resolved.records[r].valid_base, d3d12_mirror_resolved.records[r].summary);
}
