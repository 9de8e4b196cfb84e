/**
 * A compute shader reads every tile of a partially mapped reserved buffer with d3d12_load_checked:
 * mapped tiles give their data and "fully mapped"; NULL tiles give 0 and not mapped on Tier 2 and 3,
 * the poison value on Tier 1. Results are compared with the CPU page table's prediction.
 */
import { createDevice, type TiledResourcesTier } from '../../../src/index.js';
import { pattern, readBuffer, runList, TILE, uploadBuffer } from '../d3d12-helpers.js';
import { check, PageTableModel, type Check } from '../page-table-model.js';

/** Thread t reads word t of root SRV 1 and writes (value, mapped) to words 2t, 2t+1 of root UAV 2. */
const LOAD_CHECKED = `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  var status = 0u;
  let value = d3d12_load_checked(d3d12_address_add(d3d12_root_descriptor(1u), id.x * 4u), &status);
  let out = d3d12_address_add(d3d12_root_descriptor(2u), id.x * 8u);
  d3d12_store(out, value);
  d3d12_store(d3d12_address_add(out, 4u), select(0u, 1u, d3d12_check_access_fully_mapped(status)));
}
`;


export async function computeTiers(gpuDevice: GPUDevice, options: { tiledResourcesTier: TiledResourcesTier }): Promise<Check[]> {
  const tier = options.tiledResourcesTier;
  const device = await createDevice({ gpuDevice, tiledResourcesTier: tier, localMemoryBytes: 16 << 20, nonLocalMemoryBytes: 16 << 20 });
  try {
    const queue = device.createCommandQueue({ type: 'DIRECT' });
    const tiles = 4;
    const reserved = device.createReservedResource({ dimension: 'BUFFER', width: tiles * TILE }, 'COMMON');
    const heap = device.createHeap({ sizeInBytes: 2 * TILE, properties: { type: 'DEFAULT' } });
    // Tile 0 → heap tile 1, tile 2 → heap tile 0; tiles 1 and 3 stay NULL.
    queue.updateTileMappings(reserved, [{ x: 0, y: 0, z: 0, subresource: 0 }, { x: 2, y: 0, z: 0, subresource: 0 }], null, heap, ['NONE', 'NONE'], [1, 0], null);
    const data = pattern(tiles * TILE, 30 + tier);
    const model = new PageTableModel(tier);
    await runList(device, queue, (list) => list.copyBufferRegion(reserved, 0, uploadBuffer(device, data), 0, tiles * TILE));
    model.writeRange(reserved, 0, data);

    const count = (tiles * TILE) / 4;
    const out = device.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width: count * 8 }, 'COMMON');
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
      predicted[2 * i + 1] = reserved.getTileMappingForTesting(Math.floor((i * 4) / TILE)) ? 1 : 0;
    }
    const faults = await device.readFaults();
    return [
      check(`tier ${tier}: d3d12_load_checked value and status for every word`, await readBuffer(device, queue, out, 0, count * 8), new Uint8Array(predicted.buffer)),
      check(`tier ${tier}: NULL-tile reads raise no fault`, new Uint8Array([faults.length]), new Uint8Array([0])),
    ];
  } finally {
    device.destroy();
  }
}
