// GPU-side validation of tile mappings (Device.validateTileMappings): compares the GPU page table
// with the entries the CPU authority expects, one invocation per expected entry. The page table is
// read exactly as the prelude reads it (past its end an entry is UNOWNED), so what this kernel finds
// is what every shader access and copy would see at this point in the queue.
//
// A standalone kernel (no prelude, no group-0 prelude bindings): it reads the page table only.

// One page to check: its index in the page table and the entry the CPU expects there.
struct D3D12ExpectedEntry {
  page: u32,
  entry: u32,
}

struct D3D12MismatchLog {
  // Mismatches seen, including those past the capacity that could not be written.
  count: atomic<u32>,
  capacity: u32,
  // Per mismatch: the index of its D3D12ExpectedEntry, and the entry found.
  records: array<vec2u>,
}

// The prelude's D3D12_PTE_UNOWNED, set by the host (src/gpu/tile-validation.ts) so it is written once.
override d3d12_unowned: u32;

// 64 invocations: a multiple of every GPU's SIMD width (32 on NVIDIA, 64 on AMD) and the smallest
// that fills one; each invocation does one load and one compare, so larger groups gain nothing.
const D3D12_VALIDATE_WORKGROUP: u32 = 64u;

@group(0) @binding(0) var<storage, read> d3d12_page_table: array<u32>;
@group(0) @binding(1) var<storage, read> d3d12_expected: array<D3D12ExpectedEntry>;
@group(0) @binding(2) var<storage, read_write> d3d12_mismatches: D3D12MismatchLog;

@compute @workgroup_size(D3D12_VALIDATE_WORKGROUP)
fn d3d12_validate_tile_mappings(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
  // Rows of workgroups (y) let one dispatch cover more than 65,535 workgroups of entries.
  let index = id.x + id.y * groups.x * D3D12_VALIDATE_WORKGROUP;
  if (index >= arrayLength(&d3d12_expected)) {
    return;
  }
  let want = d3d12_expected[index];
  var found = d3d12_unowned;
  if (want.page < arrayLength(&d3d12_page_table)) {
    found = d3d12_page_table[want.page];
  }
  if (found != want.entry) {
    let slot = atomicAdd(&d3d12_mismatches.count, 1u);
    if (slot < d3d12_mismatches.capacity) {
      d3d12_mismatches.records[slot] = vec2u(index, found);
    }
  }
}
