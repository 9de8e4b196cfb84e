/**
 * d3dx12.h's CD3DX12_RESOURCE_BARRIER: Transition, UAV and Aliasing, as plain ResourceBarrier
 * objects for resourceBarrier(). They check nothing themselves (as d3dx12's only fill a struct);
 * resourceBarrier validates what they build.
 */
import type { BackBuffer, Resource, ResourceBarrier, ResourceStates } from '../index.js';

/** D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES. */
export const RESOURCE_BARRIER_ALL_SUBRESOURCES = 0xffffffff;

export type BarrierFlag = 'NONE' | 'BEGIN_ONLY' | 'END_ONLY';

/** CD3DX12_RESOURCE_BARRIER::Transition(pResource, before, after, subresource = ALL, flags = NONE). */
export function transitionBarrier(
  resource: Resource | BackBuffer,
  stateBefore: ResourceStates,
  stateAfter: ResourceStates,
  subresource: number = RESOURCE_BARRIER_ALL_SUBRESOURCES,
  flags: BarrierFlag = 'NONE',
): ResourceBarrier {
  return { type: 'TRANSITION', flags, transition: { resource, subresource, stateBefore, stateAfter } };
}

/** CD3DX12_RESOURCE_BARRIER::UAV(pResource): null orders every UAV access. */
export function uavBarrier(resource: Resource | null): ResourceBarrier {
  return { type: 'UAV', flags: 'NONE', uav: { resource } };
}

/** CD3DX12_RESOURCE_BARRIER::Aliasing(pResourceBefore, pResourceAfter). */
export function aliasingBarrier(resourceBefore: Resource | null, resourceAfter: Resource | null): ResourceBarrier {
  return { type: 'ALIASING', flags: 'NONE', aliasing: { resourceBefore, resourceAfter } };
}
