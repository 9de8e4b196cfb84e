/**
 * The main thread's side of the tile worker (tile-worker.ts): requests go out one message a tile,
 * produced tiles come back into `ready` in the order the worker finished them, and spent buffers go
 * back out with the next requests. Every ArrayBuffer is transferred, never copied.
 */
import type { TileRequest, TileResult } from './tile-worker.js';

export interface ProducedTile extends TileResult {
  /** When the scene asked for the tile (performance.now()). */
  requestedAt: number;
}

export class WorkerTileProducer {
  private readonly worker = new Worker(new URL('./tile-worker.ts', import.meta.url), { type: 'module' });
  private readonly spare: ArrayBuffer[] = [];
  private readonly requestedAt = new Map<number, number>();
  private nextId = 1;
  /** Tiles produced and not yet taken by the scene. */
  readonly ready: ProducedTile[] = [];
  /** Set when the worker failed; the scene reports it. */
  error: string | undefined;
  produced = 0;
  produceMs = 0;
  private readonly listeners: (() => void)[] = [];

  constructor() {
    this.worker.onmessage = (event: MessageEvent<TileResult>) => {
      const result = event.data;
      const requestedAt = this.requestedAt.get(result.id) ?? performance.now();
      this.requestedAt.delete(result.id);
      this.produced++;
      this.produceMs += result.produceMs;
      this.ready.push({ ...result, requestedAt });
      for (const wake of this.listeners.splice(0)) wake();
    };
    this.worker.onerror = (event) => {
      this.error = `tile worker: ${event.message}`;
      for (const wake of this.listeners.splice(0)) wake();
    };
  }

  /** Asks for `tile`; returns the request's id (a produced tile carries it back). */
  request(tile: number): number {
    const id = this.nextId++;
    this.requestedAt.set(id, performance.now());
    const buffer = this.spare.pop();
    const message: TileRequest = buffer ? { id, tile, buffer } : { id, tile };
    this.worker.postMessage(message, buffer ? [buffer] : []);
    return id;
  }

  /** A produced tile's buffer, once its bytes were copied out: the worker fills it again. */
  recycle(buffer: ArrayBuffer): void {
    this.spare.push(buffer);
  }

  /** Resolves once at least `count` tiles are ready (or the worker failed). */
  async waitForReady(count: number): Promise<void> {
    while (this.ready.length < count && !this.error) await new Promise<void>((resolve) => this.listeners.push(resolve));
    if (this.error) throw new Error(this.error);
  }

  terminate(): void {
    this.worker.terminate();
  }
}
