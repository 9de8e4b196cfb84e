/**
 * A tile's texels as copyTextureRegion moves them (tile-streamer.ts, copy 'copyTextureRegion'), the way
 * a D3D12 engine streams texture data (UE5's streaming updates regions with CopyTextureRegion): each box
 * of a subresource the tile fills gets a placed footprint from device.getCopyableFootprints for a
 * texture of the box's size, footprints one after another in the tile's ring slot, and the box's rows
 * are written at the footprint's row pitch (as d3dx12's MemcpySubresource does); one copyTextureRegion
 * per box then copies footprint to subresource. Only the library's public API (src/index.ts).
 *
 * A standard tile is one box, its texels clipped to the mip, with its rows where copyTiles' linear
 * layout has them (the tile's rows back to back). Packed mips have no box of their own in a tile's
 * bytes that D3D12 defines (64KB_UNDEFINED_SWIZZLE), so the caller names them: one box per mip.
 *
 * Each public call checks its arguments first (streamer-validation.ts) and throws a D3D12Error
 * (E_INVALIDARG) naming the call, the argument and the rule, before it writes or records anything.
 */
import {
  TEXTURE_DATA_PLACEMENT_ALIGNMENT,
  type Device,
  type FullResourceDesc,
  type GraphicsCommandList,
  type PlacedSubresourceFootprint,
  type Resource,
  type ResourceDesc,
  type ResourceTiling,
  type TiledResourceCoordinate,
} from '../index.js';
import {
  checkCoordinate,
  checkDevice,
  checkPlacement,
  checkRecord,
  checkRegions,
  checkReservedTexture,
  checkWriteRows,
  invalid,
} from './streamer-validation.js';

/** A box of one subresource, and where its rows lie in a tile's data. */
export interface TileRegion {
  subresource: number;
  left: number;
  top: number;
  width: number;
  height: number;
  /** Byte offset of the box's first row in the data, and the bytes from one row to the next there. */
  dataOffset: number;
  dataRowPitch: number;
}

/** A region with its footprint in the ring: what one copyTextureRegion copies. */
export interface PlacedRegion {
  region: TileRegion;
  placedFootprint: PlacedSubresourceFootprint;
  numRows: number;
  rowSizeInBytes: number;
}

export class TileRegionCopier {
  private readonly desc: FullResourceDesc;
  private readonly tileWidth: number;
  private readonly tileHeight: number;
  private readonly numStandardMips: number;
  /** One row of a standard tile in copyTiles' linear layout: a footprint row of the tile's width, unpadded. */
  private readonly tileRowBytes: number;
  private readonly tiling: ResourceTiling;
  /** getCopyableFootprints' answers by box size (footprintAt). */
  private readonly footprints = new Map<
    string,
    { footprint: PlacedSubresourceFootprint['footprint']; rows: number; rowSize: number; totalBytes: number }
  >();

  constructor(
    private readonly device: Device,
    private readonly texture: Resource,
  ) {
    checkDevice('new TileRegionCopier', device);
    const tiling = checkReservedTexture('new TileRegionCopier', device, texture);
    this.tiling = tiling;
    this.desc = texture.getDesc();
    const shape = tiling.standardTileShapeForNonPackedMips;
    [this.tileWidth, this.tileHeight, this.numStandardMips] = [
      shape.widthInTexels,
      shape.heightInTexels,
      tiling.packedMipDesc.numStandardMips,
    ];
    this.tileRowBytes =
      device.getCopyableFootprints(this.sized(this.tileWidth, this.tileHeight), 0, 1, 0).rowSizeInBytes[0] ?? 0;
  }

  /** The standard tile at `coordinate` as one box, clipped to its mip; packed mips are the caller's to describe. */
  standardRegion(coordinate: TiledResourceCoordinate): TileRegion {
    const call = 'TileRegionCopier.standardRegion';
    checkCoordinate(call, 'coordinate', coordinate, this.tiling);
    const subresource = coordinate.subresource ?? 0;
    const mip = subresource % this.desc.mipLevels;
    if (mip >= this.numStandardMips)
      throw invalid(
        call,
        'coordinate',
        `subresource ${subresource} is a packed mip; name its boxes (TileUpload.regions)`,
      );
    const [left, top] = [coordinate.x * this.tileWidth, (coordinate.y ?? 0) * this.tileHeight];
    const mipWidth = Math.max(1, this.desc.width >> mip);
    const mipHeight = Math.max(1, this.desc.height >> mip);
    return {
      subresource,
      left,
      top,
      width: Math.min(this.tileWidth, mipWidth - left),
      height: Math.min(this.tileHeight, mipHeight - top),
      dataOffset: 0,
      dataRowPitch: this.tileRowBytes,
    };
  }

