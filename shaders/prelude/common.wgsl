// The d3d12-webgpu prelude: prepended to every pipeline the emulator creates, user shaders and the
// emulator's own kernels alike. It gives WGSL D3D12's view of memory: 64-bit GPU virtual addresses
// (vec2u: low, high 32 bits), translated through the emulated page table on every access, with the
// tiled-resources tier's semantics, root constants, and texel access to tiled textures.
//
// It is composed from the files of shaders/prelude/ (src/gpu/prelude.ts):
//   compute pipelines:  common, cache-requests, bindings-compute, cache-request, a pool view with
//                       its writes, unmapped-access, loads, page-handle, texel-formats, textures,
//                       texture-cache, descriptors and views, stores, texture-stores
//   vertex stage:       common, cache-requests, bindings-vertex, a pool view, unmapped-access-off,
//                       loads, page-handle, texel-formats, textures, texture-cache, descriptors
//                       and views
//   fragment stage:     as the vertex stage with bindings-fragment and cache-request, and unmapped-access on a
//                       device with gpuValidation.unmappedAccess
// The pool view is pool-words.wgsl, or pool-vec4.wgsl for code that makes 16-byte accesses.
// (vertex shaders cannot write storage buffers, so graphics stages read memory only; the vertex
// stage records nothing itself, its compute replay does).
//
// Everything here is named d3d12_* / D3D12_*; user code must not use those names, nor bind group 0.
// TypeScript reads the constants and struct layouts below with wgsl_reflect (src/gpu/prelude.ts);
// they are written only here.

// ---- Page-table entries: one u32 per 64 KiB virtual page ----------------------------------------

// The low bits say what the page is; the rest is the payload.
const D3D12_PTE_KIND_MASK: u32 = 3u;
const D3D12_PTE_PAYLOAD_SHIFT: u32 = 2u;
// No resource owns the page: any access is a fault (out of bounds, use after release).
const D3D12_PTE_UNOWNED: u32 = 0u;
// A NULL tile of a reserved resource: reads return 0 (Tier 2+) or D3D12_TIER1_NULL_READ, writes
// are discarded; no fault.
const D3D12_PTE_NULL: u32 = 1u;
// Backed by a physical page. The entry is the index of the page's first word in the pool (one buffer
// for both segments; a multiple of D3D12_WORDS_PER_PAGE, so its low 14 bits are free) with the kind
// in bits 0-1 and the segment in bit 2: a word's index is the entry with its low bits replaced by the
// word's offset in the page, one shift and one insertBits (d3d12_word_index) instead of two shifts,
// a mask and a multiply. Pages below 2^18: both pools together up to 16 GiB, what a u32 word index
// reaches anyway.
const D3D12_PTE_RESIDENT: u32 = 2u;
// Mapped to a heap whose memory is not resident (evicted or released); payload: the heap id.
// Any access is a fault naming the heap.
const D3D12_PTE_ABSENT: u32 = 3u;
// In a RESIDENT entry: set for a NON_LOCAL page (system memory), clear for LOCAL. No access reads it
// (the word index already says where the page is); fault reports and the tile-mapping check do.
const D3D12_PTE_SEGMENT_BIT: u32 = 4u;
// In a RESIDENT entry: the bits of the page's first word index, and the largest page index.
const D3D12_PTE_WORD_BASE_MASK: u32 = 0xffffc000u;
const D3D12_PTE_PAGE_LIMIT: u32 = 0x3ffffu;

// 64 KiB pages of 4-byte words (the tile size; src/memory/tiling.ts's TILE_SIZE is pinned to it by a test).
const D3D12_PAGE_SHIFT: u32 = 16u;
const D3D12_PAGE_BYTES: u32 = 1u << D3D12_PAGE_SHIFT;
const D3D12_PAGE_OFFSET_MASK: u32 = D3D12_PAGE_BYTES - 1u;
const D3D12_WORDS_PER_PAGE: u32 = D3D12_PAGE_BYTES / 4u;
// Addresses are 40 bits (the emulated address space, MaxGPUVirtualAddressBitsPerProcess): the high
// word of a valid address is below D3D12_VA_HIGH_LIMIT.
const D3D12_VA_BITS: u32 = 40u;
const D3D12_VA_HIGH_LIMIT: u32 = 1u << (D3D12_VA_BITS - 32u);

// What a Tier 1 read of a NULL tile returns. Tier 1 leaves such reads undefined; a fixed, visible
// value makes code that silently relies on Tier 2's zeros show itself.
const D3D12_TIER1_NULL_READ: u32 = 0xdeadbeefu;

