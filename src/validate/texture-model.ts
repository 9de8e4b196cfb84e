/**
 * The scenarios' CPU prediction of a texture's contents, element by element (texels, or 4×4 blocks
 * of a block-compressed format), from the public API alone: each subresource's extent is its
 * GetCopyableFootprints footprint, and whether an element of a reserved texture is backed is read
 * from GetResourceTiling (the standard tile shape and each subresource's tile grid; a packed mip
 * lives in its slice's tail tiles) and the CPU page table (resource.getTileMappingForTesting).
 * Writes to elements in NULL tiles are dropped; reads of them give the tier's value (0 on Tier 2+,
 * Tier 1's poison word, byte by byte at the element's place in its word).
 *
 * Invariants: the model never looks at byte addresses in the resource, so a GPU copy that puts an
 * element at the wrong place shows up as a mismatch; a reserved texture modelled here must not map
 * two of its tiles to one heap tile (aliasing is the page-table model's business, not this one's).
 */
import type { Device } from '../d3d12/device.js';
import type { Resource } from '../d3d12/resource.js';
import type { CopyableFootprints, ResourceTiling } from '../api/types.js';
import { PACKED_TILE } from '../index.js';
import { TIER1_NULL_READ } from './page-table-model.js';
import { getTileMappingForTesting } from '../testing/index.js';

/** x, y, z (a corner, or a size), in elements. */
export type Triple = readonly [number, number, number];

/** A subresource's extent in elements and the bytes of one. */
interface Shape {
  width: number;
  height: number;
  depth: number;
  bytes: number;
}

export class TextureModel {
  readonly footprints: CopyableFootprints;
  readonly subresources: number;
  private readonly shapes: Shape[];
  private readonly data: Uint8Array[];
  private readonly tiling: ResourceTiling | undefined;
  /** Texels per element along x and y (4 for block-compressed formats). */
  readonly block: { width: number; height: number };

  /** `reserved`: whether the texture is a reserved one (else every element is backed). */
  constructor(
    device: Device,
    readonly resource: Resource,
    private readonly tier: number,
    reserved: boolean,
  ) {
    const desc = resource.getDesc();
    const slices = desc.dimension === 'TEXTURE3D' ? 1 : desc.depthOrArraySize;
    this.subresources = desc.mipLevels * slices;
    this.footprints = device.getCopyableFootprints(desc, 0, this.subresources, 0);
    // The block, from the footprint: rows of blocks (square: 4×4 for BC formats, 1×1 else).
    const first = this.footprints.layouts[0]?.footprint;
    const blockSize = (first?.height ?? 1) / (this.footprints.numRows[0] ?? 1);
    this.block = { width: blockSize, height: blockSize };
    const bytes = (this.footprints.rowSizeInBytes[0] ?? 0) / ((first?.width ?? 1) / blockSize);
    this.shapes = this.footprints.layouts.map(({ footprint }, i) => ({
      width: footprint.width / blockSize,
      height: this.footprints.numRows[i] as number,
      depth: footprint.depth,
      bytes,
    }));
    this.data = this.shapes.map((s) => new Uint8Array(s.width * s.height * s.depth * s.bytes));
    this.tiling = reserved ? device.getResourceTiling(resource, 0, this.subresources) : undefined;
  }

  shape(subresource: number): Shape {
    return this.shapes[subresource] as Shape;
  }

