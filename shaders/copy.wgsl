// The emulator's copy kernel: every copy a command list records (copyBufferRegion, copyResource,
// copyTiles, copyTextureRegion) runs here, as byte-exact copies between GPU virtual addresses,
// through the page table. So copies see exactly what shaders see: scattered physical pages, NULL
// tiles (reads as the tier says, writes dropped), faults on pages no resource owns.
//
// A copy is a list of jobs of at most D3D12_COPY_JOB_BYTES bytes. Root constants: 0, the first job;
// 1, how many jobs this dispatch runs; 2 and 3, the stride and phase between them (job i of the
// dispatch is first + phase + i * stride). Workgroup y picks the job, workgroup x a block of
// destination words; each invocation writes one destination word, merging with what is there when
// the job covers only part of it. Source and destination of one job must not overlap. Two jobs that
// share a destination word (a partial word at an unaligned boundary) must run in separate
// dispatches: the executor then runs the copy in phases, job i in phase i % phases (stride = phases;
// copyPhases in src/gpu/copy-jobs.ts picks the count).
//
// d3d12_copy_pages is the same copy for the jobs that cannot fault: source and destination each
// inside one page that is RESIDENT when the copy is submitted, both 16-byte aligned, a whole number
// of 16 bytes (src/gpu/page-copies.ts picks them from the page-table mirror's CPU shadow, which is
// exactly what the GPU's table holds for that submission). The CPU resolved both pages to pool word
// indices, so each invocation moves 16 bytes from pool to pool with no translation and no fault path.
// It is an entry point of its own, not a branch of d3d12_copy: its pipeline holds none of
// d3d12_copy's fault and partial-word code (on SwiftShader, which runs untaken branches' code under a
// lane mask, a dead branch with the fault path made a plain vec4 copy 3x slower).

struct D3D12CopyJob {
  dst: vec2u,
  src: vec2u,
  bytes: u32,
  // Jobs of d3d12_copy_pages only: the pool word indices of the first destination and source words
  // (from RESIDENT page-table entries). Unused by d3d12_copy.
  dst_word: u32,
  src_word: u32,
  // Pads the job to 32 bytes.
  unused: u32,
}

const D3D12_COPY_JOB_BYTES: u32 = 65536u;
const D3D12_COPY_WORKGROUP: u32 = 256u;

@group(1) @binding(0) var<storage, read> d3d12_copy_jobs: array<D3D12CopyJob>;

// The `count` (1..4) bytes at the source address va, in the low bytes of a word. Reads only the
// aligned words holding those bytes, so a copy never touches a page outside its source range.
fn d3d12_copy_read(va: vec2u, count: u32) -> u32 {
  let misalignment = va.x & 3u;
  let aligned = vec2u(va.x & ~3u, va.y);
  var bytes = d3d12_load(aligned) >> (misalignment * 8u);
  if (misalignment != 0u && misalignment + count > 4u) {
    bytes |= d3d12_load(d3d12_address_add(aligned, 4u)) << (32u - misalignment * 8u);
  }
  return bytes;
}

@compute @workgroup_size(D3D12_COPY_WORKGROUP)
fn d3d12_copy(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_id) local: vec3u) {
  if (group.y >= d3d12_root_constant(1u)) {
    return;
  }
  let job = d3d12_copy_jobs[d3d12_root_constant(0u) + d3d12_root_constant(3u) + group.y * d3d12_root_constant(2u)];
  // Destination word w (counted from the word holding the first destination byte) holds job bytes
  // [4w - head, 4w - head + 4), clipped to [0, job.bytes).
  let head = job.dst.x & 3u;
  let word = group.x * D3D12_COPY_WORKGROUP + local.x;
  let first = max(i32(word * 4u) - i32(head), 0);
  let end = min(i32(word * 4u + 4u) - i32(head), i32(job.bytes));
  if (first >= end) {
    return;
  }
  let count = u32(end - first);
  // Where those bytes sit in the destination word.
  let position = u32(first) + head - word * 4u;
  let value = d3d12_copy_read(d3d12_address_add(job.src, u32(first)), count) << (position * 8u);
  let dst_word = d3d12_address_add(vec2u(job.dst.x & ~3u, job.dst.y), word * 4u);
  if (count == 4u) {
    d3d12_store(dst_word, value);
    return;
  }
  // A partial word: keep the destination's other bytes.
  d3d12_store_masked(dst_word, value, ((1u << (count * 8u)) - 1u) << (position * 8u));
}

// Jobs [first, first + count) of the jobs buffer (root constants 0 and 1), 16 bytes an invocation:
// workgroup y picks the job, workgroup x a block of D3D12_COPY_WORKGROUP 16-byte pieces.
@compute @workgroup_size(D3D12_COPY_WORKGROUP)
fn d3d12_copy_pages(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_id) local: vec3u) {
  if (group.y >= d3d12_root_constant(1u)) {
    return;
  }
  let job = d3d12_copy_jobs[d3d12_root_constant(0u) + group.y];
  let word = (group.x * D3D12_COPY_WORKGROUP + local.x) * 4u;
  if (word < job.bytes / 4u) {
    d3d12_pool_write4(job.dst_word + word, d3d12_pool_read4(job.src_word + word));
  }
}
