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
 *   - when an ExecuteCommandLists call completes (not between the lists of one call), buffers,
 *     simultaneous-access textures, resources used on a COPY queue and subresources promoted to
 *     read-only states decay to COMMON.
 * UPLOAD and READBACK resources keep their state (GENERIC_READ, COPY_DEST): no barrier, no decay.
 */
import { RESOURCE_STATE_BITS as S, type ResourceStates } from '../api/types.js';
import { WRITE_STATE_BITS } from '../validation/resource-state.js';
import type { CheckedBarrier } from '../validation/command-list.js';
import type { Resource } from '../d3d12/resource.js';
import type { BackBuffer } from '../d3d12/swap-chain.js';
import { invalidArg, type D3D12Error } from '../api/errors.js';

/** D3D12_RESOURCE_BARRIER, by name. */
export type ResourceBarrier =
  | {
      type: 'TRANSITION';
      flags?: 'NONE' | 'BEGIN_ONLY' | 'END_ONLY';
      /** A resource, or a swap chain's back buffer (PRESENT / RENDER_TARGET transitions, as DXGI's buffers take). */
      transition: {
        resource: Resource | BackBuffer;
        subresource?: number;
        stateBefore: ResourceStates;
        stateAfter: ResourceStates;
      };
    }
  | { type: 'UAV'; flags?: 'NONE'; uav: { resource: Resource | null } }
  | { type: 'ALIASING'; flags?: 'NONE'; aliasing: { resourceBefore: Resource | null; resourceAfter: Resource | null } };

/** D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES. */
export const ALL_SUBRESOURCES = 0xffffffff;

const TEXTURE_PROMOTABLE = S.COPY_SOURCE | S.COPY_DEST | S.NON_PIXEL_SHADER_RESOURCE | S.PIXEL_SHADER_RESOURCE;

export function stateNames(bits: number): string {
  if (bits === 0) return 'COMMON';
  if (bits === S.GENERIC_READ) return 'GENERIC_READ';
  const singles = Object.entries(S).filter(
    ([name, bit]) => bit !== 0 && (bit & (bit - 1)) === 0 && name !== 'PREDICATION',
  );
  return singles
    .filter(([, bit]) => (bits & bit) === bit)
    .map(([name]) => name)
    .join('|');
}

export const subresourceCountOf = (resource: Resource): number => resource.layout.mipLevels * resource.layout.arraySize;

/** Buffers and simultaneous-access textures: promoted to anything, always decayed. */
export const decaysAlways = (resource: Resource): boolean =>
  resource.desc.dimension === 'BUFFER' || resource.desc.flags.includes('ALLOW_SIMULTANEOUS_ACCESS');

/** Whether a subresource in `state` may be implicitly promoted to include `access`. */
function promotable(resource: Resource, state: number, promotedRead: boolean, access: number): boolean {
  const allowed = decaysAlways(resource) ? ~0 : TEXTURE_PROMOTABLE;
  if ((access & allowed) !== access) return false;
  if (state === S.COMMON) return true;
  // Further read promotion of a subresource promoted to read states in this list.
  return promotedRead && (access & WRITE_STATE_BITS) === 0;
}

/** Whether `state` already allows `access` (a read bit it contains, or exactly the write state). */
const satisfies = (state: number, access: number): boolean =>
  (access & WRITE_STATE_BITS) !== 0 ? state === access : (state & access) === access;

/**
 * What a list requires of a subresource's state at its start:
 *   exact: a barrier came first: the state must be `state`;
 *   use: a command used it first: the state must allow `access`, or be promotable to it;
 *   use-then-exact: commands used it (promoting it to `promoted` if it was COMMON), then a barrier
 *     named `before`: the state must be `before`, or COMMON with `before` equal to `promoted`.
 */
type Expectation =
  | { kind: 'exact'; state: number }
  | { kind: 'use'; access: number }
  | { kind: 'use-then-exact'; promoted: number; before: number };

interface Tracked {
  /** The state this list has left the subresource in, when known. */
  states: (number | undefined)[];
  expected: (Expectation | undefined)[];
  /** Subresources whose current state came from implicit promotion to read states. */
  promotedRead: boolean[];
  /** The list's state still includes the unknown start state (no transition since the first use). */
  onTopOfStart: boolean[];
}

