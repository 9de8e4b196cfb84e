// Smoke test of the toolchain: fills a storage buffer with a hash pattern of each word's index, so
// a CPU reference (test/shared/smoke-pattern.ts) can check every word that comes back.

struct Params {
  count: u32,
  seed: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> words: array<u32>;

// A 32-bit integer hash (lowbias32, Chris Wellons): every bit of the index reaches every bit of
// the result, so a word written to the wrong place or dropped cannot match by accident.
fn hash(x_in: u32) -> u32 {
  var x = x_in;
  x ^= x >> 16u;
  x *= 0x7feb352du;
  x ^= x >> 15u;
  x *= 0x846ca68bu;
  x ^= x >> 16u;
  return x;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  if (i < params.count) {
    words[i] = hash(i ^ params.seed);
  }
}