// ---- Faults ---------------------------------------------------------------------------------------

// Fault kinds, as logged.
const D3D12_FAULT_READ_UNOWNED: u32 = 1u;
const D3D12_FAULT_WRITE_UNOWNED: u32 = 2u;
const D3D12_FAULT_READ_ABSENT: u32 = 3u;
const D3D12_FAULT_WRITE_ABSENT: u32 = 4u;
const D3D12_FAULT_MISALIGNED: u32 = 5u;
// Through a page handle, at an offset outside its page or not aligned to the access (page-handle.wgsl).
const D3D12_FAULT_PAGE_OFFSET: u32 = 6u;

struct D3D12FaultRecord {
  va_low: u32,
  va_high: u32,
  kind: u32,
  // The page-table entry seen (for ABSENT: holds the heap id).
  entry: u32,
  command_list: u32,
  command_index: u32,
}

struct D3D12FaultLog {
  // Records taken (each fault of compute work, the last fault of each fragment), including those
  // past the capacity that could not be written.
  count: atomic<u32>,
  capacity: u32,
  // Faults seen but not taken as records: a fragment's faults before its last.
  more: atomic<u32>,
  // Texture mirrors' tiles that stores made stale (texture-mirrors.wgsl): how many were reported
  // (past the capacity only counted), and their validity words' indices. Read with the log, so the
  // CPU fills them again.
  mirror_dirty: atomic<u32>,
  mirror_dirty_tiles: array<u32, D3D12_MIRROR_DIRTY_CAPACITY>,
  records: array<D3D12FaultRecord>,
}

// Stale mirror tiles one fault-log read reports (more are counted: the CPU then refills them all).
const D3D12_MIRROR_DIRTY_CAPACITY: u32 = 256u;

// ---- Unmapped accesses (gpuValidation.unmappedAccess; see unmapped-access.wgsl) -----------------

// What an access to a NULL tile did, as recorded.
const D3D12_ACCESS_READ: u32 = 0u;
const D3D12_ACCESS_WRITE: u32 = 1u;

// ---- Per-dispatch constants -------------------------------------------------------------------

// The emulator's root signature: root parameter 0 is D3D12_ROOT_CONSTANT_COUNT 32-bit constants;
// parameters 1 to D3D12_ROOT_DESCRIPTOR_COUNT are root descriptors (CBV, SRV or UAV: a GPU virtual
// address each, set with Set*RootConstantBufferView / ShaderResourceView / UnorderedAccessView).
const D3D12_ROOT_CONSTANT_COUNT: u32 = 64u;
const D3D12_ROOT_DESCRIPTOR_COUNT: u32 = 8u;
// The root arguments of a dispatch or draw, as words. Without a root signature (the fixed one
// above) the constants are words 0-63 and the root descriptors words 64-79, two per address (low,
// high). With a root signature its parameters follow each other (src/d3d12/root-signature.ts): a
// constant one word, a root descriptor or a descriptor table (its GPU handle) two; D3D12's limit
// of 64 DWORDs keeps that within 128 words.
const D3D12_ROOT_ARGUMENT_WORDS: u32 = 128u;
// D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT: vertex buffer views a draw reads.
const D3D12_IA_VERTEX_BUFFERS: u32 = 32u;
const D3D12_ROOT_DESCRIPTOR_WORD: u32 = 64u;

struct D3D12DispatchInfo {
  root: array<vec4u, D3D12_ROOT_ARGUMENT_WORDS / 4u>,
  // Which command list and which of its commands this dispatch is, for fault records.
  command_list: u32,
  command_index: u32,
  tiled_resources_tier: u32,
  // 1 when gpuValidation is on: faults are recorded.
  validation: u32,
  // Draws (and their vertex-stage replays): vertex count, instance count, start vertex, start
  // instance; zero elsewhere. An indexed draw runs its index count of vertices from 0.
  draw: vec4u,
  // Indexed draws (drawIndexedInstanced): start index, BaseVertexLocation (i32 bits), bytes per
  // index (2 or 4; 0 for a draw without indices), the index buffer view's size in bytes.
  draw_indexed: vec4u,
  // The index buffer view's address (x, y).
  index_buffer: vec4u,
  // The input assembler's vertex buffer views the pipeline's input layout reads, in its slots' order
  // (input-assembler.wgsl): address (x, y), size in bytes, stride.
  vertex_buffers: array<vec4u, D3D12_IA_VERTEX_BUFFERS>,
  // 1 when gpuValidation.unmappedAccess is on: accesses to NULL tiles are recorded.
  unmapped_access: u32,
  // The submission this dispatch belongs to (numbered per device), for unmapped-access records.
  submission: u32,
  // 1 when the device's texture cache has its atlas (texture-cache.wgsl); 0 when it is off.
  texture_cache: u32,
  // Texture mirrors (texture-mirrors.wgsl): the dispatch's resolution set, as the index + 1 of its
  // first record in d3d12_mirror_resolved (0: none, nothing is resolved); the table entries of the mirrors
  // bound at slots 0-3 (D3D12_MIRROR_NONE for an empty slot); the four descriptor addresses the set
  // resolves (x, y then z, w of each vector; D3D12_MIRROR_NONE twice for none).
  mirror_set: u32,
  mirror_ids: vec4u,
  mirror_addresses: array<vec4u, 2>,
}


