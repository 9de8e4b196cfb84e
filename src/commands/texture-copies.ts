/**
 * copyTextureRegion as a command list records it: the checked copy (validation/texture-copies.ts)
 * turned into copy jobs between GPU virtual addresses, which the copy kernel runs through the page
 * table like every other copy. So a copy into or out of a reserved texture behaves as copyTiles
 * does (writes to NULL tiles dropped, reads of them as the tier says), an access to an evicted heap
 * faults and is reported against the copyTextureRegion command, and texel addresses are the ones
 * the prelude's texture loads read (memory/texel-layout.ts).
 *
 * Invariant: nothing here runs unless validation passed; the jobs never touch bytes outside the
 * destination region, and jobs sharing a destination word run in separate dispatches (copyPhases).
 */
import { orThrow } from '../api/errors.js';
import { RESOURCE_STATE_BITS, type PlacedSubresourceFootprint } from '../api/types.js';
import { copyPhases, regionCopyJobs, type CopyJob, type RegionSide } from '../gpu/copy-jobs.js';
import { footprintElementRun, textureElementRun } from '../memory/texel-layout.js';
import { validateCopyTextureRegion, type CopySide } from '../validation/texture-copies.js';
import type { Resource } from '../d3d12/resource.js';

/** D3D12_TEXTURE_COPY_LOCATION: a texture subresource, or a footprint in a buffer. */
export type TextureCopyLocation =
  | { resource: Resource; type: 'SUBRESOURCE_INDEX'; subresourceIndex: number }
  | { resource: Resource; type: 'PLACED_FOOTPRINT'; placedFootprint: PlacedSubresourceFootprint };

export interface TextureCopyCommand {
  jobs: CopyJob[];
  phases: number;
  /** [argument, resource, subresource, access], as the list's state tracker takes them. */
  uses: [string, Resource, number, number][];
  /** The destination bytes the jobs write, from the resource's start. */
  written: { resource: Resource; offset: number; length: number };
}

function regionSide(side: CopySide, [x0, y0, z0]: [number, number, number]): RegionSide {
  const resource = side.resource as Resource;
  const address = resource.virtualRange.address;
  if (side.kind === 'subresource')
    return {
      address,
      at: (x, y, z) => textureElementRun(resource.layout, side.format, side.subresource, x0 + x, y0 + y, z0 + z),
    };
  const { offset, numRows, footprint, format } = side;
  return {
    address,
    at: (x, y, z) =>
      footprintElementRun(offset, footprint.rowPitch, numRows, format.bytesPerElement, x0 + x, y0 + y, z0 + z),
  };
}

/** Checks a copyTextureRegion call and plans its jobs; throws the D3D12Error validation found. */
export function textureCopyCommand(
  own: (value: unknown) => Resource | undefined,
  dst: unknown,
  dstX: unknown,
  dstY: unknown,
  dstZ: unknown,
  src: unknown,
  srcBox: unknown,
): TextureCopyCommand {
  const plan = orThrow(validateCopyTextureRegion(own, dst, dstX, dstY, dstZ, src, srcBox));
  const [to, from] = [plan.dst.resource as Resource, plan.src.resource as Resource];
  const jobs = regionCopyJobs(
    regionSide(plan.dst, plan.dstStart),
    regionSide(plan.src, plan.srcStart),
    plan.size,
    plan.bytesPerElement,
  );
  let [low, high] = [Infinity, 0];
  for (const job of jobs) {
    const start = Number(job.dst - to.virtualRange.address);
    low = Math.min(low, start);
    high = Math.max(high, start + job.bytes);
  }
  const subresource = (side: CopySide): number => (side.kind === 'subresource' ? side.subresource : 0);
  return {
    jobs,
    phases: copyPhases(jobs),
    uses: [
      ['dst', to, subresource(plan.dst), RESOURCE_STATE_BITS.COPY_DEST],
      ['src', from, subresource(plan.src), RESOURCE_STATE_BITS.COPY_SOURCE],
    ],
    written: { resource: to, offset: jobs.length > 0 ? low : 0, length: Math.max(0, high - low) },
  };
}
