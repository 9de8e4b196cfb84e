/**
 * The tests' bytes in and out of emulated memory (put bytes in through an UPLOAD buffer, get them out
 * through a READBACK buffer, run a list and wait) and their data patterns. The code is the package's
 * own (src/validate: d3d12-io.ts and bytes.ts), so the tests read GPU memory exactly as
 * `d3d12-webgpu/validate` does; this module only gives it the tests' import path.
 */
export { firstDifference, flush, pattern, readBuffer, runList, uploadBuffer } from '../../src/validate/index.js';
/** One tile, D3D12_TILED_RESOURCE_TILE_SIZE_IN_BYTES: the library's own TILE_SIZE, the one tile size every test imports. */
export { TILE_SIZE as TILE } from '../../src/index.js';
