// Prelude, every stage, and the texture cache's fill kernel (shaders/texture_cache_fill.wgsl): the
// requests a shader makes for pool pages the texture cache does not hold (texture-cache.wgsl says
// what the cache is). A sampling shader that finds no slot for a page reads the page the slow way
// and requests it once (its bit in `pending`); the fill pass at the start of the next submission
// that runs shaders copies the requested pages into slots, and clears the list and the bits.

// Pages one fill pass takes at most: 64 MiB of copies, a few tens of microseconds on a discrete GPU.
// Pages requested past it are dropped, and requested again by the next sample that misses them.
const D3D12_CACHE_REQUEST_CAPACITY: u32 = 1024u;

struct D3D12CacheRequests {
  // Requests made (may pass the capacity: those past it are dropped). With the two words after it,
  // the fill pass's indirect dispatch arguments: one workgroup a request.
  count: atomic<u32>,
  // 1 and 1: the indirect dispatch's y and z.
  groups_y: u32,
  groups_z: u32,
  // The slot the next fill takes first (slots are reused round robin, oldest fill first).
  cursor: u32,
  pages: array<u32, D3D12_CACHE_REQUEST_CAPACITY>,
  // One bit per pool page: requested since the last fill.
  pending: array<atomic<u32>>,
}
