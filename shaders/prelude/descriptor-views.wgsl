// ---- Views: textures, buffers and constant buffers through descriptors (after descriptors.wgsl) ---
//
// d3d12_texture2d(d3d12_t(0u, 0u)) opens the view a register names (HLSL: Texture2D t0), once per
// invocation; the functions below then read through it, as HLSL's Texture2D methods do:
// Load (out of the view: 0), SampleLevel, SampleGrad, Gather, SampleCmpLevelZero, GetDimensions,
// with a sampler's filter, address modes, LOD bias and clamps (d3d12_sampler(d3d12_s(0u, 0u)), a
// descriptor in a SAMPLER heap or a static sampler). A NULL view reads 0. Sample and SampleBias,
// which take derivatives, are the fragment stage's (descriptor-views-fragment.wgsl). Each read has a
// checked form, its name ending in _checked and a last argument `status: ptr<function, u32>` (HLSL's
// `out uint status`, for CheckAccessFullyMapped): the same value, and *status D3D12_STATUS_MAPPED
// when every texel the read touched (a filter's or Gather's whole footprint; a BORDER texel touches
// no memory) was inside the view, mapped and resident, else 0. The plain forms call the checked ones.
//
// Filtering: POINT and LINEAR per minification, magnification and mip, as D3D12_FILTER says;
// ANISOTROPIC filters as MIN_MAG_MIP_LINEAR (the prelude has no anisotropic footprint); a
// comparison filter compares each texel's red with the reference first. The level of detail is
// log2 of the longer derivative in texels of the view's first mip (D3D's isotropic rule), plus the
// bias, clamped to the sampler's MinLOD/MaxLOD and the view's ResourceMinLODClamp; POINT mip
// filtering rounds it to the nearest mip.

struct D3D12Sampler {
  filter_bits: u32,
  // Address modes (D3D12_ADDRESS_*), 4 bits per axis: u, v, w.
  address: u32,
  comparison: u32,
  mip_lod_bias: f32,
  max_anisotropy: u32,
  min_lod: f32,
  max_lod: f32,
  border: vec4f,
}

// A sampler from its descriptor words 0-11 (descriptors.wgsl's D3D12_SAMPLER_* offsets).
fn d3d12_sampler_words(a: vec4u, b: vec4u, c: vec4u) -> D3D12Sampler {
  return D3D12Sampler(a.y, a.z, a.w, bitcast<f32>(b.x), b.y, bitcast<f32>(b.z), bitcast<f32>(b.w), bitcast<vec4f>(c));
}

// The sampler a binding names (HLSL: SamplerState s0): a static sampler, or a SAMPLER heap's
// descriptor. A register with no sampler gives a point sampler clamped to the edge, and a fault.
fn d3d12_sampler(binding: D3D12Binding) -> D3D12Sampler {
  if (binding.kind == D3D12_BINDING_STATIC_SAMPLER) {
    return d3d12_static_sampler(binding.address.x);
  }
  let head = d3d12_descriptor_head(binding);
  if (!d3d12_descriptor_usable(binding, head, D3D12_DESC_SAMPLER, D3D12_DESC_SAMPLER)) {
    return D3D12Sampler(0u, 0x333u, 0u, 0.0, 1u, 0.0, 3.4028234663852886e38, vec4f(0.0));
  }
  let tail = d3d12_load4(d3d12_address_add(binding.address, 32u));
  return d3d12_sampler_words(head[0], head[1], tail);
}

// ---- Texture views -------------------------------------------------------------------------------

// What a texture view reads: the texture and the view's mips and slices.
const D3D12_VIEW_USABLE: u32 = 0u;
// A NULL view (reads 0), or one that cannot be read (its fault was recorded; reads 0 too).
const D3D12_VIEW_NULL: u32 = 1u;
const D3D12_VIEW_INVALID: u32 = 2u;

struct D3D12TextureView {
  texture: D3D12Texture2D,
  first_mip: u32,
  mip_count: u32,
  first_slice: u32,
  slice_count: u32,
  min_lod_clamp: f32,
  mapping: u32,
  state: u32,
}

