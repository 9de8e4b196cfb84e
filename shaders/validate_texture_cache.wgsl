// The texture-cache scenario (src/validate/scenarios/texture-cache.ts), over the prelude, without a
// root signature. Root descriptor 1: a texture descriptor (device.writeTextureDescriptor) of a 2D
// texture of two mips; 2: out. Root constant 0: what to do (TC_SAMPLE, TC_STORE, TC_STORE_RAW);
// 1: the thread count. One entry point, not three: SwiftShader compiles the prelude anew for every
// pipeline (about a second each), and runs every branch's code for every thread anyway.
//
// TC_SAMPLE: thread (qx, qy) = (t % w, t / w), w = mip 1's width, reads the 2 x 2 texels
// (2qx + i % 2, 2qy + i / 2) of mip 0 and texel (qx, qy) of mip 1 (d3d12_tex2d_load), and samples
// at uv = ((2qx + 1, 2qy) + TC_SAMPLE_OFFSET) / size (d3d12_tex2d_sample_level): bilinear at lod 0
// where qx + qy is even, trilinear at lod 0.5 where odd. Those footprints take in every texel, and
// every footprint across a tile edge. It writes TC_OUT_WORDS words from out word TC_OUT_WORDS * t:
// the five loads and the sample packed to RGBA8, a zero (the views' gather,
// shaders/validate_texture_cache_views.wgsl), and whether each load (bits 0-4) and the sample (bit
// 5) were fully mapped (CheckAccessFullyMapped). One load and one sample call site: SwiftShader
// compiles each call of the prelude's readers apart.
//
// TC_STORE, TC_STORE_RAW: thread t stores tc_texel_word(texel, seed) at texel (x0 + t % w, y0 + t / w)
// of mip `mip` (root constants 2 x0, 3 y0, 4 w, 5 mip, 6 seed): through d3d12_tex2d_store (the word
// as RGBA8 unorm, encoded by the texture's format), or by a raw d3d12_store of the word at the
// texel's address.

const TC_SAMPLE: u32 = 0u;
const TC_STORE: u32 = 1u;
const TC_STORE_RAW: u32 = 2u;

// Where in its texel a sample lands. Filtering starts half a texel back, so the weights are (0.25,
// 0.625) at mip 0 and multiples of 1/8 at mip 1: exact in the texture unit's sub-texel bits, so the
// texture cache's hardware samples can be compared with the CPU's (bench/suite/texture-sample.wgsl).
const TC_SAMPLE_OFFSET: vec2f = vec2f(0.75, 0.125);
const TC_OUT_WORDS: u32 = 8u;

fn tc_mapped(status: u32, bit: u32) -> u32 {
  return select(0u, 1u << bit, d3d12_check_access_fully_mapped(status));
}

fn tc_sample(texture: D3D12Texture2D, t: u32) {
  let width = texture.size.x / 2u;
  let q = vec2u(t % width, t / width);
  let out = d3d12_address_add(d3d12_root_descriptor(2u), t * TC_OUT_WORDS * 4u);
  var mapped = 0u;
  for (var i = 0u; i < 5u; i++) {
    let mip = select(0u, 1u, i == 4u);
    let texel = select(2u * q + vec2u(i % 2u, i / 2u), q, i == 4u);
    var status = 0u;
    let value = d3d12_tex2d_load(texture, mip, texel, &status);
    d3d12_store(d3d12_address_add(out, i * 4u), pack4x8unorm(value));
    mapped |= tc_mapped(status, i);
  }
  let uv = (vec2f(2u * q + vec2u(1u, 0u)) + TC_SAMPLE_OFFSET) / vec2f(texture.size);
  var sampled = 0u;
  let filtered = d3d12_tex2d_sample_level(texture, uv, select(0.0, 0.5, ((q.x + q.y) & 1u) == 1u), 0.0, &sampled);
  d3d12_store(d3d12_address_add(out, 20u), pack4x8unorm(filtered));
  d3d12_store(d3d12_address_add(out, 24u), 0u);
  d3d12_store(d3d12_address_add(out, 28u), mapped | tc_mapped(sampled, 5u));
}

// The word stored at `texel` (the CPU's textureCacheWord makes the same).
fn tc_texel_word(texel: vec2u, seed: u32) -> u32 {
  var h = (texel.x * 0x9e3779b1u) ^ ((texel.y + seed * 0x10001u) * 0x85ebca6bu);
  h ^= h >> 15u;
  h *= 0x2c1b3c6du;
  h ^= h >> 12u;
  return h;
}

fn tc_store(texture: D3D12Texture2D, t: u32, raw: bool) {
  let w = d3d12_root_constant(4u);
  let texel = vec2u(d3d12_root_constant(2u) + t % w, d3d12_root_constant(3u) + t / w);
  let mip = d3d12_root_constant(5u);
  let word = tc_texel_word(texel, d3d12_root_constant(6u));
  if (raw) {
    d3d12_store(d3d12_tex2d_texel_address(texture, mip, texel), word);
  } else {
    d3d12_tex2d_store(texture, mip, texel, unpack4x8unorm(word));
  }
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x >= d3d12_root_constant(1u)) {
    return;
  }
  let texture = d3d12_tex2d(d3d12_root_descriptor(1u));
  let mode = d3d12_root_constant(0u);
  if (mode == TC_SAMPLE) {
    tc_sample(texture, id.x);
  } else {
    tc_store(texture, id.x, mode == TC_STORE_RAW);
  }
}
