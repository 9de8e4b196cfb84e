// ---- Views, fragment stage: sampling with implicit derivatives (after descriptor-views.wgsl) -----
//
// Texture2D.Sample and SampleBias take the level of detail from the derivatives of uv across the
// quad (dpdx, dpdy), which only the fragment stage has. As in HLSL, call them where the quad's
// invocations run together (uniform control flow).

// The checked forms (status last) return what their plain forms return, with *status as
// d3d12_texture_array_sample_level_checked's: D3D12_STATUS_MAPPED when every texel the filter read
// was mapped and resident.

// Texture2DArray.SampleBias(sampler, float3(uv, slice), bias, status) (bias 0: Sample).
fn d3d12_texture_array_sample_bias_checked(view: D3D12TextureView, smp: D3D12Sampler, uv: vec2f, slice: u32, bias: f32, status: ptr<function, u32>) -> vec4f {
  let lod = d3d12_texture_lod(view, dpdx(uv), dpdy(uv));
  return d3d12_texture_array_sample_level_checked(view, smp, uv, slice, lod + bias, status);
}

// Texture2DArray.SampleBias(sampler, float3(uv, slice), bias).
fn d3d12_texture_array_sample_bias(view: D3D12TextureView, smp: D3D12Sampler, uv: vec2f, slice: u32, bias: f32) -> vec4f {
  var status = 0u;
  return d3d12_texture_array_sample_bias_checked(view, smp, uv, slice, bias, &status);
}

// Texture2DArray.Sample(sampler, float3(uv, slice), 0, status).
fn d3d12_texture_array_sample_checked(view: D3D12TextureView, smp: D3D12Sampler, uv: vec2f, slice: u32, status: ptr<function, u32>) -> vec4f {
  return d3d12_texture_array_sample_bias_checked(view, smp, uv, slice, 0.0, status);
}

// Texture2DArray.Sample(sampler, float3(uv, slice)).
fn d3d12_texture_array_sample(view: D3D12TextureView, smp: D3D12Sampler, uv: vec2f, slice: u32) -> vec4f {
  var status = 0u;
  return d3d12_texture_array_sample_checked(view, smp, uv, slice, &status);
}

// Texture2D.Sample(sampler, uv, 0, status).
fn d3d12_texture_sample_checked(view: D3D12TextureView, smp: D3D12Sampler, uv: vec2f, status: ptr<function, u32>) -> vec4f {
  return d3d12_texture_array_sample_bias_checked(view, smp, uv, 0u, 0.0, status);
}

// Texture2D.Sample(sampler, uv).
fn d3d12_texture_sample(view: D3D12TextureView, smp: D3D12Sampler, uv: vec2f) -> vec4f {
  var status = 0u;
  return d3d12_texture_sample_checked(view, smp, uv, &status);
}

// Texture2D.SampleBias(sampler, uv, bias, 0, status).
fn d3d12_texture_sample_bias_checked(view: D3D12TextureView, smp: D3D12Sampler, uv: vec2f, bias: f32, status: ptr<function, u32>) -> vec4f {
  return d3d12_texture_array_sample_bias_checked(view, smp, uv, 0u, bias, status);
}

// Texture2D.SampleBias(sampler, uv, bias).
fn d3d12_texture_sample_bias(view: D3D12TextureView, smp: D3D12Sampler, uv: vec2f, bias: f32) -> vec4f {
  var status = 0u;
  return d3d12_texture_sample_bias_checked(view, smp, uv, bias, &status);
}
