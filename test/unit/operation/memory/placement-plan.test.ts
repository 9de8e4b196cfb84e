/**
 * planPlacement (src/memory/placement-plan.ts): which LOCAL-preferring heaps the emulated OS demotes
 * to NON_LOCAL, on hand-made cases whose answers are worked out in the comments, then on random
 * cases against its invariants (re-planning moves nothing; pools never overflow; LOCAL is over
 * budget only when NON_LOCAL cannot take more; no improving swap is left).
 */
import { describe, expect, test } from 'vitest';
import {
  planPlacement,
  type Place,
  type PlacementCandidate,
  type PlacementRoom,
} from '../../../../src/memory/placement-plan.js';
import { random } from '../../../../bench/suite/paging-trace.js';

const P = { MINIMUM: 0x28000000, LOW: 0x50000000, NORMAL: 0x78000000, HIGH: 0xa0010000 } as const;
/** One page: sizes are in pages here. */
/** `at` 'NEW': being made resident (an explicit undefined would take the default). */
const c = (bytes: number, priority: number, stamp: number, at: Place | 'NEW' = 'LOCAL'): PlacementCandidate => ({
  bytes,
  priority,
  stamp,
  at: at === 'NEW' ? undefined : at,
});
const room = (
  localBudget: number,
  localPool: number,
  nonLocalBudget: number,
  nonLocalPool = nonLocalBudget,
): PlacementRoom => ({ localBudget, localPool, nonLocalBudget, nonLocalPool });

describe('planPlacement: hand-made cases', () => {
  test('within budget with nothing demoted: everyone stays, a new heap goes to LOCAL', () => {
    expect(planPlacement([c(2, P.LOW, 1), c(3, P.HIGH, 2), c(1, P.NORMAL, 3, 'NEW')], room(8, 10, 10))).toEqual([
      'LOCAL',
      'LOCAL',
      'LOCAL',
    ]);
  });

  test('over budget: the lowest priority goes first, then the next, until LOCAL fits', () => {
    // Budget 5, usage 8: LOW (1) alone leaves 7, so NORMAL (2) goes too: 5.
    const plan = planPlacement([c(2, P.NORMAL, 1), c(1, P.LOW, 2), c(3, P.HIGH, 3), c(2, P.HIGH, 4)], room(5, 10, 10));
    expect(plan).toEqual(['NON_LOCAL', 'NON_LOCAL', 'LOCAL', 'LOCAL']);
    // Budget 6: the same two leave (5), then LOW fits what is left and comes back (6): LOCAL holds
    // as much as the budget allows, and NORMAL cannot displace LOW (3 + 2 + 2 > 6).
    expect(
      planPlacement([c(2, P.NORMAL, 1), c(1, P.LOW, 2), c(3, P.HIGH, 3), c(2, P.HIGH, 4)], room(6, 10, 10)),
    ).toEqual(['NON_LOCAL', 'LOCAL', 'LOCAL', 'LOCAL']);
  });

  test('within one priority the least recently made resident goes first', () => {
    // Three NORMAL heaps of 2, budget 4: stamp 1 (oldest) goes.
    expect(planPlacement([c(2, P.NORMAL, 3), c(2, P.NORMAL, 1), c(2, P.NORMAL, 2)], room(4, 10, 10))).toEqual([
      'LOCAL',
      'NON_LOCAL',
      'LOCAL',
    ]);
  });

  test('a MINIMUM heap made resident next to HIGH ones lands demoted; a HIGH one displaces the oldest NORMAL', () => {
    expect(planPlacement([c(4, P.HIGH, 1), c(4, P.HIGH, 2), c(2, P.MINIMUM, 3, 'NEW')], room(8, 8, 8))).toEqual([
      'LOCAL',
      'LOCAL',
      'NON_LOCAL',
    ]);
    // Pool full of NORMAL; the new HIGH heap cannot get LOCAL pages at first (phase 0 puts it in NON_LOCAL),
    // then displaces the oldest NORMAL heap (phase C).
    expect(planPlacement([c(4, P.NORMAL, 1), c(4, P.NORMAL, 2), c(4, P.HIGH, 3, 'NEW')], room(8, 8, 8))).toEqual([
      'NON_LOCAL',
      'LOCAL',
      'LOCAL',
    ]);
  });

  test('no NON_LOCAL room: LOCAL stays over budget while its pool has pages; past the pool the plan fails', () => {
    expect(planPlacement([c(4, P.NORMAL, 1), c(3, P.NORMAL, 2, 'NEW')], room(6, 8, 0))).toEqual(['LOCAL', 'LOCAL']);
    expect(planPlacement([c(4, P.NORMAL, 1), c(5, P.NORMAL, 2, 'NEW')], room(6, 8, 0))).toBeUndefined();
    // With room for the new heap in NON_LOCAL it lands there.
    expect(planPlacement([c(4, P.NORMAL, 1), c(5, P.NORMAL, 2, 'NEW')], room(6, 8, 5))).toEqual(['LOCAL', 'NON_LOCAL']);
  });

  test('a new heap too large for either free space gets LOCAL pages once smaller heaps are demoted', () => {
    // LOCAL pool 8 holds 4 + 3 (1 free); NON_LOCAL room 3; the new heap needs 4: demoting the 3 (oldest) frees enough.
    expect(planPlacement([c(3, P.NORMAL, 1), c(4, P.NORMAL, 2), c(4, P.NORMAL, 3, 'NEW')], room(8, 8, 3))).toEqual([
      'NON_LOCAL',
      'LOCAL',
      'LOCAL',
    ]);
  });

  test('promotion when room returns: highest priority first, each that fits', () => {
    // Budget 6 with 2 used; demoted: LOW 1 (stamp 1), NORMAL 3 (stamp 3).
    // NORMAL 3 fits (5), then LOW 1 (6).
    expect(
      planPlacement([c(2, P.NORMAL, 0), c(1, P.LOW, 1, 'NON_LOCAL'), c(3, P.NORMAL, 3, 'NON_LOCAL')], room(6, 10, 10)),
    ).toEqual(['LOCAL', 'LOCAL', 'LOCAL']);
    // With a demoted HIGH 5 too: it does not fit (7) while NORMAL 3 and LOW 1 come back, but it
    // displaces lower heaps, lowest and oldest first (LOW 1, NORMAL 2, NORMAL 3: 5 + 5 = 10 > 6,
    // 5 + 3 = 8, 5 + 0 = 5); then LOW 1 fits what is left (6).
    const plan = planPlacement(
      [c(2, P.NORMAL, 0), c(1, P.LOW, 1, 'NON_LOCAL'), c(5, P.HIGH, 2, 'NON_LOCAL'), c(3, P.NORMAL, 3, 'NON_LOCAL')],
      room(6, 10, 10),
    );
    expect(plan).toEqual(['NON_LOCAL', 'LOCAL', 'LOCAL', 'NON_LOCAL']);
  });

  test('a raised priority swaps: the demoted heap returns, the lowest LOCAL ones leave', () => {
    // LOCAL full to its budget with NORMAL 2 (stamp 1) and NORMAL 2 (stamp 2); HIGH 2 demoted.
    expect(planPlacement([c(2, P.NORMAL, 1), c(2, P.NORMAL, 2), c(2, P.HIGH, 3, 'NON_LOCAL')], room(4, 8, 8))).toEqual([
      'NON_LOCAL',
      'LOCAL',
      'LOCAL',
    ]);
    // Equal priority never swaps.
    expect(
      planPlacement([c(2, P.NORMAL, 1), c(2, P.NORMAL, 2), c(2, P.NORMAL, 3, 'NON_LOCAL')], room(4, 8, 8)),
    ).toEqual(['LOCAL', 'LOCAL', 'NON_LOCAL']);
  });

  test('heaps native to NON_LOCAL need its pages: demoted heaps go back to LOCAL, over budget if they must', () => {
    // NON_LOCAL pool room for candidates shrank to 1: the demoted 2 goes back although LOCAL is then over budget.
    expect(planPlacement([c(4, P.NORMAL, 1), c(2, P.LOW, 2, 'NON_LOCAL')], room(4, 8, 8, 1))).toEqual([
      'LOCAL',
      'LOCAL',
    ]);
    // And if LOCAL's pool cannot take it either, nothing can be done.
    expect(planPlacement([c(7, P.NORMAL, 1), c(2, P.LOW, 2, 'NON_LOCAL')], room(4, 8, 8, 1))).toBeUndefined();
  });
});

