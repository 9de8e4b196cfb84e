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

/** Views kept per ShiftedCopies: enough for a call pattern's distinct runs (16 MiB chunks of a 64 MiB heap use 4 per shift). */
const KEPT_VIEWS = 64;

export class ShiftedCopies {
  private readonly copies: (Uint32Array | undefined)[] = [];
  /** Views of the copies, keyed start * 2^16 + count (a small integer): set() needs one, about 100 bytes each. */
  private readonly views = new Map<number, Uint32Array>();

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
    const start = first + shift;
    const key = start * 0x10000 + count;
    let view = count < 0x10000 && start < 0x4000 ? this.views.get(key) : undefined;
    if (!view || view.buffer !== copy.buffer) {
      view = copy.subarray(start, start + count);
      if (count < 0x10000 && start < 0x4000) {
        if (this.views.size >= KEPT_VIEWS) this.views.clear();
        this.views.set(key, view);
      }
    }
    dst.set(view, dstIndex);
  }
}

/** The shortest kept run: runs are grown by doubling from here, to the longest that was asked for. */
const FIRST_RUN_LENGTH = 1024;

/** The length a kept run of `current` elements grows to so it holds `needed`: doubled until it does. */
export function grownRunLength(current: number, needed: number): number {
  let length = Math.max(FIRST_RUN_LENGTH, current);
  while (length < needed) length *= 2;
  return length;
}

/** Shorter fills call fill(): below this a copy's extra work is not repaid. */
const RUN_FILL_MIN = 64;
/** Values whose constant runs are kept (a bulk call fills with one heap id and one entry or two). */
const KEPT_RUN_VALUES = 4;
/** Constant runs by value (as u32), oldest first. */
const runs = new Map<number, ShiftedCopies>();
/**
 * The run the last long fill used, and its value (-1: none; no u32 equals it). Consecutive fills
 * mostly share a value (a call's heap id, 128 times for 16 MiB chunks of 2 GiB): they skip the
 * map's reordering, as the run is already its newest entry.
 */
let latestWord = -1;
let latestRun: ShiftedCopies | undefined;
/** The Uint32Array view of the Int32Array filled last (tile heap ids): one view, not one per fill. */
let latestSigned: Int32Array | undefined;
let latestSignedWords: Uint32Array | undefined;

/**
 * dst.fill(value, start, end), at memmove speed in Chromium too. Its V8 fills a typed array with a
 * memset only when the value's four bytes agree (0, -1); other values go element by element
 * (Chromium 147: 32 fills of 1,024 words with 5 took 28 µs, copies from a run of 5s 7 µs). So a long
 * fill of such a value copies from a kept constant run (see ShiftedCopies).
 */
export function fillWords(dst: Uint32Array | Int32Array, start: number, end: number, value: number): void {
  const count = end - start;
  const word = value >>> 0;
  if (count < RUN_FILL_MIN || (word & 0xff) * 0x01010101 === word) {
    dst.fill(value, start, end);
    return;
  }
  let run = word === latestWord ? latestRun : undefined;
  if (!run || run.values.length < count) {
    run = runs.get(word);
    if (run) runs.delete(word);
    if (!run || run.values.length < count)
      run = new ShiftedCopies(new Uint32Array(grownRunLength(run?.values.length ?? 0, count)).fill(word));
    runs.set(word, run);
    if (runs.size > KEPT_RUN_VALUES) runs.delete(runs.keys().next().value as number);
    latestWord = word;
    latestRun = run;
  }
  run.copyTo(dst instanceof Uint32Array ? dst : unsignedView(dst), start, 0, count);
}

function unsignedView(dst: Int32Array): Uint32Array {
  if (dst !== latestSigned || !latestSignedWords) {
    latestSigned = dst;
    latestSignedWords = new Uint32Array(dst.buffer, dst.byteOffset, dst.length);
  }
  return latestSignedWords;
}
