// The sample's shaders.hlsl over the prelude. The root signature (main.ts) gives the registers:
// b0 is one root constant, the mip to show (cbuffer RootConstants { uint activeMip; }); t0 is the
// reserved texture's SRV, through the descriptor table; s0 is the static sampler
// (MIN_MAG_MIP_LINEAR, BORDER, TRANSPARENT_BLACK). The vertex comes through the input layout
// (POSITION R32G32B32_FLOAT, so w reads 1 as HLSL's float4; TEXCOORD R32G32_FLOAT).

struct PSInput {
  @builtin(position) position: vec4f,
  @location(0) uv: vec2f,
}

@vertex
fn VSMain(@builtin(vertex_index) vertex_index: u32, @builtin(instance_index) instance_index: u32) -> PSInput {
  let input = d3d12_vertex_input(vertex_index, instance_index);
  return PSInput(input.POSITION0, input.TEXCOORD0.xy);
}

@fragment
fn PSMain(input: PSInput) -> @location(0) vec4f {
  let active_mip = d3d12_cbuffer_load(d3d12_cbuffer(d3d12_b(0u, 0u)), 0u);
  let g_texture = d3d12_texture2d(d3d12_t(0u, 0u));
  let g_sampler = d3d12_sampler(d3d12_s(0u, 0u));
  return d3d12_texture_sample_level(g_texture, g_sampler, input.uv, f32(active_mip));
}
