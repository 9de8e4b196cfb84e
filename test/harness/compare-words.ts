/**
 * Word-by-word comparison of GPU readbacks with a CPU reference. vitest's deep equality walks a
 * typed array element by element through generic code (seconds per million words); this scans
 * once and, on a mismatch, reports the first differing words and how many differ.
 */
import { expect } from 'vitest';

const hex = (value: number | undefined): string =>
  value === undefined ? 'missing' : `0x${value.toString(16).padStart(8, '0')}`;

/** How many mismatching words are listed in a failure message. */
const LISTED = 8;

export function expectWordsEqual(actual: ArrayLike<number>, expected: ArrayLike<number>, what = 'words'): void {
  expect(actual.length, `${what}: length`).toBe(expected.length);
  const mismatches: number[] = [];
  let count = 0;
  for (let i = 0; i < expected.length; i++) {
    if (actual[i] !== expected[i]) {
      if (mismatches.length < LISTED) mismatches.push(i);
      count++;
    }
  }
  if (count > 0) {
    const listed = mismatches.map((i) => `  [${i}] got ${hex(actual[i])}, expected ${hex(expected[i])}`).join('\n');
    expect.fail(`${what}: ${count} of ${expected.length} differ from the reference; first:\n${listed}`);
  }
}
