// The vertex-stage check of gpuValidation: a draw's vertex shader, run once more as a compute
// dispatch over the compute prelude just before the draw, so that its memory accesses are checked
// and its faults recorded (WebGPU vertex shaders cannot write the fault log). The user's vertex
// entry point is compiled as a plain function (its stage and IO attributes removed, see
// src/gpu/entry-points.ts); D3D12_VERTEX_CALL is replaced by a call of it with `d3d12_vertex_index`
// and `d3d12_instance_index` in place of its builtins. Its result is discarded. Page-table entries do not
// change inside a submission, so the replay sees exactly the mappings the draw sees.

@compute @workgroup_size(64)
fn d3d12_vertex_replay(@builtin(global_invocation_id) d3d12_id: vec3u) {
  // vertex count, instance count, start vertex, start instance (drawInstanced's arguments).
  let d3d12_args = d3d12_dispatch.draw;
  for (var d3d12_i = d3d12_id.y; d3d12_i < d3d12_args.y; d3d12_i += D3D12_VERTEX_REPLAY_INSTANCE_STRIDE) {
    for (var d3d12_v = d3d12_id.x; d3d12_v < d3d12_args.x; d3d12_v += D3D12_VERTEX_REPLAY_VERTEX_STRIDE) {
      let d3d12_vertex_index = d3d12_args.z + d3d12_v;
      let d3d12_instance_index = d3d12_args.w + d3d12_i;
      _ = D3D12_VERTEX_CALL;
      // A bad page-handle offset of this vertex (shaders/prelude/page-handle.wgsl).
      d3d12_flush_page_misuse();
    }
  }
}

// Invocations per dispatch along x (64 × WebGPU's minimum 65535 workgroups) and y (65535).
const D3D12_VERTEX_REPLAY_VERTEX_STRIDE: u32 = 4194240u;
const D3D12_VERTEX_REPLAY_INSTANCE_STRIDE: u32 = 65535u;
