/**
 * Copies as the copy kernel (shaders/copy.wgsl) runs them: jobs of at most D3D12_COPY_JOB_BYTES
 * between GPU virtual addresses. GPU-free arithmetic, kept beside the kernel whose limits it follows.
 */
import copyWgsl from '../../shaders/copy.wgsl?raw';
import type { ElementRun } from '../memory/texel-layout.js';
import { tileByteOffset, TILE_SIZE, type ResourceLayout } from '../memory/tiling.js';
import type { TileSpan } from '../memory/tile-mappings.js';
import { requireConstant } from './prelude.js';

export const COPY_WGSL: string = copyWgsl;

/** The longest job the kernel's workgroups cover (D3D12_COPY_JOB_BYTES). */
export const COPY_JOB_BYTES: number = requireConstant(copyWgsl, 'D3D12_COPY_JOB_BYTES', 'copy.wgsl');

export interface CopyJob {
  dst: bigint;
  src: bigint;
  bytes: number;
}

/** A job of the page kernel (d3d12_copy_pages; page-copies.ts): with its pool word indices resolved. */
export interface PageCopyJob extends CopyJob {
  dstWord: number;
  srcWord: number;
}

/**
 * Cuts a copy into jobs of at most COPY_JOB_BYTES. Every job but the first starts at a 4-byte
 * aligned destination, so no two jobs of one copy share a destination word.
 */
export function chunkCopy(dst: bigint, src: bigint, bytes: number, jobs: CopyJob[] = []): CopyJob[] {
  let done = 0;
  while (done < bytes) {
    const length =
      done === 0 ? Math.min(bytes, COPY_JOB_BYTES - Number(dst % 4n)) : Math.min(bytes - done, COPY_JOB_BYTES);
    jobs.push({ dst: dst + BigInt(done), src: src + BigInt(done), bytes: length });
    done += length;
  }
  return jobs;
}

/** The jobs of a copyTiles: one per tile, in region order, against consecutive tiles of the buffer. */
export function tileCopyJobs(
  layout: ResourceLayout,
  tiledAddress: bigint,
  spans: readonly TileSpan[],
  toTiles: boolean,
  bufferAddress: bigint,
): CopyJob[] {
  const jobs: CopyJob[] = [];
  let i = 0;
  for (const span of spans) {
    for (let tile = span.first; tile < span.first + span.count; tile++) {
      const tileAddress = tiledAddress + BigInt(tileByteOffset(layout, tile));
      const linear = bufferAddress + BigInt(i++ * TILE_SIZE);
      jobs.push(
        toTiles
          ? { dst: tileAddress, src: linear, bytes: TILE_SIZE }
          : { dst: linear, src: tileAddress, bytes: TILE_SIZE },
      );
    }
  }
  return jobs;
}

/** One side of a region copy: its base address and where each element lies (texel-layout.ts). */
export interface RegionSide {
  address: bigint;
  /** Element (x, y, z) of the side's region (its start already added). */
  at(x: number, y: number, z: number): ElementRun;
}

/**
 * The jobs of a region copy (copyTextureRegion) of `size` elements of `bytes` each: row by row, a
 * job per run of elements contiguous on both sides (a row is cut where either side's tile ends),
 * runs that continue each other on both sides merged, and jobs longer than COPY_JOB_BYTES cut.
 */
export function regionCopyJobs(
  dst: RegionSide,
  src: RegionSide,
  size: { width: number; height: number; depth: number },
  bytes: number,
): CopyJob[] {
  const jobs: CopyJob[] = [];
  let pending: { dst: number; src: number; bytes: number } | undefined;
  const flush = (): void => {
    if (pending) chunkCopy(dst.address + BigInt(pending.dst), src.address + BigInt(pending.src), pending.bytes, jobs);
    pending = undefined;
  };
  for (let z = 0; z < size.depth; z++) {
    for (let y = 0; y < size.height; y++) {
      for (let x = 0; x < size.width;) {
        const [to, from] = [dst.at(x, y, z), src.at(x, y, z)];
        const count = Math.min(size.width - x, to.run, from.run);
        if (pending && pending.dst + pending.bytes === to.offset && pending.src + pending.bytes === from.offset)
          pending.bytes += count * bytes;
        else {
          flush();
          pending = { dst: to.offset, src: from.offset, bytes: count * bytes };
        }
        x += count;
      }
    }
  }
  flush();
  return jobs;
}

/**
 * How many dispatches the kernel must spread `jobs` over (job i in dispatch i % phases) so that no
 * two jobs of one dispatch write the same destination word: 1 when none share one. Jobs are
 * disjoint byte ranges, so only a job's first and last words can be shared.
 */
export function copyPhases(jobs: readonly CopyJob[]): number {
  if (jobs.every((job) => job.dst % 4n === 0n && job.bytes % 4 === 0)) return 1;
  const sharers = new Map<bigint, number[]>();
  jobs.forEach((job, i) => {
    if (job.bytes === 0) return;
    const first = job.dst & ~3n;
    const last = (job.dst + BigInt(job.bytes - 1)) & ~3n;
    for (const word of first === last ? [first] : [first, last]) {
      const list = sharers.get(word);
      if (list) list.push(i);
      else sharers.set(word, [i]);
    }
  });
  const shared = [...sharers.values()].filter((list) => list.length > 1);
  for (let phases = 1; ; phases++) {
    if (shared.every((list) => new Set(list.map((i) => i % phases)).size === list.length)) return phases;
  }
}
