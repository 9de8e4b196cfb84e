// Open: slot 1's table entry without reading the pre-pass's match (the figure binds one mirror).
alias TextureRef = D3D12Texture2D;
fn open_texture() -> TextureRef {
  return d3d12_mirror_texture(d3d12_root_descriptor(1u), 1u);
}
