/**
 * The argument checks of createResidencyManager, and of ResidencyManager.executeCommandLists before
 * anything is gathered or paged: a live device, a command queue, one residency set (or null) per list, each set of this
 * manager and closed. The lists themselves are the queue's to check.
 */
import { D3D12Error, invalidArg, show } from '../api/errors.js';
import { CommandQueue } from '../d3d12/command-queue.js';
import type { GraphicsCommandList } from '../d3d12/command-list.js';
import { Device } from '../d3d12/device.js';
import type { ResidencyManagerOptions } from './residency-stats.js';
import { ResidencySet } from './residency-set.js';

/** Throws (as `call`) what the manager refuses of its arguments; `ownSet` says whether a set is the manager's. */
export function checkBatchArguments(
  call: string,
  device: Device,
  queue: CommandQueue,
  lists: GraphicsCommandList[],
  sets: (ResidencySet | null)[],
  ownSet: (set: ResidencySet) => boolean,
): void {
  if (device.getDeviceRemovedReason() !== 'S_OK') {
    throw new D3D12Error(
      'DXGI_ERROR_DEVICE_REMOVED',
      call,
      'this',
      `the device was removed: ${device.getPageFaultReport()?.message ?? device.getDeviceRemovedReason()}`,
    );
  }
  if (!(queue instanceof CommandQueue))
    throw invalidArg(call, 'queue', "must be a command queue of the manager's device");
  if (!Array.isArray(lists) || lists.length === 0)
    throw invalidArg(call, 'commandLists', `must be a non-empty array of command lists, got ${show(lists)}`);
  if (!Array.isArray(sets) || sets.length !== lists.length) {
    throw invalidArg(
      call,
      'residencySets',
      `must hold one residency set (or null) per command list (${lists.length}), got ${show(sets)}`,
    );
  }
  for (let i = 0; i < sets.length; i++) {
    const set = sets[i];
    if (set === null) continue;
    if (!(set instanceof ResidencySet) || !ownSet(set))
      throw invalidArg(call, `residencySets[${i}]`, 'must be a residency set of this manager, or null');
    if (!set.closed)
      throw invalidArg(call, `residencySets[${i}]`, `residency set #${set.id} is still open; close() it first`);
  }
}

/** Throws what createResidencyManager refuses: a device that is not one, options that are not an object or name MaxLatency. */
export function checkManagerArguments(device: unknown, options: ResidencyManagerOptions): void {
  const call = 'createResidencyManager';
  if (!(device instanceof Device))
    throw invalidArg(call, 'device', `must be a Device (createDevice), got ${show(device)}`);
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw invalidArg(call, 'options', `must be an object, got ${show(options)}`);
  const latencyRule =
    'is not supported: d3dx12residency reads MaxLatency only to bound the paging work queued for its worker thread, and with a queued MakeResident (as here) it pages on the calling thread and ignores it; leave it out';
  if ((options as { maxLatency?: unknown }).maxLatency !== undefined)
    throw invalidArg(call, 'options.maxLatency', latencyRule);
  if (options.clock !== undefined && typeof options.clock !== 'function')
    throw invalidArg(call, 'options.clock', 'must be a function returning milliseconds');
}
