// Prelude: the unmapped-access log of gpuValidation.unmappedAccess. Every access, read or write,
// that finds a NULL page-table entry (an unmapped tile of a reserved resource: Tier 2+ reads 0 and
// drops the write, Tier 1 reads D3D12_TIER1_NULL_READ) sets the page's bit in a device-wide bitmap
// and appends a record to the log (the first `capacity` of them; the rest are only counted). Only
// the NULL branch of loads and stores, already the slow one, calls this, behind the dispatch's
// uniform flag. Pipelines of a device without the option compile over unmapped-access-off.wgsl
// instead (src/gpu/prelude.ts says why) and bind a tiny buffer here.
// Composed into compute pipelines (user shaders, the copy kernel, vertex-stage replays) and into
// fragment stages on devices with the option; other stages get unmapped-access-off.wgsl.
// (Composed after common.wgsl; see src/gpu/prelude.ts. src/gpu/unmapped-access-log.ts reads this
// layout with wgsl_reflect.)

// A record is D3D12_UNMAPPED_RECORD_WORDS consecutive words of `words`, at these word offsets.
const D3D12_UNMAPPED_RECORD_VA_LOW: u32 = 0u;
const D3D12_UNMAPPED_RECORD_VA_HIGH: u32 = 1u;
const D3D12_UNMAPPED_RECORD_SUBMISSION: u32 = 2u;
const D3D12_UNMAPPED_RECORD_COMMAND_LIST: u32 = 3u;
const D3D12_UNMAPPED_RECORD_COMMAND_INDEX: u32 = 4u;
// D3D12_ACCESS_READ or D3D12_ACCESS_WRITE.
const D3D12_UNMAPPED_RECORD_ACCESS: u32 = 5u;
const D3D12_UNMAPPED_RECORD_WORDS: u32 = 6u;

// One buffer (one storage binding: group 0 stays within maxStorageBuffersPerShaderStage) holding
// the count, the records and the bitmap. The bitmap comes last, so the buffer grows with the page
// table by a copy that keeps every bit.
struct D3D12UnmappedAccessLog {
  // Accesses recorded, records or not, as a 64-bit count (low word, high word).
  count_low: atomic<u32>,
  count_high: atomic<u32>,
  // Record slots claimed. Claimed only while below `capacity`, so it exceeds it by at most the
  // accesses in flight and never wraps: a slot is never claimed twice (the 64-bit count may wrap).
  records: atomic<u32>,
  // Records `words` holds from word 0.
  capacity: u32,
  // The word of `words` where the bitmap starts (capacity * D3D12_UNMAPPED_RECORD_WORDS): bit
  // (page & 31) of word bitmap + page / 32 is virtual page `page`.
  bitmap: u32,
  words: array<atomic<u32>>,
}

@group(0) @binding(4) var<storage, read_write> d3d12_unmapped: D3D12UnmappedAccessLog;

fn d3d12_record_unmapped(va: vec2u, access: u32) {
  if (d3d12_dispatch.unmapped_access == 0u) {
    return;
  }
  // NULL entries are inside the page table, so va.y is in range and the bitmap (which covers the
  // table) holds the page; the length check only keeps a stale binding harmless.
  let page = d3d12_page_index(va);
  let word = d3d12_unmapped.bitmap + (page >> 5u);
  let bit = 1u << (page & 31u);
  if (word < arrayLength(&d3d12_unmapped.words) && (atomicLoad(&d3d12_unmapped.words[word]) & bit) == 0u) {
    atomicOr(&d3d12_unmapped.words[word], bit);
  }
  if (atomicAdd(&d3d12_unmapped.count_low, 1u) == 0xffffffffu) {
    atomicAdd(&d3d12_unmapped.count_high, 1u);
  }
  if (atomicLoad(&d3d12_unmapped.records) >= d3d12_unmapped.capacity) {
    return;
  }
  let slot = atomicAdd(&d3d12_unmapped.records, 1u);
  if (slot < d3d12_unmapped.capacity) {
    let base = slot * D3D12_UNMAPPED_RECORD_WORDS;
    atomicStore(&d3d12_unmapped.words[base + D3D12_UNMAPPED_RECORD_VA_LOW], va.x);
    atomicStore(&d3d12_unmapped.words[base + D3D12_UNMAPPED_RECORD_VA_HIGH], va.y);
    atomicStore(&d3d12_unmapped.words[base + D3D12_UNMAPPED_RECORD_SUBMISSION], d3d12_dispatch.submission);
    atomicStore(&d3d12_unmapped.words[base + D3D12_UNMAPPED_RECORD_COMMAND_LIST], d3d12_dispatch.command_list);
    atomicStore(&d3d12_unmapped.words[base + D3D12_UNMAPPED_RECORD_COMMAND_INDEX], d3d12_dispatch.command_index);
    atomicStore(&d3d12_unmapped.words[base + D3D12_UNMAPPED_RECORD_ACCESS], access);
  }
}
