// Prelude, vertex stage and its compute replay: the input assembler. Vertices and indices are fetched
// through the page table from the views iaSetVertexBuffers and iaSetIndexBuffer set (their addresses,
// sizes and strides are the draw's constants, D3D12DispatchInfo), as D3D12's input assembler reads
// them: an index or element outside its view reads 0 (D3D's out-of-bounds rule), as do NULL tiles
// (Tier 2+); an element may sit at any byte of its buffer. A pipeline's input layout becomes
// d3d12_vertex_input (src/gpu/input-layout-wgsl.ts), which calls the functions here.

// The vertex the draw's `vertex_index` reads: for an indexed draw, the index at StartIndexLocation +
// vertex_index plus BaseVertexLocation (**Chosen** as SV_VertexID: the vertex fetched; D3D12 leaves
// whether SV_VertexID holds the base vertex to the driver); otherwise vertex_index itself.
fn d3d12_ia_vertex(vertex_index: u32) -> u32 {
  let indexed = d3d12_dispatch.draw_indexed;
  if (indexed.z == 0u) {
    return vertex_index;
  }
  let offset = (indexed.x + vertex_index) * indexed.z;
  var index = 0u;
  if (offset < indexed.w && indexed.w - offset >= indexed.z) {
    index = d3d12_ia_bytes(d3d12_address_add(d3d12_dispatch.index_buffer.xy, offset), indexed.z);
  }
  return index + indexed.y;
}

// The `count` bytes (1 to 4) at va, in the low bits of a word, whatever va's alignment.
fn d3d12_ia_bytes(va: vec2u, count: u32) -> u32 {
  let misalignment = va.x & 3u;
  let aligned = vec2u(va.x & ~3u, va.y);
  var bytes = d3d12_load(aligned) >> (misalignment * 8u);
  if (misalignment != 0u && misalignment + count > 4u) {
    bytes |= d3d12_load(d3d12_address_add(aligned, 4u)) << (32u - misalignment * 8u);
  }
  return select(bytes, extractBits(bytes, 0u, count * 8u), count < 4u);
}

// The words of `bytes` (4 to 16) at byte `offset` of element `element` of vertex buffer `buffer`
// (the input layout's slots in order); 0 when any of them lies outside the view.
fn d3d12_ia_fetch(buffer: u32, element: u32, offset: u32, bytes: u32) -> vec4u {
  let view = d3d12_dispatch.vertex_buffers[buffer];
  let start = element * view.w + offset;
  var raw = vec4u(0u);
  if (view.w != 0u && element > (0xffffffffu - offset) / view.w) {
    return raw;
  }
  if (start >= view.z || view.z - start < bytes) {
    return raw;
  }
  for (var i = 0u; i < bytes / 4u; i++) {
    raw[i] = d3d12_ia_bytes(d3d12_address_add(view.xy, start + 4u * i), 4u);
  }
  return raw;
}

// Two signed 16-bit components of a word.
fn d3d12_ia_sext16(word: u32) -> vec2i {
  let value = bitcast<i32>(word);
  return vec2i(extractBits(value, 0u, 16u), extractBits(value, 16u, 16u));
}
