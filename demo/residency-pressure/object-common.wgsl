// Shared by the fill and shade kernels (prepended to each). Object table entry k (4 words at
// table + 16k): its address (a UINT64, low word first), size in words, seed. Word j of an object is pcg(seed ^ j).

fn pcg(v: u32) -> u32 {
  let state = v * 747796405u + 2891336453u;
  let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}

struct ObjectEntry {
  address: vec2u,
  words: u32,
  seed: u32,
}

fn object_entry(table: vec2u, k: u32) -> ObjectEntry {
  let at = d3d12_address_add(table, k * 16u);
  return ObjectEntry(
    vec2u(d3d12_load(at), d3d12_load(d3d12_address_add(at, 4u))),
    d3d12_load(d3d12_address_add(at, 8u)),
    d3d12_load(d3d12_address_add(at, 12u)),
  );
}
