/**
 * The tiled texture the figures that stream into or read one work on (tile-streaming,
 * texture-sample): a reserved RGBA8 texture, 64KB_UNDEFINED_SWIZZLE, every tile mapped in order
 * onto one DEFAULT heap of its own, so a figure measures its reads or copies, not mapping.
 */
import { TILE_SIZE, type CommandQueue, type Device, type Heap, type Resource } from '../../src/index.js';

export interface MappedTexture {
  texture: Resource;
  heap: Heap;
  /** Tiles of the whole texture (every mip), each mapped to heap tile of the same index. */
  tiles: number;
}

export function mappedRgba8Texture(
  device: Device,
  queue: CommandQueue,
  width: number,
  height: number,
  mipLevels = 1,
): MappedTexture {
  const texture = device.createReservedResource(
    { dimension: 'TEXTURE2D', width, height, mipLevels, format: 'R8G8B8A8_UNORM', layout: '64KB_UNDEFINED_SWIZZLE' },
    'COMMON',
  );
  const tiles = device.getResourceTiling(texture).numTilesForEntireResource;
  const heap = device.createHeap({
    sizeInBytes: tiles * TILE_SIZE,
    properties: { type: 'DEFAULT' },
    flags: ['ALLOW_ONLY_NON_RT_DS_TEXTURES'],
  });
  queue.updateTileMappings(
    texture,
    [{ x: 0, y: 0, z: 0, subresource: 0 }],
    [{ numTiles: tiles }],
    heap,
    ['NONE'],
    [0],
    [tiles],
  );
  return { texture, heap, tiles };
}
