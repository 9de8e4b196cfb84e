/**
 * Resource state tracking, as the D3D12 debug layer does it: each subresource has a global state
 * (from creation, changed by each executed command list in call order); each command list tracks
 * what it knows locally. A list's first access to a subresource whose state it does not know yet
 * becomes an expectation, checked against the global state when the list is executed.
 *
 * Implicit promotion and decay (D3D12 "Implicit state transitions"):
 *   - from COMMON, buffers and simultaneous-access textures are promoted to any state on first use;
 *     other textures only to COPY_SOURCE, COPY_DEST, NON_PIXEL_SHADER_RESOURCE, PIXEL_SHADER_RESOURCE;
 *     a resource promoted to read states may be promoted to further read states;
 *   - when ExecuteCommandLists completes, buffers, simultaneous-access textures, resources used on a
 *     COPY queue and subresources promoted to read-only states decay to COMMON.
 */
import { RESOURCE_STATE_BITS as S } from './types.js';
import { WRITE_STATE_BITS } from '../validation/resource-state.js';
import type { Resource } from './resource.js';
import { invalidArg, type D3D12Error } from './errors.js';
import type { CommandListType } from './types.js';

/** D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES. */
export const ALL_SUBRESOURCES = 0xffffffff;

const TEXTURE_PROMOTABLE = S.COPY_SOURCE | S.COPY_DEST | S.NON_PIXEL_SHADER_RESOURCE | S.PIXEL_SHADER_RESOURCE;

export function stateNames(bits: number): string {
  if (bits === 0) return 'COMMON';
  if (bits === S.GENERIC_READ) return 'GENERIC_READ';
  const singles = Object.entries(S).filter(([name, bit]) => bit !== 0 && (bit & (bit - 1)) === 0 && name !== 'PREDICATION');
  return singles.filter(([, bit]) => (bits & bit) === bit).map(([name]) => name).join('|');
}

export const subresourceCountOf = (resource: Resource): number => resource.layout.mipLevels * resource.layout.arraySize;

/** Buffers and simultaneous-access textures: promoted to anything, always decayed. */
const decaysAlways = (resource: Resource): boolean => resource.desc.dimension === 'BUFFER' || resource.desc.flags.includes('ALLOW_SIMULTANEOUS_ACCESS');

/** Whether a subresource in `state` may be implicitly promoted to include `access`. */
function promotable(resource: Resource, state: number, promotedRead: boolean, access: number): boolean {
  const allowed = decaysAlways(resource) ? ~0 : TEXTURE_PROMOTABLE;
  if ((access & allowed) !== access) return false;
  if (state === S.COMMON) return true;
  // Further read promotion of a subresource promoted to read states in this list.
  return promotedRead && (access & WRITE_STATE_BITS) === 0;
}

/** Whether `state` already allows `access` (a read bit it contains, or exactly the write state). */
const satisfies = (state: number, access: number): boolean => ((access & WRITE_STATE_BITS) !== 0 ? state === access : (state & access) === access);

type Expectation = { kind: 'exact'; state: number } | { kind: 'use'; access: number };

interface Tracked {
  /** The state this list has left the subresource in, when known. */
  states: (number | undefined)[];
  /** The first requirement on the subresource's state at the start of the list. */
  expected: (Expectation | undefined)[];
  /** Subresources whose current state came from implicit promotion to read states. */
  promotedRead: boolean[];
  /** The list's state still includes the unknown start state (no transition since the first use). */
  onTopOfStart: boolean[];
}

export interface StateProblem {
  commandIndex: number;
  resource: Resource;
  subresource: number;
  message: string;
}

/** One command list's view of resource states. */
export class ListStateTracker {
  private readonly tracked = new Map<Resource, Tracked>();

  /** A copy to change tentatively: a command that fails half way must leave the list's states as they were. */
  clone(): ListStateTracker {
    const copy = new ListStateTracker();
    for (const [resource, tracked] of this.tracked) {
      copy.tracked.set(resource, {
        states: [...tracked.states],
        expected: [...tracked.expected],
        promotedRead: [...tracked.promotedRead],
        onTopOfStart: [...tracked.onTopOfStart],
      });
    }
    return copy;
  }

  private entry(resource: Resource): Tracked {
    let tracked = this.tracked.get(resource);
    if (!tracked) {
      const count = subresourceCountOf(resource);
      tracked = {
        states: new Array<number | undefined>(count).fill(undefined),
        expected: new Array<Expectation | undefined>(count).fill(undefined),
        promotedRead: new Array<boolean>(count).fill(false),
        onTopOfStart: new Array<boolean>(count).fill(false),
      };
      this.tracked.set(resource, tracked);
    }
    return tracked;
  }

