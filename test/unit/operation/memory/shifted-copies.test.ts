/**
 * ShiftedCopies (src/memory/shifted-copies.ts): a run copied to any destination index, through any
 * of the eight shifted copies, lands exactly where a plain copy would put it and nowhere else, in
 * whole arrays and in views that start inside their buffer; fillWords writes what fill() writes, for
 * every kind of value and length, through its kept runs.
 */
import { describe, expect, test } from 'vitest';
import { COPY_LANES, fillWords, ShiftedCopies } from '../../../../src/memory/shifted-copies.js';

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

  test('kept views: one (start, count) reached through two shifts reads each shift’s own copy', () => {
    const fresh = new ShiftedCopies(values);
    // values[1, +8) at index 1 goes through the unshifted copy, values[0, +8) at index 1 through
    // the copy shifted by one: both start at element 1 of their copy, the same key of the kept views.
    for (let round = 0; round < 3; round++) {
      const a = new Uint32Array(16);
      fresh.copyTo(a, 1, 1, 8);
      expect(a).toEqual(expected(new Uint32Array(16), 1, 1, 8));
      const b = new Uint32Array(16);
      fresh.copyTo(b, 1, 0, 8);
      expect(b).toEqual(expected(new Uint32Array(16), 1, 0, 8));
    }
  });

  test('kept views: more distinct runs than are kept, twice over, each copied exactly', () => {
    const fresh = new ShiftedCopies(values);
    for (let round = 0; round < 2; round++)
      for (let first = 0; first < 90; first++) {
        const dst = new Uint32Array(24).fill(0xdeadbeef);
        fresh.copyTo(dst, first % 8, first, 10);
        expect(dst).toEqual(expected(new Uint32Array(24).fill(0xdeadbeef), first % 8, first, 10));
      }
  });

  test('the source values stay as given after copies at every shift', () => {
    const before = values.slice();
    const dst = new Uint32Array(128);
    for (let shift = 0; shift < COPY_LANES; shift++) source.copyTo(dst, shift, 0, values.length);
    expect(values).toEqual(before);
  });
});

describe('fillWords', () => {
  // Both sides of the run threshold (64) and of the first run's length (1,024), values whose bytes
  // agree (plain fill) and do not (a kept run), signed and unsigned.
  const values = [0, -1, 5, 0x12345678, 0xfffffffe, -7];
  const spans = [
    [3, 63],
    [3, 64],
    [1, 1025],
    [0, 3000],
  ] as const;
  for (const value of values) {
    for (const [start, count] of spans) {
      test(`${value} over [${start}, +${count}) of an Int32Array and a Uint32Array`, () => {
        for (const make of [(n: number) => new Int32Array(n), (n: number) => new Uint32Array(n)]) {
          const dst = make(3100).fill(42);
          const want = dst.slice().fill(value, start, start + count);
          fillWords(dst, start, start + count, value);
          expect(dst).toEqual(want);
        }
      });
    }
  }

  test('more values than runs kept, each filled again after the others: every fill still exact', () => {
    const dst = new Uint32Array(512);
    for (let round = 0; round < 3; round++) {
      for (let value = 1; value <= 9; value++) {
        const want = dst.slice().fill(value * 0x01020304, value * 10, value * 10 + 200);
        fillWords(dst, value * 10, value * 10 + 200, value * 0x01020304);
        expect(dst).toEqual(want);
      }
    }
  });

  test('one value again and again, each fill longer than the run kept for it: every fill exact', () => {
    const dst = new Uint32Array(9000);
    for (const count of [100, 100, 1500, 1500, 5000, 8000]) {
      const want = dst.slice().fill(0x0badf00d, 7, 7 + count);
      fillWords(dst, 7, 7 + count, 0x0badf00d);
      expect(dst).toEqual(want);
    }
  });

  test('two Int32Arrays filled in turn with one value: each fill lands in its own array', () => {
    const a = new Int32Array(600);
    const b = new Int32Array(600).fill(3);
    for (let round = 0; round < 3; round++) {
      for (const [dst, start] of [
        [a, round * 100],
        [b, round * 100 + 50],
      ] as const) {
        const want = dst.slice().fill(-7 - round, start, start + 300);
        fillWords(dst, start, start + 300, -7 - round);
        expect(dst).toEqual(want);
      }
    }
  });

  test('into a view that starts 5 elements into its buffer: only the view’s elements change', () => {
    const buffer = new Int32Array(400).fill(1);
    const view = buffer.subarray(5, 300);
    const want = buffer.slice();
    want.fill(0x0a0b0c0d, 5 + 7, 5 + 207);
    fillWords(view, 7, 207, 0x0a0b0c0d);
    expect(buffer).toEqual(want);
  });
});
