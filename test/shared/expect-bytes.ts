/**
 * Byte-for-byte comparison of GPU readbacks (or evicted bytes) with what was written: the lengths,
 * then the first differing byte named in the failure.
 */
import { expect } from 'vitest';
import { firstDifference } from './d3d12-helpers.js';

export function expectBytes(actual: Uint8Array, expected: Uint8Array, what: string): void {
  expect(actual.length, `${what}: length`).toBe(expected.length);
  const at = firstDifference(actual, expected);
  expect(at, `${what}: byte ${at} is ${actual[at]}, expected ${expected[at]}`).toBe(-1);
}
