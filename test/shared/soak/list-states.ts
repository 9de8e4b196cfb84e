/**
 * The barriers a soak's command list needs between uses of a buffer, D3D12's way: every buffer starts
 * the list in COMMON (copies promote it implicitly; a dispatch, bindless and so untracked by the
 * emulator, gets an explicit COMMON -> UNORDERED_ACCESS transition), a change of use takes a
 * transition, and back-to-back dispatches on one buffer take a UAV barrier.
 */
import type { GraphicsCommandList, Resource } from '../../../src/index.js';

export type Access = 'COPY_SOURCE' | 'COPY_DEST' | 'UNORDERED_ACCESS';

/** Returns `need(resource, access)`, which records the barriers before a use, and the states so far. */
export function listStates(list: GraphicsCommandList): {
  need: (resource: Resource, access: Access) => void;
  states: ReadonlyMap<Resource, Access>;
} {
  const states = new Map<Resource, Access>();
  const need = (resource: Resource, access: Access): void => {
    const current = states.get(resource);
    if (current === access) {
      if (access === 'UNORDERED_ACCESS') list.resourceBarrier([{ type: 'UAV', uav: { resource } }]);
      return;
    }
    if (current === undefined) {
      if (access === 'UNORDERED_ACCESS')
        list.resourceBarrier([
          { type: 'TRANSITION', transition: { resource, stateBefore: 'COMMON', stateAfter: access } },
        ]);
    } else {
      list.resourceBarrier([
        { type: 'TRANSITION', transition: { resource, stateBefore: current, stateAfter: access } },
      ]);
    }
    states.set(resource, access);
  };
  return { need, states };
}