fn d3d12_texture_view_of(binding: D3D12Binding, kind: u32, array_kind: u32) -> D3D12TextureView {
  let head = d3d12_descriptor_head(binding);
  var view: D3D12TextureView;
  view.state = D3D12_VIEW_INVALID;
  if (!d3d12_descriptor_usable(binding, head, kind, array_kind)) {
    return view;
  }
  let word0 = head[0].x;
  view.mapping = (head[1].z >> 8u) & 0xfffu;
  if ((word0 & D3D12_DESC_NULL) != 0u) {
    view.state = D3D12_VIEW_NULL;
    return view;
  }
  view.texture = d3d12_tex2d(d3d12_address_add(binding.address, D3D12_DESC_TEXTURE * 4u));
  if (!d3d12_descriptor_resource_live(binding, word0, view.texture.base)) {
    return view;
  }
  view.first_mip = head[1].x & 0xffffu;
  view.mip_count = head[1].x >> 16u;
  view.first_slice = head[1].y & 0xffffu;
  view.slice_count = head[1].y >> 16u;
  view.min_lod_clamp = bitcast<f32>(head[1].w);
  view.state = D3D12_VIEW_USABLE;
  return view;
}

// The shader resource view a register names (HLSL Texture2D / Texture2DArray: a TEXTURE2D or
// TEXTURE2DARRAY SRV).
fn d3d12_texture2d(binding: D3D12Binding) -> D3D12TextureView {
  return d3d12_texture_view_of(binding, D3D12_DESC_SRV_TEXTURE2D, D3D12_DESC_SRV_TEXTURE2DARRAY);
}

// The unordered access view a register names (HLSL RWTexture2D / RWTexture2DArray): its one mip.
fn d3d12_rw_texture2d(binding: D3D12Binding) -> D3D12TextureView {
  return d3d12_texture_view_of(binding, D3D12_DESC_UAV_TEXTURE2D, D3D12_DESC_UAV_TEXTURE2DARRAY);
}

// GetDimensions: the size of the view's mip `mip` (0: its first), and its mip and slice counts.
fn d3d12_texture_dimensions(view: D3D12TextureView, mip: u32) -> vec2u {
  if (view.state != D3D12_VIEW_USABLE) {
    return vec2u(0u);
  }
  return d3d12_tex2d_mip_size(view.texture, view.first_mip + mip);
}

fn d3d12_texture_mip_count(view: D3D12TextureView) -> u32 {
  return select(0u, view.mip_count, view.state == D3D12_VIEW_USABLE);
}

fn d3d12_texture_slice_count(view: D3D12TextureView) -> u32 {
  return select(0u, view.slice_count, view.state == D3D12_VIEW_USABLE);
}

// Whether a Load of (xy, slice, mip) reads the texture: a usable view, inside its mips, slices and
// the mip's size. Loads outside read 0 in every component, as D3D12 defines out-of-bounds Loads and
// NULL descriptors.
fn d3d12_texture_in_range(view: D3D12TextureView, xy: vec2i, slice: u32, mip: u32) -> bool {
  if (view.state != D3D12_VIEW_USABLE || mip >= view.mip_count || slice >= view.slice_count) {
    return false;
  }
  let size = vec2i(d3d12_tex2d_mip_size(view.texture, view.first_mip + mip));
  return all(xy >= vec2i(0)) && all(xy < size);
}

// The raw bits of texel `xy` of the view's mip `mip` and slice `slice`, which d3d12_texture_in_range
// accepted. *status as d3d12_load_checked's: a NULL tile's bits are 0 (Tier 2) and not mapped.
fn d3d12_texture_bits(view: D3D12TextureView, xy: vec2i, slice: u32, mip: u32, status: ptr<function, u32>) -> vec4u {
  let level = view.first_mip + mip;
  let address = d3d12_tex2d_texel_address_in(view.texture, d3d12_tex2d_mip(view.texture, level), view.first_slice + slice, vec2u(xy));
  return d3d12_texel_bits_at(address, view.texture.bytes_per_texel, status);
}

// Texture2DArray.Load(int4(xy, slice, mip)) as floats, the view's component mapping applied.
fn d3d12_texture_array_load_checked(view: D3D12TextureView, xy: vec2i, slice: u32, mip: u32, status: ptr<function, u32>) -> vec4f {
  if (!d3d12_texture_in_range(view, xy, slice, mip)) {
    *status = 0u;
    return vec4f(0.0);
  }
  // A NULL tile's texel is decoded like any other (Tier 2: 0 in the format's components and the
  // default for missing ones), and the view's component mapping applies, as it does for Sample.
  let level = view.first_mip + mip;
  let texel = d3d12_tex2d_texel(view.texture, d3d12_tex2d_mip(view.texture, level), view.first_slice + slice, vec2u(xy), status);
  return d3d12_component_mapping(view.mapping, texel);
}

fn d3d12_texture_array_load(view: D3D12TextureView, xy: vec2i, slice: u32, mip: u32) -> vec4f {
  var status = 0u;
  return d3d12_texture_array_load_checked(view, xy, slice, mip, &status);
}

