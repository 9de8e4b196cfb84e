import type { SceneMeta } from '../common/scene-meta.js';

export const meta: SceneMeta = {
  name: 'virtual-texture',
  title: 'Virtual texture streaming',
  tagline:
    'A 16K × 16K reserved texture streamed tile by tile into a small heap pool: the view sharpens as tiles arrive.',
  pictureAlt:
    'The 16K texture zoomed out, its rings and checkers tinted by the mip each pixel shows: finer where its tiles have streamed in already, coarser where they are still on their way.',
  summary:
    'A reserved 16384 × 16384 RGBA8 texture with its full mip chain: 1.33 GiB of virtual space, backed by a heap pool of a few ' +
    'dozen MiB. A feedback pass records which tiles of which mip the view needs; the CPU reads it back, gives the missing tiles free ' +
    'pages of the pool (unmapping the least recently used when the pool is full) and streams them in as a streamer does: a Web ' +
    "Worker produces each tile's texels, they go through a ring of UPLOAD memory, and each tile is mapped with UpdateTileMappings " +
    'right before the CopyTiles that fills it (or, switched, a CopyTextureRegion from a placed footprint of GetCopyableFootprints per ' +
    "box: the tile's texels, or each packed mip); the tile counts as resident once that copy's fence completed (source=gpu generates " +
    'the texels with a compute pass instead). The draw clamps each sample to the finest resident mip of a residency map and, wherever ' +
    'the sample still reports unmapped tiles (CheckAccessFullyMapped), falls back to the pinned coarse mips through the page ' +
    'table, so the view sharpens as tiles arrive and never shows a hole. Drag to pan, scroll to zoom.',
  calls: [
    'createReservedResource',
    'getResourceTiling',
    'createHeap',
    'updateTileMappings',
    'copyTiles',
    'getCopyableFootprints',
    'copyTextureRegion',
    'Fence.setEventOnCompletion',
    'dispatch',
    'copyBufferRegion',
    'Resource.map',
    'drawInstanced',
    'd3d12_tex2d_sample_level',
  ],
};
