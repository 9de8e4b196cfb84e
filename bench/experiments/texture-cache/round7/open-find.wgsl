// Open: the prelude's d3d12_tex2d (the pre-pass's match, then the mirror table).
alias TextureRef = D3D12Texture2D;
fn open_texture() -> TextureRef {
  return d3d12_tex2d(d3d12_root_descriptor(1u));
}