// Texture2D.Load(int3(xy, mip)).
fn d3d12_texture_load_checked(view: D3D12TextureView, xy: vec2i, mip: u32, status: ptr<function, u32>) -> vec4f {
  return d3d12_texture_array_load_checked(view, xy, 0u, mip, status);
}

fn d3d12_texture_load(view: D3D12TextureView, xy: vec2i, mip: u32) -> vec4f {
  var status = 0u;
  return d3d12_texture_load_checked(view, xy, mip, &status);
}

// Texture2D<uint4>.Load(int3(xy, mip), status) (Texture2DArray<uint4>: with a slice): integer
// formats' channels (d3d12_texel_decode_uint), the view's mapping applied; outside: 0, status 0.
fn d3d12_texture_load_uint_checked(view: D3D12TextureView, xy: vec2i, slice: u32, mip: u32, status: ptr<function, u32>) -> vec4u {
  if (!d3d12_texture_in_range(view, xy, slice, mip)) {
    *status = 0u;
    return vec4u(0u);
  }
  let bits = d3d12_texture_bits(view, xy, slice, mip, status);
  return d3d12_component_mapping_bits(view.mapping, d3d12_texel_decode_uint(view.texture.format, bits));
}

// Texture2D<uint4>.Load.
fn d3d12_texture_load_uint(view: D3D12TextureView, xy: vec2i, slice: u32, mip: u32) -> vec4u {
  var status = 0u;
  return d3d12_texture_load_uint_checked(view, xy, slice, mip, &status);
}

// Texture2D<int4>.Load(int3(xy, mip), status).
fn d3d12_texture_load_sint_checked(view: D3D12TextureView, xy: vec2i, slice: u32, mip: u32, status: ptr<function, u32>) -> vec4i {
  return bitcast<vec4i>(d3d12_texture_load_uint_checked(view, xy, slice, mip, status));
}

// Texture2D<int4>.Load.
fn d3d12_texture_load_sint(view: D3D12TextureView, xy: vec2i, slice: u32, mip: u32) -> vec4i {
  var status = 0u;
  return d3d12_texture_load_sint_checked(view, xy, slice, mip, &status);
}

// ---- Sampling ------------------------------------------------------------------------------------

// Texel coordinate c of an axis of n texels under address mode `mode`; -1 for a BORDER texel.
fn d3d12_address_texel(c: i32, n: i32, mode: u32) -> i32 {
  switch (mode) {
    case D3D12_ADDRESS_WRAP: {
      return ((c % n) + n) % n;
    }
    case D3D12_ADDRESS_MIRROR: {
      let p = ((c % (2 * n)) + 2 * n) % (2 * n);
      return select(2 * n - 1 - p, p, p < n);
    }
    case D3D12_ADDRESS_BORDER: {
      return select(-1, c, c >= 0 && c < n);
    }
    case D3D12_ADDRESS_MIRROR_ONCE: {
      return clamp(select(-c - 1, c, c >= 0), 0, n - 1);
    }
    default: {
      return clamp(c, 0, n - 1);
    }
  }
}

// One texel of a filter's footprint as RGBA (decoded; the border color for a BORDER texel); for a
// comparison sampler, 1 or 0 in every channel: whether the texel's red passes against `reference`.
fn d3d12_filter_tap(view: D3D12TextureView, smp: D3D12Sampler, level: u32, mip: vec4u, slice: u32, c: vec2i, reference: f32, status: ptr<function, u32>) -> vec4f {
  let size = vec2i(d3d12_tex2d_mip_size(view.texture, level));
  let x = d3d12_address_texel(c.x, size.x, smp.address & 0xfu);
  let y = d3d12_address_texel(c.y, size.y, (smp.address >> 4u) & 0xfu);
  var value = smp.border;
  *status = D3D12_STATUS_MAPPED;
  if (x >= 0 && y >= 0) {
    value = d3d12_tex2d_texel(view.texture, mip, slice, vec2u(u32(x), u32(y)), status);
  }
  if ((smp.filter_bits & D3D12_FILTER_COMPARISON) != 0u) {
    value = vec4f(select(0.0, 1.0, d3d12_compare(smp.comparison, reference, value.r)));
  }
  return value;
}