  /** The tile holding element (x, y, z), by GetResourceTiling's numbers. */
  private tileOf(subresource: number, x: number, y: number, z: number): number {
    const tiling = this.tiling as ResourceTiling;
    const sub = tiling.subresourceTilings[subresource];
    if (!sub) throw new Error(`TextureModel: no subresource ${subresource}`);
    if (sub.startTileIndexInOverallResource === PACKED_TILE) {
      const desc = this.resource.getDesc();
      const slices = desc.dimension === 'TEXTURE3D' ? 1 : desc.depthOrArraySize;
      // Each slice's standard tiles, then that slice's tail (Tier 4's order for arrays).
      const slice = Math.floor(subresource / desc.mipLevels);
      return slice * (tiling.numTilesForEntireResource / slices) + tiling.packedMipDesc.startTileIndexInOverallResource;
    }
    const shape = tiling.standardTileShapeForNonPackedMips;
    const tx = Math.floor((x * this.block.width) / shape.widthInTexels);
    const ty = Math.floor((y * this.block.height) / shape.heightInTexels);
    const tz = Math.floor(z / shape.depthInTexels);
    return sub.startTileIndexInOverallResource + tx + ty * sub.widthInTiles + tz * sub.widthInTiles * sub.heightInTiles;
  }

  mapped(subresource: number, x: number, y: number, z: number): boolean {
    return (
      this.tiling === undefined || getTileMappingForTesting(this.resource, this.tileOf(subresource, x, y, z)) !== null
    );
  }

  private at(subresource: number, x: number, y: number, z: number): number {
    const s = this.shape(subresource);
    if (x >= s.width || y >= s.height || z >= s.depth)
      throw new Error(`TextureModel: element (${x}, ${y}, ${z}) is outside subresource ${subresource}`);
    return ((z * s.height + y) * s.width + x) * s.bytes;
  }

  read(subresource: number, x: number, y: number, z: number): Uint8Array {
    const s = this.shape(subresource);
    if (this.mapped(subresource, x, y, z))
      return this.data[subresource]?.slice(
        this.at(subresource, x, y, z),
        this.at(subresource, x, y, z) + s.bytes,
      ) as Uint8Array;
    const bytes = new Uint8Array(s.bytes);
    if (this.tier === 1) {
      // In a standard tile, rows start on word boundaries: byte k of element x sits at (x × bytes + k) mod 4.
      for (let k = 0; k < s.bytes; k++) bytes[k] = (TIER1_NULL_READ >>> (8 * ((x * s.bytes + k) % 4))) & 0xff;
    }
    return bytes;
  }

  write(subresource: number, x: number, y: number, z: number, bytes: Uint8Array): void {
    if (this.mapped(subresource, x, y, z)) this.data[subresource]?.set(bytes, this.at(subresource, x, y, z));
  }

  /** A region's elements as they read, rows tightly packed (x fastest, then y, then z). */
  readRegion(subresource: number, [x0, y0, z0]: Triple, [width, height, depth]: Triple): Uint8Array {
    const bytes = this.shape(subresource).bytes;
    const out = new Uint8Array(width * height * depth * bytes);
    let at = 0;
    for (let z = 0; z < depth; z++) {
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++, at += bytes) out.set(this.read(subresource, x0 + x, y0 + y, z0 + z), at);
      }
    }
    return out;
  }

  /** Writes a region from tightly packed rows (what readRegion gives). */
  writeRegion(subresource: number, [x0, y0, z0]: Triple, [width, height, depth]: Triple, data: Uint8Array): void {
    const bytes = this.shape(subresource).bytes;
    let at = 0;
    for (let z = 0; z < depth; z++) {
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++, at += bytes)
          this.write(subresource, x0 + x, y0 + y, z0 + z, data.subarray(at, at + bytes));
      }
    }
  }

  /** The whole subresource as it reads. */
  readAll(subresource: number): Uint8Array {
    const s = this.shape(subresource);
    return this.readRegion(subresource, [0, 0, 0], [s.width, s.height, s.depth]);
  }
}

/** Rows [offset + (z × rows + y) × rowPitch, + rowSize) of a footprint, tightly packed: the data of a buffer footprint. */
export function footprintRows(
  buffer: Uint8Array,
  offset: number,
  rowPitch: number,
  rowSize: number,
  rows: number,
  depth: number,
): Uint8Array {
  const out = new Uint8Array(rowSize * rows * depth);
  for (let row = 0; row < rows * depth; row++)
    out.set(buffer.subarray(offset + row * rowPitch, offset + row * rowPitch + rowSize), row * rowSize);
  return out;
}
