// Asserts a scenario's checks in either test project: every comparison found no difference.
import { expect } from 'vitest';
import { describeCheck, type Check } from '../../src/validate/index.js';

export function expectChecks(checks: Check[]): void {
  expect(checks.length).toBeGreaterThan(0);
  for (const c of checks) {
    expect(c.firstDifference, `${c.name}: ${describeCheck(c)}`).toBe(-1);
  }
}
