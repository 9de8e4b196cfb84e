// The top-down map of the world: every object as a box sized by its heap, coloured by residency
// (bright: resident and used this frame; dim: resident, idle; striped: evicted), red where the shade
// pass found wrong data, a magenta frame around the object whose registration was forgotten, and
// the camera's circle. Root descriptors (SRVs): 1 the object table, 2 the frame data. Root
// constants: 4 frame, 5-6 camera x/y (f32, cells), 7 radius (f32), 8-9 resident bits, 10-11 visible
// bits, 12 forgotten object (0xffffffff: none), 13 largest object in tiles, 14-15 target size in
// pixels.

const GRID: vec2f = vec2f(8.0, 6.0);

@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}

fn bit(first: u32, k: u32) -> bool {
  return ((d3d12_root_constant(first + k / 32u) >> (k % 32u)) & 1u) != 0u;
}

@fragment
fn fs(@builtin(position) position: vec4f) -> @location(0) vec4f {
  let size = vec2f(f32(d3d12_root_constant(14u)), f32(d3d12_root_constant(15u)));
  let cell_pixels = min(size.x / GRID.x, size.y / GRID.y);
  let origin = (size - GRID * cell_pixels) * 0.5;
  let p = (position.xy - origin) / cell_pixels; // in cells
  var color = vec3f(0.063, 0.075, 0.09);
  if (all(p >= vec2f(0.0)) && all(p < GRID)) {
    let cell = vec2u(floor(p));
    let k = cell.y * 8u + cell.x;
    let table = d3d12_root_descriptor(1u);
    let entry = d3d12_address_add(table, k * 16u);
    let tiles = f32(d3d12_load(d3d12_address_add(entry, 8u)) / 16384u);
    let texture = d3d12_load(d3d12_address_add(entry, 12u)) % 3u == 0u;
    let half_side = 0.18 + 0.27 * sqrt(tiles / f32(d3d12_root_constant(13u)));
    let local = fract(p) - 0.5;
    let inside = all(abs(local) < vec2f(half_side));
    let base = select(vec3f(0.35, 0.62, 0.98), vec3f(0.98, 0.7, 0.3), texture);
    color = vec3f(0.09, 0.105, 0.125);
    if (inside) {
      let resident = bit(8u, k);
      let visible = bit(10u, k);
      let data = d3d12_address_add(d3d12_root_descriptor(2u), k * 16u);
      let fresh = d3d12_load(d3d12_address_add(data, 8u)) == d3d12_root_constant(4u);
      let wrong = d3d12_load(d3d12_address_add(data, 4u));
      if (!resident) {
        let stripe = fract((position.x + position.y) / 10.0) < 0.5;
        color = select(vec3f(0.12, 0.13, 0.15), base * 0.28, stripe);
      } else if (visible && fresh) {
        let shade = 0.85 + 0.15 * f32(d3d12_load(d3d12_address_add(data, 12u)) & 255u) / 255.0;
        color = base * shade;
      } else {
        color = base * 0.42;
      }
      if (visible && fresh && wrong > 0u) {
        color = vec3f(0.95, 0.2, 0.2);
      }
    }
    let edge = max(abs(local.x), abs(local.y));
    if (k == d3d12_root_constant(12u) && edge > half_side + 0.02 && edge < half_side + 0.06) {
      color = vec3f(1.0, 0.2, 0.9);
    }
  }
  let camera = vec2f(bitcast<f32>(d3d12_root_constant(5u)), bitcast<f32>(d3d12_root_constant(6u)));
  let radius = bitcast<f32>(d3d12_root_constant(7u));
  if (abs(distance(p, camera) - radius) < 1.5 / cell_pixels) {
    color = mix(color, vec3f(1.0), 0.85);
  }
  return vec4f(color, 1.0);
}
