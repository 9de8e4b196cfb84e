// ---- Descriptors: resource binding as D3D12 shaders see it -------------------------------------
//
// A shader names a resource by register, as HLSL does: d3d12_t(register, space) for a shader
// resource view (t#), d3d12_u for an unordered access view (u#), d3d12_b for a constant buffer (b#),
// d3d12_s for a sampler (s#). Those four functions are written for each pipeline from its root
// signature (src/gpu/root-signature-wgsl.ts): they answer where the register's view is, a
// D3D12Binding: a descriptor in a descriptor heap (a table of the root signature), a root
// descriptor (a buffer address in the root arguments), root constants, or a static sampler.
// The view functions below then read the descriptor (src/emulator/descriptor-encoding.ts writes
// them) and access memory through the page table like every other access.
//
// Faults (with gpuValidation): reading a descriptor faults as any read does (an evicted descriptor
// heap is an absent page, the report names the heap and the index); a register the root signature
// does not bind, a descriptor never written, a descriptor of another kind than the function reads,
// and a descriptor whose resource was released each record a fault of their own at the
// descriptor's address (src/emulator/fault-report.ts names the descriptor heap and index).

// Bytes per descriptor (GetDescriptorHandleIncrementSize): CBV/SRV/UAV, sampler.
const D3D12_CBV_SRV_UAV_DESCRIPTOR_BYTES: u32 = 320u;
const D3D12_SAMPLER_DESCRIPTOR_BYTES: u32 = 64u;

// Word offsets in a CBV/SRV/UAV descriptor. The first eight words are the view; a texture view's
// texture descriptor (textures.wgsl's layout, D3D12_TEX2D_DESCRIPTOR_WORDS words) follows them.
const D3D12_DESC_KIND: u32 = 0u;
const D3D12_DESC_RESOURCE: u32 = 1u;
// Buffer views and CBVs: the view's first byte (2 words).
const D3D12_DESC_ADDRESS: u32 = 2u;
// Buffer views: elements; CBVs: bytes; texture views: first mip | mip count << 16 (UAV: the mip).
const D3D12_DESC_COUNT: u32 = 4u;
// Buffer views: bytes per element; texture views: first array slice | slice count << 16.
const D3D12_DESC_STRIDE: u32 = 5u;
// The view's element or texel format code (D3D12_TEXEL_*) | the component mapping << 8.
const D3D12_DESC_FORMAT: u32 = 6u;
// Texture SRVs: ResourceMinLODClamp (f32 bits).
const D3D12_DESC_MIN_LOD: u32 = 7u;
const D3D12_DESC_TEXTURE: u32 = 8u;

// Descriptor kinds (word 0, low byte); 0 is a descriptor never written.
const D3D12_DESC_KIND_MASK: u32 = 0xffu;
// Set in word 0 for a NULL descriptor (a view made with no resource): reads give 0, writes drop.
const D3D12_DESC_NULL: u32 = 0x100u;
const D3D12_DESC_SRV_TYPED_BUFFER: u32 = 1u;
const D3D12_DESC_SRV_RAW_BUFFER: u32 = 2u;
const D3D12_DESC_SRV_STRUCTURED_BUFFER: u32 = 3u;
const D3D12_DESC_SRV_TEXTURE2D: u32 = 4u;
const D3D12_DESC_SRV_TEXTURE2DARRAY: u32 = 5u;
const D3D12_DESC_UAV_TYPED_BUFFER: u32 = 6u;
const D3D12_DESC_UAV_RAW_BUFFER: u32 = 7u;
const D3D12_DESC_UAV_STRUCTURED_BUFFER: u32 = 8u;
const D3D12_DESC_UAV_TEXTURE2D: u32 = 9u;
const D3D12_DESC_UAV_TEXTURE2DARRAY: u32 = 10u;
const D3D12_DESC_CBV: u32 = 11u;
const D3D12_DESC_SAMPLER: u32 = 12u;

