/**
 * The differential run's generator: draws the next operation, legal now, from the seeded generator
 * and the run's model. Kinds are weighted by what exists (creation first, then a steady mix of
 * mappings, copies, dispatches, CPU writes and paging), and arguments are drawn again (up to 12
 * times, counted as 'regenerated') when a draw would race on aliased memory or touch memory that is
 * not resident.
 *
 * Invariants: generation reads the model only, never the device, so a seed's sequence of
 * operations depends on the seed and the tier alone; live memory stays within the run's pools
 * (bounds below), so no call fails for lack of memory.
 */
import { TILE } from '../bytes.js';
import type { Random } from '../random.js';
import { generateCopyMappings, generateUpdate, pickRegion } from './generate-mappings.js';
import type { CpuAccess, Operation, OperationKind, TextureSpec } from './operations.js';
import type { RunnerState } from './runner.js';
import { isBuffer, isReserved, legal, segments, tileSegments, type ResourceEntry } from './world.js';

const MIB = 2 ** 20;
const MAX_HEAPS = 8;
const MAX_HEAP_TILES = 8;
const MAX_BUFFERS = 20;
/** Bytes of live buffers (what a checkpoint reads back). */
const MAX_BUFFER_BYTES = 4 * MIB;
const MAX_TEXTURES = 4;
const MAX_TEXTURE_TILES = 80;
/** UPLOAD pages waiting for a fence before a wait is forced. */
export const MAX_UPLOAD_TILES = 48;
/** Most residency references the run stacks on one object. */
const MAX_REFS = 3;
/** Tiles of one copyTiles. */
const MAX_COPY_TILES = 4;

/** D3D12's standard tile shapes (2D, 3D) by bytes per texel, for sizing textures of a few tiles per mip. */
const FORMATS: { format: TextureSpec['format']; shape2d: [number, number]; shape3d: [number, number, number] }[] = [
  { format: 'R8G8B8A8_UNORM', shape2d: [128, 128], shape3d: [32, 32, 16] },
  { format: 'R8_UNORM', shape2d: [256, 256], shape3d: [64, 32, 32] },
  { format: 'R16G16B16A16_FLOAT', shape2d: [128, 64], shape3d: [32, 16, 16] },
  { format: 'R32G32B32A32_FLOAT', shape2d: [64, 64], shape3d: [16, 16, 16] },
];

export class Generator {
  constructor(
    private readonly state: RunnerState,
    private readonly r: Random,
    private readonly tier: number,
  ) {}

  /** One operation that is legal now, or undefined when the chosen kind cannot be made. */
  generate(): Operation | undefined {
    const s = this.state;
    const heaps = s.liveHeaps();
    const buffers = s.live(isBuffer);
    const reserved = s.live(isReserved);
    const textures = s.live((e) => e.kind === 'texture');
    const bufferBytes = buffers.reduce((sum, b) => sum + b.width, 0);
    const roomForBuffer = buffers.length < MAX_BUFFERS && bufferBytes < MAX_BUFFER_BYTES - 6 * TILE;
    const textureTiles = textures.reduce((sum, t) => sum + t.tiles, 0);
    const heldHeaps = s.heaps.filter((h) => !h.released || h.placed.size > 0).length;
    const pageables = s.pageables();
    const weights: [OperationKind, number][] = [
      ['createHeap', heldHeaps < MAX_HEAPS ? (heaps.length < 2 ? 10 : 2) : 0],
      ['createPlaced', roomForBuffer && heaps.length > 0 ? (buffers.length < 4 ? 8 : 3) : 0],
      ['createCommitted', roomForBuffer ? (buffers.length < 4 ? 6 : 3) : 0],
      ['createReserved', roomForBuffer ? (reserved.length < 2 ? 10 : 3) : 0],
      [
        'createTexture',
        textures.length < MAX_TEXTURES && textureTiles < MAX_TEXTURE_TILES - 30 ? (textures.length < 1 ? 8 : 2) : 0,
      ],
      ['release', buffers.length > 8 || textures.length > 2 ? 1 : 0],
      ['releaseHeap', heaps.length > 3 ? 0.6 : 0],
      ['updateTileMappings', reserved.length > 0 ? 10 : 0],
      ['copyTileMappings', reserved.length > 0 ? 3 : 0],
      ['uploadCopy', buffers.length > 0 ? 10 : 0],
      ['copy', buffers.length > 1 ? 10 : 0],
      ['copyTiles', reserved.length > 0 ? 7 : 0],
      ['dispatch', buffers.length > 0 ? 8 : 0],
      ['cpuWrite', buffers.some((b) => b.access !== 'none') ? 4 : 0],
      ['evict', pageables.some((m) => m.refs > 0) ? 2.5 : 0],
      ['makeResident', pageables.some((m) => m.refs === 0) ? 4 : pageables.length > 0 ? 0.5 : 0],
      ['newList', s.batch.pending.length > 0 ? 1 : 0],
    ];
    const kind = (weights[this.r.weighted(weights.map(([, w]) => w))] as [OperationKind, number])[0];
    for (let attempt = 0; attempt < 12; attempt++) {
      const op = this.generateKind(kind, buffers, reserved);
      if (op) return op;
      s.count('regenerated');
    }
    return undefined;
  }

