// The native baseline's draw (native-texture.ts; prepended with vt-common.wgsl): the virtual texture
// scene's plane (vt-draw.wgsl) drawn from a plain, fully resident texture, with no page table, no
// residency map and no fallbacks. Same full-screen triangle, same view, same clear colour outside
// the texture, same trilinear sample at the view's lod and the same mip tint.

struct NativeView {
  centre: vec2f,
  texels_per_pixel: f32,
  lod: f32,
  size: vec2f,
  /** The procedural mip the texture's level 0 holds (0 unless the device could not fit VT_SIZE). */
  mip_offset: f32,
  /** 1: tint by the mip shown. */
  flags: u32,
}

@group(0) @binding(0) var<uniform> view: NativeView;
@group(0) @binding(1) var vt_texture: texture_2d<f32>;
@group(0) @binding(2) var vt_sampler: sampler;

@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  return vt_fullscreen_vertex(i);
}

@fragment
fn fs(@builtin(position) position: vec4f) -> @location(0) vec4f {
  let uv = vt_plane_uv(view.centre, view.texels_per_pixel, view.size, position.xy);
  if (any(uv < vec2f(0.0)) || any(uv >= vec2f(1.0))) {
    return vec4f(0.063, 0.075, 0.09, 1.0);
  }
  var color = textureSampleLevel(vt_texture, vt_sampler, uv, view.lod - view.mip_offset);
  if ((view.flags & 1u) != 0u) {
    let shown = u32(clamp(view.lod, view.mip_offset, f32(VT_MIPS - 1u)));
    color = vec4f(mix(color.rgb, vec3f(vt_mip_color(shown)) / 255.0, 0.45), 1.0);
  }
  return color;
}
