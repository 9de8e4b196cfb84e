/**
 * The layout words the prelude's texture functions read (shaders/prelude/textures.wgsl): a mip's
 * entry and a texture's slice pitch, from the CPU layout (src/memory/tiling.ts). Texture descriptors
 * (src/emulator/texture-descriptor.ts) and the UAV clear kernel's root constants (uav-clear.ts) both
 * take them from here, so the words are derived once.
 */
import type { MipLayout, ResourceLayout } from '../memory/tiling.js';
import { preludeConstant } from './prelude.js';

/** A mip's entry (D3D12_TEX2D_MIPS + 4 * mip): offset (standard: first tile in its slice; packed: byte offset in the slice's tail), width in tiles, row pitch, 1 if packed. */
export function mipEntry(mip: MipLayout): [number, number, number, number] {
  return [mip.packed ? mip.tailByteOffset : mip.firstTileInSlice, mip.widthInTiles, mip.rowPitch, mip.packed ? 1 : 0];
}

/** The slice pitch in the prelude's units (D3D12_TEX2D_SLICE_PITCH_SHIFT): slices start on 4 KiB boundaries. */
export function slicePitchUnits(layout: ResourceLayout): number {
  const unit = 2 ** preludeConstant('D3D12_TEX2D_SLICE_PITCH_SHIFT');
  if (layout.slicePitch % unit !== 0)
    throw new RangeError(`a slice pitch of ${layout.slicePitch} bytes is not a multiple of ${unit}`);
  return layout.slicePitch / unit;
}
