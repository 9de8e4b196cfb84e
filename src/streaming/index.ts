/**
 * d3d12-webgpu/streaming: the upload-ring tile streamer, as a D3D12 texture streamer moves tiles made
 * on the CPU into a reserved texture (tile-streamer.ts), and the copyTextureRegion placement it uses
 * for each tile's boxes (tile-regions.ts). A client of the main entry only: it takes the Device,
 * CommandQueue and Resource objects an application already has.
 */
export {
  quantile,
  TileStreamer,
  type CompletedTile,
  type CopyPath,
  type StreamingStats,
  type TileStreamerOptions,
  type TileUpload,
} from './tile-streamer.js';
export { TileRegionCopier, type PlacedRegion, type TileRegion } from './tile-regions.js';