// D3D12_COMPARISON_FUNC: whether `reference` passes against the texel's `value` (source op dest).
fn d3d12_compare(func: u32, reference: f32, value: f32) -> bool {
  switch (func) {
    case D3D12_COMPARISON_NEVER: { return false; }
    case D3D12_COMPARISON_LESS: { return reference < value; }
    case D3D12_COMPARISON_EQUAL: { return reference == value; }
    case D3D12_COMPARISON_LESS_EQUAL: { return reference <= value; }
    case D3D12_COMPARISON_GREATER: { return reference > value; }
    case D3D12_COMPARISON_NOT_EQUAL: { return reference != value; }
    case D3D12_COMPARISON_GREATER_EQUAL: { return reference >= value; }
    default: { return true; }
  }
}

// One mip's filtering at uv: POINT (the texel under uv) or LINEAR (the 2x2 footprint, bilinear).
// The taps go through one call site in a loop (SwiftShader inlines every call site).
fn d3d12_filter_mip(view: D3D12TextureView, smp: D3D12Sampler, level: u32, slice: u32, uv: vec2f, linear: bool, reference: f32, status: ptr<function, u32>) -> vec4f {
  let size = vec2f(d3d12_tex2d_mip_size(view.texture, level));
  let mip = d3d12_tex2d_mip(view.texture, level);
  let position = uv * size - select(vec2f(0.0), vec2f(0.5), linear);
  let base = vec2i(floor(position));
  let f = select(vec2f(0.0), position - floor(position), linear);
  var sum = vec4f(0.0);
  // A bilinear footprint inside the mip and one tile that the texture cache holds: one hardware
  // sample (texture-cache.wgsl; inside the mip no address mode applies). Comparison filters compare
  // each tap, so they take the taps.
  let compares = (smp.filter_bits & D3D12_FILTER_COMPARISON) != 0u;
  if (linear && !compares && d3d12_cache_bilinear(view.texture, mip, level, slice, position, &sum)) {
    *status = D3D12_STATUS_MAPPED;
  } else {
    let taps = select(1u, 4u, linear);
    var mapped = D3D12_STATUS_MAPPED;
    for (var i = 0u; i < taps; i++) {
      let offset = vec2i(i32(i & 1u), i32(i >> 1u));
      let weight = select(1.0 - f.x, f.x, offset.x == 1) * select(1.0 - f.y, f.y, offset.y == 1);
      var s = 0u;
      sum += weight * d3d12_filter_tap(view, smp, level, mip, slice, base + offset, reference, &s);
      mapped &= s;
    }
    *status = mapped;
  }
  return sum;
}

// SampleLevel's filtering at `lod` (the view's mips, 0 its first), after the sampler's and view's
// clamps; the result is in the texture's channels (mapping applied by the callers).
fn d3d12_filter(view: D3D12TextureView, smp: D3D12Sampler, uv: vec2f, slice: u32, lod: f32, reference: f32, status: ptr<function, u32>) -> vec4f {
  *status = 0u;
  if (view.state != D3D12_VIEW_USABLE || slice >= view.slice_count) {
    return vec4f(0.0);
  }
  let clamp_min = max(smp.min_lod, view.min_lod_clamp - f32(view.first_mip));
  let level = clamp(clamp(lod, clamp_min, smp.max_lod), 0.0, f32(view.mip_count - 1u));
  let linear = select((smp.filter_bits & D3D12_FILTER_MIN_LINEAR) != 0u, (smp.filter_bits & D3D12_FILTER_MAG_LINEAR) != 0u, lod <= 0.0);
  let layer = view.first_slice + slice;
  if ((smp.filter_bits & D3D12_FILTER_MIP_LINEAR) == 0u) {
    return d3d12_filter_mip(view, smp, view.first_mip + u32(floor(level + 0.5)), layer, uv, linear, reference, status);
  }
  let fine = u32(floor(level));
  let coarse = min(fine + 1u, view.mip_count - 1u);
  let t = level - f32(fine);
  let a = d3d12_filter_mip(view, smp, view.first_mip + fine, layer, uv, linear, reference, status);
  if (t == 0.0 || coarse == fine) {
    return a;
  }
  var s1 = 0u;
  let b = d3d12_filter_mip(view, smp, view.first_mip + coarse, layer, uv, linear, reference, &s1);
  *status &= s1;
  return mix(a, b, t);
}

// Texture2DArray.SampleLevel(sampler, float3(uv, slice), lod): the view's mapping applied; a NULL
// view reads 0. *status as d3d12_load_checked's, for every texel read.
fn d3d12_texture_array_sample_level_checked(view: D3D12TextureView, smp: D3D12Sampler, uv: vec2f, slice: u32, lod: f32, status: ptr<function, u32>) -> vec4f {
  let filtered = d3d12_filter(view, smp, uv, slice, lod + smp.mip_lod_bias, 0.0, status);
  return select(vec4f(0.0), d3d12_component_mapping(view.mapping, filtered), view.state == D3D12_VIEW_USABLE);
}

