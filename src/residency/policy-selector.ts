/**
 * PolicySelector: which victim policy (victim-policies.ts: RECENT, PREDICTED, FREQUENT) the
 * residency manager follows in one memory segment, chosen by shadow caches: each
 * policy is replayed on the same uses under the same budget, and the manager follows the one that
 * would have paged in the fewest bytes lately. No one order wins everywhere: a camera walk rewards
 * recency, a cyclic scan keeping a stable subset, popular sets frequency (counted afresh after a
 * shift of popularity: popularity.ts); the shadows find which the workload is, and
 * follow it when it changes. This is the miniature-simulation way of choosing a cache policy online
 * (Waldspurger et al., "Cache Modeling and Optimization using Miniature Simulations", USENIX ATC
 * 2017), here with every object simulated, as the manager knows them all.
 *
 * Policy p's shadow is bit p of each record's SHADOWS (the objects it would hold) and usage[p] (their
 * bytes). `update` runs when the manager must evict in the segment, and only then:
 *   1. every tracked object of the segment used since the last update and missing from p's shadow
 *      is a miss of p (its bytes) and joins the shadow. Looking here rather than at each use keeps
 *      the batch path free of shadow work, and counts the same: between updates a shadow only gains
 *      objects, so an object misses in it at most once;
 *   2. each shadow over the budget evicts in its own policy's order (the batch's objects excepted)
 *      until it fits;
 *   3. miss bytes decay with a half-life of MISS_HALF_LIFE batches; the manager moves to the policy
 *      with the fewest only when that one missed SWITCH_MARGIN × budget bytes fewer than the current,
 *      so it does not swap between policies that do about as well (each swap leaves a cache that
 *      neither policy would hold).
 * The shadows compare policies, they are not the cache: they leave out residency priority, trimming
 * and heaps the device keeps in (mapped), which weigh on every policy alike.
 *
 * Invariants: usage[p] is the bytes of the tracked objects of the segment with bit p set (forget
 * keeps it so when an object stops being tracked); free indices (SHADOWS -1) are skipped; `chosen`
 * changes only in `update`; the cost of an update is O(n) in the table plus, per shadow over budget,
 * O(s + k log s) for its s objects and k victims.
 */
import {
  FLAGS,
  LAST_BATCH,
  NON_LOCAL_BIT,
  POLICY_RECORD,
  RECORD,
  SHADOWS,
  SIZE,
  type ObjectTable,
} from './object-table.js';
import { POLICY_COUNT, RECENT, policyQueue, type PolicyContext } from './victim-policies.js';

/**
 * Batches for a miss to count half: the choice follows the last few hundred batches of paging.
 * On the policy figure (seeds 1–15, bytes summed over the seeds; measured again with the four
 * policies) 100 and 1,000 page within 0.5 % of 300 on every trace.
 */
export const MISS_HALF_LIFE = 300;
/**
 * Missed bytes, as a share of the budget, by which another policy must lead before the manager
 * follows it. Measured on the policy figure (seeds 1–15, four policies): with no margin the camera
 * walk, where RECENT and PREDICTED are close, swaps between them and pages 0.5–0.8 % more (one seed
 * 2.2 % more than LRU); 0.1 and 0.25 page within 0.3 % of each other everywhere; 0.5 switches late
 * and pages 1–1.5 % more on the camera walk, the phase shift and the cyclic scan at 2× the budget.
 * Again with three policies (FREQUENT finding shifts itself): 0.1 and 0.05 page within 0.3 % of
 * 0.25 on every trace, and 0.05 lets the camera walk's seed 13 at 2× page 1.4 % more than LRU.
 */
export const SWITCH_MARGIN = 0.25;
const ALL = (1 << POLICY_COUNT) - 1;

/**
 * The policy to follow after `chosen`, given each policy's missed bytes: the one with the fewest
 * (the first of equals) if it missed SWITCH_MARGIN × budget fewer than `chosen`, else `chosen`.
 */
export function nextChoice(misses: ArrayLike<number>, chosen: number, budget: number): number {
  let best = 0;
  for (let p = 1; p < misses.length; p++) if ((misses[p] as number) < (misses[best] as number)) best = p;
  return (misses[best] as number) < (misses[chosen] as number) - SWITCH_MARGIN * budget ? best : chosen;
}

