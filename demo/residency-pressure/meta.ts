import type { SceneMeta } from '../common/scene-meta.js';

export const meta: SceneMeta = {
  name: 'residency-pressure',
  title: 'Residency under pressure',
  tagline:
    'Forty-eight heaps, a budget a third their size, a moving camera: the residency manager pages them in and out.',
  pictureAlt:
    "A top-down map of forty-eight boxes, one per heap: bright where resident and in view, dim where resident and idle, striped where evicted, and the camera's circle.",
  summary:
    'Forty-eight heaps of mesh and texture data, several times the memory budget, under a camera that keeps moving. Each frame ' +
    "puts the objects in view into a residency set; Microsoft's ResidencyManager (d3dx12residency.h, as UE5 uses it) makes them " +
    'resident, evicting the least recently used heaps to stay within the budget, and a compute pass checks their data on the GPU ' +
    'after every round trip. Lower the budget (the debug override UE calls D3D12.ResidencyDebugBudgetMB) to force paging, or ' +
    "forget one object's registration: once the manager evicts that heap, the GPU faults, the device is removed and the fault " +
    'report names the resource, the tile, the heap and the command list.',
  calls: [
    'createHeap(CREATE_NOT_RESIDENT)',
    'createPlacedResource',
    'ResidencyManager.beginTrackingObject',
    'ResidencySet.insert',
    'ResidencyManager.executeCommandLists',
    'setResidencyDebugBudget',
    'queryVideoMemoryInfo',
    'getDeviceRemovedReason',
    'getPageFaultReport',
  ],
};
