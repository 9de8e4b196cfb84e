/**
 * Copies as the copy kernel (shaders/copy.wgsl) runs them: jobs of at most D3D12_COPY_JOB_BYTES
 * between GPU virtual addresses. GPU-free arithmetic, kept beside the kernel whose limits it follows.
 */
import copyWgsl from '../../shaders/copy.wgsl?raw';
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

/**
 * Cuts a copy into jobs of at most COPY_JOB_BYTES. Every job but the first starts at a 4-byte
 * aligned destination, so no two jobs of one copy share a destination word.
 */
export function chunkCopy(dst: bigint, src: bigint, bytes: number, jobs: CopyJob[] = []): CopyJob[] {
  let done = 0;
  while (done < bytes) {
    const length = done === 0 ? Math.min(bytes, COPY_JOB_BYTES - Number(dst % 4n)) : Math.min(bytes - done, COPY_JOB_BYTES);
    jobs.push({ dst: dst + BigInt(done), src: src + BigInt(done), bytes: length });
    done += length;
  }
  return jobs;
}

/** The jobs of a copyTiles: one per tile, in region order, against consecutive tiles of the buffer. */
export function tileCopyJobs(layout: ResourceLayout, tiledAddress: bigint, spans: readonly TileSpan[], toTiles: boolean, bufferAddress: bigint): CopyJob[] {
  const jobs: CopyJob[] = [];
  let i = 0;
  for (const span of spans) {
    for (let tile = span.first; tile < span.first + span.count; tile++) {
      const tileAddress = tiledAddress + BigInt(tileByteOffset(layout, tile));
      const linear = bufferAddress + BigInt(i++ * TILE_SIZE);
      jobs.push(toTiles ? { dst: tileAddress, src: linear, bytes: TILE_SIZE } : { dst: linear, src: tileAddress, bytes: TILE_SIZE });
    }
  }
  return jobs;
}
