// Texture sample (bench/suite/texture-sample.ts): the kernels both sides run. Each side puts its own
// accessors in front (texture-sample-native.wgsl for raw WebGPU, texture-sample-d3d12.wgsl for the
// library), so the kernels are the same text and only the texel reads differ:
//   TextureRef, open_texture()              the texture, opened once per invocation
//   load_texel(texture, mip, texel)         one texel as RGBA in [0, 1]
//   sample_level(texture, uv, lod)          a linear (trilinear) sample, clamped to the edge
//   params()                                the dispatch's SampleParams
//   store_result(i, value)                  the invocation's result
//
// One invocation per texel of mip 0, in 16 x 16 workgroups: invocation (x, y) reads at texel (x, y),
// so neighbouring invocations read neighbouring texels in both directions (the coalesced 2D pattern
// of a full-screen pass, one read per pixel). One read, not a loop of them: SwiftShader takes minutes
// to compile d3d12_tex2d_sample_level inside a loop. Each invocation packs what it read to 8 bits a
// channel and writes that word, so no read can be optimized away, and the TypeScript side compares
// the words of both sides.

// Invocations per workgroup side (the TypeScript side reads this line).
const TS_WORKGROUP_SIDE: u32 = 16u;
// Where in its texel a sample lands, in texels. Filtering starts half a texel back, so the weights are
// (0.25, 0.625) at mip 0 and multiples of 1/16 at mip 1: exactly representable in the 4 sub-texel
// bits Vulkan guarantees, so hardware weights are the exact ones and the two sides can be compared.
const TS_SAMPLE_OFFSET: vec2f = vec2f(0.75, 0.125);

struct SampleParams {
  // The mip loads read.
  mip: u32,
  // The side in texels of that mip (loads) or of mip 0 (samples: uv = position / size).
  size: u32,
  // The level of detail samples ask for.
  lod: f32,
}

fn result_index(id: vec3u, groups: vec3u) -> u32 {
  return id.y * groups.x * TS_WORKGROUP_SIDE + id.x;
}

@compute @workgroup_size(TS_WORKGROUP_SIDE, TS_WORKGROUP_SIDE)
fn load_texels(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let texture = open_texture();
  let p = params();
  // A mip smaller than the grid is read at its edge past its last texel (the check reads every mip).
  let texel = min(id.xy, vec2u(p.size - 1u));
  store_result(result_index(id, groups), pack4x8unorm(load_texel(texture, p.mip, texel)));
}

@compute @workgroup_size(TS_WORKGROUP_SIDE, TS_WORKGROUP_SIDE)
fn sample_texels(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let texture = open_texture();
  let p = params();
  // A power of two: the division is exact.
  let uv = (vec2f(id.xy) + TS_SAMPLE_OFFSET) / f32(p.size);
  store_result(result_index(id, groups), pack4x8unorm(sample_level(texture, uv, p.lod)));
}
