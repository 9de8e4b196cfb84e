import type { SceneMeta } from '../common/scene-meta.js';

export const meta: SceneMeta = {
  name: 'residency-pressure',
  title: 'Residency under pressure',
  summary:
    'Forty-eight heaps of mesh and texture data, several times the memory budget, under a camera that keeps moving. Each frame ' +
    "puts the objects in view into a residency set; Microsoft's ResidencyManager (d3dx12residency.h, as UE5 uses it) makes them " +
    'resident, evicting the least recently used heaps to stay within the budget, and a compute pass checks their data on the GPU ' +
    'after every round trip. Lower the budget (the debug override UE calls D3D12.ResidencyDebugBudgetMB) to force paging, or ' +
    "forget one object's registration: once the manager evicts that heap, the GPU faults, the device is removed and the fault " +
    'report names the resource, the tile, the heap and the command list.',
  calls: ['createHeap(CREATE_NOT_RESIDENT)', 'createPlacedResource', 'ResidencyManager.beginTrackingObject', 'ResidencySet.insert', 'ResidencyManager.executeCommandLists', 'setResidencyDebugBudget', 'queryVideoMemoryInfo', 'getDeviceRemovedReason', 'getPageFaultReport'],
};
