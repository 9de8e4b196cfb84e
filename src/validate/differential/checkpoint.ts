/**
 * A differential checkpoint: everything the run can compare, compared. The CPU page table
 * (getTileMappingForTesting) and each pageable's residency (getResidencyStatus) against the run's
 * model; then every live resource read back through one READBACK buffer (buffers by
 * copyBufferRegion, textures by copyTiles of all their tiles) and, for CPU-visible memory, through
 * map() too, each byte against the CPU reference; RGBA8 2D textures also through a shader's loads,
 * twice, the second time from the texture cache (sampled-reads.ts); then the GPU's fault log, which
 * must be empty.
 *
 * Invariants: what is evicted is made resident for the read-back and evicted again after it (queue
 * order puts the eviction after the copies), so a checkpoint leaves residency as it found it; a
 * checkpoint executes the open batch first, so the reference and the GPU have run the same work.
 */
import type { Heap } from '../../d3d12/heap.js';
import { hexByte, roundUp, TILE } from '../bytes.js';
import type { Findings } from '../findings.js';
import { coordinateOf } from '../tile-regions.js';
import type { RunnerState } from './runner.js';
import { SampledReads } from './sampled-reads.js';
import { isReserved, type ResourceEntry, type Slots } from './world.js';
import { getTileMappingForTesting } from '../../testing/index.js';

/** Where the CPU page table disagrees with the run's model of `entry`'s mappings, in words; undefined when it agrees. */
export function mappingDifference(entry: ResourceEntry): string | undefined {
  for (let tile = 0; tile < entry.tiles; tile++) {
    const actual = getTileMappingForTesting(entry.resource, tile);
    const slot = (entry.slots as Slots)[tile] ?? null;
    const same =
      actual === null
        ? slot === null
        : slot !== null && actual.heap === slot.heap.heap && actual.heapTileOffset === slot.tile;
    if (!same) {
      const show = (m: { heap: Heap; tile: number } | null): string => (m ? `${m.heap.label} tile ${m.tile}` : 'NULL');
      return `${entry.resource.label} tile ${tile} maps to ${show(actual && { heap: actual.heap, tile: actual.heapTileOffset })} in the CPU page table; the model says ${show(slot && { heap: slot.heap.heap, tile: slot.tile })}`;
    }
  }
  return undefined;
}

/** The first byte where the GPU's bytes differ from the reference's, in words (textures: with the tile's coordinate). */
function byteDifference(entry: ResourceEntry, actual: Uint8Array, expected: Uint8Array): string | undefined {
  for (let at = 0; at < expected.length; at++) {
    if (actual[at] === expected[at]) continue;
    const tile = Math.floor(at / TILE);
    const where =
      entry.kind === 'texture' && entry.grid
        ? ` (tile ${tile}: ${JSON.stringify(coordinateOf(entry.grid, tile))})`
        : '';
    return `byte ${at} of ${expected.length}${where}: expected ${hexByte(expected, at)}, found ${hexByte(actual, at)}`;
  }
  return undefined;
}

const expectedBytes = (s: RunnerState, entry: ResourceEntry): Uint8Array =>
  entry.kind === 'texture'
    ? s.cpu.readTiles(
        entry,
        Array.from({ length: entry.tiles }, (_, i) => i),
      )
    : s.cpu.read(entry, 0, entry.width);

export async function checkpoint(s: RunnerState, f: Findings, index: number, operation: string): Promise<void> {
  s.executeBatch();
  f.checkpoints++;
  s.count('checkpoint');
  for (const entry of s.live(isReserved)) {
    const difference = mappingDifference(entry);
    if (difference) f.add(index, operation, 'CPU page table (getTileMappingForTesting)', difference);
  }
  for (const memory of s.pageables()) {
    const status = s.device.getResidencyStatus(memory.pageable);
    if (status.resident !== memory.refs > 0 || status.residencyReferences !== memory.refs) {
      f.add(
        index,
        operation,
        'residency (getResidencyStatus)',
        `${memory.name}: resident ${status.resident}, ${status.residencyReferences} reference(s); expected ${memory.refs > 0}, ${memory.refs}`,
      );
    }
  }
  if (f.failed) return;

  const evicted = s
    .pageables()
    .filter((m) => m.refs === 0)
    .map((m) => m.pageable);
  if (evicted.length > 0) s.device.makeResident(evicted);
  // READBACK memory is never a copy source (it stays COPY_DEST): it is compared through map() alone.
  const targets = s.live((e) => e.access !== 'readback');
  const offsets: number[] = [];
  let total = 0;
  for (const entry of targets) {
    offsets.push(total);
    total += roundUp(entry.width, 256);
  }
  // RGBA8 2D textures are also read by a shader, twice: through the texture cache (sampled-reads.ts).
  const sampled = await SampledReads.plan(s, f.checkpoints);
  const sampledAt = total;
  total += sampled ? 2 * sampled.bytes : 0;
  const readback =
    total > 0
      ? s.device.createCommittedResource({ type: 'READBACK' }, [], { dimension: 'BUFFER', width: total }, 'COPY_DEST')
      : undefined;
  if (readback) {
    const list = s.batch.takeList();
    targets.forEach((entry, i) => {
      const offset = offsets[i] as number;
      if (entry.kind === 'texture')
        list.copyTiles(
          entry.resource,
          { x: 0, y: 0, z: 0, subresource: 0 },
          { numTiles: entry.tiles },
          readback,
          offset,
          'SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER',
        );
      else list.copyBufferRegion(readback, offset, entry.resource, 0, entry.width);
    });
    sampled?.record(list, 0);
    list.close();
    s.queue.executeCommandLists([list]);
    s.batch.giveBack(list);
    sampled?.submitSecondPass(s, readback, sampledAt);
  }
  if (evicted.length > 0) s.device.evict(evicted);
  await s.batch.waitIdle();
  if (readback) {
    const bytes = readback.map().slice();
    readback.unmap(0, { begin: 0, end: 0 });
    readback.release();
    targets.forEach((entry, i) => {
      const offset = offsets[i] as number;
      const difference = byteDifference(entry, bytes.subarray(offset, offset + entry.width), expectedBytes(s, entry));
      f.bytesCompared += entry.width;
      if (difference)
        f.add(
          index,
          operation,
          `bytes of ${entry.name} (${entry.resource.label}), read back by ${entry.kind === 'texture' ? 'copyTiles' : 'copyBufferRegion'} into READBACK memory`,
          difference,
        );
    });
    sampled?.compare(s, f, index, operation, bytes.subarray(sampledAt, sampledAt + 2 * sampled.bytes));
  }
  sampled?.release();
  for (const entry of s.live((e) => e.access !== 'none')) {
    const view = entry.resource.map();
    const difference = byteDifference(entry, view, s.cpu.read(entry, 0, entry.width));
    entry.resource.unmap(0, { begin: 0, end: 0 });
    f.bytesCompared += entry.width;
    if (difference)
      f.add(index, operation, `bytes of ${entry.name} (${entry.resource.label}), read through map()`, difference);
  }
  const faults = await s.device.readFaults();
  if (faults.length > 0)
    f.add(index, operation, 'GPU fault log', `${faults.length} fault(s); first: ${faults[0]?.message ?? ''}`);
}
