// Indirection cost, the 16-byte kernels (after indirection-cost.wgsl's header: accessors and
// SUM_WORKGROUP_SIZE come from the files put in front).

// 16-byte vectors per 64 KiB page.
const VEC4S_PER_PAGE: u32 = 4096u;

fn sum4(v: vec4u) -> u32 {
  return v.x + v.y + v.z + v.w;
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
