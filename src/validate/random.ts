/**
 * The one seeded pseudo-random generator of the project's validation and tests: mulberry32, a small,
 * fast 32-bit generator whose whole state is one 32-bit word. The differential run takes every
 * choice from it, and so do the tests with randomness (property tests, the fuzzer, the soaks), so
 * that a seed names a run and the same seed reproduces it, call for call, in Node.js and in a
 * browser alike. Not for data patterns whose bytes a shader or a model must recompute (those are
 * hash functions of their index, kept next to what they mirror).
 *
 *   const random = new Random(seed);
 *   random.int(1, 6); random.below(n); random.chance(0.1); random.pick(items);
 *
 * Invariant: the sequence depends on the seed alone (no Math.random, no clock), so a change here
 * changes every seeded run; test/unit/validation/source/test-helpers.test.ts checks that no other file of the
 * project (tests, bench, demo, tools) defines a generator of its own.
 */
export class Random {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A uniform 32-bit unsigned integer. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A uniform number in [0, 1): next() / 2^32. */
  float(): number {
    return this.next() / 2 ** 32;
  }

  /** An integer in [lo, hi] (inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  /** An integer in [0, n): the same draw as int(0, n - 1). */
  below(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  /** One of `items`, uniformly. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Random.pick: no items');
    return items[this.int(0, items.length - 1)] as T;
  }

  /** An index into `weights`, chosen in proportion to them (all zero: -1). */
  weighted(weights: readonly number[]): number {
    const total = weights.reduce((a, b) => a + b, 0);
    if (total <= 0) return -1;
    let x = this.float() * total;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i] as number;
      if (x < 0) return i;
    }
    return weights.length - 1;
  }

  /** A byte count in [1, max], biased to small and unaligned sizes, sometimes the whole range. */
  size(max: number): number {
    const r = this.float();
    if (r < 0.25) return this.int(1, Math.min(max, 16));
    if (r < 0.5) return this.int(1, Math.min(max, 1024));
    if (r < 0.85) return this.int(1, Math.min(max, 80_000));
    return this.int(1, max);
  }
}