  private subresources(resource: Resource, subresource: number): number[] {
    const count = subresourceCountOf(resource);
    return subresource === ALL_SUBRESOURCES ? Array.from({ length: count }, (_, i) => i) : [subresource];
  }

  /** A transition barrier. Returns an error when the list already knows a different stateBefore. */
  transition(call: string, resource: Resource, subresource: number, before: number, after: number, apply: boolean): D3D12Error | undefined {
    if (resource.fixedState !== undefined) {
      return invalidArg(call, 'barriers', `${resource.label} stays in ${stateNames(resource.fixedState)} (resources in ${resource.heap?.desc.properties.type} heaps do) and cannot be transitioned`);
    }
    const tracked = this.entry(resource);
    for (const sub of this.subresources(resource, subresource)) {
      const known = tracked.states[sub];
      if (known !== undefined && known !== before) {
        return invalidArg(call, 'barriers', `${resource.label} subresource ${sub} is in ${stateNames(known)} at this point of the list, not in stateBefore ${stateNames(before)}`);
      }
    }
    for (const sub of this.subresources(resource, subresource)) {
      if (tracked.states[sub] === undefined && tracked.expected[sub] === undefined) tracked.expected[sub] = { kind: 'exact', state: before };
      tracked.states[sub] = apply ? after : before;
      tracked.promotedRead[sub] = false;
      tracked.onTopOfStart[sub] = false;
    }
    return undefined;
  }

  /** A command's access (COPY_SOURCE, COPY_DEST) to subresources; promotes where D3D12 does. */
  use(call: string, argument: string, resource: Resource, subresource: number, access: number): D3D12Error | undefined {
    const tracked = this.entry(resource);
    if (resource.fixedState !== undefined) {
      return satisfies(resource.fixedState, access)
        ? undefined
        : invalidArg(call, argument, `${resource.label} stays in ${stateNames(resource.fixedState)} and cannot be used as ${stateNames(access)} (resources in ${resource.heap?.desc.properties.type} heaps keep their state)`);
    }
    for (const sub of this.subresources(resource, subresource)) {
      const known = tracked.states[sub];
      if (known === undefined) {
        tracked.expected[sub] ??= { kind: 'use', access };
        tracked.states[sub] = access;
        tracked.promotedRead[sub] = (access & WRITE_STATE_BITS) === 0;
        tracked.onTopOfStart[sub] = true;
      } else if (satisfies(known, access)) {
        continue;
      } else if (promotable(resource, known, tracked.promotedRead[sub] ?? false, access)) {
        tracked.states[sub] = known | access;
        tracked.promotedRead[sub] = (access & WRITE_STATE_BITS) === 0;
      } else {
        return invalidArg(call, argument, `${resource.label} subresource ${sub} is in ${stateNames(known)} at this point of the list and cannot be used as ${stateNames(access)} without a transition barrier`);
      }
    }
    return undefined;
  }

  /** Checks the list's expectations against the global states (at ExecuteCommandLists). */
  check(): string | undefined {
    for (const [resource, tracked] of this.tracked) {
      for (let sub = 0; sub < tracked.expected.length; sub++) {
        const expectation = tracked.expected[sub];
        if (!expectation) continue;
        const global = resource.states[sub] ?? S.COMMON;
        if (expectation.kind === 'exact' && global !== expectation.state) {
          return `${resource.label} subresource ${sub} is in ${stateNames(global)}, but the list's first barrier says stateBefore ${stateNames(expectation.state)}`;
        }
        if (expectation.kind === 'use' && !satisfies(global, expectation.access) && !promotable(resource, global, false, expectation.access)) {
          return `${resource.label} subresource ${sub} is in ${stateNames(global)} and cannot be used as ${stateNames(expectation.access)} without a transition barrier`;
        }
      }
    }
    return undefined;
  }

  /** Applies the list's final states to the global states, then D3D12's decay rules. */
  apply(queueType: CommandListType): void {
    for (const [resource, tracked] of this.tracked) {
      for (let sub = 0; sub < tracked.states.length; sub++) {
        const state = tracked.states[sub];
        if (state === undefined) continue;
        const global = resource.states[sub] ?? S.COMMON;
        // A use without a transition leaves the start state in place (a read state it already had,
        // or the promotion from COMMON).
        const final = tracked.onTopOfStart[sub] && global !== S.COMMON ? global : state;
        // Promoted to read states (not merely used in a read state the resource already had).
        const promotedRead = (tracked.promotedRead[sub] ?? false) && !(tracked.onTopOfStart[sub] && global !== S.COMMON);
        const decays = decaysAlways(resource) || queueType === 'COPY' || promotedRead;
        resource.states[sub] = decays ? S.COMMON : final;
      }
    }
  }

  /** The resources the list touches (for checks that they are still alive). */
  resources(): Iterable<Resource> {
    return this.tracked.keys();
  }
}
