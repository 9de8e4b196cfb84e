/**
 * Bytes in and out of reserved resources tile by tile, and compute work run to completion, through
 * the public API (as d3d12-io.ts moves buffers): copyTiles from an UPLOAD buffer into every tile,
 * copyTiles of every tile out into a buffer read back, a dispatch with its root arguments. Tile
 * after tile, each tile's texels row-major: CopyTiles' linear layout, D3D12's own, so what comes
 * back is the resource's bytes in GetResourceTiling's tile order.
 *
 * Invariant: each helper leaves the resource in COMMON and waits for everything submitted to the
 * queue so far.
 */
import type { CommandQueue } from '../d3d12/command-queue.js';
import type { Device } from '../d3d12/device.js';
import type { PipelineState } from '../d3d12/pipeline-state.js';
import type { Resource } from '../d3d12/resource.js';
import { TILE } from './bytes.js';
import { readBuffer, runList, uploadBuffer } from './d3d12-io.js';

const ORIGIN = { x: 0, y: 0, z: 0, subresource: 0 };

/** Copies `bytes` (a whole number of tiles, from tile 0) into the resource's tiles; NULL tiles drop theirs. */
export async function writeTiles(
  device: Device,
  queue: CommandQueue,
  resource: Resource,
  bytes: Uint8Array,
): Promise<void> {
  const upload = uploadBuffer(device, bytes);
  // A texture promoted to COPY_DEST stays there (only read-only promotions decay): back to COMMON.
  await runList(device, queue, (list) => {
    list.copyTiles(
      resource,
      ORIGIN,
      { numTiles: bytes.length / TILE },
      upload,
      0,
      'LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE',
    );
    if (resource.getDesc().dimension !== 'BUFFER')
      list.resourceBarrier([
        { type: 'TRANSITION', transition: { resource, stateBefore: 'COPY_DEST', stateAfter: 'COMMON' } },
      ]);
  });
  upload.release();
}

/** Every tile of the resource (`tiles` of them), as copyTiles reads them (NULL tiles as the tier says). */
export async function readTiles(
  device: Device,
  queue: CommandQueue,
  resource: Resource,
  tiles = device.getResourceTiling(resource).numTilesForEntireResource,
): Promise<Uint8Array> {
  const out = device.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'BUFFER', width: tiles * TILE },
    'COMMON',
  );
  await runList(device, queue, (list) =>
    list.copyTiles(resource, ORIGIN, { numTiles: tiles }, out, 0, 'SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER'),
  );
  const bytes = await readBuffer(device, queue, out, 0, tiles * TILE);
  out.release();
  return bytes;
}

/** Runs `pso` once: root descriptors 1, 2, … at `descriptors`, root constants from 0, `groups` workgroups. */
export async function dispatchOnce(
  device: Device,
  queue: CommandQueue,
  pso: PipelineState,
  descriptors: readonly bigint[],
  constants: readonly number[],
  groups: number,
): Promise<void> {
  await runList(device, queue, (list) => {
    list.setPipelineState(pso);
    descriptors.forEach((address, i) => list.setComputeRootUnorderedAccessView(i + 1, address));
    if (constants.length > 0) list.setComputeRoot32BitConstants(0, constants);
    list.dispatch(groups);
  });
}