fn d3d12_texture_array_sample_level(view: D3D12TextureView, smp: D3D12Sampler, uv: vec2f, slice: u32, lod: f32) -> vec4f {
  var status = 0u;
  return d3d12_texture_array_sample_level_checked(view, smp, uv, slice, lod, &status);
}

// Texture2D.SampleLevel(sampler, uv, lod).
fn d3d12_texture_sample_level_checked(view: D3D12TextureView, smp: D3D12Sampler, uv: vec2f, lod: f32, status: ptr<function, u32>) -> vec4f {
  return d3d12_texture_array_sample_level_checked(view, smp, uv, 0u, lod, status);
}

fn d3d12_texture_sample_level(view: D3D12TextureView, smp: D3D12Sampler, uv: vec2f, lod: f32) -> vec4f {
  var status = 0u;
  return d3d12_texture_sample_level_checked(view, smp, uv, lod, &status);
}

// The level of detail of derivatives `ddx`, `ddy` of uv: log2 of the longer, in texels of the
// view's first mip.
fn d3d12_texture_lod(view: D3D12TextureView, ddx: vec2f, ddy: vec2f) -> f32 {
  let size = vec2f(d3d12_texture_dimensions(view, 0u));
  return log2(max(length(ddx * size), length(ddy * size)));
}

// Texture2D.SampleGrad(sampler, uv, ddx, ddy, status): *status for every texel the filter read.
fn d3d12_texture_sample_grad_checked(view: D3D12TextureView, smp: D3D12Sampler, uv: vec2f, ddx: vec2f, ddy: vec2f, status: ptr<function, u32>) -> vec4f {
  return d3d12_texture_sample_level_checked(view, smp, uv, d3d12_texture_lod(view, ddx, ddy), status);
}

// Texture2D.SampleGrad(sampler, uv, ddx, ddy).
fn d3d12_texture_sample_grad(view: D3D12TextureView, smp: D3D12Sampler, uv: vec2f, ddx: vec2f, ddy: vec2f) -> vec4f {
  var status = 0u;
  return d3d12_texture_sample_grad_checked(view, smp, uv, ddx, ddy, &status);
}

// Texture2D.Gather(sampler, uv, offset 0, status) of `component` (0-3: Red, Green, Blue, Alpha
// after the view's mapping), from the view's first mip: the 2x2 footprint's texels in D3D's order,
// (u0, v1), (u1, v1), (u1, v0), (u0, v0). *status for the four texels (a BORDER texel reads no
// memory: mapped); a NULL view: 0, status 0.
fn d3d12_texture_gather_checked(view: D3D12TextureView, smp: D3D12Sampler, uv: vec2f, component: u32, status: ptr<function, u32>) -> vec4f {
  if (view.state != D3D12_VIEW_USABLE) {
    *status = 0u;
    return vec4f(0.0);
  }
  let level = view.first_mip;
  let mip = d3d12_tex2d_mip(view.texture, level);
  let base = vec2i(floor(uv * vec2f(d3d12_tex2d_mip_size(view.texture, level)) - 0.5));
  let order = array<vec2i, 4>(vec2i(0, 1), vec2i(1, 1), vec2i(1, 0), vec2i(0, 0));
  var out = vec4f(0.0);
  var mapped = D3D12_STATUS_MAPPED;
  for (var i = 0u; i < 4u; i++) {
    var s = 0u;
    let texel = d3d12_filter_tap(view, smp, level, mip, view.first_slice, base + order[i], 0.0, &s);
    out[i] = d3d12_component_mapping(view.mapping, texel)[min(component, 3u)];
    mapped &= s;
  }
  *status = mapped;
  return out;
}

// Texture2D.Gather(sampler, uv) of `component`.
fn d3d12_texture_gather(view: D3D12TextureView, smp: D3D12Sampler, uv: vec2f, component: u32) -> vec4f {
  var status = 0u;
  return d3d12_texture_gather_checked(view, smp, uv, component, &status);
}

// Texture2D.SampleCmpLevelZero(sampler, uv, reference, status): the fraction of the footprint whose
// red passes the sampler's comparison against `reference`, at the view's first mip; *status for
// every texel compared.
fn d3d12_texture_sample_cmp_level_zero_checked(view: D3D12TextureView, smp: D3D12Sampler, uv: vec2f, reference: f32, status: ptr<function, u32>) -> f32 {
  var compared = smp;
  compared.filter_bits |= D3D12_FILTER_COMPARISON;
  return d3d12_filter(view, compared, uv, 0u, 0.0, reference, status).r;
}

