/**
 * Where each texture is drawn: one small viewport per texture, in a grid over the back buffer, in
 * texture order row by row from the top left. The sample draws texture n into a 2-pixel-wide strip
 * at (n % (width / 2)) × 2; here the cells are as square as the count and the back buffer allow, so
 * the number on each texture can be read. Cells are whole pixels (a viewport must lie inside the
 * target); what is left over at the right and bottom edges shows the clear colour.
 */
export interface Grid {
  columns: number;
  rows: number;
  /** Pixels; 0 when the back buffer is too small for one pixel per texture. */
  cellWidth: number;
  cellHeight: number;
}

export function gridFor(count: number, width: number, height: number): Grid {
  const n = Math.max(count, 1);
  const columns = Math.min(n, Math.max(1, Math.ceil(Math.sqrt((n * width) / Math.max(height, 1)))));
  const rows = Math.ceil(n / columns);
  return { columns, rows, cellWidth: Math.floor(width / columns), cellHeight: Math.floor(height / rows) };
}

/** Texture `index`'s cell: its top left pixel. */
export function cellOf(grid: Grid, index: number): { x: number; y: number } {
  return { x: (index % grid.columns) * grid.cellWidth, y: Math.floor(index / grid.columns) * grid.cellHeight };
}
