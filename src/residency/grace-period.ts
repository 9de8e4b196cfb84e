/**
 * The residency manager's trimming policy (d3dx12residency.h, ResidencyManager::GetCurrentBudget /
 * trim): with p = min(usage / budget, 1), nothing is trimmed for age while p <= 0.7; above that an
 * object idle for longer than the grace period is evicted, the period shrinking linearly from 60 s at
 * p = 0.7 to 1 s at p = 1. Trimming never takes usage below 70 % of the budget.
 */

/** The usage fraction below which nothing is trimmed for age. */
export const TRIM_THRESHOLD = 0.7;
export const MAX_GRACE_MS = 60_000;
export const MIN_GRACE_MS = 1_000;

/** The grace period (ms) at this usage and budget; Infinity when nothing is to be trimmed. */
export function gracePeriodMs(usage: number, budget: number): number {
  if (budget <= 0) return MIN_GRACE_MS;
  const pressure = Math.min(usage / budget, 1);
  if (pressure <= TRIM_THRESHOLD) return Infinity;
  return (MAX_GRACE_MS - MIN_GRACE_MS) * (1 - (pressure - TRIM_THRESHOLD) / (1 - TRIM_THRESHOLD)) + MIN_GRACE_MS;
}

/** The usage trimming stops at. */
export const trimFloor = (budget: number): number => budget * TRIM_THRESHOLD;
