// The feedback pass (sampler feedback's job): for each 8 x 8 block of pixels, the tiles of the
// finest mip the draw will sample there, taken over the block's whole footprint (its corners, one
// texel beyond for the bilinear filter), so thin strips at the view's edges and filter taps across
// a tile border are requested too. A block spans under 20 texels of that mip (under 2 per pixel),
// far less than a tile, so its footprint touches at most 2 x 2 tiles. Each is stamped with the frame number in the
// feedback buffer (one word per tile of mips 0..7, in the texture's tile order); the CPU reads the
// buffer back a few frames later and pages the tiles in.
// Root descriptor 1: the feedback buffer (a root UAV). Root constants: 2 frame number + 1, 3-8 the view
// (vt-view.wgsl).

const FEEDBACK_BLOCK: u32 = 8u;

fn vt_tile_start(mip: u32) -> u32 {
  var start = 0u;
  for (var k = 0u; k < mip; k++) {
    let tiles = 128u >> k;
    start += tiles * tiles;
  }
  return start;
}

@compute @workgroup_size(8, 8)
fn feedback(@builtin(global_invocation_id) id: vec3u) {
  let view = vt_view(3u);
  let first = vec2f(id.xy * FEEDBACK_BLOCK);
  if (any(first >= view.size)) {
    return;
  }
  let last = min(first + f32(FEEDBACK_BLOCK), view.size);
  let mip = u32(clamp(floor(view.lod), 0.0, f32(VT_MIPS - 1u)));
  if (mip >= VT_STANDARD_MIPS) {
    return; // the packed tail is always resident
  }
  let texel = f32(1u << mip) / f32(VT_SIZE);
  let lo = clamp(vt_uv(view, first) - texel, vec2f(0.0), vec2f(1.0));
  let hi = clamp(vt_uv(view, last) + texel, vec2f(0.0), vec2f(1.0));
  if (any(lo >= hi)) {
    return; // the block is outside the texture
  }
  let tiles = 128u >> mip;
  let t0 = min(vec2u(lo * f32(tiles)), vec2u(tiles - 1u));
  let t1 = min(vec2u(hi * f32(tiles)), vec2u(tiles - 1u));
  let base = d3d12_address_add(d3d12_root_descriptor(1u), vt_tile_start(mip) * 4u);
  for (var y = t0.y; y <= t1.y; y++) {
    for (var x = t0.x; x <= t1.x; x++) {
      d3d12_store(d3d12_address_add(base, (y * tiles + x) * 4u), d3d12_root_constant(2u));
    }
  }
}
