/**
 * Where the emulated OS keeps each resident heap that prefers video memory (LOCAL): in LOCAL, or
 * demoted to system memory (NON_LOCAL), as Windows' video memory manager does when a process is
 * over its LOCAL budget. Pure arithmetic over sizes, priorities and stamps; the device moves the
 * pages (src/emulator/heap-placement.ts).
 *
 * Sources: Microsoft's "Residency" page (learn.microsoft.com/windows/win32/direct3d12/residency,
 * section "Residency priorities"): since the Creators Update, priorities let an application influence
 * "which heaps and resources will be preferred to stay resident when memory pressure requires that
 * some of its resources be demoted"; Vulkan's VK_EXT_pageable_device_local_memory (what D3D12 on
 * Linux builds on) likewise "may transparently move device-local memory allocations to host-local
 * memory", higher-priority allocations being "more likely to stay in device-local memory".
 *
 * Keep order: higher priority first; within one priority the more recently made resident first (the
 * emulator's choice: D3D12 leaves it to the OS). Demotion order is the reverse. The plan, in phases:
 *   N. when heaps native to NON_LOCAL need its pages and demoted heaps hold them, demoted heaps go
 *      back to LOCAL (keep order) while its pool has pages, even over its budget;
 *   0. a heap being made resident goes to LOCAL if its pool has pages, else to NON_LOCAL if there is
 *      room there, else LOCAL heaps (demotion order) are demoted until its pages are free;
 *      else the plan fails (E_OUTOFMEMORY for the caller);
 *   A. while LOCAL usage is over the budget, LOCAL heaps are demoted in demotion order, each one that
 *      fits the NON_LOCAL room (skipping ones that do not);
 *   B. demoted heaps are promoted in keep order, each that fits the LOCAL budget and pool;
 *   C. a demoted heap displaces LOCAL heaps of strictly lower priority (lowest, oldest first) when
 *      demoting them makes it fit and they fit the NON_LOCAL room;
 *   A, B and C repeat until a round moves nothing.
 * "NON_LOCAL room" is the smaller of the NON_LOCAL pool and what is left of its budget: demotion
 * never takes a process over its system-memory budget (a heap already there stays).
 *
 * Invariants: the result is a function of the candidates and room only; applied and planned again it
 * moves nothing; LOCAL is over its budget only when the NON_LOCAL room cannot take the difference;
 * sizes placed in a segment never exceed its pool.
 */

export type Place = 'LOCAL' | 'NON_LOCAL';

export interface PlacementCandidate {
  /** Whole pages, in bytes. */
  readonly bytes: number;
  /** D3D12_RESIDENCY_PRIORITY. */
  readonly priority: number;
  /** Higher: made resident more recently. Distinct per candidate. */
  readonly stamp: number;
  /** Where its bytes are now; undefined: being made resident (it needs pages). */
  readonly at: Place | undefined;
}

/** Bytes the candidates together may hold. */
export interface PlacementRoom {
  /** In LOCAL within its budget. */
  localBudget: number;
  /** In the LOCAL pool: its free pages and the candidates' own. */
  localPool: number;
  /** In NON_LOCAL within its budget (what heaps native to NON_LOCAL leave). */
  nonLocalBudget: number;
  /** In the NON_LOCAL pool: its free pages and the candidates' own, less what native heaps now need. */
  nonLocalPool: number;
}

/** Each candidate's segment, in the candidates' order; undefined when a heap being made resident fits nowhere. */
export function planPlacement(candidates: readonly PlacementCandidate[], room: PlacementRoom): Place[] | undefined {
  const n = candidates.length;
  const place: (Place | undefined)[] = candidates.map((c) => c.at);
  const bytes = (i: number): number => (candidates[i] as PlacementCandidate).bytes;
  const keep = Array.from({ length: n }, (_, i) => i).sort((a, b) => {
    const [x, y] = [candidates[a] as PlacementCandidate, candidates[b] as PlacementCandidate];
    return y.priority - x.priority || y.stamp - x.stamp;
  });
  const demotion = [...keep].reverse();
  let local = 0;
  let nonLocal = 0;
  for (let i = 0; i < n; i++) {
    if (place[i] === 'LOCAL') local += bytes(i);
    else if (place[i] === 'NON_LOCAL') nonLocal += bytes(i);
  }
  const nonLocalRoom = Math.min(room.nonLocalBudget, room.nonLocalPool);
  const localRoom = Math.min(room.localBudget, room.localPool);
  const move = (i: number, to: Place): void => {
    if (place[i] === 'LOCAL') local -= bytes(i);
    else if (place[i] === 'NON_LOCAL') nonLocal -= bytes(i);
    place[i] = to;
    if (to === 'LOCAL') local += bytes(i);
    else nonLocal += bytes(i);
  };

  // N: native NON_LOCAL heaps come first in their own segment.
  for (const i of keep) {
    if (nonLocal <= room.nonLocalPool) break;
    if (place[i] === 'NON_LOCAL' && local + bytes(i) <= room.localPool) move(i, 'LOCAL');
  }
  if (nonLocal > room.nonLocalPool) return undefined;

  // 0: heaps being made resident.
  for (const i of keep) {
    if (place[i] !== undefined) continue;
    const size = bytes(i);
    if (local + size <= room.localPool) move(i, 'LOCAL');
    else if (nonLocal + size <= nonLocalRoom) move(i, 'NON_LOCAL');
    else {
      for (const j of demotion) {
        if (local + size <= room.localPool) break;
        if (place[j] === 'LOCAL' && nonLocal + bytes(j) <= nonLocalRoom) move(j, 'NON_LOCAL');
      }
      if (local + size > room.localPool) return undefined;
      move(i, 'LOCAL');
    }
  }

  // A, B and C until none of them moves anything: after the first round A has nothing left to do
  // (B and C never take LOCAL over its budget), and every move of B or C adds a heap to LOCAL,
  // removing only heaps of lower priority, so LOCAL's priorities (sorted, compared element by
  // element) only grow: the rounds end. The bound is a guard, never reached.
  for (let round = 0, moved = true; moved && round <= 4 * n + 4; round++) {
    moved = false;
    // A: demote, lowest first, until LOCAL fits its budget.
    for (const i of demotion) {
      if (local <= room.localBudget) break;
      if (place[i] === 'LOCAL' && nonLocal + bytes(i) <= nonLocalRoom) {
        move(i, 'NON_LOCAL');
        moved = true;
      }
    }
    // B: promote, highest first, each that fits.
    for (const i of keep) {
      if (place[i] === 'NON_LOCAL' && local + bytes(i) <= localRoom) {
        move(i, 'LOCAL');
        moved = true;
      }
    }
    // C: a demoted heap displaces lower-priority LOCAL heaps (lowest, oldest first) when that makes it fit.
    for (const d of keep) {
      if (place[d] !== 'NON_LOCAL') continue;
      const priority = (candidates[d] as PlacementCandidate).priority;
      const victims: number[] = [];
      let freed = 0;
      for (const v of demotion) {
        if (local - freed + bytes(d) <= localRoom) break;
        if (place[v] === 'LOCAL' && (candidates[v] as PlacementCandidate).priority < priority) {
          victims.push(v);
          freed += bytes(v);
        }
      }
      if (local - freed + bytes(d) > localRoom || nonLocal - bytes(d) + freed > nonLocalRoom) continue;
      for (const v of victims) move(v, 'NON_LOCAL');
      move(d, 'LOCAL');
      moved = true;
    }
  }
  return place as Place[];
}