// Texture2D.SampleCmpLevelZero(sampler, uv, reference).
fn d3d12_texture_sample_cmp_level_zero(view: D3D12TextureView, smp: D3D12Sampler, uv: vec2f, reference: f32) -> f32 {
  var status = 0u;
  return d3d12_texture_sample_cmp_level_zero_checked(view, smp, uv, reference, &status);
}

// ---- Buffer views --------------------------------------------------------------------------------

struct D3D12BufferView {
  // The view's first byte.
  address: vec2u,
  elements: u32,
  // Bytes per element (raw views: 4).
  stride: u32,
  format: u32,
  mapping: u32,
  state: u32,
}

fn d3d12_buffer_view_of(binding: D3D12Binding, typed: u32, raw: u32, structured: u32) -> D3D12BufferView {
  var view: D3D12BufferView;
  view.state = D3D12_VIEW_INVALID;
  // A root SRV or UAV is a raw or structured view of everything from its address on (D3D12 checks
  // no bounds there): as many elements as a u32 counts.
  if (binding.kind == D3D12_BINDING_ROOT_DESCRIPTOR) {
    return D3D12BufferView(binding.address, 0xffffffffu, 4u, 0u, 0x688u, D3D12_VIEW_USABLE);
  }
  let head = d3d12_descriptor_head(binding);
  let kind = head[0].x & D3D12_DESC_KIND_MASK;
  let is_buffer = kind == typed || kind == raw || kind == structured;
  if (!d3d12_descriptor_usable(binding, head, select(typed, kind, is_buffer), typed)) {
    return view;
  }
  view.mapping = (head[1].z >> 8u) & 0xfffu;
  if ((head[0].x & D3D12_DESC_NULL) != 0u) {
    view.state = D3D12_VIEW_NULL;
    return view;
  }
  view.address = head[0].zw;
  if (!d3d12_descriptor_resource_live(binding, head[0].x, view.address)) {
    return view;
  }
  view.elements = head[1].x;
  view.stride = head[1].y;
  view.format = head[1].z & 0xffu;
  view.state = D3D12_VIEW_USABLE;
  return view;
}

// The SRV a register names as a buffer (HLSL Buffer, ByteAddressBuffer, StructuredBuffer), or a root SRV.
fn d3d12_buffer(binding: D3D12Binding) -> D3D12BufferView {
  return d3d12_buffer_view_of(binding, D3D12_DESC_SRV_TYPED_BUFFER, D3D12_DESC_SRV_RAW_BUFFER, D3D12_DESC_SRV_STRUCTURED_BUFFER);
}

// The UAV a register names as a buffer (RWBuffer, RWByteAddressBuffer, RWStructuredBuffer), or a root UAV.
fn d3d12_rw_buffer(binding: D3D12Binding) -> D3D12BufferView {
  return d3d12_buffer_view_of(binding, D3D12_DESC_UAV_TYPED_BUFFER, D3D12_DESC_UAV_RAW_BUFFER, D3D12_DESC_UAV_STRUCTURED_BUFFER);
}

// GetDimensions: elements (raw views: 32-bit words) and bytes per element.
fn d3d12_buffer_elements(view: D3D12BufferView) -> u32 {
  return select(0u, view.elements, view.state == D3D12_VIEW_USABLE);
}

// Whether bytes [offset, offset + bytes) lie inside the view.
fn d3d12_buffer_in_view(view: D3D12BufferView, offset: u32, bytes: u32) -> bool {
  let size = view.elements * view.stride;
  let whole = view.elements >= 0xffffffffu / max(view.stride, 1u);
  return view.state == D3D12_VIEW_USABLE && (whole || (offset < size && bytes <= size - offset));
}

// The checked forms below (d3d12_buffer_load_word_checked ... d3d12_cbuffer_load4_f32_checked)
// return what their plain forms return and set *status as d3d12_load_checked does, as HLSL's loads
// with a status argument: D3D12_STATUS_MAPPED when every byte read lay inside the view and came from
// mapped, resident memory; 0 otherwise: a NULL descriptor (reads 0), a read outside the view (0), a
// view that cannot be read (reads 0; its fault was recorded when it was opened: an evicted descriptor
// heap, a released resource, a descriptor of another kind, never written, or an unbound register), a
// NULL tile (0 under Tier 2+, the Tier 1 poison) and an evicted heap or a freed range (0; the read
// records its read-absent or read-unowned fault as any load does). The plain forms are these with
// the status dropped. Test the status with d3d12_check_access_fully_mapped.

