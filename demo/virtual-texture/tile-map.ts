/**
 * The overlay's tile map: the tiles of the mip the view samples, one cell per tile, coloured by
 * state (mapped, requested and waiting, evicted, never touched), with the view's rectangle; with the
 * unmapped-access overlay on, tiles the GPU read while they were NULL are outlined.
 */
import { tilesPerSide, tileIndex } from './vt-layout.js';
import type { TileState } from './tile-cache.js';

const COLORS: Record<TileState | 'none', string> = {
  mapped: '#5ad17f',
  requested: '#f5c26b',
  evicted: '#a8475a',
  none: '#1c232b',
};
/** The outline of a tile touched while unmapped (Device.readUnmappedAccesses). */
const UNMAPPED_COLOR = '#ff4fd8';

export class TileMap {
  private readonly canvas = document.createElement('canvas');
  private readonly context: CanvasRenderingContext2D;

  constructor(parent: HTMLElement, showUnmapped = false) {
    this.canvas.width = 256;
    this.canvas.height = 256;
    this.canvas.className = 'tile-map';
    const context = this.canvas.getContext('2d');
    if (!context) throw new Error('no 2D canvas context for the tile map');
    this.context = context;
    const legend = document.createElement('p');
    legend.className = 'legend';
    for (const [state, color] of Object.entries(COLORS)) {
      const swatch = document.createElement('span');
      swatch.style.background = color;
      legend.append(swatch, ` ${state === 'none' ? 'never used' : state} `);
    }
    if (showUnmapped) {
      const swatch = document.createElement('span');
      swatch.style.background = UNMAPPED_COLOR;
      legend.append(swatch, ' read while unmapped ');
    }
    parent.append(this.canvas, legend);
  }

  /** `view`: the visible rectangle in uv; `unmapped`: tiles (vt-layout indices) read while NULL. */
  draw(
    mip: number,
    states: ReadonlyMap<number, TileState>,
    view: { u0: number; v0: number; u1: number; v1: number },
    unmapped: ReadonlySet<number> = new Set(),
  ): void {
    const side = tilesPerSide(mip);
    const cell = this.canvas.width / side;
    const g = this.context;
    g.fillStyle = COLORS.none;
    g.fillRect(0, 0, this.canvas.width, this.canvas.height);
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++) {
        const state = states.get(tileIndex(mip, x, y));
        if (!state) continue;
        g.fillStyle = COLORS[state];
        g.fillRect(x * cell, y * cell, Math.max(cell - (cell > 3 ? 1 : 0), 1), Math.max(cell - (cell > 3 ? 1 : 0), 1));
      }
    }
    g.strokeStyle = UNMAPPED_COLOR;
    g.lineWidth = Math.max(1, Math.min(2, cell / 4));
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++)
        if (unmapped.has(tileIndex(mip, x, y)))
          g.strokeRect(x * cell + 0.5, y * cell + 0.5, Math.max(cell - 1, 1), Math.max(cell - 1, 1));
    }
    g.strokeStyle = '#ffffff';
    g.lineWidth = 1.5;
    const size = this.canvas.width;
    g.strokeRect(view.u0 * size, view.v0 * size, (view.u1 - view.u0) * size, (view.v1 - view.v0) * size);
    g.fillStyle = '#d9dde4';
    g.font = '11px system-ui';
    g.fillText(`mip ${mip}: ${side} × ${side} tiles`, 6, 14);
  }
}
