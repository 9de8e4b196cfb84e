// Shared by the virtual texture's kernels and draw shader (prepended to each): the texture's shape
// and its procedural content. procedural.ts mirrors vt_procedural operation for operation, so the
// CPU knows every texel of every mip.

const VT_SIZE: u32 = 16384u;
const VT_MIPS: u32 = 15u;
/** Mips 0..7 are tiled (128 x 128 texels per tile); 8..14 share the packed tail. */
const VT_STANDARD_MIPS: u32 = 8u;

fn vt_palette(i: u32) -> vec3u {
  return array(
    vec3u(70u, 130u, 200u), vec3u(90u, 175u, 120u), vec3u(215u, 160u, 70u), vec3u(190u, 95u, 120u),
    vec3u(120u, 110u, 200u), vec3u(60u, 165u, 170u), vec3u(200u, 120u, 70u), vec3u(150u, 160u, 80u),
  )[i & 7u];
}

fn vt_mip_color(mip: u32) -> vec3u {
  return array(
    vec3u(255u, 80u, 80u), vec3u(255u, 170u, 60u), vec3u(240u, 240u, 80u), vec3u(100u, 230u, 100u),
    vec3u(80u, 220u, 230u), vec3u(90u, 130u, 255u), vec3u(200u, 110u, 255u), vec3u(255u, 120u, 210u),
  )[mip & 7u];
}

// Texel (x, y) of `mip` as RGBA8 (R in the low byte): rings around the centre, a checkerboard,
// fine XOR detail and a grid in world space, plus each tile's top and left edge in its mip's colour.
fn vt_procedural(mip: u32, x: u32, y: u32) -> u32 {
  let half = (1u << mip) >> 1u;
  let wx = (x << mip) + half;
  let wy = (y << mip) + half;
  let dx = i32(wx) - 8192;
  let dy = i32(wy) - 8192;
  let d2 = u32(dx * dx + dy * dy);
  var c = vt_palette(d2 >> 21u);
  let checker = ((wx >> 9u) + (wy >> 9u)) & 1u;
  c = c * (200u + 55u * checker) / 255u;
  c = min(c + vec3u(((wx ^ wy) >> 2u) & 31u), vec3u(255u));
  let line = 2u << mip;
  if ((wx & 2047u) < line || (wy & 2047u) < line) {
    c = vec3u(236u, 238u, 242u);
  }
  if (mip < VT_STANDARD_MIPS && ((x & 127u) == 0u || (y & 127u) == 0u)) {
    c = vt_mip_color(mip);
  }
  return c.x | (c.y << 8u) | (c.z << 16u) | (255u << 24u);
}

// The plane's geometry, shared by the virtual texture's draw (vt-draw.wgsl, its view from root
// constants: vt-view.wgsl) and the native baseline's (vt-native-draw.wgsl, from a uniform).

// Vertex i of the full-screen triangle.
fn vt_fullscreen_vertex(i: u32) -> vec4f {
  let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}

// The texture coordinate of pixel centre p: mip-0 texel centre + (p - size / 2) * texels_per_pixel, normalized.
fn vt_plane_uv(centre: vec2f, texels_per_pixel: f32, size: vec2f, pixel_centre: vec2f) -> vec2f {
  return (centre + (pixel_centre - size * 0.5) * texels_per_pixel) / f32(VT_SIZE);
}
