// Indirection cost (bench/suite/indirection-cost.ts): the memory-bound kernels every variant runs,
// 4-byte here, 16-byte in indirection-cost-wide.wgsl (a module of their own, so the library compiles
// each over the pool view its loads use). Each variant puts its own accessors in front of the
// kernels (indirection-cost-direct.wgsl for raw WebGPU, indirection-cost-d3d12.wgsl and
// indirection-cost-d3d12-wide.wgsl for the library), so the arithmetic is the same text for all of
// them and only the loads differ:
//   word_count(), load_word(i)           4-byte words, for sum_words
//   load_vec4(i)                         16-byte vectors (i < word_count() / 4), for sum_vec4s
//   PageRef, page_open(p), page_load4(page, j)
//                                        vector j of 64 KiB page p (j < 4096), for sum_pages
//   store_partial(i, value)              the invocation's sum
//
// Every invocation sums its share with wrapping u32 adds and writes the sum to its own output word,
// so no load can be optimized away. The total of all output words is the total of all input words
// (mod 2^32), whatever the order or width, which is what the figure checks.

// Invocations per workgroup (the TypeScript side reads this line).
const SUM_WORKGROUP_SIZE: u32 = 256u;
// Grid-stride over words: neighbouring invocations read neighbouring words, so the reads coalesce.
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
