// ---- The texture cache: tiles of textures in a real texture, read by the texture units ----------
//
// Heap memory is the truth; the cache is a copy of some of its pages that the texture units can
// filter. Its atlas is one rgba8unorm 2D-array texture cut into slots of 128 x 128 texels: one slot
// holds one 64 KiB pool page as the texels of a standard tile of a 4-byte format. A page's tag
// (d3d12_cache_tags, one word per pool page) is its slot + 1, or 0 when no slot holds it as it is
// now. Every write into a page clears its tag before anything can read the page again: the prelude's
// stores (d3d12_pool_write, pool-*-writes.wgsl, which every store, copy and UAV clear reaches) and
// the queue's writes into the pool (src/gpu/texture-cache.ts: CPU writes, cleared heaps, paging).
// A read that finds no tag reads memory the slow way, as it always did, and requests the page
// (cache-requests.wgsl); the next submission's fill pass copies it into a slot.
//
// Served: R8G8B8A8_UNORM and B8G8R8A8_UNORM textures' standard mips whose tiles start on a page
// (every tile of a texture placed at a 64 KiB offset), resident pages only. Everything else (other
// formats, packed mips, NULL tiles, absent or unowned pages) goes the slow way, which records what
// it records. A cached read is exactly the read it replaces: the same texel's bytes, decoded by the
// texture unit (unorm8 to float is exact both ways), and a mapped status. Filtering: a bilinear
// footprint inside one tile is one hardware sample of the slot (weights in the texture unit's
// fixed point, within 2/255 of the shader's exact ones); a footprint across tiles or past the mip's
// edge takes its four taps through the cache one by one and blends them in the shader, as before.
// d3d12_dispatch.texture_cache is 0 on a device whose cache is off or has no atlas yet: nothing
// here runs then.

const D3D12_CACHE_TILE_SIDE: u32 = 128u;
// The atlas's layers are 2048² texels, 16 x 16 slots: constants, so that a slot's place is shifts
// and masks (a division by a uniform's row count made bilinear samples 2.6x native against 3.2x,
// H100, docs/texture-cache.md). src/gpu/texture-cache.ts reads them.
const D3D12_CACHE_ROW_SLOTS: u32 = 16u;
const D3D12_CACHE_LAYER_SIDE: u32 = D3D12_CACHE_ROW_SLOTS * D3D12_CACHE_TILE_SIDE;

// Whether the cache serves reads of `texture`'s mip whose entry is `mip` (d3d12_tex2d_mip).
fn d3d12_cache_serves(texture: D3D12Texture2D, mip: vec4u) -> bool {
  let format = texture.format == D3D12_TEXEL_RGBA8_UNORM || texture.format == D3D12_TEXEL_BGRA8_UNORM;
  return d3d12_dispatch.texture_cache != 0u && mip.w == 0u && format && all(texture.tile == vec2u(D3D12_CACHE_TILE_SIDE));
}

// The tag of the page holding texel `texel` at `address`, 0 when the cache cannot serve it: the page
// not resident, or the texel's tile not starting on the page. A resident page with no slot is
// requested.
fn d3d12_cache_tag(address: vec2u, texel: vec2u) -> u32 {
  let entry = d3d12_page_entry(address);
  let inside = texel % vec2u(D3D12_CACHE_TILE_SIDE);
  let aligned = (address.x & D3D12_PAGE_OFFSET_MASK) == (inside.y * D3D12_CACHE_TILE_SIDE + inside.x) * 4u;
  var tag = 0u;
  if ((entry & D3D12_PTE_KIND_MASK) == D3D12_PTE_RESIDENT && aligned) {
    // The pool page: the entry's word base over the words of a page.
    let page = entry >> (D3D12_PAGE_SHIFT - 2u);
    tag = d3d12_cache_tags[page].x;
    if (tag == 0u) {
      d3d12_cache_request(page);
    }
  }
  return tag;
}

// Where slot tag - 1 starts in the atlas: texel (x, y) of layer z.
fn d3d12_cache_origin(tag: u32) -> vec3u {
  let slot = tag - 1u;
  let within = slot % (D3D12_CACHE_ROW_SLOTS * D3D12_CACHE_ROW_SLOTS);
  let row = vec2u(within % D3D12_CACHE_ROW_SLOTS, within / D3D12_CACHE_ROW_SLOTS);
  return vec3u(row * D3D12_CACHE_TILE_SIDE, slot / (D3D12_CACHE_ROW_SLOTS * D3D12_CACHE_ROW_SLOTS));
}

// The atlas holds the bytes as RGBA; a BGRA texture's channels are swapped back.
fn d3d12_cache_channels(format: u32, value: vec4f) -> vec4f {
  return select(value, value.bgra, format == D3D12_TEXEL_BGRA8_UNORM);
}

// Texel `texel` (inside its mip) of the mip whose entry is `mip`, at `address`, from the cache into
// *value; false (and *value untouched) when the cache does not hold it.
fn d3d12_cache_load(texture: D3D12Texture2D, mip: vec4u, address: vec2u, texel: vec2u, value: ptr<function, vec4f>) -> bool {
  var hit = false;
  if (d3d12_cache_serves(texture, mip)) {
    let tag = d3d12_cache_tag(address, texel);
    if (tag != 0u) {
      let at = d3d12_cache_origin(tag);
      *value = d3d12_cache_channels(texture.format, textureLoad(d3d12_cache_atlas, at.xy + texel % vec2u(D3D12_CACHE_TILE_SIDE), at.z, 0));
      hit = true;
    }
  }
  return hit;
}

// A bilinear sample at `position` (texel space of the mip, half a texel back: the footprint's first
// texel is floor(position)) of array slice `slice`, from the cache into *value, when the footprint
// lies inside the mip and inside one tile and the cache holds that tile; else false.
fn d3d12_cache_bilinear(texture: D3D12Texture2D, mip: vec4u, level: u32, slice: u32, position: vec2f, value: ptr<function, vec4f>) -> bool {
  var hit = false;
  let size = d3d12_tex2d_mip_size(texture, level);
  let first = floor(position);
  let corner = vec2u(max(first, vec2f(0.0)));
  let inside = all(first >= vec2f(0.0)) && all(corner + 1u < size);
  let one_tile = all(corner / vec2u(D3D12_CACHE_TILE_SIDE) == (corner + 1u) / vec2u(D3D12_CACHE_TILE_SIDE));
  if (inside && one_tile && d3d12_cache_serves(texture, mip)) {
    let tag = d3d12_cache_tag(d3d12_tex2d_texel_address_in(texture, mip, slice, corner), corner);
    if (tag != 0u) {
      let at = d3d12_cache_origin(tag);
      let tile = corner - corner % vec2u(D3D12_CACHE_TILE_SIDE);
      // The slot's texel centres are at origin + 0.5: the same fraction as `position`'s.
      let uv = (vec2f(at.xy) + (position - vec2f(tile)) + 0.5) / f32(D3D12_CACHE_LAYER_SIDE);
      *value = d3d12_cache_channels(texture.format, textureSampleLevel(d3d12_cache_atlas, d3d12_cache_sampler, uv, at.z, 0.0));
      hit = true;
    }
  }
  return hit;
}
