/**
 * textureCopyTiers: NULL tiles at a given tier (writes dropped; reads 0, or Tier 1's poison, through
 * footprints and texture-to-texture copies), and copies into and out of an evicted heap, whose
 * faults name the copyTextureRegion commands.
 *
 * Invariants: every byte is compared with the CPU's element model (texture-model.ts) built for the
 * tier; copies run on a COPY queue (resources decay to COMMON after each execution).
 */
import { createDevice } from '../../d3d12/create-device.js';
import type { Device } from '../../d3d12/device.js';
import type { CommandQueue } from '../../d3d12/command-queue.js';
import type { PlacedSubresourceFootprint, ResourceDesc, TiledResourcesTier } from '../../api/types.js';
import { checkThat, pattern, TILE, type Check } from '../bytes.js';
import { uploadBuffer } from '../d3d12-io.js';
import { TextureModel } from '../texture-model.js';
import {
  at,
  copyBetween,
  defaultBuffer,
  mapTiles,
  placed,
  readAll,
  uploadAll,
  type Texture,
} from './texture-copy-moves.js';

export async function textureCopyTiers(
  gpuDevice: GPUDevice,
  options: { tiledResourcesTier: TiledResourcesTier },
): Promise<Check[]> {
  const tier = options.tiledResourcesTier;
  const device = await createDevice({
    gpuDevice,
    tiledResourcesTier: tier,
    localMemoryBytes: 16 << 20,
    nonLocalMemoryBytes: 16 << 20,
    onPageFault: 'report',
  });
  const checks: Check[] = [];
  try {
    const queue = device.createCommandQueue({ type: 'COPY' });
    // 256² RGBA8: 2×2 tiles of 128², tiles 0 and 3 mapped.
    const resource = device.createReservedResource(
      { dimension: 'TEXTURE2D', width: 256, height: 256, format: 'R8G8B8A8_UNORM', layout: '64KB_UNDEFINED_SWIZZLE' },
      'COMMON',
    );
    const heap = device.createHeap({ sizeInBytes: 2 * TILE, properties: { type: 'DEFAULT' } });
    mapTiles(device, device.createCommandQueue({ type: 'DIRECT' }), resource, heap, [0, 3], 0);
    const reserved: Texture = {
      name: `tier ${tier} reserved RGBA8`,
      resource,
      model: new TextureModel(device, resource, tier, true),
    };
    await uploadAll(device, queue, reserved, 40 + tier);
    checks.push(...(await readAll(device, queue, reserved, 'NULL tiles: writes dropped, reads as the tier says')));
    const copyTarget = device.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'TEXTURE2D', width: 256, height: 256, format: 'R8G8B8A8_UNORM' },
      'COMMON',
    );
    const target: Texture = {
      name: `tier ${tier} committed RGBA8`,
      resource: copyTarget,
      model: new TextureModel(device, copyTarget, tier, false),
    };
    await copyBetween(device, queue, target, 0, [0, 0, 0], reserved, 0, {
      left: 0,
      top: 0,
      front: 0,
      right: 256,
      bottom: 256,
      back: 1,
    });
    checks.push(...(await readAll(device, queue, target, 'a texture-to-texture copy of NULL tiles')));
    checks.push(...(await evictedFaults(device, queue, tier)));
  } finally {
    device.destroy();
  }
  return checks;
}

/** Copies into and out of a placed texture of an evicted heap: each access faults, named after its copyTextureRegion command. */
async function evictedFaults(device: Device, queue: CommandQueue, tier: number): Promise<Check[]> {
  const heap = device.createHeap({ sizeInBytes: 4 * TILE, properties: { type: 'DEFAULT' } });
  heap.setName('evicted texture heap');
  const desc: ResourceDesc = { dimension: 'TEXTURE2D', width: 256, height: 256, format: 'R8G8B8A8_UNORM' };
  const resource = device.createPlacedResource(heap, 0, desc, 'COMMON');
  resource.setName('evicted texture');
  const [layout] = device.getCopyableFootprints(desc, 0, 1, 0).layouts as [PlacedSubresourceFootprint];
  const upload = uploadBuffer(device, pattern(layout.footprint.rowPitch * 256, 7));
  const out = defaultBuffer(device, layout.footprint.rowPitch * 256);
  device.evict([heap]);
  const list = device.createCommandList('COPY');
  list.setName('stream into an evicted heap');
  // Four texels each way: a few faults, well within one submission's fault log.
  list.copyTextureRegion(at(resource, 0), 0, 0, 0, placed(upload, layout), {
    left: 0,
    top: 0,
    front: 0,
    right: 4,
    bottom: 1,
    back: 1,
  });
  list.resourceBarrier([
    { type: 'TRANSITION', transition: { resource, stateBefore: 'COPY_DEST', stateAfter: 'COPY_SOURCE' } },
  ]);
  list.copyTextureRegion(placed(out, layout), 0, 0, 0, at(resource, 0), {
    left: 0,
    top: 255,
    front: 0,
    right: 4,
    bottom: 256,
    back: 1,
  });
  list.close();
  queue.executeCommandLists([list]);
  const faults = await device.readFaults();
  const writes = faults.filter((f) => f.kind === 'write-absent');
  const reads = faults.filter((f) => f.kind === 'read-absent');
  const named = faults.every(
    (f) =>
      f.command.name === 'copyTextureRegion' &&
      f.resource?.name === 'evicted texture' &&
      f.heap?.name === 'evicted texture heap' &&
      f.commandList.label.endsWith("'stream into an evicted heap'"),
  );
  const summary = JSON.stringify(faults.slice(0, 2));
  return [
    checkThat(
      `tier ${tier}: copyTextureRegion into an evicted heap faults, attributed to command 0`,
      writes.length > 0 && writes.every((f) => f.command.index === 0),
      `${writes.length} write faults: ${summary}`,
    ),
    checkThat(
      `tier ${tier}: copyTextureRegion out of an evicted heap faults, attributed to command 2`,
      reads.length > 0 && reads.every((f) => f.command.index === 2),
      `${reads.length} read faults: ${summary}`,
    ),
    checkThat(
      `tier ${tier}: every fault names copyTextureRegion, the texture, the heap and the list`,
      faults.length === writes.length + reads.length && named,
      summary,
    ),
  ];
}
