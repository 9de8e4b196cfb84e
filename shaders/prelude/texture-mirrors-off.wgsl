// Prelude, graphics stages: no texture mirrors (texture-mirrors.wgsl is compute's). Draws resolve
// no descriptors, so every texture is opened from memory and read as before.

fn d3d12_mirror_find(descriptor: vec2u) -> u32 {
  return 0u;
}

// Never called (d3d12_mirror_find finds nothing): the texture read from memory.
fn d3d12_mirror_texture(descriptor: vec2u, slot: u32) -> D3D12Texture2D {
  var texture: D3D12Texture2D;
  return texture;
}

fn d3d12_mirror_mip(texture: D3D12Texture2D, mip: u32) -> vec4u {
  return vec4u(0u);
}

fn d3d12_mirror_load(texture: D3D12Texture2D, level: u32, mip: vec4u, texel: vec2u, value: ptr<function, vec4f>) -> bool {
  return false;
}

fn d3d12_mirror_bilinear(texture: D3D12Texture2D, level: u32, mip: vec4u, uv: vec2f, value: ptr<function, vec4f>) -> bool {
  return false;
}

fn d3d12_mirror_trilinear(texture: D3D12Texture2D, uv: vec2f, level: f32, fine: u32, coarse: u32, both: bool, value: ptr<function, vec4f>) -> bool {
  return false;
}
