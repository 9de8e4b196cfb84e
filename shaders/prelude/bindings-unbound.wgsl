// Prelude: the registers of a pipeline without a root signature (the emulator's fixed one: root
// constants and root descriptors reached by address): every t, s, u and b register is unbound, and
// there are no static samplers. A pipeline with a root signature gets the functions its root
// signature makes instead (src/gpu/root-signature-wgsl.ts).

fn d3d12_t(index: u32, space: u32) -> D3D12Binding {
  return d3d12_unbound(D3D12_REGISTER_T, index, space);
}

fn d3d12_s(index: u32, space: u32) -> D3D12Binding {
  return d3d12_unbound(D3D12_REGISTER_S, index, space);
}

fn d3d12_u(index: u32, space: u32) -> D3D12Binding {
  return d3d12_unbound(D3D12_REGISTER_U, index, space);
}

fn d3d12_b(index: u32, space: u32) -> D3D12Binding {
  return d3d12_unbound(D3D12_REGISTER_B, index, space);
}

fn d3d12_static_sampler(index: u32) -> D3D12Sampler {
  return D3D12Sampler(0u, 0x333u, 0u, 0.0, 1u, 0.0, 3.4028234663852886e38, vec4f(0.0));
}