/** What a subresource looked like before a tentative change (see begin/rollback). */
interface Undo {
  resource: Resource;
  created: boolean;
  sub: number;
  state: number | undefined;
  expected: Expectation | undefined;
  promotedRead: boolean;
  onTopOfStart: boolean;
}

/** Per subresource, after a list ran: whether its last state came from promotion to read states. */
export interface Touched {
  resource: Resource;
  sub: number;
  promotedRead: boolean;
}

/** One command list's view of resource states. */
export class ListStateTracker {
  private readonly tracked = new Map<Resource, Tracked>();
  /** Set between begin() and commit()/rollback(): how to undo what a command changed. */
  private undo: Undo[] | undefined;

  /** Starts a command's changes, all or none of which will stay. */
  begin(): void {
    this.undo = [];
  }

  commit(): void {
    this.undo = undefined;
  }

  rollback(): void {
    for (const step of (this.undo ?? []).reverse()) {
      if (step.created) {
        this.tracked.delete(step.resource);
        continue;
      }
      const tracked = this.tracked.get(step.resource) as Tracked;
      tracked.states[step.sub] = step.state;
      tracked.expected[step.sub] = step.expected;
      tracked.promotedRead[step.sub] = step.promotedRead;
      tracked.onTopOfStart[step.sub] = step.onTopOfStart;
    }
    this.undo = undefined;
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
      this.undo?.push({
        resource,
        created: true,
        sub: 0,
        state: undefined,
        expected: undefined,
        promotedRead: false,
        onTopOfStart: false,
      });
    }
    return tracked;
  }

  /** Records the subresource's values before the current command changes them. */
  private touch(resource: Resource, tracked: Tracked, sub: number): void {
    this.undo?.push({
      resource,
      created: false,
      sub,
      state: tracked.states[sub],
      expected: tracked.expected[sub],
      promotedRead: tracked.promotedRead[sub] ?? false,
      onTopOfStart: tracked.onTopOfStart[sub] ?? false,
    });
  }

  private subresources(resource: Resource, subresource: number): number[] {
    const count = subresourceCountOf(resource);
    return subresource === ALL_SUBRESOURCES ? Array.from({ length: count }, (_, i) => i) : [subresource];
  }

  /** Makes a command's state changes all at once, or throws the first problem having made none. */
  changeAll(change: (tracker: this) => D3D12Error | undefined): void {
    this.begin();
    const problem = change(this);
    if (problem) {
      this.rollback();
      throw problem;
    }
    this.commit();
  }

  /** A command's uses, [argument, resource, subresource(s), access] each (all or none: changeAll). */
  useAll(call: string, uses: readonly (readonly [string, Resource, readonly number[] | number, number])[]): void {
    this.changeAll((tracker) => {
      for (const [argument, resource, subresources, access] of uses) {
        for (const subresource of typeof subresources === 'number' ? [subresources] : subresources) {
          const problem = tracker.use(call, argument, resource, subresource, access);
          if (problem) return problem;
        }
      }
      return undefined;
    });
  }

  /** ResourceBarrier's checked transitions (all or none: changeAll); UAV and aliasing barriers change no state. */
  barriers(checked: readonly CheckedBarrier[]): void {
    this.changeAll((tracker) => {
      for (const barrier of checked) {
        if (barrier.type !== 'TRANSITION') continue;
        // A split barrier's BEGIN_ONLY half checks stateBefore; its END_ONLY half makes the change.
        const { resource, subresource, before, after } = barrier;
        const problem = tracker.transition(
          'resourceBarrier',
          resource as Resource,
          subresource,
          before,
          after,
          barrier.flags !== 'BEGIN_ONLY',
        );
        if (problem) return problem;
      }
      return undefined;
    });
  }

  /** A transition barrier. Returns an error when the list already knows a different stateBefore. */
  transition(
    call: string,
    resource: Resource,
    subresource: number,
    before: number,
    after: number,
    apply: boolean,
  ): D3D12Error | undefined {
    if (resource.fixedState !== undefined) {
      return invalidArg(
        call,
        'barriers',
        `${resource.label} stays in ${stateNames(resource.fixedState)} (resources in ${resource.heap?.desc.properties.type} heaps do) and cannot be transitioned`,
      );
    }
    const tracked = this.entry(resource);
    const subs = this.subresources(resource, subresource);
    for (const sub of subs) {
      const known = tracked.states[sub];
      if (known === undefined) continue;
      // After uses on top of an unknown start state, the list knows only what it used: stateBefore
      // must include that (the exact start state is checked when the list is executed).
      const fits = tracked.onTopOfStart[sub] ? satisfies(before, known) || before === known : known === before;
      if (!fits) {
        return invalidArg(
          call,
          'barriers',
          `${resource.label} subresource ${sub} is in ${stateNames(known)} at this point of the list, not in stateBefore ${stateNames(before)}`,
        );
      }
    }
    for (const sub of subs) {
      this.touch(resource, tracked, sub);
      const known = tracked.states[sub];
      if (known === undefined) tracked.expected[sub] ??= { kind: 'exact', state: before };
      else if (tracked.onTopOfStart[sub]) tracked.expected[sub] = { kind: 'use-then-exact', promoted: known, before };
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
        : invalidArg(
            call,
            argument,
            `${resource.label} stays in ${stateNames(resource.fixedState)} and cannot be used as ${stateNames(access)} (resources in ${resource.heap?.desc.properties.type} heaps keep their state)`,
          );
    }
    for (const sub of this.subresources(resource, subresource)) {
      const known = tracked.states[sub];
      if (known !== undefined && satisfies(known, access)) continue;
      this.touch(resource, tracked, sub);
      if (known === undefined) {
        tracked.expected[sub] ??= { kind: 'use', access };
        tracked.states[sub] = access;
        tracked.promotedRead[sub] = (access & WRITE_STATE_BITS) === 0;
        tracked.onTopOfStart[sub] = true;
      } else if (promotable(resource, known, tracked.promotedRead[sub] ?? false, access)) {
        tracked.states[sub] = known | access;
        tracked.promotedRead[sub] = (access & WRITE_STATE_BITS) === 0;
      } else {
        return invalidArg(
          call,
          argument,
          `${resource.label} subresource ${sub} is in ${stateNames(known)} at this point of the list and cannot be used as ${stateNames(access)} without a transition barrier`,
        );
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
        if (
          expectation.kind === 'use' &&
          !satisfies(global, expectation.access) &&
          !promotable(resource, global, false, expectation.access)
        ) {
          return `${resource.label} subresource ${sub} is in ${stateNames(global)} and cannot be used as ${stateNames(expectation.access)} without a transition barrier`;
        }
        if (
          expectation.kind === 'use-then-exact' &&
          global !== expectation.before &&
          !(global === S.COMMON && expectation.before === expectation.promoted)
        ) {
          return `${resource.label} subresource ${sub} is in ${stateNames(global)}, but the list's barrier says stateBefore ${stateNames(expectation.before)}`;
        }
      }
    }
    return undefined;
  }

  /**
   * Applies the list's final states to the global states, without decay (decay happens once the
   * whole ExecuteCommandLists call is done: see decayAfterExecution). Returns what it touched.
   */
  apply(): Touched[] {
    const touched: Touched[] = [];
    for (const [resource, tracked] of this.tracked) {
      for (let sub = 0; sub < tracked.states.length; sub++) {
        const state = tracked.states[sub];
        if (state === undefined) continue;
        const global = resource.states[sub] ?? S.COMMON;
        // A use without a transition leaves the start state in place (a read state it already had,
        // or the promotion from COMMON).
        const onTop = tracked.onTopOfStart[sub] ?? false;
        resource.setState(sub, onTop && global !== S.COMMON ? global : state);
        // Promoted to read states (not merely used in a read state the resource already had).
        touched.push({
          resource,
          sub,
          promotedRead: (tracked.promotedRead[sub] ?? false) && !(onTop && global !== S.COMMON),
        });
      }
    }
    return touched;
  }

  /** The resources the list touches (for checks that they are still alive). */
  resources(): Iterable<Resource> {
    return this.tracked.keys();
  }
}

/** D3D12's decay at the end of an ExecuteCommandLists call, over what its lists touched, in order. */
export function decayAfterExecution(touched: readonly Touched[], copyQueue: boolean): void {
  // The last list to touch a subresource decides whether its state came from promotion.
  const last = new Map<Resource, Map<number, boolean>>();
  for (const entry of touched) {
    let subs = last.get(entry.resource);
    if (!subs) last.set(entry.resource, (subs = new Map<number, boolean>()));
    subs.set(entry.sub, entry.promotedRead);
  }
  for (const [resource, subs] of last) {
    for (const [sub, promotedRead] of subs) {
      if (decaysAlways(resource) || copyQueue || promotedRead) resource.setState(sub, S.COMMON);
    }
  }
}
