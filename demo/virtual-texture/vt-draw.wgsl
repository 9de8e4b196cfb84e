// Draws the virtual texture as a plane, the way D3D12 streaming samples do: a residency map (one
// word per 128 x 128 region of mip 0, written by the CPU after each paging step) gives the finest
// mip whose tiles, and all coarser ones, are resident there; the trilinear sample is clamped to it
// (HLSL's SampleLevel with a MinLOD). Where the filter footprint still reaches an unmapped tile (a
// region's edge, a map one frame stale), d3d12_tex2d_sample_level reports it (HLSL's
// CheckAccessFullyMapped) and the pixel falls back to the pinned coarse mips, so the view never
// shows a hole: it sharpens as tiles arrive.
// Root descriptors (root SRVs): 1 the texture descriptor, 2 the residency map. Root constants: 2 flags
// (1: tint by the mip shown), 3-8 the view (vt-view.wgsl).

/** Mips 5..7 and the tail are mapped for good (main.ts pins them). */
const VT_PINNED_MIP: f32 = 5.0;
const VT_REGIONS: u32 = 128u;

@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  return vt_fullscreen_vertex(i);
}

@fragment
fn fs(@builtin(position) position: vec4f) -> @location(0) vec4f {
  let view = vt_view(3u);
  let uv = vt_uv(view, position.xy);
  if (any(uv < vec2f(0.0)) || any(uv >= vec2f(1.0))) {
    return vec4f(0.063, 0.075, 0.09, 1.0);
  }
  let texture = d3d12_tex2d(d3d12_root_descriptor(1u));
  let region = vec2u(uv * f32(VT_REGIONS));
  let map = d3d12_root_descriptor(2u);
  let resident_mip = f32(d3d12_load(d3d12_address_add(map, (region.y * VT_REGIONS + region.x) * 4u)));
  var min_lod = resident_mip;
  var status = 0u;
  var color = d3d12_tex2d_sample_level(texture, uv, view.lod, min_lod, &status);
  if (!d3d12_check_access_fully_mapped(status)) {
    min_lod = max(min_lod + 1.0, VT_PINNED_MIP);
    color = d3d12_tex2d_sample_level(texture, uv, view.lod, min_lod, &status);
  }
  if ((d3d12_root_constant(2u) & 1u) != 0u) {
    let shown = u32(clamp(max(view.lod, min_lod), 0.0, f32(VT_MIPS - 1u)));
    color = vec4f(mix(color.rgb, vec3f(vt_mip_color(shown)) / 255.0, 0.45), 1.0);
  }
  return color;
}
