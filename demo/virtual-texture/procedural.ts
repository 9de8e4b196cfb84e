/**
 * The CPU's copy of vt_procedural (vt-common.wgsl): the colour of any texel of any mip of the
 * virtual texture, in the same integer operations, so tests can predict what the GPU generated.
 */
export const VT_SIZE = 16384;
export const VT_MIPS = 15;
export const VT_STANDARD_MIPS = 8;
export const TILE_TEXELS = 128;

const PALETTE = [
  [70, 130, 200],
  [90, 175, 120],
  [215, 160, 70],
  [190, 95, 120],
  [120, 110, 200],
  [60, 165, 170],
  [200, 120, 70],
  [150, 160, 80],
];
export const MIP_COLORS = [
  [255, 80, 80],
  [255, 170, 60],
  [240, 240, 80],
  [100, 230, 100],
  [80, 220, 230],
  [90, 130, 255],
  [200, 110, 255],
  [255, 120, 210],
];

/** RGBA8 of texel (x, y) of `mip`, as [r, g, b, a]. */
export function proceduralTexel(mip: number, x: number, y: number): [number, number, number, number] {
  const half = (1 << mip) >> 1;
  const wx = x * 2 ** mip + half;
  const wy = y * 2 ** mip + half;
  const dx = wx - 8192;
  const dy = wy - 8192;
  const d2 = dx * dx + dy * dy;
  let c = [...(PALETTE[Math.floor(d2 / 2 ** 21) & 7] as number[])];
  const checker = ((wx >>> 9) + (wy >>> 9)) & 1;
  c = c.map((v) => Math.floor((v * (200 + 55 * checker)) / 255));
  const fine = ((wx ^ wy) >>> 2) & 31;
  c = c.map((v) => Math.min(v + fine, 255));
  const line = 2 << mip;
  if ((wx & 2047) < line || (wy & 2047) < line) c = [236, 238, 242];
  if (mip < VT_STANDARD_MIPS && ((x & 127) === 0 || (y & 127) === 0)) c = [...(MIP_COLORS[mip & 7] as number[])];
  return [c[0] ?? 0, c[1] ?? 0, c[2] ?? 0, 255];
}

/** Filtered like d3d12_tex2d_bilinear: `mip` at normalized (u, v), clamped to the edge. */
export function proceduralBilinear(mip: number, u: number, v: number): number[] {
  const size = VT_SIZE >> mip;
  const px = Math.min(Math.max(u, 0), 1) * size - 0.5;
  const py = Math.min(Math.max(v, 0), 1) * size - 0.5;
  const bx = Math.floor(px);
  const by = Math.floor(py);
  const fx = px - bx;
  const fy = py - by;
  const cx = Math.max(bx, 0);
  const cy = Math.max(by, 0);
  const nx = Math.min(bx + 1, size - 1);
  const ny = Math.min(by + 1, size - 1);
  const t = (x: number, y: number): number[] => proceduralTexel(mip, x, y);
  const [c00, c10, c01, c11] = [t(cx, cy), t(nx, cy), t(cx, ny), t(nx, ny)];
  return [0, 1, 2, 3].map((i) => {
    const top = (c00[i] ?? 0) * (1 - fx) + (c10[i] ?? 0) * fx;
    const bottom = (c01[i] ?? 0) * (1 - fx) + (c11[i] ?? 0) * fx;
    return top * (1 - fy) + bottom * fy;
  });
}
