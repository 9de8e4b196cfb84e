// Round 6: what a per-dispatch pre-pass would leave for the dispatch in a uniform: the texture
// descriptor it resolved (size, mips, each mip's first tile and width in tiles), the root UAV's
// address, and the figure's parameters. A read then opens no descriptor from memory.

struct R6Resolved {
  // mip, size, lod bits (the figure's root constants).
  params: vec4u,
  // The results' root UAV address (low word), mip count, the mip tail's tile index, unused.
  out_va: u32,
  mips: u32,
  tail_tile: u32,
  unused: u32,
  // The results' root UAV resolved: its first pool word and its bytes (store-resolved.wgsl).
  out_word: u32,
  out_bytes: u32,
  unused2: vec2u,
  // Per mip: first tile index, width in tiles, 1 if packed (in the tail), unused.
  mip_tiles: array<vec4u, 12>,
}

@group(0) @binding(0) var texels: texture_2d<f32>;
@group(0) @binding(1) var linear_clamp: sampler;
@group(0) @binding(3) var<uniform> resolved: R6Resolved;
// Memory: the pool and the page table (entries are pool word base | kind, RESIDENT = 1, as the
// prelude's word base and D3D12_PTE_KIND_MASK).
@group(0) @binding(2) var<storage, read_write> pool: array<u32>;
@group(0) @binding(4) var<storage, read> page_table: array<u32>;

const R6_PAGE_SHIFT: u32 = 16u;
const R6_KIND_MASK: u32 = 3u;
const R6_RESIDENT: u32 = 1u;

fn params() -> SampleParams {
  return SampleParams(resolved.params.x, resolved.params.y, bitcast<f32>(resolved.params.z));
}
