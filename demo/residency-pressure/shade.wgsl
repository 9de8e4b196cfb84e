// The frame's GPU work on visible objects: one workgroup per object reads 256 words spread over all
// of its tiles (a mesh being skinned, a texture being sampled) and checks each against the content
// formula. A heap that is not resident faults here. Root descriptors: 1 the object table (SRV),
// 2 the frame data (UAV). Root constants: 4 frame number, 5 visible count, 6.. visible object indices. Frame data entry k (4 words):
// samples read, mismatches, frame number, a content word (for colour).

const SAMPLES: u32 = 256u;

@compute @workgroup_size(64)
fn shade(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_index) lane: u32) {
  if (group.x >= d3d12_root_constant(5u)) {
    return;
  }
  let k = d3d12_root_constant(6u + group.x);
  let object = object_entry(d3d12_root_descriptor(1u), k);
  let stride = max(object.words / SAMPLES, 1u);
  let frame = d3d12_root_constant(4u);
  var wrong = 0u;
  for (var s = lane; s < SAMPLES; s += 64u) {
    let word = min(s * stride + frame % stride, object.words - 1u);
    if (d3d12_load(d3d12_address_add(object.address, word * 4u)) != pcg(object.seed ^ word)) {
      wrong++;
    }
  }
  let out = d3d12_address_add(d3d12_root_descriptor(2u), k * 16u);
  // Lane 0 writes the entry; every lane's mismatches land in the workgroup's total first.
  wrong_total[lane] = wrong;
  workgroupBarrier();
  if (lane == 0u) {
    var total = 0u;
    for (var i = 0u; i < 64u; i++) {
      total += wrong_total[i];
    }
    d3d12_store(out, SAMPLES);
    d3d12_store(d3d12_address_add(out, 4u), total);
    d3d12_store(d3d12_address_add(out, 8u), frame);
    d3d12_store(d3d12_address_add(out, 12u), d3d12_load(object.address));
  }
}

var<workgroup> wrong_total: array<u32, 64>;
