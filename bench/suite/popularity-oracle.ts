/**
 * The popularity oracle: an online policy told what the popular-sets generator knows (synthetic-traces.ts),
 * the true draw weight of every set and the frame where the ranking changes. It evicts the resident
 * heap whose set is least likely to be drawn under the weights in force at the frame (among equals,
 * the least recently used, then the larger, then the lower id, so the result is deterministic).
 *
 * Why it is the yardstick for an online policy on these traces: sets are drawn by fixed weights
 * (within a phase), close to the independent reference model, under which evicting what is least
 * likely to be referenced next (Aho, Denning & Ullman's A0, 1971) is the optimal online policy for
 * objects of one size. Here sets vary in size, stay drawn for several frames and are drawn only
 * among those not held, so it is a yardstick, not a bound: "within 1.05× of the oracle" says the
 * manager learns the popularity, and after a shift relearns it, about as well as knowing it would
 * let it choose. MIN (which sees the future, not just the odds) stays the figure's baseline.
 */
import { replay, type PagingResult, type Trace } from './paging-trace.js';
import type { Popularity } from './synthetic-traces.js';

/** Replays `trace` under `budget` bytes, evicting as the oracle of `popularity` chooses. */
export function popularityOracle(trace: Trace, popularity: Popularity, budget: number): PagingResult {
  const { groupSize, phases } = popularity;
  if (!Number.isInteger(groupSize) || groupSize < 1)
    throw new RangeError(`groupSize must be a positive integer, got ${groupSize}`);
  if (phases.length === 0 || phases[0]?.fromFrame !== 0) throw new RangeError('the first phase must start at frame 0');
  const lastUse = new Map<number, number>();
  const size = (id: number): number => trace.sizes[id] ?? 0;
  let phase = 0;
  let weights = phases[0].weights;
  const weight = (id: number): number => weights[Math.floor(id / groupSize)] ?? 0;
  return replay(trace, budget, {
    beforeFrame(frame, ids) {
      // The oracle knows the shift: from its frame on, the new weights decide.
      while (phase + 1 < phases.length && (phases[phase + 1]?.fromFrame ?? Infinity) <= frame) {
        phase++;
        weights = phases[phase]?.weights ?? weights;
      }
      for (const id of ids) lastUse.set(id, frame);
    },
    choose(candidates) {
      let best = candidates[0] as number;
      for (const id of candidates.slice(1)) {
        const [w, bestW] = [weight(id), weight(best)];
        const [used, bestUsed] = [lastUse.get(id) ?? -1, lastUse.get(best) ?? -1];
        const better =
          w < bestW ||
          (w === bestW &&
            (used < bestUsed ||
              (used === bestUsed && (size(id) > size(best) || (size(id) === size(best) && id < best)))));
        if (better) best = id;
      }
      return best;
    },
  });
}