// ByteAddressBuffer.Load(offset, status) (offset a multiple of 4); outside the view: 0.
fn d3d12_buffer_load_word_checked(view: D3D12BufferView, offset: u32, status: ptr<function, u32>) -> u32 {
  if (!d3d12_buffer_in_view(view, offset, 4u)) {
    *status = 0u;
    return 0u;
  }
  return d3d12_load_checked(d3d12_address_add(view.address, offset), status);
}

// ByteAddressBuffer.Load(offset) (offset a multiple of 4); outside the view: 0.
fn d3d12_buffer_load_word(view: D3D12BufferView, offset: u32) -> u32 {
  var status = 0u;
  return d3d12_buffer_load_word_checked(view, offset, &status);
}

// ByteAddressBuffer.Load4(offset, status); outside the view: 0.
fn d3d12_buffer_load_word4_checked(view: D3D12BufferView, offset: u32, status: ptr<function, u32>) -> vec4u {
  if (!d3d12_buffer_in_view(view, offset, 16u)) {
    *status = 0u;
    return vec4u(0u);
  }
  return d3d12_load4_checked(d3d12_address_add(view.address, offset), status);
}

// ByteAddressBuffer.Load4(offset); outside the view: 0.
fn d3d12_buffer_load_word4(view: D3D12BufferView, offset: u32) -> vec4u {
  var status = 0u;
  return d3d12_buffer_load_word4_checked(view, offset, &status);
}

// StructuredBuffer[index] word at byte `member` of the element, with a status; outside: 0.
fn d3d12_buffer_load_structured_checked(view: D3D12BufferView, index: u32, member: u32, status: ptr<function, u32>) -> u32 {
  if (index >= view.elements || member >= view.stride) {
    *status = 0u;
    return 0u;
  }
  return d3d12_buffer_load_word_checked(view, index * view.stride + member, status);
}

// StructuredBuffer[index] word at byte `member` of the element.
fn d3d12_buffer_load_structured(view: D3D12BufferView, index: u32, member: u32) -> u32 {
  var status = 0u;
  return d3d12_buffer_load_structured_checked(view, index, member, &status);
}

// Buffer<float4>.Load(index, status): a typed view's element decoded (d3d12_texel_decode), the
// mapping applied (a NULL tile's element decodes as 0 in the format's components, as a texture's
// texel does); outside the view or a NULL view: 0 in every component.
fn d3d12_buffer_load_checked(view: D3D12BufferView, index: u32, status: ptr<function, u32>) -> vec4f {
  if (view.state != D3D12_VIEW_USABLE || index >= view.elements) {
    *status = 0u;
    return vec4f(0.0);
  }
  let bits = d3d12_texel_bits_at(d3d12_address_add(view.address, index * view.stride), view.stride, status);
  return d3d12_component_mapping(view.mapping, d3d12_texel_decode(view.format, bits));
}

// Buffer<float4>[index].
fn d3d12_buffer_load(view: D3D12BufferView, index: u32) -> vec4f {
  var status = 0u;
  return d3d12_buffer_load_checked(view, index, &status);
}

// Buffer<uint4>.Load(index, status).
fn d3d12_buffer_load_uint_checked(view: D3D12BufferView, index: u32, status: ptr<function, u32>) -> vec4u {
  if (view.state != D3D12_VIEW_USABLE || index >= view.elements) {
    *status = 0u;
    return vec4u(0u);
  }
  let bits = d3d12_texel_bits_at(d3d12_address_add(view.address, index * view.stride), view.stride, status);
  return d3d12_component_mapping_bits(view.mapping, d3d12_texel_decode_uint(view.format, bits));
}

// Buffer<uint4>[index].
fn d3d12_buffer_load_uint(view: D3D12BufferView, index: u32) -> vec4u {
  var status = 0u;
  return d3d12_buffer_load_uint_checked(view, index, &status);
}

// ---- Constant buffers ----------------------------------------------------------------------------

struct D3D12ConstantBuffer {
  // A CBV's or root CBV's address; root constants: address.x is their first root argument word.
  address: vec2u,
  // Bytes in the view (root constants: 4 per value).
  size: u32,
  root_constants: bool,
  state: u32,
}

