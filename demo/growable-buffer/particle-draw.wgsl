// Draws instances as 2x2-pixel quads in one half of the target, read from memory by address.
// Root descriptor 1: the instance buffer (a root SRV). Root constants: 2 instances drawn, 3 stride (every stride-th instance),
// 4 time in seconds (f32 bits), 5 side (0 left, 1 right), 6 heap count, 7.. first tile of each heap
// (up to 16; left side only: each heap gets its own hue), 24-25 target size in pixels.

struct Varyings {
  @builtin(position) position: vec4f,
  @location(0) color: vec4f,
}

fn heap_hue(tile: u32) -> vec3f {
  let heaps = min(d3d12_root_constant(6u), 16u);
  var heap = 0u;
  for (var k = 1u; k < heaps; k++) {
    if (tile >= d3d12_root_constant(7u + k)) {
      heap = k;
    }
  }
  let palette = array(vec3f(0.36, 0.82, 0.5), vec3f(0.35, 0.62, 0.98), vec3f(0.98, 0.7, 0.3), vec3f(0.9, 0.42, 0.72), vec3f(0.55, 0.9, 0.95), vec3f(0.95, 0.9, 0.4));
  return palette[heap % 6u];
}

@vertex
fn vs(@builtin(vertex_index) vertex: u32, @builtin(instance_index) drawn: u32) -> Varyings {
  let index = drawn * d3d12_root_constant(3u);
  let base = d3d12_address_add(d3d12_root_descriptor(1u), index * INSTANCE_BYTES);
  let motion = bitcast<vec4f>(d3d12_load4(base));
  let start = motion.xy;
  let velocity = motion.zw;
  let intact = d3d12_load(d3d12_address_add(base, 24u)) == INSTANCE_TAG;
  let time = bitcast<f32>(d3d12_root_constant(4u));
  let side = f32(d3d12_root_constant(5u));
  let p = fract(start + velocity * time);
  let target_size = vec2f(f32(d3d12_root_constant(24u)), f32(d3d12_root_constant(25u)));
  let corner = array(vec2f(0, 0), vec2f(1, 0), vec2f(0, 1), vec2f(0, 1), vec2f(1, 0), vec2f(1, 1))[vertex];
  let pixel = vec2f((p.x + side) * 0.5 * (target_size.x - 4.0) + 1.0, p.y * (target_size.y - 4.0) + 1.0) + corner * 2.0;
  var color = vec4f(0.85, 0.86, 0.9, 0.7);
  if (side == 0.0) {
    color = vec4f(heap_hue(index * INSTANCE_BYTES / 65536u), 0.75);
  }
  if (!intact) {
    color = vec4f(1.0, 0.0, 0.0, 1.0); // never expected: data lost in a resize
  }
  return Varyings(vec4f(pixel.x / target_size.x * 2.0 - 1.0, 1.0 - pixel.y / target_size.y * 2.0, 0.0, 1.0), color);
}

@fragment
fn fs(in: Varyings) -> @location(0) vec4f {
  return in.color;
}
