// Indirection cost (bench/suite/indirection-cost.ts): the memory-bound kernels every variant runs.
// Each variant puts its own accessors in front of this file (indirection-cost-direct.wgsl for raw
// WebGPU, indirection-cost-d3d12.wgsl for the library), so the arithmetic is the same text for all
// of them and only the loads differ:
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
// 16-byte vectors per 64 KiB page.
const VEC4S_PER_PAGE: u32 = 4096u;

fn sum4(v: vec4u) -> u32 {
  return v.x + v.y + v.z + v.w;
}

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

// The same grid-stride over 16-byte vectors (HLSL's Load4 pattern).
@compute @workgroup_size(SUM_WORKGROUP_SIZE)
fn sum_vec4s(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let stride = groups.x * SUM_WORKGROUP_SIZE;
  let count = word_count() / 4u;
  var total = 0u;
  var i = id.x;
  for (; i + 3u * stride < count; i += 4u * stride) {
    total += sum4(load_vec4(i + 0u * stride));
    total += sum4(load_vec4(i + 1u * stride));
    total += sum4(load_vec4(i + 2u * stride));
    total += sum4(load_vec4(i + 3u * stride));
  }
  for (; i < count; i += stride) {
    total += sum4(load_vec4(i));
  }
  store_partial(id.x, total);
}

// Page by page: workgroup g reads pages g, g + groups, ...; its invocations read each page's vectors
// in coalesced order, opening the page once (the library: one translation per page).
@compute @workgroup_size(SUM_WORKGROUP_SIZE)
fn sum_pages(@builtin(global_invocation_id) id: vec3u, @builtin(local_invocation_index) lane: u32, @builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let pages = word_count() / (VEC4S_PER_PAGE * 4u);
  var total = 0u;
  for (var p = group.x; p < pages; p += groups.x) {
    let page = page_open(p);
    for (var j = lane; j < VEC4S_PER_PAGE; j += 4u * SUM_WORKGROUP_SIZE) {
      total += sum4(page_load4(page, j + 0u * SUM_WORKGROUP_SIZE));
      total += sum4(page_load4(page, j + 1u * SUM_WORKGROUP_SIZE));
      total += sum4(page_load4(page, j + 2u * SUM_WORKGROUP_SIZE));
      total += sum4(page_load4(page, j + 3u * SUM_WORKGROUP_SIZE));
    }
  }
  store_partial(id.x, total);
}
