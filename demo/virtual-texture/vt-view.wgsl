// The view, shared by the feedback kernel and the draw shader (prepended after vt-common.wgsl):
// an orthographic window onto the texture. Pixel centre p shows mip-0 texel coordinate
// centre + (p - size / 2) * texels_per_pixel; the lod is log2(texels_per_pixel), given by the CPU
// (exact at powers of two, where the GPU's log2 may not be).

struct VtView {
  centre: vec2f,
  texels_per_pixel: f32,
  lod: f32,
  size: vec2f,
}

// Root constants `first` .. first + 5: centre x, centre y, texels per pixel, lod (f32 bits), width, height.
fn vt_view(first: u32) -> VtView {
  return VtView(
    vec2f(bitcast<f32>(d3d12_root_constant(first)), bitcast<f32>(d3d12_root_constant(first + 1u))),
    bitcast<f32>(d3d12_root_constant(first + 2u)),
    bitcast<f32>(d3d12_root_constant(first + 3u)),
    vec2f(f32(d3d12_root_constant(first + 4u)), f32(d3d12_root_constant(first + 5u))),
  );
}

fn vt_uv(view: VtView, pixel_centre: vec2f) -> vec2f {
  return vt_plane_uv(view.centre, view.texels_per_pixel, view.size, pixel_centre);
}