// Word offsets in a sampler descriptor (and a static sampler, as the root signature's code holds it).
const D3D12_SAMPLER_FILTER: u32 = 1u;
const D3D12_SAMPLER_ADDRESS: u32 = 2u;
const D3D12_SAMPLER_COMPARISON: u32 = 3u;
const D3D12_SAMPLER_MIP_LOD_BIAS: u32 = 4u;
const D3D12_SAMPLER_MAX_ANISOTROPY: u32 = 5u;
const D3D12_SAMPLER_MIN_LOD: u32 = 6u;
const D3D12_SAMPLER_MAX_LOD: u32 = 7u;
const D3D12_SAMPLER_BORDER: u32 = 8u;
// Filter bits: linear minification, magnification, mip; anisotropic (filtered as linear); comparison.
const D3D12_FILTER_MIN_LINEAR: u32 = 1u;
const D3D12_FILTER_MAG_LINEAR: u32 = 2u;
const D3D12_FILTER_MIP_LINEAR: u32 = 4u;
const D3D12_FILTER_ANISOTROPIC: u32 = 8u;
const D3D12_FILTER_COMPARISON: u32 = 16u;
// Address modes, 4 bits per axis (u, v, w).
const D3D12_ADDRESS_WRAP: u32 = 1u;
const D3D12_ADDRESS_MIRROR: u32 = 2u;
const D3D12_ADDRESS_CLAMP: u32 = 3u;
const D3D12_ADDRESS_BORDER: u32 = 4u;
const D3D12_ADDRESS_MIRROR_ONCE: u32 = 5u;
// Comparison functions, D3D12_COMPARISON_FUNC's values.
const D3D12_COMPARISON_NEVER: u32 = 1u;
const D3D12_COMPARISON_LESS: u32 = 2u;
const D3D12_COMPARISON_EQUAL: u32 = 3u;
const D3D12_COMPARISON_LESS_EQUAL: u32 = 4u;
const D3D12_COMPARISON_GREATER: u32 = 5u;
const D3D12_COMPARISON_NOT_EQUAL: u32 = 6u;
const D3D12_COMPARISON_GREATER_EQUAL: u32 = 7u;
const D3D12_COMPARISON_ALWAYS: u32 = 8u;

// Descriptor faults (fault kinds after common.wgsl's), recorded at the descriptor's address; the
// entry holds the descriptor's word 0. An unbound register's fault records (register, space) as its
// address and the binding's slot as its entry; so does a mismatch at a root binding (no descriptor).
const D3D12_FAULT_UNBOUND_REGISTER: u32 = 7u;
const D3D12_FAULT_DESCRIPTOR_UNINITIALIZED: u32 = 8u;
const D3D12_FAULT_DESCRIPTOR_MISMATCH: u32 = 9u;
const D3D12_FAULT_DESCRIPTOR_RELEASED: u32 = 10u;
// Register classes, as an unbound register's fault names them.
const D3D12_REGISTER_T: u32 = 0u;
const D3D12_REGISTER_S: u32 = 1u;
const D3D12_REGISTER_U: u32 = 2u;
const D3D12_REGISTER_B: u32 = 3u;

// What a register resolves to (the root signature's code makes them).
const D3D12_BINDING_NONE: u32 = 0u;
// address: the descriptor's, in a descriptor heap.
const D3D12_BINDING_DESCRIPTOR: u32 = 1u;
// address: the buffer's (a root CBV, SRV or UAV).
const D3D12_BINDING_ROOT_DESCRIPTOR: u32 = 2u;
// address.x: the first root argument word, address.y: how many (32-bit root constants).
const D3D12_BINDING_ROOT_CONSTANTS: u32 = 3u;
// address.x: the static sampler's index.
const D3D12_BINDING_STATIC_SAMPLER: u32 = 4u;

struct D3D12Binding {
  kind: u32,
  address: vec2u,
  // For faults: the register's number (bits 0-23) and class (D3D12_REGISTER_*, bits 24-25).
  slot: u32,
}

// The GPU address of descriptor `index` of the table in root arguments [word, word + 1], `stride`
// bytes apart. An index past any heap (a heap holds at most 2^20 descriptors) gives an address past
// the address space, which faults as an access no resource owns.
fn d3d12_table_entry(word: u32, index: u32, stride: u32) -> vec2u {
  let table = vec2u(d3d12_root_word(word), d3d12_root_word(word + 1u));
  if (index >= D3D12_MAX_HEAP_DESCRIPTORS) {
    return vec2u(0xffffffffu);
  }
  return d3d12_address_add(table, index * stride);
}

// The most descriptors a heap holds (D3D12 guarantees 1,000,000): index * stride stays below 2^32.
const D3D12_MAX_HEAP_DESCRIPTORS: u32 = 1u << 20u;