describe('planPlacement: invariants on random cases', () => {
  test('re-planning the result moves nothing; pools hold; over budget only without NON_LOCAL room; no improving swap', () => {
    const priorities = Object.values(P);
    let planned = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const next = random(seed);
      const count = 1 + Math.floor(next() * 9);
      const candidates: PlacementCandidate[] = [];
      for (let i = 0; i < count; i++) {
        const roll = next();
        const at: Place | undefined = roll < 0.25 ? undefined : roll < 0.5 ? 'NON_LOCAL' : 'LOCAL';
        candidates.push(
          c(1 + Math.floor(next() * 4), priorities[Math.floor(next() * priorities.length)] as number, i + 1, at),
        );
      }
      const held = (place: Place): number => candidates.filter((x) => x.at === place).reduce((s, x) => s + x.bytes, 0);
      const localPool = held('LOCAL') + Math.floor(next() * 6);
      const nonLocalPool = held('NON_LOCAL') + Math.floor(next() * 6);
      const r = room(Math.floor(next() * (localPool + 1)), localPool, Math.floor(next() * 12), nonLocalPool);
      const plan = planPlacement(candidates, r);
      if (!plan) continue;
      planned++;
      const sum = (place: Place): number => candidates.reduce((s, x, i) => s + (plan[i] === place ? x.bytes : 0), 0);
      const where = `seed ${seed}`;
      expect(sum('LOCAL'), where).toBeLessThanOrEqual(r.localPool);
      expect(sum('NON_LOCAL'), where).toBeLessThanOrEqual(r.nonLocalPool);
      const nonLocalRoom = Math.min(r.nonLocalBudget, r.nonLocalPool);
      if (sum('LOCAL') > r.localBudget) {
        // Every LOCAL heap is too big for what is left of the NON_LOCAL room.
        for (let i = 0; i < count; i++)
          if (plan[i] === 'LOCAL')
            expect(sum('NON_LOCAL') + (candidates[i] as PlacementCandidate).bytes, where).toBeGreaterThan(nonLocalRoom);
      }
      const again = planPlacement(
        candidates.map((x, i) => ({ ...x, at: plan[i] })),
        r,
      );
      expect(again, `${where}: ${JSON.stringify({ candidates, r, plan })}`).toEqual(plan);
      // No demoted heap fits the LOCAL budget as it is.
      for (let i = 0; i < count; i++) {
        if (plan[i] === 'NON_LOCAL')
          expect(sum('LOCAL') + (candidates[i] as PlacementCandidate).bytes, where).toBeGreaterThan(
            Math.min(r.localBudget, r.localPool),
          );
      }
    }
    expect(planned).toBeGreaterThan(1500);
  });
});
