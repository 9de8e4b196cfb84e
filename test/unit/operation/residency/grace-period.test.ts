/**
 * The residency manager's trimming curve (d3dx12residency.h; REFERENCE.md, Residency): with
 * p = min(usage / budget, 1), no age-based trimming while p <= 0.7, else a grace period of
 * (60 s - 1 s) * (1 - (p - 0.7) / 0.3) + 1 s; trimming stops at 70 % of the budget.
 */
import { describe, expect, test } from 'vitest';
import { gracePeriodMs } from '../../../../src/index.js';
import { MAX_GRACE_MS, MIN_GRACE_MS, TRIM_THRESHOLD, trimFloor } from '../../../../src/residency/grace-period.js';

const MIB = 2 ** 20;
/** The formula of REFERENCE.md, written out independently. */
const expected = (p: number): number => (60_000 - 1_000) * (1 - (p - 0.7) / 0.3) + 1_000;

describe('gracePeriodMs', () => {
  test("the constants are the library's: 70 %, 60 s, 1 s", () => {
    expect(TRIM_THRESHOLD).toBe(0.7);
    expect(MAX_GRACE_MS).toBe(60_000);
    expect(MIN_GRACE_MS).toBe(1_000);
  });

  test.each([
    [0, 100],
    [1, 100],
    [50, 100],
    [69, 100],
    [70, 100],
    [7 * MIB, 10 * MIB],
    [0, 1],
  ])('usage %d of budget %d (at most 70 %%): no trimming (Infinity)', (usage, budget) => {
    expect(gracePeriodMs(usage, budget)).toBe(Infinity);
  });

  test('just above 70 %: almost exactly 60 s, and below it', () => {
    const grace = gracePeriodMs(700_001, 1_000_000);
    expect(grace).toBeLessThan(60_000);
    expect(grace).toBeGreaterThan(59_999);
    expect(grace).toBeCloseTo(expected(0.700001), 6);
    // One byte above 70 % of a 10 MiB budget.
    const byte = gracePeriodMs(Math.floor(7 * MIB) + 1, 10 * MIB);
    expect(byte).toBeLessThan(60_000);
    expect(byte).toBeGreaterThan(59_999.9);
  });

  test('85 %: 30.5 s (halfway down the line)', () => {
    expect(gracePeriodMs(85, 100)).toBeCloseTo(30_500, 6);
    expect(gracePeriodMs(0.85 * 16 * MIB, 16 * MIB)).toBeCloseTo(30_500, 6);
  });

  test.each([
    [75, 100, 0.75],
    [80, 100, 0.8],
    [90, 100, 0.9],
    [95, 100, 0.95],
    [99, 100, 0.99],
  ])('usage %d of %d: the line through (70 %%, 60 s) and (100 %%, 1 s)', (usage, budget, p) => {
    expect(gracePeriodMs(usage, budget)).toBeCloseTo(expected(p), 6);
  });

  test('90 %: 20 666.67 ms', () => {
    expect(gracePeriodMs(9, 10)).toBeCloseTo(59_000 / 3 + 1_000, 6);
  });

  test.each([
    [100, 100],
    [101, 100],
    [150, 100],
    [10 * MIB, MIB],
    [Number.MAX_SAFE_INTEGER, 1],
  ])('usage %d of budget %d (100 %% and above): 1 s', (usage, budget) => {
    expect(gracePeriodMs(usage, budget)).toBe(1_000);
  });

  test.each([
    [0, 0],
    [1, 0],
    [MIB, 0],
  ])('budget 0 (usage %d): 1 s, maximum pressure', (usage, budget) => {
    expect(gracePeriodMs(usage, budget)).toBe(1_000);
  });

  test('strictly decreasing from 70 % to 100 %, never outside [1 s, 60 s]', () => {
    let previous = Infinity;
    for (let usage = 701; usage <= 1000; usage++) {
      const grace = gracePeriodMs(usage, 1000);
      expect(grace, `usage ${usage}`).toBeLessThan(previous);
      expect(grace, `usage ${usage}`).toBeGreaterThanOrEqual(1_000);
      expect(grace, `usage ${usage}`).toBeLessThanOrEqual(60_000);
      previous = grace;
    }
    expect(previous).toBe(1_000);
  });
});

describe('trimFloor', () => {
  test.each([
    [100, 70],
    [10 * MIB, 7 * MIB],
    [20 * 65536, 14 * 65536],
    [0, 0],
  ])('budget %d: trimming stops at %d (70 %%)', (budget, floor) => {
    expect(trimFloor(budget)).toBeCloseTo(floor, 6);
  });

  test('at the floor itself there is no trimming', () => {
    for (const budget of [100, 10 * MIB, 20 * 65536]) expect(gracePeriodMs(trimFloor(budget), budget)).toBe(Infinity);
  });
});
