/**
 * The CPU model of the D3D12Residency sample's frames, shared by its browser test
 * (test/browser/operation/demo/d3d12-residency.test.ts, the page's canvas) and its Node.js test
 * (test/gpu/operation/demo/d3d12-residency-node.test.ts, an offscreen swap chain).
 *
 * The window: what the sample's PopulateCommandList draws, textures from the window's start on,
 * until 95 % of the budget is referenced or every loaded texture is; it moves on by one each frame
 * while it holds fewer than are loaded.
 *
 * Pixels: in the cell of each texture drawn (grid.ts), the texel under the pixel's centre
 * (texture-data.ts's texels, the sample's quad putting v = 0 at the bottom of each viewport, the
 * static point sampler: texel = floor(coordinate × size)); everywhere else the clear colour
 * (0, 0.2, 0.4) as 0, 51, 102. With cells of the textures' size every pixel centre falls on a
 * texel centre, so the values are exact: compared values must be equal.
 */
import type { Grid } from '../../demo/d3d12-residency/grid.js';
import { texel } from '../../demo/d3d12-residency/texture-data.js';

/** The sample's clear colour as 8-bit RGB. */
export const CLEAR_RGB: readonly number[] = [0, 51, 102];
/** The share of the budget one command list references. */
const BUDGET_SHARE = 0.95;

/** A frame's pixels: RGBA8, row-major, rows packed (a decoded PNG, or readPixels of an R8G8B8A8_UNORM swap chain). */
export interface Frame {
  width: number;
  height: number;
  pixels: Uint8Array;
}

/** What the model needs of a frame's record (the sample's ResidencyFrame). */
export interface DrawnFrame {
  grid: Grid;
  drawn: readonly number[];
}

/**
 * The sample's window: textures from `start` of `count` (all loaded), each `textureBytes`, until
 * 95 % of `budget` is referenced or all are.
 */
export function modelWindow(start: number, count: number, textureBytes: number, budget: number): number[] {
  const memoryToUse = Math.floor(budget * BUDGET_SHARE);
  const drawn: number[] = [];
  let used = 0;
  let next = start;
  do {
    drawn.push(next);
    used += textureBytes;
    next = (next + 1) % count;
  } while (used < memoryToUse && next !== start);
  return drawn;
}

/** The window start of the frame after one that drew `drawn` textures from `start`, of `count` loaded. */
export function nextWindowStart(start: number, drawn: number, count: number): number {
  return drawn < count ? (start + 1) % count : start;
}

/** The RGB the model gives pixel (px, py) of `frame`, whose textures are `textures` of `size` texels a side. */
export function modelPixel(frame: DrawnFrame, textures: number, size: number, px: number, py: number): number[] {
  return pixelOf(frame.grid, new Set(frame.drawn), textures, size, px, py);
}

function pixelOf(
  grid: Grid,
  drawn: ReadonlySet<number>,
  textures: number,
  size: number,
  px: number,
  py: number,
): number[] {
  const { columns, rows, cellWidth, cellHeight } = grid;
  const column = Math.floor(px / cellWidth);
  const row = Math.floor(py / cellHeight);
  const index = row * columns + column;
  if (column >= columns || row >= rows || !drawn.has(index)) return [...CLEAR_RGB];
  const u = (px - column * cellWidth + 0.5) / cellWidth;
  const v = 1 - (py - row * cellHeight + 0.5) / cellHeight;
  return texel(index, textures, size, Math.floor(u * size), Math.floor(v * size)).slice(0, 3);
}

/**
 * Pixels of `pixels` that differ from the model of `frame` in R, G or B (the first `limit`, as
 * readable lines), and how many differ in all.
 */
export function pixelMismatches(
  pixels: Frame,
  frame: DrawnFrame,
  textures: number,
  size: number,
  limit = 10,
): { mismatches: string[]; mismatched: number } {
  const drawn = new Set(frame.drawn);
  const mismatches: string[] = [];
  let mismatched = 0;
  for (let py = 0; py < pixels.height; py++)
    for (let px = 0; px < pixels.width; px++) {
      const want = pixelOf(frame.grid, drawn, textures, size, px, py);
      const at = (py * pixels.width + px) * 4;
      const got = [pixels.pixels[at], pixels.pixels[at + 1], pixels.pixels[at + 2]];
      if (got[0] === want[0] && got[1] === want[1] && got[2] === want[2]) continue;
      mismatched++;
      if (mismatches.length < limit) {
        const cell =
          Math.floor(py / frame.grid.cellHeight) * frame.grid.columns + Math.floor(px / frame.grid.cellWidth);
        mismatches.push(`pixel (${px}, ${py}) = ${got.join(',')}, want ${want.join(',')} (cell ${cell})`);
      }
    }
  return { mismatches, mismatched };
}
