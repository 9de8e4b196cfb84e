// The sample's shaders.hlsl: the vertex shader passes the quad's position and texture coordinate
// through (POSITION and TEXCOORD from the input layout); the pixel shader samples the texture the
// descriptor table names (Texture2D g_texture : register(t0)) with the static point sampler
// (SamplerState g_sampler : register(s0)).

struct PSInput {
  @builtin(position) position: vec4f,
  @location(0) uv: vec2f,
}

@vertex
fn VSMain(@builtin(vertex_index) vertex: u32, @builtin(instance_index) instance: u32) -> PSInput {
  let input = d3d12_vertex_input(vertex, instance);
  return PSInput(input.POSITION0, input.TEXCOORD0.xy);
}

@fragment
fn PSMain(input: PSInput) -> @location(0) vec4f {
  let g_texture = d3d12_texture2d(d3d12_t(0u, 0u));
  let g_sampler = d3d12_sampler(d3d12_s(0u, 0u));
  return d3d12_texture_sample(g_texture, g_sampler, input.uv);
}
