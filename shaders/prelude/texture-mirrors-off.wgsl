// Prelude, graphics stages: no texture mirrors (texture-mirrors.wgsl is compute's). Draws resolve
// no descriptors, so every texture is opened from memory and read as before.

fn d3d12_mirror_open(descriptor: vec2u, texture: ptr<function, D3D12Texture2D>) -> bool {
  return false;
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