// ---- Root constants ----------------------------------------------------------------------------

// Word `index` of the root arguments.
fn d3d12_root_word(index: u32) -> u32 {
  return d3d12_dispatch.root[index / 4u][index % 4u];
}

fn d3d12_root_constant(index: u32) -> u32 {
  return d3d12_root_word(index);
}

// The GPU virtual address of root descriptor `root_parameter_index` (1 to D3D12_ROOT_DESCRIPTOR_COUNT)
// of a pipeline without a root signature: what D3D12 passes to a shader as a root CBV, SRV or UAV.
fn d3d12_root_descriptor(root_parameter_index: u32) -> vec2u {
  let word = D3D12_ROOT_DESCRIPTOR_WORD + 2u * (root_parameter_index - 1u);
  let pair = d3d12_dispatch.root[word / 4u];
  return select(pair.xy, pair.zw, (word & 2u) == 2u);
}

// ---- Addresses ---------------------------------------------------------------------------------

// va + bytes, carrying into the high word. The carry stays: without it, an offset past a 4 GiB line
// would wrap to an address below the line, possibly inside another resource, and an out-of-bounds
// access would read that resource instead of faulting. It costs scalar loads about 2% (H200, a WGSL
// harness: 1.81x against 1.77x direct).
fn d3d12_address_add(va: vec2u, bytes: u32) -> vec2u {
  let low = va.x + bytes;
  return vec2u(low, va.y + select(0u, 1u, low < va.x));
}

// The virtual page (page-table index) of va. A high word at or past D3D12_VA_HIGH_LIMIT gives a
// page at or past 2^24, past every table (the address space has 2^24 pages), without a branch.
fn d3d12_page_index(va: vec2u) -> u32 {
  return (va.x >> D3D12_PAGE_SHIFT) | (min(va.y, D3D12_VA_HIGH_LIMIT) << (32u - D3D12_PAGE_SHIFT));
}

// The entry of va's page; UNOWNED past the table's end. No branch: the load is clamped into the
// table and always made, and select() picks UNOWNED past the end (entries past the end are
// UNOWNED, src/gpu/page-table.ts). Branches here and before the pool read (loads.wgsl) cost scalar
// loads 2.56x direct against 1.88x without either (H200, 256 MiB, a WGSL harness, one session): the
// compiler cannot start the next access's loads before a branch resolves. Why not a guard entry at the table's end with the index clamped by the
// robustness pass: WebGPU lets an out-of-bounds load return any value of the buffer, so only an
// explicit clamp guarantees which entry is read.
fn d3d12_page_entry(va: vec2u) -> u32 {
  let page = d3d12_page_index(va);
  let entries = arrayLength(&d3d12_page_table);
  return select(D3D12_PTE_UNOWNED, d3d12_page_table[min(page, entries - 1u)], page < entries);
}

// The word index inside the entry's pool of the 4-byte word at va (entry is RESIDENT; for any other
// entry an index that the pool accessors keep in bounds, to be discarded).
fn d3d12_word_index(entry: u32, va: vec2u) -> u32 {
  // The entry with its low 14 bits (kind, segment) replaced by the word's offset in the page: one
  // shift and one bit-field insert.
  return insertBits(entry, va.x >> 2u, 0u, D3D12_PAGE_SHIFT - 2u);
}

// Whether an access of `size` bytes (a power of two up to 16) at va goes the fast way: the entry
// RESIDENT and va a multiple of size, tested at once (one xor, or, and and compare).
fn d3d12_fast_access(entry: u32, va: vec2u, size: u32) -> bool {
  return (((entry ^ D3D12_PTE_RESIDENT) & D3D12_PTE_KIND_MASK) | (va.x & (size - 1u))) == 0u;
}
