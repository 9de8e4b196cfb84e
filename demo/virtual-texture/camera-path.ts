/**
 * The virtual texture's views: the flight it takes by itself (a slow zoom between 1 and 128
 * texels per pixel over a wandering centre, a function of time only, so a benchmark that drives the
 * clock by frame index sees the same path everywhere), and the `views=` URL parameter's fixed views.
 */
import { VT_SIZE } from './procedural.js';

export interface View {
  cx: number;
  cy: number;
  /** Mip-0 texels per pixel. */
  s: number;
}

/** The flight's view at `timeMs`. */
export function flightView(timeMs: number): View {
  const t = timeMs / 1000;
  const centre = VT_SIZE / 2;
  return {
    s: 2 ** (3.5 + 3.5 * Math.sin(t * 0.23)),
    cx: centre + 5200 * Math.sin(t * 0.13),
    cy: centre + 5200 * Math.sin(t * 0.11 + 1),
  };
}

/** "cx,cy,s;..." in mip-0 texels and texels per pixel; missing numbers default to the centre at 1. */
export function parseViews(text: string | null): View[] {
  if (!text) return [];
  return text.split(';').map((part) => {
    const [cx = VT_SIZE / 2, cy = VT_SIZE / 2, s = 1] = part.split(',').map(Number);
    return { cx, cy, s };
  });
}

/** The 32-bit float's bits, for root constants and uniforms. */
export const f32Bits = (value: number): number => new Uint32Array(new Float32Array([value]).buffer)[0] ?? 0;
