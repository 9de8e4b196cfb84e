// Texture sample, the library's accessors (put in front of texture-sample.wgsl; the prelude goes in
// front of both): the reserved texture read through its descriptor with the prelude's
// d3d12_tex2d_load and d3d12_tex2d_sample_level, exactly as user shaders read tiled textures.
//
// Root descriptors: 1 the texture descriptor (a root SRV), 2 the results (a root UAV). Root constants
// 0-2: mip, size, lod bits. The status (CheckAccessFullyMapped) is not used: every tile is
// mapped, and the baseline has none to compute.

alias TextureRef = D3D12Texture2D;

fn open_texture() -> TextureRef {
  return d3d12_tex2d(d3d12_root_descriptor(1u));
}

fn load_texel(texture: TextureRef, mip: u32, texel: vec2u) -> vec4f {
  var status = 0u;
  return d3d12_tex2d_load(texture, mip, texel, &status);
}

fn sample_level(texture: TextureRef, uv: vec2f, lod: f32) -> vec4f {
  var status = 0u;
  return d3d12_tex2d_sample_level(texture, uv, lod, 0.0, &status);
}

fn params() -> SampleParams {
  return SampleParams(d3d12_root_constant(0u), d3d12_root_constant(1u), bitcast<f32>(d3d12_root_constant(2u)));
}

fn store_result(i: u32, value: u32) {
  d3d12_store(d3d12_address_add(d3d12_root_descriptor(2u), i * 4u), value);
}
