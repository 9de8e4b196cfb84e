// Shared by the init kernel and the draw shaders (prepended to each): the instance layout and the
// hash that makes every instance a function of its index, so the CPU can check any of them.

// An instance is 8 words (32 bytes): x, y, vx, vy (f32), then seed, index, tag, check (u32).
const INSTANCE_WORDS: u32 = 8u;
const INSTANCE_BYTES: u32 = 32u;
const INSTANCE_TAG: u32 = 0xa5a5a5a5u;

// PCG hash (Jarzynski & Olano, "Hash Functions for GPU Rendering", 2020); the CPU mirrors it.
fn pcg(v: u32) -> u32 {
  let state = v * 747796405u + 2891336453u;
  let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}
