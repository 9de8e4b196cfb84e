/**
 * The virtual texture's CPU tile producer, in a Web Worker so producing never stalls a frame: each
 * request names a tile (vt-layout.ts's index), the worker fills a 64 KiB buffer with its texels in
 * copyTiles' linear layout (tile-texels.ts) and posts it back, transferred (not copied). A request may
 * carry a spent buffer to fill, so the buffers circulate instead of being allocated per tile.
 */
// TILE_SIZE from its own module, not the package entry: the tile worker then loads no more than this.
import { TILE_SIZE } from '../../src/memory/tiling.js';
import { tileTexels } from './tile-texels.js';

export interface TileRequest {
  id: number;
  tile: number;
  /** A buffer of TILE_SIZE to fill, handed back by the main thread; absent: allocate one. */
  buffer?: ArrayBuffer;
}

export interface TileResult {
  id: number;
  tile: number;
  buffer: ArrayBuffer;
  /** CPU time the worker spent producing the tile, ms. */
  produceMs: number;
}

self.onmessage = (event: MessageEvent<TileRequest>) => {
  const { id, tile, buffer } = event.data;
  const start = performance.now();
  const out = tileTexels(tile, new Uint8Array(buffer ?? new ArrayBuffer(TILE_SIZE)));
  const result: TileResult = { id, tile, buffer: out.buffer as ArrayBuffer, produceMs: performance.now() - start };
  self.postMessage(result, { transfer: [result.buffer] });
};