  private generateKind(
    kind: OperationKind,
    buffers: ResourceEntry[],
    reserved: ResourceEntry[],
  ): Operation | undefined {
    const r = this.r;
    const s = this.state;
    switch (kind) {
      case 'createHeap':
        return { kind, tiles: r.int(1, MAX_HEAP_TILES), custom: r.chance(0.25) };
      case 'createPlaced': {
        const heap = r.pick(s.liveHeaps());
        const heapTile = r.int(0, heap.tiles - 1);
        return { kind, heap: heap.name, heapTile, width: r.size((heap.tiles - heapTile) * TILE) };
      }
      case 'createCommitted': {
        const access = (['none', 'upload', 'readback', 'custom'] as CpuAccess[])[r.weighted([3, 2, 2, 2])] as CpuAccess;
        return { kind, width: r.size(3 * TILE), access };
      }
      case 'createReserved': {
        const tiles = r.int(1, 6);
        return { kind, width: r.int((tiles - 1) * TILE + 1, tiles * TILE) };
      }
      case 'createTexture':
        return { kind, texture: this.textureSpec() };
      case 'release':
        return { kind, resource: r.pick(s.live()).name };
      case 'releaseHeap': {
        const candidates = s.liveHeaps().filter((h) => h.memory.refs > 0);
        return candidates.length > 0 ? { kind, heap: r.pick(candidates).name } : undefined;
      }
      case 'updateTileMappings':
        return generateUpdate(
          r,
          r.pick(reserved),
          s.liveHeaps().filter((h) => !h.custom),
        );
      case 'copyTileMappings': {
        const dst = r.pick(reserved);
        return generateCopyMappings(r, dst, r.chance(0.3) ? dst : r.pick(reserved));
      }
      case 'uploadCopy':
        return this.uploadCopy(buffers);
      case 'copy':
        return this.copyBuffers(buffers);
      case 'copyTiles':
        return this.copyTiles(r.pick(reserved), buffers);
      case 'dispatch':
        return this.dispatch(buffers);
      case 'cpuWrite':
        return this.cpuWrite(buffers);
      case 'evict': {
        const candidates = s.pageables().filter((m) => m.refs > 0);
        return candidates.length > 0 ? { kind, object: r.pick(candidates).name } : undefined;
      }
      case 'makeResident': {
        const evicted = s.pageables().filter((m) => m.refs === 0);
        const candidates =
          evicted.length > 0 && r.chance(0.85) ? evicted : s.pageables().filter((m) => m.refs < MAX_REFS);
        return candidates.length > 0 ? { kind, object: r.pick(candidates).name } : undefined;
      }
      case 'newList':
        return { kind };
      default:
        return undefined;
    }
  }

  /** A copy from a fresh UPLOAD buffer into a live buffer that is not UPLOAD memory. */
  private uploadCopy(buffers: ResourceEntry[]): Operation | undefined {
    const r = this.r;
    const candidates = buffers.filter((b) => b.access !== 'upload');
    if (candidates.length === 0) return undefined;
    const dst = r.pick(candidates);
    const numBytes = r.chance(0.02) ? 0 : r.size(dst.width);
    const dstOffset = r.int(0, dst.width - numBytes);
    const srcOffset = r.chance(0.5) ? 0 : r.int(0, 300);
    const op: Operation = {
      kind: 'uploadCopy',
      dst: dst.name,
      dstOffset,
      uploadWidth: Math.max(1, srcOffset + numBytes + r.int(0, 9)),
      srcOffset,
      numBytes,
      data: r.next(),
    };
    return legal(segments(dst, dstOffset, numBytes), []) ? op : undefined;
  }

