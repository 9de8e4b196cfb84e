// Texture sample, the baseline's accessors (put in front of texture-sample.wgsl): a native rgba8unorm
// texture with its full mip chain, read with textureLoad and with textureSampleLevel through a sampler
// with linear min, mag and mip filters and clamp-to-edge addressing, as an application without the
// emulator reads it.

@group(0) @binding(0) var texels: texture_2d<f32>;
@group(0) @binding(1) var linear_clamp: sampler;
@group(0) @binding(2) var<storage, read_write> results: array<u32>;
// mip, size, lod bits (a uniform, as the library's root constants are).
@group(0) @binding(3) var<uniform> raw_params: vec4u;

alias TextureRef = u32;

fn open_texture() -> TextureRef {
  return 0u;
}

fn load_texel(texture: TextureRef, mip: u32, texel: vec2u) -> vec4f {
  return textureLoad(texels, texel, mip);
}

fn sample_level(texture: TextureRef, uv: vec2f, lod: f32) -> vec4f {
  return textureSampleLevel(texels, linear_clamp, uv, lod);
}

fn params() -> SampleParams {
  return SampleParams(raw_params.x, raw_params.y, bitcast<f32>(raw_params.z));
}

fn store_result(i: u32, value: u32) {
  results[i] = value;
}
