// The native baseline's fill kernel (native-texture.ts; prepended with vt-common.wgsl): writes every
// texel of one mip of a plain rgba8unorm texture with vt_procedural, so the baseline shows the same
// texels as the virtual texture. One dispatch per mip, the mip bound as a one-level storage view.
// Which procedural mip a level holds follows from its size (VT_SIZE >> mip): a texture that had to
// be smaller than VT_SIZE (native-texture.ts's mipOffset) holds the coarser mips in its levels.

@group(0) @binding(0) var level: texture_storage_2d<rgba8unorm, write>;

@compute @workgroup_size(8, 8)
fn generate(@builtin(global_invocation_id) id: vec3u) {
  let size = textureDimensions(level);
  if (id.x >= size.x || id.y >= size.y) {
    return;
  }
  let mip = countTrailingZeros(VT_SIZE) - countTrailingZeros(size.x);
  textureStore(level, id.xy, unpack4x8unorm(vt_procedural(mip, id.x, id.y)));
}
