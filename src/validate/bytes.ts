/**
 * Bytes the validators write and compare: deterministic data patterns, the first differing byte of
 * two arrays, and `Check`, one comparison small enough to return as JSON from a browser page.
 *
 * Invariants: every pattern is a pure function of (length, seed), so a mismatch replays from the
 * seed alone; a Check with firstDifference -1 means every byte of the prediction was compared and
 * equal (an empty prediction still counts as compared, with length 0).
 */
import { Random } from './random.js';

/** D3D12_TILED_RESOURCE_TILE_SIZE_IN_BYTES: one tile, one page of the emulated page table (the main entry's TILE_SIZE). */
export { TILE_SIZE as TILE } from '../index.js';

export const roundUp = (n: number, to: number): number => Math.ceil(n / to) * to;

/** A deterministic byte pattern: different for every tile and every offset, never all zero (xorshift32 of the index). */
export function pattern(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let x = (seed * 0x9e3779b1) >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

/** Bytes from a seed, four per draw of the seeded generator: the data an operation uploads, reproducible from its trace alone. */
export function dataBytes(length: number, seed: number): Uint8Array {
  const random = new Random(seed);
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i += 4) {
    const word = random.next();
    for (let j = 0; j < 4 && i + j < length; j++) bytes[i + j] = (word >>> (8 * j)) & 0xff;
  }
  return bytes;
}

/** The first index where two byte arrays differ (a length difference counts), or -1. */
export function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/** A byte as 0xNN (a byte past the end reads as 'none'). */
export function hexByte(bytes: ArrayLike<number>, at: number): string {
  const value = bytes[at];
  return value === undefined ? 'none' : `0x${value.toString(16).padStart(2, '0')}`;
}

/** One comparison of GPU bytes with the CPU's prediction; small enough to return from a browser page. */
export interface Check {
  name: string;
  length: number;
  /** -1 when the GPU's bytes equal the prediction. */
  firstDifference: number;
  actual?: number;
  expected?: number;
  /** What differed, when it is not a byte (a page-table entry, a fault report). */
  detail?: string;
}

export function check(name: string, actual: Uint8Array, expected: Uint8Array): Check {
  const index = firstDifference(actual, expected);
  return index < 0
    ? { name, length: expected.length, firstDifference: -1 }
    : { name, length: expected.length, firstDifference: index, actual: actual[index], expected: expected[index] };
}

/** A check of a condition rather than of bytes: passes when `ok`, else fails saying `detail`. */
export function checkThat(name: string, ok: boolean, detail: string): Check {
  return ok ? { name, length: 0, firstDifference: -1 } : { name, length: 0, firstDifference: 0, detail };
}

/** A check's failure in words, or undefined when it passed. */
export function describeCheck(c: Check): string | undefined {
  if (c.firstDifference < 0) return undefined;
  return (
    c.detail ?? `byte ${c.firstDifference} of ${c.length} is ${c.actual ?? 'missing'}, expected ${c.expected ?? 'none'}`
  );
}

/** Parses a seed given as decimal or 0x hex (an environment variable, a URL parameter); undefined when absent. */
export function parseSeed(value: string | undefined, name = 'seed'): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seed = Number(value.trim());
  if (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 32)
    throw new Error(`${name} must be an integer in [0, 2^32), got ${JSON.stringify(value)}`);
  return seed;
}
