import { describe, expect, test } from 'vitest';
import { expectWordsEqual } from '../../../harness/compare-words.js';

describe('expectWordsEqual (the GPU tests rely on it failing)', () => {
  test('equal words pass', () => {
    expect(() => expectWordsEqual(new Uint32Array([1, 2, 3]), [1, 2, 3])).not.toThrow();
  });
  test('one differing word fails, naming its index and both values', () => {
    expect(() => expectWordsEqual(new Uint32Array([1, 0xdead, 3]), [1, 2, 3])).toThrow(
      /1 of 3 differ[\s\S]*\[1\] got 0x0000dead, expected 0x00000002/,
    );
  });
  test('a length mismatch fails', () => {
    expect(() => expectWordsEqual([1, 2], [1, 2, 3])).toThrow(/length/);
  });
  test('many mismatches are counted, the first ones listed', () => {
    const actual = new Uint32Array(100);
    const expected = new Uint32Array(100).fill(7);
    expect(() => expectWordsEqual(actual, expected)).toThrow(/100 of 100 differ[\s\S]*\[7\][^[]*$/);
  });
});
