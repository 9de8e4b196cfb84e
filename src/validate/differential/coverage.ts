/**
 * What an operation of the differential run exercises, as names the run counts next to the
 * operation kinds (ValidationResult.counts): range flags and D3D12's defaults, mapping flags, the CPU
 * access of what is created and written, copyTiles' direction, what is paged, and what a texture
 * region is (a box, a run that spills into a later mip, one that covers the packed tail). Tests
 * assert on these, so a generator change that stops covering something shows.
 *
 * Invariant: a pure function of the operation and the model before it is applied.
 */
import { coordinateOf, regionTiles } from '../tile-regions.js';
import type { Operation, RegionSpec } from './operations.js';
import type { ResourceEntry } from './world.js';

export function coverageOf(
  op: Operation,
  entryNamed: (name: string) => ResourceEntry | undefined,
  isHeap: (name: string) => boolean,
): string[] {
  const out: string[] = [];
  if (op.kind === 'updateTileMappings') {
    for (const flag of new Set(op.ranges.map((range) => range.flag))) out.push(`range ${flag}`);
    if (op.defaults) out.push('range counts left to D3D12');
    if (op.regions === null) out.push('whole resource (no regions)');
  }
  if ((op.kind === 'updateTileMappings' || op.kind === 'copyTileMappings') && op.flags === 'NO_HAZARD')
    out.push('mapping flag NO_HAZARD');
  if (op.kind === 'createCommitted') out.push(`createCommitted (${op.access})`);
  if (op.kind === 'cpuWrite') out.push(`cpuWrite (${entryNamed(op.buffer)?.access ?? 'unknown'})`);
  if (op.kind === 'copyTiles')
    out.push(
      op.toTiles
        ? 'copyTiles LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE'
        : 'copyTiles SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER',
    );
  if (op.kind === 'evict' || op.kind === 'makeResident')
    out.push(`${op.kind} (${isHeap(op.object) ? 'heap' : 'committed'})`);

  const named =
    op.kind === 'updateTileMappings'
      ? op.resource
      : op.kind === 'copyTiles'
        ? op.tiled
        : op.kind === 'copyTileMappings'
          ? op.dst
          : undefined;
  const entry = named === undefined ? undefined : entryNamed(named);
  if (!entry || entry.kind !== 'texture' || !entry.grid) return out;
  out.push(`${op.kind} (texture)`);
  const regions: RegionSpec[] =
    op.kind === 'updateTileMappings'
      ? (op.regions ?? [])
      : op.kind === 'copyTiles'
        ? [{ start: op.start, size: op.size }]
        : op.kind === 'copyTileMappings'
          ? [{ start: op.dstStart, size: op.size }]
          : [];
  const grid = entry.grid;
  for (const region of regions) {
    const tiles = regionTiles(grid, region.start, region.size);
    const last = tiles[tiles.length - 1] ?? 0;
    if (region.size.useBox) out.push('texture region: box');
    if (grid.tail && last >= grid.tail.first) out.push('texture region: covers the packed tail');
    if (!region.size.useBox && coordinateOf(grid, last).subresource !== region.start.subresource)
      out.push('texture region: spills into a later mip');
  }
  return out;
}