  /**
   * Lays the regions' footprints out from `baseOffset` (a multiple of TEXTURE_DATA_PLACEMENT_ALIGNMENT, 512) and checks them against
   * `capacity` bytes of ring and the data's length, before anything is written. Returns them and the
   * bytes they span.
   */
  place(
    regions: readonly TileRegion[],
    baseOffset: number,
    capacity: number,
    dataBytes: number,
  ): { placed: PlacedRegion[]; bytes: number } {
    const call = 'TileRegionCopier.place';
    checkRegions(call, 'regions', regions, this.desc, this.tiling.subresourceTilings.length);
    checkPlacement(call, baseOffset, capacity, dataBytes);
    const placed: PlacedRegion[] = [];
    let at = baseOffset;
    for (const region of regions) {
      const { placedFootprint, rows, rowSize, totalBytes } = this.footprintAt(region.width, region.height, at);
      const dataEnd = region.dataOffset + (rows - 1) * region.dataRowPitch + rowSize;
      if (dataEnd > dataBytes)
        throw invalid(
          call,
          'dataBytes',
          `subresource ${region.subresource}'s box needs data bytes up to ${dataEnd}, the tile has ${dataBytes}`,
        );
      placed.push({ region, placedFootprint, numRows: rows, rowSizeInBytes: rowSize });
      at =
        Math.ceil((placedFootprint.offset + totalBytes) / TEXTURE_DATA_PLACEMENT_ALIGNMENT) *
        TEXTURE_DATA_PLACEMENT_ALIGNMENT;
    }
    if (at - baseOffset > capacity)
      throw invalid(call, 'regions', `the tile's footprints take ${at - baseOffset} bytes, a slot holds ${capacity}`);
    return { placed, bytes: at - baseOffset };
  }

  /** Writes each placed region's rows from `data` into the mapped ring at its footprint's row pitch. */
  writeRows(view: Uint8Array, data: Uint8Array, placed: readonly PlacedRegion[]): void {
    checkWriteRows('TileRegionCopier.writeRows', view, data, placed);
    for (const { region, placedFootprint, numRows, rowSizeInBytes } of placed) {
      const { offset, footprint } = placedFootprint;
      // Rows back to back on both sides (a standard tile whose row is a whole row pitch): one copy.
      if (region.dataRowPitch === rowSizeInBytes && footprint.rowPitch === rowSizeInBytes) {
        view.set(data.subarray(region.dataOffset, region.dataOffset + numRows * rowSizeInBytes), offset);
        continue;
      }
      for (let row = 0; row < numRows; row++) {
        const from = region.dataOffset + row * region.dataRowPitch;
        view.set(data.subarray(from, from + rowSizeInBytes), offset + row * footprint.rowPitch);
      }
    }
  }

  /** Records one copyTextureRegion per placed region: footprint in `ring` → the region's box. */
  record(list: GraphicsCommandList, ring: Resource, placed: readonly PlacedRegion[]): void {
    checkRecord('TileRegionCopier.record', list, ring, placed);
    for (const { region, placedFootprint } of placed) {
      list.copyTextureRegion(
        { resource: this.texture, type: 'SUBRESOURCE_INDEX', subresourceIndex: region.subresource },
        region.left,
        region.top,
        0,
        { resource: ring, type: 'PLACED_FOOTPRINT', placedFootprint },
      );
    }
  }

  /**
   * getCopyableFootprints of a `width` × `height` box placed at `at` (a multiple of 512, so the
   * footprint starts at `at` itself). The footprint does not depend on where it is placed, so each box
   * size is asked once and its answer moved; past 2^53 the device is asked, and refuses.
   */
  private footprintAt(
    width: number,
    height: number,
    at: number,
  ): { placedFootprint: PlacedSubresourceFootprint; rows: number; rowSize: number; totalBytes: number } {
    const key = `${width}x${height}`;
    let known = this.footprints.get(key);
    if (!known || at + known.totalBytes > Number.MAX_SAFE_INTEGER) {
      const { layouts, numRows, rowSizeInBytes, totalBytes } = this.device.getCopyableFootprints(
        this.sized(width, height),
        0,
        1,
        at,
      );
      const placed = layouts[0] as PlacedSubresourceFootprint;
      known = { footprint: placed.footprint, rows: numRows[0] ?? 0, rowSize: rowSizeInBytes[0] ?? 0, totalBytes };
      this.footprints.set(key, known);
    }
    // A copy of the footprint each time: callers own what place() returns.
    const placedFootprint = { offset: at, footprint: { ...known.footprint } };
    return { placedFootprint, rows: known.rows, rowSize: known.rowSize, totalBytes: known.totalBytes };
  }

  /** A one-mip texture of the texture's format and `width` × `height`: what a box's footprint is asked for. */
  private sized(width: number, height: number): ResourceDesc {
    return { dimension: 'TEXTURE2D', width, height, format: this.desc.format };
  }
}