export class PolicySelector {
  /** The policy the manager follows now: RECENT (LRU-like) until the shadows say otherwise. */
  chosen = RECENT;
  private readonly usage = new Float64Array(POLICY_COUNT);
  private readonly misses = new Float64Array(POLICY_COUNT);
  private decayedAt = 0;
  /** Uses up to this batch are counted. */
  private accounted = 0;
  private scratch = new Int32Array(64);

  constructor(private readonly nonLocal: boolean) {}

  /** Decayed miss bytes of each policy (for tests and stats). */
  missedBytes(): number[] {
    return Array.from(this.misses);
  }

  /** Bytes in each policy's shadow. */
  shadowBytes(): number[] {
    return Array.from(this.usage);
  }

  /** The object at `index` stops being tracked: it leaves the shadows (call before the table releases it). */
  forget(table: ObjectTable, index: number): void {
    const at = index * POLICY_RECORD + SHADOWS;
    const bits = table.policy[at] as number;
    if (bits <= 0 || table.isNonLocal(index) !== this.nonLocal) return;
    const size = table.data[index * RECORD + SIZE] as number;
    for (let p = 0; p < POLICY_COUNT; p++) if (bits & (1 << p)) this.usage[p] = (this.usage[p] as number) - size;
    table.policy[at] = 0;
  }

  /** Brings the shadows up to `context.batch` under `budget` and returns the policy to follow. */
  update(context: PolicyContext, budget: number): number {
    const { table, batch } = context;
    const { misses, usage } = this;
    const decay = 2 ** (-(batch - this.decayedAt) / MISS_HALF_LIFE);
    for (let p = 0; p < POLICY_COUNT; p++) misses[p] = (misses[p] as number) * decay;
    this.decayedAt = batch;
    const data = table.data;
    const shadows = table.policy;
    const n = table.highWater;
    for (let i = 0; i < n; i++) {
      const bits = shadows[i * POLICY_RECORD + SHADOWS] as number;
      if (bits < 0 || bits === ALL) continue;
      const at = i * RECORD;
      if (
        (data[at + LAST_BATCH] as number) <= this.accounted ||
        (((data[at + FLAGS] as number) & NON_LOCAL_BIT) !== 0) !== this.nonLocal
      )
        continue;
      const size = data[at + SIZE] as number;
      for (let p = 0; p < POLICY_COUNT; p++) {
        if (bits & (1 << p)) continue;
        misses[p] = (misses[p] as number) + size;
        usage[p] = (usage[p] as number) + size;
      }
      shadows[i * POLICY_RECORD + SHADOWS] = ALL;
    }
    this.accounted = batch;
    for (let p = 0; p < POLICY_COUNT; p++) if ((usage[p] as number) > budget) this.evict(p, context, budget);
    this.chosen = nextChoice(misses, this.chosen, budget);
    return this.chosen;
  }

  /** Evicts from policy p's shadow, in p's order, until it fits `budget`. */
  private evict(p: number, context: PolicyContext, budget: number): void {
    const { table, batch } = context;
    const data = table.data;
    const shadows = table.policy;
    const bit = 1 << p;
    const n = table.highWater;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const bits = shadows[i * POLICY_RECORD + SHADOWS] as number;
      if (bits < 0 || (bits & bit) === 0) continue;
      const at = i * RECORD;
      if (
        (data[at + LAST_BATCH] as number) === batch ||
        (((data[at + FLAGS] as number) & NON_LOCAL_BIT) !== 0) !== this.nonLocal
      )
        continue;
      if (count === this.scratch.length) {
        const grown = new Int32Array(count * 2);
        grown.set(this.scratch);
        this.scratch = grown;
      }
      this.scratch[count++] = i;
    }
    const candidates = this.scratch;
    const queue = policyQueue(p, candidates, count, null, context);
    for (let position = queue.next(); position >= 0 && (this.usage[p] as number) > budget; position = queue.next()) {
      const index = candidates[position] as number;
      shadows[index * POLICY_RECORD + SHADOWS] = (shadows[index * POLICY_RECORD + SHADOWS] as number) & ~bit;
      this.usage[p] = (this.usage[p] as number) - (data[index * RECORD + SIZE] as number);
    }
  }
}