// The constant buffer a b register names (HLSL cbuffer): root constants, a root CBV (bounds
// unchecked, as D3D12's are: a 64 KiB view) or a CBV in a table.
fn d3d12_cbuffer(binding: D3D12Binding) -> D3D12ConstantBuffer {
  if (binding.kind == D3D12_BINDING_ROOT_CONSTANTS) {
    return D3D12ConstantBuffer(binding.address, binding.address.y * 4u, true, D3D12_VIEW_USABLE);
  }
  if (binding.kind == D3D12_BINDING_ROOT_DESCRIPTOR) {
    return D3D12ConstantBuffer(binding.address, 65536u, false, D3D12_VIEW_USABLE);
  }
  let head = d3d12_descriptor_head(binding);
  if (!d3d12_descriptor_usable(binding, head, D3D12_DESC_CBV, D3D12_DESC_CBV)) {
    return D3D12ConstantBuffer(vec2u(0u), 0u, false, D3D12_VIEW_INVALID);
  }
  if ((head[0].x & D3D12_DESC_NULL) != 0u) {
    return D3D12ConstantBuffer(vec2u(0u), 0u, false, D3D12_VIEW_NULL);
  }
  return D3D12ConstantBuffer(head[0].zw, head[1].x, false, D3D12_VIEW_USABLE);
}

// The 32-bit value at byte `offset` (a multiple of 4) of the constant buffer, with a status (root
// constants are always mapped); past its end or a NULL CBV: 0, status 0.
fn d3d12_cbuffer_load_checked(cb: D3D12ConstantBuffer, offset: u32, status: ptr<function, u32>) -> u32 {
  if (cb.state != D3D12_VIEW_USABLE || offset >= cb.size) {
    *status = 0u;
    return 0u;
  }
  if (cb.root_constants) {
    *status = D3D12_STATUS_MAPPED;
    return d3d12_root_word(cb.address.x + offset / 4u);
  }
  return d3d12_load_checked(d3d12_address_add(cb.address, offset), status);
}

// The 32-bit value at byte `offset` (a multiple of 4) of the constant buffer; past its end: 0.
fn d3d12_cbuffer_load(cb: D3D12ConstantBuffer, offset: u32) -> u32 {
  var status = 0u;
  return d3d12_cbuffer_load_checked(cb, offset, &status);
}

// The 16 bytes at `offset` (a multiple of 16), one constant-buffer register, c[offset / 16], with a
// status for all of them.
fn d3d12_cbuffer_load4_checked(cb: D3D12ConstantBuffer, offset: u32, status: ptr<function, u32>) -> vec4u {
  if (cb.root_constants || cb.state != D3D12_VIEW_USABLE) {
    var s0 = 0u;
    var s1 = 0u;
    var s2 = 0u;
    var s3 = 0u;
    let value = vec4u(
      d3d12_cbuffer_load_checked(cb, offset, &s0),
      d3d12_cbuffer_load_checked(cb, offset + 4u, &s1),
      d3d12_cbuffer_load_checked(cb, offset + 8u, &s2),
      d3d12_cbuffer_load_checked(cb, offset + 12u, &s3),
    );
    *status = s0 & s1 & s2 & s3;
    return value;
  }
  if (offset >= cb.size) {
    *status = 0u;
    return vec4u(0u);
  }
  return d3d12_load4_checked(d3d12_address_add(cb.address, offset), status);
}

// The 16 bytes at `offset` (a multiple of 16): one constant-buffer register, c[offset / 16].
fn d3d12_cbuffer_load4(cb: D3D12ConstantBuffer, offset: u32) -> vec4u {
  var status = 0u;
  return d3d12_cbuffer_load4_checked(cb, offset, &status);
}

fn d3d12_cbuffer_load_f32_checked(cb: D3D12ConstantBuffer, offset: u32, status: ptr<function, u32>) -> f32 {
  return bitcast<f32>(d3d12_cbuffer_load_checked(cb, offset, status));
}

fn d3d12_cbuffer_load_f32(cb: D3D12ConstantBuffer, offset: u32) -> f32 {
  return bitcast<f32>(d3d12_cbuffer_load(cb, offset));
}

fn d3d12_cbuffer_load4_f32_checked(cb: D3D12ConstantBuffer, offset: u32, status: ptr<function, u32>) -> vec4f {
  return bitcast<vec4f>(d3d12_cbuffer_load4_checked(cb, offset, status));
}

fn d3d12_cbuffer_load4_f32(cb: D3D12ConstantBuffer, offset: u32) -> vec4f {
  return bitcast<vec4f>(d3d12_cbuffer_load4(cb, offset));
}