  /** A copy between two live buffers (never one buffer with itself, never from READBACK memory). */
  private copyBuffers(buffers: ResourceEntry[]): Operation | undefined {
    const r = this.r;
    const dsts = buffers.filter((b) => b.access !== 'upload');
    if (dsts.length === 0) return undefined;
    const dst = r.pick(dsts);
    // Not dst itself: one buffer cannot be COPY_DEST and COPY_SOURCE in one command. READBACK memory is never a source.
    const srcs = buffers.filter((b) => b !== dst && b.access !== 'readback');
    if (srcs.length === 0) return undefined;
    const src = r.pick(srcs);
    const numBytes = r.chance(0.02) ? 0 : r.size(Math.min(dst.width, src.width));
    const dstOffset = r.int(0, dst.width - numBytes);
    const srcOffset = r.int(0, src.width - numBytes);
    return legal(segments(dst, dstOffset, numBytes), segments(src, srcOffset, numBytes))
      ? { kind: 'copy', dst: dst.name, dstOffset, src: src.name, srcOffset, numBytes }
      : undefined;
  }

  /** A read-modify-write dispatch over words of a GPU-writable buffer. */
  private dispatch(buffers: ResourceEntry[]): Operation | undefined {
    const r = this.r;
    const candidates = buffers.filter((b) => b.width >= 4 && (b.access === 'none' || b.access === 'custom'));
    if (candidates.length === 0) return undefined;
    const buffer = r.pick(candidates);
    const maxWords = Math.floor(buffer.width / 4);
    const words = r.size(maxWords);
    const offset = 4 * r.int(0, maxWords - words);
    return legal(segments(buffer, offset, words * 4), [])
      ? { kind: 'dispatch', buffer: buffer.name, offset, words, seed: r.next() }
      : undefined;
  }

  /** A CPU write through map() into a mappable buffer. */
  private cpuWrite(buffers: ResourceEntry[]): Operation {
    const r = this.r;
    const buffer = r.pick(buffers.filter((b) => b.access !== 'none'));
    const length = r.size(buffer.width);
    return {
      kind: 'cpuWrite',
      buffer: buffer.name,
      offset: r.int(0, buffer.width - length),
      length,
      data: r.next(),
      ranged: r.chance(0.5),
    };
  }

  /** A one-slice 2D texture with mips, or (tier 3 and up) a 3D one, a few tiles per mip. */
  private textureSpec(): TextureSpec {
    const r = this.r;
    const { format, shape2d, shape3d } = r.pick(FORMATS);
    const volume = this.tier >= 3 && r.chance(0.35);
    // Whole tiles sometimes, mostly at Tier 1 (which packs any mip that is not a whole number of tiles).
    const extent = (tile: number, most: number): number =>
      r.chance(this.tier === 1 ? 0.8 : 0.35) ? tile * r.int(1, most) : r.int(1, tile * most);
    const width = extent(volume ? shape3d[0] : shape2d[0], volume ? 3 : 4);
    const height = extent(volume ? shape3d[1] : shape2d[1], volume ? 3 : 4);
    const depth = volume ? extent(shape3d[2], 2) : 1;
    const fullMips = Math.floor(Math.log2(Math.max(width, height, depth))) + 1;
    return {
      dimension: volume ? 'TEXTURE3D' : 'TEXTURE2D',
      format,
      width,
      height,
      depth,
      mipLevels: r.int(1, fullMips),
    };
  }

  private copyTiles(tiled: ResourceEntry, buffers: ResourceEntry[]): Operation | undefined {
    const r = this.r;
    const picked = pickRegion(
      r,
      tiled.grid as NonNullable<ResourceEntry['grid']>,
      tiled.kind === 'texture',
      MAX_COPY_TILES,
    );
    if (!picked) return undefined;
    const toTiles = r.chance(0.5);
    const bytes = picked.tiles.length * TILE;
    const candidates = buffers.filter(
      (b) => b !== tiled && b.width >= bytes && (toTiles ? b.access !== 'readback' : b.access !== 'upload'),
    );
    const fromUpload = toTiles && (candidates.length === 0 || r.chance(0.5));
    if (!fromUpload && candidates.length === 0) return undefined;
    const buffer = fromUpload ? null : r.pick(candidates);
    const room = buffer ? buffer.width - bytes : 300;
    const bufferOffset = r.chance(0.4) ? 0 : r.chance(0.5) ? r.int(0, Math.min(room, 16)) : r.int(0, room);
    const tileSide = tileSegments(tiled, picked.tiles);
    const bufferSide = buffer ? segments(buffer, bufferOffset, bytes) : [];
    const ok = toTiles ? legal(tileSide, bufferSide) : legal(bufferSide, tileSide);
    return ok
      ? {
          kind: 'copyTiles',
          tiled: tiled.name,
          start: picked.region.start,
          size: picked.region.size,
          buffer: buffer?.name ?? null,
          bufferOffset,
          toTiles,
          noHazard: r.chance(0.2),
          data: r.next(),
        }
      : undefined;
  }
}
