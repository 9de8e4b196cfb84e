/**
 * TrimGate (src/residency/trim-gate.ts): a trim is skipped only when it provably finds nothing: no
 * resident object of the segment can be older than the grace period (by the bound the last scan and
 * every object made resident since leave) and nothing was released since that scan.
 */
import { describe, expect, test } from 'vitest';
import { TrimGate } from '../../../../src/residency/trim-gate.js';

const GRACE = 1_000;

describe('TrimGate', () => {
  test('before any scan it never skips', () => {
    const gate = new TrimGate();
    expect(gate.canSkip('LOCAL', 0, GRACE, 0)).toBe(false);
    expect(gate.canSkip('NON_LOCAL', 1e12, GRACE, -1)).toBe(false);
  });

  test('after a scan: skips until the oldest resident object passes the grace period, per segment', () => {
    const gate = new TrimGate();
    gate.scanned(3, 500, 100);
    expect(gate.canSkip('LOCAL', 1_500, GRACE, 3)).toBe(true); // 1 000 idle: not longer than the grace period
    expect(gate.canSkip('LOCAL', 1_501, GRACE, 3)).toBe(false);
    expect(gate.canSkip('NON_LOCAL', 1_100, GRACE, 3)).toBe(true);
    expect(gate.canSkip('NON_LOCAL', 1_101, GRACE, 3)).toBe(false);
  });

  test('a release since the scan means a scan (it forgets released objects)', () => {
    const gate = new TrimGate();
    gate.scanned(3, 500, 500);
    expect(gate.canSkip('LOCAL', 600, GRACE, 4)).toBe(false);
  });

  test('a segment with nothing resident always skips; an object made resident lowers the bound', () => {
    const gate = new TrimGate();
    gate.scanned(0, Infinity, Infinity);
    expect(gate.canSkip('LOCAL', 1e12, GRACE, 0)).toBe(true);
    gate.admit('LOCAL', 2_000);
    expect(gate.canSkip('LOCAL', 3_000, GRACE, 0)).toBe(true);
    expect(gate.canSkip('LOCAL', 3_001, GRACE, 0)).toBe(false);
    // Tracked while resident, never used: -Infinity, so the next trim scans.
    gate.admit('NON_LOCAL', -Infinity);
    expect(gate.canSkip('NON_LOCAL', 0, GRACE, 0)).toBe(false);
    // A newer use does not raise a bound: only a scan does.
    gate.admit('LOCAL', 9_000);
    expect(gate.bound('LOCAL')).toBe(2_000);
  });

  test('a clock that goes back drops the bounds (objects would be stamped below them)', () => {
    const gate = new TrimGate();
    gate.tick(5_000);
    gate.scanned(0, 5_000, 5_000);
    gate.tick(5_000);
    expect(gate.canSkip('LOCAL', 5_000, GRACE, 0)).toBe(true);
    gate.tick(4_000);
    expect([gate.bound('LOCAL'), gate.bound('NON_LOCAL')]).toEqual([-Infinity, -Infinity]);
    expect(gate.canSkip('LOCAL', 4_000, GRACE, 0)).toBe(false);
  });
});
