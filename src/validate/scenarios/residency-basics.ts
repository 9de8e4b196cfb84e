/**
 * Paging keeps every byte: a heap's data survives evict and make-resident (before and after its bytes
 * reached the CPU), including placed resources and reserved tiles that point into it; and a missing
 * registration (a dispatch reading a heap that is not in its residency set, under the debug budget
 * override) is caught: the device is removed with a report that names the resource, the tile, the
 * heap and the command list. The GPU page table is compared with the CPU authority while the heap is
 * evicted (its tiles and pages point at a heap without memory) and after it is restored.
 */
import { createDevice } from '../../d3d12/create-device.js';
import type { FaultReport } from '../../emulator/fault-report.js';
import { createResidencyManager } from '../../residency/residency-manager.js';
import READER from '../../../shaders/validate_read_plus_one.wgsl?raw';
import { check, pattern, TILE, type Check } from '../bytes.js';
import { flush, readBuffer, runList, uploadBuffer } from '../d3d12-io.js';
import { ScenarioContext } from './context.js';

export interface ResidencyBasics {
  checks: Check[];
  removedReason: string;
  /** The first fault of the report, flattened. */
  fault?: Pick<FaultReport, 'kind' | 'message'> & {
    tile?: number;
    commandList: string;
    commandIndex: number;
    commandName: string;
    resource?: string;
    heap?: string;
  };
}

export async function residencyBasics(gpuDevice: GPUDevice, context = new ScenarioContext()): Promise<ResidencyBasics> {
  const checks: Check[] = [];
  {
    const device = await createDevice({ gpuDevice, localMemoryBytes: 8 << 20, nonLocalMemoryBytes: 8 << 20 });
    try {
      const queue = device.createCommandQueue({ type: 'DIRECT' });
      const heap = device.createHeap({ sizeInBytes: 4 * TILE, properties: { type: 'DEFAULT' } });
      const placed = device.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: 2 * TILE }, 'COMMON');
      const reserved = device.createReservedResource({ dimension: 'BUFFER', width: 2 * TILE }, 'COMMON');
      queue.updateTileMappings(reserved, null, null, heap, ['NONE'], [2], null);
      const data = pattern(4 * TILE, 41);
      await runList(device, queue, (list) => {
        const upload = uploadBuffer(device, data);
        list.copyBufferRegion(placed, 0, upload, 0, 2 * TILE);
        list.copyBufferRegion(reserved, 0, upload, 2 * TILE, 2 * TILE);
      });
      // Evict and restore at once (the bytes are still on their way to the CPU: restored from the GPU copy).
      device.evict([heap]);
      const evictedUsage = device.queryVideoMemoryInfo('LOCAL').currentUsage;
      checks.push(...(await context.tileMappings(device, 'heap evicted', { resource: reserved, page: 0 })));
      device.makeResident([heap]);
      checks.push(
        check(
          'evicted then restored at once: placed data',
          await readBuffer(device, queue, placed, 0, 2 * TILE),
          data.subarray(0, 2 * TILE),
        ),
      );
      checks.push(
        check(
          'evicted then restored at once: reserved tiles',
          await readBuffer(device, queue, reserved, 0, 2 * TILE),
          data.subarray(2 * TILE),
        ),
      );
      // Evict, wait until the bytes are on the CPU, fill the pool with another heap, restore.
      device.evict([heap]);
      await flush(device, queue);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const other = device.createHeap({ sizeInBytes: 4 * TILE, properties: { type: 'DEFAULT' } });
      device.makeResident([heap]);
      checks.push(...(await context.tileMappings(device, 'heap restored elsewhere')));
      checks.push(
        check(
          'evicted, on the CPU, restored elsewhere: placed data',
          await readBuffer(device, queue, placed, 0, 2 * TILE),
          data.subarray(0, 2 * TILE),
        ),
      );
      checks.push(
        check(
          'evicted, on the CPU, restored elsewhere: reserved tiles',
          await readBuffer(device, queue, reserved, 0, 2 * TILE),
          data.subarray(2 * TILE),
        ),
      );
      checks.push(
        check(
          'usage drops by the heap while it is evicted',
          new Uint8Array([
            evictedUsage === device.queryVideoMemoryInfo('LOCAL').currentUsage - 4 * TILE - 4 * TILE ? 1 : 0,
          ]),
          new Uint8Array([1]),
        ),
      );
      other.release();
    } finally {
      device.destroy();
    }
  }

  // The planted bug: the list reads `forgotten`, but its residency set only holds `output`.
  const device = await createDevice({ gpuDevice, localMemoryBytes: 8 << 20, nonLocalMemoryBytes: 8 << 20 });
  try {
    const queue = device.createCommandQueue({ type: 'DIRECT' });
    const manager = createResidencyManager(device);
    const forgottenHeap = device.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
    const forgotten = device.createPlacedResource(forgottenHeap, 0, { dimension: 'BUFFER', width: TILE }, 'COMMON');
    forgotten.setName('vertex data');
    forgottenHeap.setName('mesh heap');
    const output = device.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: TILE },
      'COMMON',
    );
    manager.beginTrackingObject(forgottenHeap);
    manager.beginTrackingObject(output);
    // UE's D3D12.ResidencyDebugBudgetMB = 0: everything outside the batch's sets is evicted.
    device.setResidencyDebugBudget(0);
    const pso = await device.createComputePipelineState({ code: READER, entryPoint: 'main' });
    const list = device.createCommandList('DIRECT');
    list.setName('draw meshes');
    list.setPipelineState(pso);
    list.setComputeRootShaderResourceView(1, forgotten.getGPUVirtualAddress());
    list.setComputeRootUnorderedAccessView(2, output.getGPUVirtualAddress());
    list.dispatch(1);
    list.close();
    const set = manager.createResidencySet();
    set.open();
    set.insert(output);
    set.close();
    manager.executeCommandLists(queue, [list], [set]);
    const fence = device.createFence(0);
    queue.signal(fence, 1);
    await fence.setEventOnCompletion(1);
    const report = device.getPageFaultReport();
    const first = report?.faults[0];
    return {
      checks,
      removedReason: device.getDeviceRemovedReason(),
      fault: first && {
        kind: first.kind,
        tile: first.resource?.tile,
        commandList: first.commandList.label,
        commandIndex: first.command.index,
        commandName: first.command.name,
        message: first.message,
        resource: first.resource?.name,
        heap: first.heap?.name,
      },
    };
  } finally {
    device.destroy();
  }
}
