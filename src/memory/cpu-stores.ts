/**
 * CpuStores: the CPU memory that evicted heaps' bytes live in, reused. A store freed by a restore
 * (its bytes are in the pool again) is kept and handed to the next eviction of the same size, so
 * that eviction copies into memory the process has already touched instead of a fresh allocation
 * whose every page faults on first write (on the H200 host, 64 MiB evictions ran 3.9 GB/s into
 * reused stores against 1.8 into fresh ones: src/gpu/staging-buffers.ts has the measurements).
 *
 * Invariants: a store is owned by at most one evicted heap, or idle here; idle stores total at most
 * `retainedBytes`, the least recently freed dropped first.
 */

/** Idle stores kept: 256 MiB, four 64 MiB heaps' worth, beyond which the garbage collector frees them. */
export const RETAINED_STORE_BYTES = 256 * 2 ** 20;

export class CpuStores {
  private readonly idle: Uint8Array[] = [];
  private idleBytes = 0;

  constructor(private readonly retainedBytes = RETAINED_STORE_BYTES) {}

  /** A store of exactly `byteLength` bytes (contents undefined: the caller overwrites them all). */
  take(byteLength: number): Uint8Array {
    for (let i = this.idle.length - 1; i >= 0; i--) {
      const store = this.idle[i] as Uint8Array;
      if (store.byteLength !== byteLength) continue;
      this.idle.splice(i, 1);
      this.idleBytes -= byteLength;
      return store;
    }
    return new Uint8Array(byteLength);
  }

  /** A store whose bytes are no longer needed. */
  giveBack(store: Uint8Array): void {
    if (store.byteLength > this.retainedBytes) return;
    this.idle.push(store);
    this.idleBytes += store.byteLength;
    while (this.idleBytes > this.retainedBytes) this.idleBytes -= (this.idle.shift() as Uint8Array).byteLength;
  }

  /** Bytes kept idle (for tests). */
  get idleBytesForTesting(): number {
    return this.idleBytes;
  }
}
