/**
 * ShiftedCopies: a Uint32Array kept, besides itself, at each of the other 4-byte shifts modulo 32
 * bytes (made on first use), so a run of it copies into any position of another array as one
 * memmove. GPU-free.
 *
 * Why: Chromium's V8 copies `dst.set(src)` between two buffers with memmove only when the two byte
 * addresses agree modulo 32 bytes; otherwise it goes element by element. Measured in Chromium 147
 * (V8 14.7, SwiftShader machine): 32 copies of 1,024 u32 took 4.5 µs when the destination index
 * minus the source index was a multiple of 8, and 90–95 µs when it was 1, 2 or 4; a copy within
 * one buffer (`copyWithin`) and Node 20's V8 ran at memmove speed at any offset. Large arrays'
 * buffers start at addresses that agree modulo 32 bytes (40 fresh arrays of assorted lengths, all
 * fast at index differences of 8), so the index difference decides. A bulk updateTileMappings
 * (32,768 tiles) spent most of its time in these copies in Chromium.
 *
 * Invariants: `values` is never written after construction (the copies would go stale); the copy
 * at shift s holds values[i] at index i + s.
 */

/** Elements of 4 bytes per 32 bytes: copies whose index difference is a multiple of this are memmoves. */
export const COPY_LANES = 8;

export class ShiftedCopies {
  private readonly copies: (Uint32Array | undefined)[] = [];

  constructor(readonly values: Uint32Array) {
    this.copies[0] = values.byteOffset % (COPY_LANES * 4) === 0 ? values : undefined;
  }

  /** dst[dstIndex + i] = values[first + i] for i < count. */
  copyTo(dst: Uint32Array, dstIndex: number, first: number, count: number): void {
    if (count <= 0) return;
    // The copy whose element `first` sits at the same offset modulo 32 bytes as dst[dstIndex].
    const shift = ((dst.byteOffset >> 2) + dstIndex - first) & (COPY_LANES - 1);
    let copy = this.copies[shift];
    if (!copy) {
      copy = new Uint32Array(this.values.length + shift);
      copy.set(this.values, shift);
      this.copies[shift] = copy;
    }
    dst.set(copy.subarray(first + shift, first + shift + count), dstIndex);
  }
}
