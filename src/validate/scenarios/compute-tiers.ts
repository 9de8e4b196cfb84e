/**
 * A compute shader reads every tile of a partially mapped reserved buffer with d3d12_load_checked:
 * mapped tiles give their data and "fully mapped"; NULL tiles give 0 and not mapped on Tier 2 and 3,
 * the poison value on Tier 1 (shaders/validate_load_checked.wgsl). Results are compared with the CPU
 * page table's prediction, and the GPU page table with the CPU authority.
 */
import { createDevice } from '../../d3d12/create-device.js';
import type { TiledResourcesTier } from '../../api/types.js';
import LOAD_CHECKED from '../../../shaders/validate_load_checked.wgsl?raw';
import { check, pattern, TILE, type Check } from '../bytes.js';
import { readBuffer, runList, uploadBuffer } from '../d3d12-io.js';
import { PageTableModel } from '../page-table-model.js';
import { ScenarioContext } from './context.js';
import { getTileMappingForTesting } from '../../testing/index.js';

export async function computeTiers(
  gpuDevice: GPUDevice,
  options: { tiledResourcesTier: TiledResourcesTier },
  context = new ScenarioContext(),
): Promise<Check[]> {
  const tier = options.tiledResourcesTier;
  const device = await createDevice({
    gpuDevice,
    tiledResourcesTier: tier,
    localMemoryBytes: 16 << 20,
    nonLocalMemoryBytes: 16 << 20,
  });
  try {
    const queue = device.createCommandQueue({ type: 'DIRECT' });
    const tiles = 4;
    const reserved = device.createReservedResource({ dimension: 'BUFFER', width: tiles * TILE }, 'COMMON');
    const heap = device.createHeap({ sizeInBytes: 2 * TILE, properties: { type: 'DEFAULT' } });
    // Tile 0 → heap tile 1, tile 2 → heap tile 0; tiles 1 and 3 stay NULL.
    queue.updateTileMappings(
      reserved,
      [
        { x: 0, y: 0, z: 0, subresource: 0 },
        { x: 2, y: 0, z: 0, subresource: 0 },
      ],
      null,
      heap,
      ['NONE', 'NONE'],
      [1, 0],
      null,
    );
    const mapped = await context.tileMappings(device, `tier ${tier}: tiles 0 and 2 mapped`, {
      resource: reserved,
      page: 0,
    });
    const data = pattern(tiles * TILE, 30 + tier);
    const model = new PageTableModel(tier);
    await runList(device, queue, (list) =>
      list.copyBufferRegion(reserved, 0, uploadBuffer(device, data), 0, tiles * TILE),
    );
    model.writeRange(reserved, 0, data);

    const count = (tiles * TILE) / 4;
    const out = device.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: count * 8 },
      'COMMON',
    );
    const pso = await device.createComputePipelineState({ code: LOAD_CHECKED, entryPoint: 'main' });
    await runList(device, queue, (list) => {
      list.setPipelineState(pso);
      list.setComputeRootShaderResourceView(1, reserved.getGPUVirtualAddress());
      list.setComputeRootUnorderedAccessView(2, out.getGPUVirtualAddress());
      list.dispatch(count / 64);
    });

    const predicted = new Uint32Array(count * 2);
    const bytes = model.readRange(reserved, 0, tiles * TILE);
    const values = new Uint32Array(bytes.buffer, bytes.byteOffset, count);
    for (let i = 0; i < count; i++) {
      predicted[2 * i] = values[i] ?? 0;
      predicted[2 * i + 1] = getTileMappingForTesting(reserved, Math.floor((i * 4) / TILE)) ? 1 : 0;
    }
    const faults = await device.readFaults();
    return [
      ...mapped,
      check(
        `tier ${tier}: d3d12_load_checked value and status for every word`,
        await readBuffer(device, queue, out, 0, count * 8),
        new Uint8Array(predicted.buffer),
      ),
      check(`tier ${tier}: NULL-tile reads raise no fault`, new Uint8Array([faults.length]), new Uint8Array([0])),
    ];
  } finally {
    device.destroy();
  }
}
