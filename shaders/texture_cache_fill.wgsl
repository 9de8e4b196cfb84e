// The texture cache's fill pass (src/gpu/texture-cache.ts; the cache is described in
// shaders/prelude/texture-cache.wgsl): copies the pool pages shaders requested
// (shaders/prelude/cache-requests.wgsl, put in front of this file) into slots of the atlas, one
// workgroup a page, then publishes each slot in the page's tag. A slot taken from an older page
// first withdraws that page's tag (only if the tag still names this slot). The pass runs in its own
// dispatches, between the submission's shaders: no shader samples a slot while it is written.

// Pool pages are 64 KiB: 16,384 words, each one RGBA8 texel of the page's 128 x 128 tile.
const FILL_PAGE_WORDS: u32 = 16384u;
const FILL_TILE_SIDE: u32 = 128u;
const FILL_WORKGROUP: u32 = 256u;

struct FillParams {
  // Slots in the atlas; slots per row of a layer; slots per layer.
  slots: u32,
  row_slots: u32,
  layer_slots: u32,
  unused: u32,
}

@group(0) @binding(0) var<storage, read> pool: array<u32>;
// Per pool page: x its tag, y its mirror link (the prelude's d3d12_cache_tags; the fill leaves y).
@group(0) @binding(1) var<storage, read_write> tags: array<vec2u>;
@group(0) @binding(2) var<storage, read_write> requests: D3D12CacheRequests;
// Per slot, the page it holds + 1 (0: none).
@group(0) @binding(3) var<storage, read_write> owners: array<u32>;
@group(0) @binding(4) var atlas: texture_storage_2d_array<rgba8unorm, write>;
@group(0) @binding(5) var<uniform> params: FillParams;

// The fills this pass makes: the requests kept, and never more than the atlas has slots (two
// fills of one pass must not share a slot).
fn fill_count() -> u32 {
  return min(min(atomicLoad(&requests.count), D3D12_CACHE_REQUEST_CAPACITY), params.slots);
}

@compute @workgroup_size(FILL_WORKGROUP)
fn fill(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_index) local: u32) {
  if (group.x >= fill_count()) {
    return;
  }
  let page = requests.pages[group.x];
  let slot = (requests.cursor + group.x) % params.slots;
  let layer = slot / params.layer_slots;
  let within = slot % params.layer_slots;
  let origin = vec2u(within % params.row_slots, within / params.row_slots) * FILL_TILE_SIDE;
  for (var i = 0u; i < FILL_PAGE_WORDS / FILL_WORKGROUP; i++) {
    let texel = i * FILL_WORKGROUP + local;
    let word = pool[page * FILL_PAGE_WORDS + texel];
    textureStore(atlas, origin + vec2u(texel % FILL_TILE_SIDE, texel / FILL_TILE_SIDE), layer, unpack4x8unorm(word));
  }
  if (local == 0u) {
    let old = owners[slot];
    if (old != 0u && tags[old - 1u].x == slot + 1u) {
      tags[old - 1u].x = 0u;
    }
    owners[slot] = page + 1u;
    tags[page].x = slot + 1u;
  }
}

// After fill: the cursor moves past the slots filled and the list empties (the pending bits are
// cleared by the queue, after this).
@compute @workgroup_size(1)
fn advance() {
  let filled = fill_count();
  requests.cursor = (requests.cursor + filled) % max(params.slots, 1u);
  atomicStore(&requests.count, 0u);
}
