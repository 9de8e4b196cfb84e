// Indirection cost (bench/suite/indirection-cost.ts): the memory-bound kernel that every variant
// runs. Each variant puts its own accessors in front of this file: word_count(), load_word(i) and
// store_partial(i, value) (indirection-cost-direct.wgsl for raw WebGPU, indirection-cost-d3d12.wgsl
// for the library), so the arithmetic is the same text for all of them and only the loads differ.
//
// Every invocation sums the words i, i + stride, i + 2 stride, ... (a grid-stride loop: neighbouring
// invocations read neighbouring words, so the reads coalesce) with wrapping u32 adds, and writes its
// sum to its own output word, so no load can be optimized away. The total of all output words is the
// total of all input words (mod 2^32), whatever the order, which is what the figure checks.

// Invocations per workgroup (the TypeScript side reads this line).
const SUM_WORKGROUP_SIZE: u32 = 256u;

@compute @workgroup_size(SUM_WORKGROUP_SIZE)
fn sum_words(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let stride = groups.x * SUM_WORKGROUP_SIZE;
  let count = word_count();
  var total = 0u;
  var i = id.x;
  // Unrolled: 4 independent loads in flight per invocation, so the kernel is bound by bandwidth,
  // not by the latency of one load at a time.
  for (; i + 3u * stride < count; i += 4u * stride) {
    total += load_word(i + 0u * stride);
    total += load_word(i + 1u * stride);
    total += load_word(i + 2u * stride);
    total += load_word(i + 3u * stride);
  }
  for (; i < count; i += stride) {
    total += load_word(i);
  }
  store_partial(id.x, total);
}
