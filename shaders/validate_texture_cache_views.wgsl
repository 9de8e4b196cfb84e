// The texture-cache scenario (src/validate/scenarios/texture-cache.ts) through descriptors, with its
// root signature: b0 root constants (word 1: the thread count), u0 a root UAV (out), t0 in a
// descriptor table (a Texture2D SRV of two mips), s0 a static MIN_MAG_MIP_LINEAR sampler, CLAMP.
// Thread t writes the words shaders/validate_texture_cache.wgsl's sample_texels writes, read through
// the view (Load, SampleLevel), and word 6: the Gather of red at the sample's uv (the four texels'
// red, packed).

const TCV_SAMPLE_OFFSET: vec2f = vec2f(0.75, 0.125);
const TCV_OUT_WORDS: u32 = 8u;

fn tcv_mapped(status: u32, bit: u32) -> u32 {
  return select(0u, 1u << bit, d3d12_check_access_fully_mapped(status));
}

@compute @workgroup_size(64)
fn sample_views(@builtin(global_invocation_id) id: vec3u) {
  if (id.x >= d3d12_cbuffer_load(d3d12_cbuffer(d3d12_b(0u, 0u)), 4u)) {
    return;
  }
  let view = d3d12_texture2d(d3d12_t(0u, 0u));
  let smp = d3d12_sampler(d3d12_s(0u, 0u));
  let size = d3d12_texture_dimensions(view, 0u);
  let width = size.x / 2u;
  let q = vec2u(id.x % width, id.x / width);
  let out = d3d12_rw_buffer(d3d12_u(0u, 0u));
  let at = id.x * TCV_OUT_WORDS * 4u;
  var mapped = 0u;
  for (var i = 0u; i < 5u; i++) {
    let mip = select(0u, 1u, i == 4u);
    let texel = select(2u * q + vec2u(i % 2u, i / 2u), q, i == 4u);
    var status = 0u;
    let value = d3d12_texture_load_checked(view, vec2i(texel), mip, &status);
    d3d12_buffer_store_word(out, at + i * 4u, pack4x8unorm(value));
    mapped |= tcv_mapped(status, i);
  }
  let uv = (vec2f(2u * q + vec2u(1u, 0u)) + TCV_SAMPLE_OFFSET) / vec2f(size);
  var sampled = 0u;
  let filtered = d3d12_texture_sample_level_checked(view, smp, uv, select(0.0, 0.5, ((q.x + q.y) & 1u) == 1u), &sampled);
  d3d12_buffer_store_word(out, at + 20u, pack4x8unorm(filtered));
  d3d12_buffer_store_word(out, at + 24u, pack4x8unorm(d3d12_texture_gather(view, smp, uv, 0u)));
  d3d12_buffer_store_word(out, at + 28u, mapped | tcv_mapped(sampled, 5u));
}
