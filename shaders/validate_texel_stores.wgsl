// The texel-store scenario (test/shared/texel-stores.ts), over the prelude. Root descriptor 1: a
// texture descriptor; 2: jobs of 32 bytes (mip, slice, x, y, then the value: four f32, or four
// words of raw bits); 3: out, 8 words per job. Root constant 0: the job count; 1: which form stores
// (D3D12_TEST_STORE_*); 2: 1 to only read. Thread t stores job t with that form, writing the status
// to out word 8t (0xffffffff for the forms without one); with root constant 2 set it stores nothing
// and loads the job's texel back with d3d12_tex2d_array_load_bits: the bits to words 8t+4..8t+7, the
// status to 8t+1.

const D3D12_TEST_STORE_ARRAY_CHECKED: u32 = 0u;
const D3D12_TEST_STORE_CHECKED: u32 = 1u;
const D3D12_TEST_STORE_ARRAY: u32 = 2u;
const D3D12_TEST_STORE_PLAIN: u32 = 3u;
const D3D12_TEST_STORE_BITS: u32 = 4u;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x >= d3d12_root_constant(0u)) {
    return;
  }
  let texture = d3d12_tex2d(d3d12_root_descriptor(1u));
  let job = d3d12_address_add(d3d12_root_descriptor(2u), id.x * 32u);
  let at = d3d12_load4(job);
  let raw = d3d12_load4(d3d12_address_add(job, 16u));
  let value = bitcast<vec4f>(raw);
  let out = d3d12_address_add(d3d12_root_descriptor(3u), id.x * 32u);
  if (d3d12_root_constant(2u) != 0u) {
    var loaded = 0u;
    let bits = d3d12_tex2d_array_load_bits(texture, at.x, at.y, at.zw, &loaded);
    d3d12_store(d3d12_address_add(out, 4u), loaded);
    d3d12_store4(d3d12_address_add(out, 16u), bits);
    return;
  }
  var status = 0xffffffffu;
  switch (d3d12_root_constant(1u)) {
    case D3D12_TEST_STORE_ARRAY_CHECKED: {
      d3d12_tex2d_array_store_checked(texture, at.x, at.y, at.zw, value, &status);
    }
    case D3D12_TEST_STORE_CHECKED: {
      d3d12_tex2d_store_checked(texture, at.x, at.zw, value, &status);
    }
    case D3D12_TEST_STORE_ARRAY: {
      d3d12_tex2d_array_store(texture, at.x, at.y, at.zw, value);
    }
    case D3D12_TEST_STORE_PLAIN: {
      d3d12_tex2d_store(texture, at.x, at.zw, value);
    }
    default: {
      d3d12_tex2d_array_store_bits(texture, at.x, at.y, at.zw, raw, &status);
    }
  }
  d3d12_store(out, status);
}
