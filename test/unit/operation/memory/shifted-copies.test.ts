/**
 * ShiftedCopies (src/memory/shifted-copies.ts): a run copied to any destination index, through any
 * of the eight shifted copies, lands exactly where a plain copy would put it and nowhere else, in
 * whole arrays and in views that start inside their buffer.
 */
import { describe, expect, test } from 'vitest';
import { COPY_LANES, ShiftedCopies } from '../../../../src/memory/shifted-copies.js';

const values = Uint32Array.from({ length: 100 }, (_, i) => 0x1000 + i * 7);

/** dst after writing values[first, first + count) at dstIndex, element by element. */
function expected(dst: Uint32Array, dstIndex: number, first: number, count: number): Uint32Array {
  const out = dst.slice();
  for (let i = 0; i < count; i++) out[dstIndex + i] = values[first + i] as number;
  return out;
}

describe('ShiftedCopies.copyTo', () => {
  const source = new ShiftedCopies(values);
  // Every shift modulo 32 bytes, from both ends of the source.
  for (let dstIndex = 0; dstIndex < 2 * COPY_LANES; dstIndex++) {
    for (const [first, count] of [
      [0, 17],
      [83, 17],
      [5, 1],
    ] as const) {
      test(`values[${first}, +${count}) to index ${dstIndex}`, () => {
        const dst = new Uint32Array(64).fill(0xdeadbeef);
        const want = expected(dst, dstIndex, first, count);
        source.copyTo(dst, dstIndex, first, count);
        expect(dst).toEqual(want);
      });
    }
  }

  test('into a view that starts 3 elements into its buffer: only the view’s elements change', () => {
    const buffer = new Uint32Array(80).fill(7);
    const view = buffer.subarray(3, 70);
    const want = buffer.slice();
    for (let i = 0; i < 40; i++) want[3 + 10 + i] = values[20 + i] as number;
    source.copyTo(view, 10, 20, 40);
    expect(buffer).toEqual(want);
  });

  test('a count of 0 writes nothing', () => {
    const dst = new Uint32Array(16).fill(9);
    source.copyTo(dst, 4, 10, 0);
    expect(dst).toEqual(new Uint32Array(16).fill(9));
  });

  test('the source values stay as given after copies at every shift', () => {
    const before = values.slice();
    const dst = new Uint32Array(128);
    for (let shift = 0; shift < COPY_LANES; shift++) source.copyTo(dst, shift, 0, values.length);
    expect(values).toEqual(before);
  });
});
