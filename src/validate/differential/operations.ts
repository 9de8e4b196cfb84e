/**
 * The operations of the differential run, as plain data: what the generator draws, what the runner
 * applies to the device and to the CPU reference, and what a mismatch names. Resources and heaps are
 * named by the runner in creation order ('H2' a heap, 'B3' a buffer, 'T4' a texture, 'U5' a
 * transient UPLOAD buffer), so a trace reads the same on every replay of a seed.
 *
 * Invariant: an operation carries every argument of its calls, data seeds included (bytes come from
 * dataBytes(length, data)), so a trace alone replays it.
 */
import type { TiledResourceCoordinate, TileMappingFlag, TileRangeFlag, TileRegionSize } from '../../api/types.js';

/** CPU access of a buffer's memory: none (DEFAULT), an UPLOAD, READBACK or CUSTOM (write-back/-combine, L0) heap. */
export type CpuAccess = 'none' | 'upload' | 'readback' | 'custom';

export interface RangeSpec {
  flag: TileRangeFlag;
  heapStart: number;
  /** Tiles of the range (passed as rangeTileCounts unless the call leaves them to D3D12's defaults). */
  count: number;
}

export interface RegionSpec {
  start: TiledResourceCoordinate;
  size: TileRegionSize;
}

export interface TextureSpec {
  dimension: 'TEXTURE2D' | 'TEXTURE3D';
  format: 'R8G8B8A8_UNORM' | 'R32G32B32A32_FLOAT' | 'R16G16B16A16_FLOAT' | 'R8_UNORM';
  width: number;
  height: number;
  depth: number;
  mipLevels: number;
}

export type Operation =
  | { kind: 'createHeap'; tiles: number; custom: boolean }
  | { kind: 'createPlaced'; heap: string; heapTile: number; width: number }
  | { kind: 'createCommitted'; width: number; access: CpuAccess }
  | { kind: 'createReserved'; width: number }
  | { kind: 'createTexture'; texture: TextureSpec }
  | { kind: 'release'; resource: string }
  | { kind: 'releaseHeap'; heap: string }
  /**
   * regions null: no coordinates and sizes (D3D12's default, the whole resource). defaults: the
   * call passes null rangeTileCounts (and null flags when all are NONE), which D3D12 resolves to
   * the counts given here.
   */
  | {
      kind: 'updateTileMappings';
      resource: string;
      regions: RegionSpec[] | null;
      heap: string | null;
      ranges: RangeSpec[];
      defaults: boolean;
      flags: TileMappingFlag;
    }
  | {
      kind: 'copyTileMappings';
      dst: string;
      dstStart: TiledResourceCoordinate;
      src: string;
      srcStart: TiledResourceCoordinate;
      size: TileRegionSize;
      flags: TileMappingFlag;
    }
  /** A new UPLOAD buffer of `uploadWidth` bytes of dataBytes(uploadWidth, data), copied from srcOffset. */
  | {
      kind: 'uploadCopy';
      dst: string;
      dstOffset: number;
      uploadWidth: number;
      srcOffset: number;
      numBytes: number;
      data: number;
    }
  | { kind: 'copy'; dst: string; dstOffset: number; src: string; srcOffset: number; numBytes: number }
  /** buffer null: a new UPLOAD buffer of bufferOffset + the region's tiles of dataBytes(…, data). */
  | {
      kind: 'copyTiles';
      tiled: string;
      start: TiledResourceCoordinate;
      size: TileRegionSize;
      buffer: string | null;
      bufferOffset: number;
      toTiles: boolean;
      noHazard: boolean;
      data: number;
    }
  | { kind: 'dispatch'; buffer: string; offset: number; words: number; seed: number }
  /** map(), write dataBytes(length, data) at offset, unmap (naming the written range when `ranged`). */
  | { kind: 'cpuWrite'; buffer: string; offset: number; length: number; data: number; ranged: boolean }
  /** A heap or a committed buffer, by name. */
  | { kind: 'evict'; object: string }
  | { kind: 'makeResident'; object: string }
  | { kind: 'newList' }
  | { kind: 'execute' }
  | { kind: 'wait' }
  | { kind: 'checkpoint' };

export type OperationKind = Operation['kind'];

/** `kind {arguments}`: one line of a trace, and the `operation` of a mismatch. */
export function describeOperation(op: Operation): string {
  const { kind, ...rest } = op;
  return `${kind} ${JSON.stringify(rest)}`;
}
