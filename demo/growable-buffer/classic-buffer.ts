/**
 * The path a growable reserved buffer replaces: every resize creates a committed buffer of the new
 * size, copies the kept prefix into it and releases the old one. For the length of the copy both
 * buffers exist, so memory peaks at old + new, and every view of the old buffer goes stale.
 */
import { TILE_SIZE, type CommandQueue, type Device, type Fence, type Resource } from '../../src/index.js';

export interface ClassicResize {
  bytes: number;
  /** Old + new during the copy. */
  peakBytes: number;
  /** From the first call to the GPU finishing the copy. */
  ms: number;
}

export class ClassicBuffer {
  buffer: Resource | null = null;
  bytes = 0;
  private fenceValue = 0;

  constructor(
    private readonly device: Device,
    private readonly queue: CommandQueue,
    private readonly fence: Fence,
  ) {}

  /** Resizes to `bytes` (rounded up to 64 KiB, the placement alignment of a committed buffer). */
  async resize(bytes: number, keepBytes: number): Promise<ClassicResize> {
    const size = Math.ceil(bytes / TILE_SIZE) * TILE_SIZE;
    const start = performance.now();
    const old = this.buffer;
    const next =
      size > 0
        ? this.device.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width: size }, 'COMMON')
        : null;
    if (next) next.setName(`classic instance buffer (${size / TILE_SIZE} tiles)`);
    const kept = Math.min(keepBytes, this.bytes, size);
    if (old && next && kept > 0) {
      const list = this.device.createCommandList('DIRECT');
      list.copyBufferRegion(next, 0, old, 0, kept);
      list.close();
      this.queue.executeCommandLists([list]);
    }
    const peakBytes = this.bytes + size;
    // Released after the copy is queued: D3D12 keeps it alive until the GPU is done with it.
    old?.release();
    this.buffer = next;
    this.bytes = size;
    this.queue.signal(this.fence, ++this.fenceValue);
    await this.fence.setEventOnCompletion(this.fenceValue);
    return { bytes: size, peakBytes, ms: performance.now() - start };
  }
}
