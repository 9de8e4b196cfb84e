/**
 * Reserved buffer, every range flag: data written through copyBufferRegion and copyTiles from UPLOAD
 * memory and read back through READBACK memory matches the CPU page table's prediction tile by tile,
 * including after a remap (old data stays with the heap page, not the virtual tile) and after
 * copyTileMappings. After each mapping step the GPU page table is compared with the CPU authority.
 */
import { createDevice } from '../../d3d12/create-device.js';
import type { Resource } from '../../d3d12/resource.js';
import { check, pattern, TILE, type Check } from '../bytes.js';
import { readBuffer, runList, uploadBuffer } from '../d3d12-io.js';
import { PageTableModel } from '../page-table-model.js';
import { ScenarioContext } from './context.js';

export interface ReservedBufferDataOptions {
  tiledResourcesTier: 1 | 2 | 3 | 4;
}

export async function reservedBufferData(
  gpuDevice: GPUDevice,
  options: ReservedBufferDataOptions = { tiledResourcesTier: 3 },
  context = new ScenarioContext(),
): Promise<Check[]> {
  const device = await createDevice({
    gpuDevice,
    tiledResourcesTier: options.tiledResourcesTier,
    localMemoryBytes: 16 << 20,
    nonLocalMemoryBytes: 16 << 20,
  });
  const model = new PageTableModel(options.tiledResourcesTier);
  const checks: Check[] = [];
  try {
    const queue = device.createCommandQueue({ type: 'DIRECT' });
    const tiles = 8;
    const reserved = device.createReservedResource({ dimension: 'BUFFER', width: tiles * TILE }, 'COMMON');
    const heap = device.createHeap({ sizeInBytes: 8 * TILE, properties: { type: 'DEFAULT' } });
    const readAll = async (name: string, resource: Resource): Promise<void> => {
      checks.push(
        check(
          name,
          await readBuffer(device, queue, resource, 0, tiles * TILE),
          model.readRange(resource, 0, tiles * TILE),
        ),
      );
    };

    // All four range flags in one call: tiles 0-1 NONE → heap 4-5; 2-3 REUSE_SINGLE_TILE → heap 6;
    // 4 NULL; 5 SKIP (stays NULL); 6-7 NONE → heap 0-1.
    queue.updateTileMappings(
      reserved,
      null,
      null,
      heap,
      ['NONE', 'REUSE_SINGLE_TILE', 'NULL', 'SKIP', 'NONE'],
      [4, 6, 0, 0, 0],
      [2, 2, 1, 1, 2],
    );
    checks.push(
      ...(await context.tileMappings(device, 'every range flag in one call', { resource: reserved, page: 0 })),
    );
    // Fill tiles 0, 1, 2 (tile 3 shares tile 2's heap page: writing both would race) and 4..7.
    const data = pattern(tiles * TILE, 1);
    const upload = uploadBuffer(device, data);
    await runList(device, queue, (list) => {
      list.copyBufferRegion(reserved, 0, upload, 0, 3 * TILE);
      list.copyBufferRegion(reserved, 4 * TILE, upload, 4 * TILE, 4 * TILE);
    });
    model.writeRange(reserved, 0, data.subarray(0, 3 * TILE));
    model.writeRange(reserved, 4 * TILE, data.subarray(4 * TILE));
    await readAll("after the first mapping and fill (tile 3 reads tile 2's page)", reserved);

    // Byte-exact: an unaligned copy in and an unaligned copy out across a tile boundary.
    const odd = pattern(TILE + 7, 2);
    const oddUpload = uploadBuffer(device, odd);
    await runList(device, queue, (list) => list.copyBufferRegion(reserved, TILE - 3, oddUpload, 0, TILE + 7));
    model.writeRange(reserved, TILE - 3, odd);
    checks.push(
      check(
        'unaligned copy across tiles 0-1 and back',
        await readBuffer(device, queue, reserved, TILE - 5, TILE + 11),
        model.readRange(reserved, TILE - 5, TILE + 11),
      ),
    );

    // Remap after the data was written: tile 0 → heap page 1 (which holds tile 7's data).
    context.beforeRemap(device);
    queue.updateTileMappings(
      reserved,
      [{ x: 0, y: 0, z: 0, subresource: 0 }],
      [{ numTiles: 1 }],
      heap,
      ['NONE'],
      [1],
      [1],
    );
    checks.push(...(await context.tileMappings(device, 'remap of tile 0')));
    await readAll("after remapping tile 0 onto tile 7's heap page", reserved);

    // copyTileMappings: tiles 6-7's mappings onto tiles 3-4.
    queue.copyTileMappings(
      reserved,
      { x: 3, y: 0, z: 0, subresource: 0 },
      reserved,
      { x: 6, y: 0, z: 0, subresource: 0 },
      { numTiles: 2 },
    );
    checks.push(...(await context.tileMappings(device, 'copyTileMappings of tiles 6-7 onto 3-4')));
    await readAll('after copyTileMappings of tiles 6-7 onto 3-4', reserved);

    // copyTiles both ways: a linear buffer into tiles 5..7, then tiles 0..7 out to a buffer.
    const linear = pattern(3 * TILE, 3);
    const linearUpload = uploadBuffer(device, linear);
    queue.updateTileMappings(
      reserved,
      [{ x: 5, y: 0, z: 0, subresource: 0 }],
      [{ numTiles: 1 }],
      heap,
      ['NONE'],
      [7],
      [1],
    );
    checks.push(...(await context.tileMappings(device, 'tile 5 mapped')));
    await runList(device, queue, (list) =>
      list.copyTiles(
        reserved,
        { x: 5, y: 0, z: 0, subresource: 0 },
        { numTiles: 3 },
        linearUpload,
        0,
        'LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE',
      ),
    );
    for (let i = 0; i < 3; i++) model.writeTile(reserved, 5 + i, linear.subarray(i * TILE, (i + 1) * TILE));
    const out = device.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: tiles * TILE + 8 },
      'COMMON',
    );
    await runList(device, queue, (list) =>
      list.copyTiles(reserved, { x: 0, y: 0, z: 0, subresource: 0 }, { numTiles: tiles }, out, 6, [
        'SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER',
        'NO_HAZARD',
      ]),
    );
    checks.push(
      check(
        'copyTiles out to a buffer at an unaligned offset',
        await readBuffer(device, queue, out, 6, tiles * TILE),
        model.readRange(reserved, 0, tiles * TILE),
      ),
    );

    // copyResource: the whole reserved buffer into a committed one, NULL tiles included.
    const whole = device.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: tiles * TILE },
      'COMMON',
    );
    await runList(device, queue, (list) => list.copyResource(whole, reserved));
    checks.push(
      check(
        'copyResource of the whole reserved buffer',
        await readBuffer(device, queue, whole, 0, tiles * TILE),
        model.readRange(reserved, 0, tiles * TILE),
      ),
    );
  } finally {
    device.destroy();
  }
  return checks;
}