// A register the root signature does not bind: a fault naming it, then NONE.
fn d3d12_unbound(kind: u32, index: u32, space: u32) -> D3D12Binding {
  return D3D12Binding(D3D12_BINDING_NONE, vec2u(index, space), (index & 0xffffffu) | (kind << 24u));
}

// The first eight words of the descriptor a binding names (zero for other bindings), read through
// the page table: an evicted descriptor heap faults here, at the descriptor's address.
fn d3d12_descriptor_head(binding: D3D12Binding) -> array<vec4u, 2> {
  if (binding.kind != D3D12_BINDING_DESCRIPTOR) {
    return array<vec4u, 2>(vec4u(0u), vec4u(0u));
  }
  // Not readable (its heap evicted, or no heap there): one fault for the descriptor, not one a word.
  if ((d3d12_page_entry(binding.address) & D3D12_PTE_KIND_MASK) != D3D12_PTE_RESIDENT) {
    _ = d3d12_load(binding.address);
    return array<vec4u, 2>(vec4u(0u), vec4u(0u));
  }
  return array<vec4u, 2>(d3d12_load4(binding.address), d3d12_load4(d3d12_address_add(binding.address, 16u)));
}

// Checks a descriptor of kind `kind` (or `other_kind`) for use: records the fault and answers false
// when the register is unbound, the descriptor never written or of another kind, or its resource
// released (its first page has no owner: the resource's address range was freed).
fn d3d12_descriptor_usable(binding: D3D12Binding, head: array<vec4u, 2>, kind: u32, other_kind: u32) -> bool {
  if (binding.kind == D3D12_BINDING_NONE) {
    d3d12_record_fault(binding.address, D3D12_FAULT_UNBOUND_REGISTER, binding.slot);
    return false;
  }
  // A root descriptor, root constants or a static sampler where a descriptor's view is read.
  if (binding.kind != D3D12_BINDING_DESCRIPTOR) {
    d3d12_record_fault(binding.address, D3D12_FAULT_DESCRIPTOR_MISMATCH, binding.slot);
    return false;
  }
  // A descriptor heap evicted (or a table outside every heap): reading the head recorded that fault.
  if ((d3d12_page_entry(binding.address) & D3D12_PTE_KIND_MASK) != D3D12_PTE_RESIDENT) {
    return false;
  }
  let word0 = head[0].x;
  let found = word0 & D3D12_DESC_KIND_MASK;
  if (found == 0u) {
    d3d12_record_fault(binding.address, D3D12_FAULT_DESCRIPTOR_UNINITIALIZED, word0);
    return false;
  }
  if (found != kind && found != other_kind) {
    // The entry holds what was found (bits 0-8) and what the shader reads (bits 16-23, 24-31).
    d3d12_record_fault(binding.address, D3D12_FAULT_DESCRIPTOR_MISMATCH, (word0 & 0x1ffu) | (kind << 16u) | (other_kind << 24u));
    return false;
  }
  return true;
}

// After d3d12_descriptor_usable: whether the view's resource still owns `first_byte` (its first
// page); a released resource's pages have no owner. Records the fault at the descriptor.
fn d3d12_descriptor_resource_live(binding: D3D12Binding, word0: u32, first_byte: vec2u) -> bool {
  if ((d3d12_page_entry(first_byte) & D3D12_PTE_KIND_MASK) == D3D12_PTE_UNOWNED) {
    d3d12_record_fault(binding.address, D3D12_FAULT_DESCRIPTOR_RELEASED, word0);
    return false;
  }
  return true;
}

// The component mapping of a view (D3D12_ENCODE_SHADER_4_COMPONENT_MAPPING): each of the four
// outputs takes a component of `value` (0-3), or 0 (4), or 1 (5).
fn d3d12_component_mapping(mapping: u32, value: vec4f) -> vec4f {
  var out: vec4f;
  for (var i = 0u; i < 4u; i++) {
    let source = (mapping >> (3u * i)) & 7u;
    out[i] = select(select(0.0, 1.0, source == 5u), value[min(source, 3u)], source < 4u);
  }
  return out;
}

fn d3d12_component_mapping_bits(mapping: u32, value: vec4u) -> vec4u {
  var out: vec4u;
  for (var i = 0u; i < 4u; i++) {
    let source = (mapping >> (3u * i)) & 7u;
    out[i] = select(select(0u, 1u, source == 5u), value[min(source, 3u)], source < 4u);
  }
  return out;
}
