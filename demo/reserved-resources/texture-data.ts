/**
 * The reserved texture's texels, as D3D12ReservedResources generates them: every mip is a red and
 * white checkerboard of 8 × 8 cells (a cell at least one texel, so the 4 × 4, 2 × 2 and 1 × 1 mips
 * alternate texel by texel), red where the cell's column and row have the same parity. The scene
 * uploads generateTextureData's bytes; the browser test's CPU model reads checkerTexel. Both come
 * from one function, so they cannot disagree.
 */

export const TEXTURE_WIDTH = 1024;
export const TEXTURE_HEIGHT = 1024;
export const TEXTURE_PIXEL_SIZE_IN_BYTES = 4;

/** Mips down to 1 × 1: 11 for 1024 × 1024. */
export function mipLevelsOf(width: number, height: number): number {
  let levels = 0;
  for (let w = width, h = height; w > 0 && h > 0; w >>= 1, h >>= 1) levels++;
  return levels;
}

export const MIP_LEVELS = mipLevelsOf(TEXTURE_WIDTH, TEXTURE_HEIGHT);

export const RED: readonly number[] = [0xff, 0x00, 0x00, 0xff];
export const WHITE: readonly number[] = [0xff, 0xff, 0xff, 0xff];

/** Mip `mip`'s width and height in texels. */
export function mipSize(mip: number): { width: number; height: number } {
  return { width: TEXTURE_WIDTH >> mip, height: TEXTURE_HEIGHT >> mip };
}

/**
 * Texel (x, y) of mip `mip` as R, G, B, A bytes. The sample walks the mip's bytes: a cell is an
 * eighth of a row's bytes wide (at least one texel's 4 bytes) and an eighth of the rows high (at
 * least one row).
 */
export function checkerTexel(mip: number, x: number, y: number): readonly number[] {
  const { width, height } = mipSize(mip);
  const rowPitch = width * TEXTURE_PIXEL_SIZE_IN_BYTES;
  const cellPitch = Math.max(rowPitch >> 3, TEXTURE_PIXEL_SIZE_IN_BYTES);
  const cellHeight = Math.max(height >> 3, 1);
  const i = Math.floor((x * TEXTURE_PIXEL_SIZE_IN_BYTES) / cellPitch);
  const j = Math.floor(y / cellHeight);
  return i % 2 === j % 2 ? RED : WHITE;
}

/**
 * GenerateTextureData(firstMip, mipCount): mips [firstMip, firstMip + mipCount) one after another,
 * each tightly packed (row pitch width × 4), as the D3D12_SUBRESOURCE_DATA of updateSubresources
 * point into it.
 */
export function generateTextureData(firstMip: number, mipCount: number): Uint8Array {
  let bytes = 0;
  for (let n = 0; n < mipCount; n++) {
    const { width, height } = mipSize(firstMip + n);
    bytes += width * height * TEXTURE_PIXEL_SIZE_IN_BYTES;
  }
  const data = new Uint8Array(bytes);
  let index = 0;
  for (let n = 0; n < mipCount; n++) {
    const mip = firstMip + n;
    const { width, height } = mipSize(mip);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        data.set(checkerTexel(mip, x, y), index);
        index += TEXTURE_PIXEL_SIZE_IN_BYTES;
      }
  }
  return data;
}
