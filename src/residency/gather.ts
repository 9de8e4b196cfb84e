/**
 * The one pass over a batch's residency sets (ResidencyManager.executeCommandLists): each tracked
 * object once, and the bytes the batch needs and misses per segment. A single non-empty set is used
 * as it is (its members are unique already); several are de-duplicated with a per-object mark.
 *
 * Invariants: nothing but the objects' `gathered` marks changes, so a refusal leaves the manager as
 * it was; a set is looked through for released objects only when Device.getReleaseCount() moved
 * since it opened (insert refuses objects released before).
 */
import { invalidArg } from '../api/errors.js';
import type { ManagedObject } from './managed-object.js';
import type { ResidencySet } from './residency-set.js';

export interface Gathered {
  /** Read only: with a single set this is the set's own array. */
  objects: readonly ManagedObject[];
  needsLocal: number;
  needsNonLocal: number;
  missingLocal: number;
  missingNonLocal: number;
}

/**
 * Each tracked object of `sets` once, with the bytes the batch needs and misses per segment. With
 * `call`, refuses a set holding a released object, changing nothing but scratch marks; a set is
 * looked through for released objects only when something was released since it opened.
 */
export function gatherSets(sets: readonly (ResidencySet | null)[], call: string | null, releases: number, mark: number): Gathered {
  if (call !== null) {
    for (let i = 0; i < sets.length; i++) {
      const set = sets[i];
      if (!set || set.releasesAtOpen === releases) continue;
      for (const managed of set.objects()) {
        if (managed.tracked && managed.released) throw invalidArg(call, `residencySets[${i}]`, `holds ${managed.label}, which was released (endTrackingObject before release)`);
      }
    }
  }
  let only: ResidencySet | undefined;
  let nonEmpty = 0;
  for (const set of sets) {
    if (set && set.size > 0) {
      only = set;
      nonEmpty++;
    }
  }
  // One set holds each object once already: no marks, no copy (the common case: a list per call),
  // unless it holds an object no longer tracked.
  if (nonEmpty === 1) {
    const single = sumSingle((only as ResidencySet).objects());
    if (single) return single;
  }
  const objects: ManagedObject[] = [];
  const sums = { needsLocal: 0, needsNonLocal: 0, missingLocal: 0, missingNonLocal: 0 };
  for (const set of sets) {
    const members = set?.objects();
    if (!members) continue;
    for (let j = 0; j < members.length; j++) {
      const managed = members[j] as ManagedObject;
      if (managed.gathered === mark || !managed.tracked) continue;
      managed.gathered = mark;
      objects.push(managed);
      if (managed.segment === 'LOCAL') {
        sums.needsLocal += managed.size;
        if (!managed.resident) sums.missingLocal += managed.size;
      } else {
        sums.needsNonLocal += managed.size;
        if (!managed.resident) sums.missingNonLocal += managed.size;
      }
    }
  }
  return { objects, ...sums };
}

/** gather for one set: its members as they are, or undefined if one is no longer tracked. */
function sumSingle(members: readonly ManagedObject[]): Gathered | undefined {
  let needsLocal = 0;
  let needsNonLocal = 0;
  let missingLocal = 0;
  let missingNonLocal = 0;
  for (let j = 0; j < members.length; j++) {
    const managed = members[j] as ManagedObject;
    if (!managed.tracked) return undefined;
    if (managed.segment === 'LOCAL') {
      needsLocal += managed.size;
      if (!managed.resident) missingLocal += managed.size;
    } else {
      needsNonLocal += managed.size;
      if (!managed.resident) missingNonLocal += managed.size;
    }
  }
  return { objects: members, needsLocal, needsNonLocal, missingLocal, missingNonLocal };
}

