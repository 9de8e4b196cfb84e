// Asserts a scenario's checks in either test project: every comparison found no difference.
import { expect } from 'vitest';
import type { Check } from './page-table-model.js';

export function expectChecks(checks: Check[]): void {
  expect(checks.length).toBeGreaterThan(0);
  for (const c of checks) {
    expect(c.firstDifference, `${c.name}: byte ${c.firstDifference} of ${c.length} is ${c.actual}, predicted ${c.expected}`).toBe(-1);
  }
}
