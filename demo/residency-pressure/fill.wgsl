// Writes an object's content (its words, each pcg(seed ^ index)) when it is loaded: the upload a
// streaming system would do. Root descriptor 1: the object table (a root SRV). Root constants:
// 2 object index, 3 workgroups per row.

@compute @workgroup_size(64)
fn fill(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_index) lane: u32) {
  let object = object_entry(d3d12_root_descriptor(1u), d3d12_root_constant(2u));
  let word = (group.y * d3d12_root_constant(3u) + group.x) * 64u + lane;
  if (word >= object.words) {
    return;
  }
  d3d12_store(d3d12_address_add(object.address, word * 4u), pcg(object.seed ^ word));
}
