/**
 * Drawing through the emulator: a swap chain over a canvas, a graphics pipeline whose fragment shader
 * reads a reserved (tiled) texture with d3d12_tex2d_load / d3d12_tex2d_sample_level through a texture
 * descriptor in memory. Returns the drawn pixels, read back from the back buffer, and what the CPU
 * predicts from the uploaded tile bytes.
 */
import { createDevice } from '../../../src/index.js';
import { pattern, runList, TILE, uploadBuffer } from '../../shared/d3d12-helpers.js';
import { canvasSwapChain, readBackBuffer } from './read-back-buffer.js';

const SHADER = `
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs(@builtin(position) position: vec4f) -> @location(0) vec4f {
  let texture = d3d12_tex2d(d3d12_root_descriptor(1u));
  let mode = d3d12_root_constant(2u);
  // 64x64 target, pixel p: mode 0 loads texel 4p of mip 0; mode 1 samples its centre at lod 0 (the
  // texel itself); mode 2 asks for lod 0 at the centre of texel 2p of mip 1 with min_lod 1 (mip 1's
  // texel); mode 3 samples lod 0 at the corner between texels 4p and 4p + 1 (the mean of four).
  let texel = vec2u(position.xy) * 4u;
  var status = 0u;
  var color: vec4f;
  if (mode == 0u) {
    color = d3d12_tex2d_load(texture, 0u, texel, &status);
  } else if (mode == 1u) {
    color = d3d12_tex2d_sample_level(texture, (vec2f(texel) + 0.5) / 256.0, 0.0, 0.0, &status);
  } else if (mode == 2u) {
    color = d3d12_tex2d_sample_level(texture, (vec2f(texel / 2u) + 0.5) / 128.0, 0.0, 1.0, &status);
  } else {
    color = d3d12_tex2d_sample_level(texture, (vec2f(texel) + 1.0) / 256.0, 0.0, 0.0, &status);
  }
  return select(vec4f(1.0, 0.0, 1.0, 1.0), color, d3d12_check_access_fully_mapped(status));
}
`;

export const MODES = [
  'load mip 0',
  'sample_level at lod 0',
  'sample_level clamped to min_lod 1',
  'sample_level bilinear between texels',
] as const;

export interface GraphicsResult {
  width: number;
  height: number;
  format: string;
  /** Per mode, 64 rows of 64 RGBA8 pixels. */
  pixels: number[][][];
  expected: number[][][];
}

export default async function graphicsPage(gpuDevice: GPUDevice): Promise<GraphicsResult> {
  const device = await createDevice({ gpuDevice, localMemoryBytes: 8 << 20, nonLocalMemoryBytes: 8 << 20 });
  const { swapChain, queue } = canvasSwapChain(device);

  // 256x256 RGBA8, 3 mips: mip 0 is 2x2 tiles (0..3), mip 1 one tile (4), mip 2 packed (tile 5).
  const texture = device.createReservedResource(
    {
      dimension: 'TEXTURE2D',
      width: 256,
      height: 256,
      mipLevels: 3,
      format: 'R8G8B8A8_UNORM',
      layout: '64KB_UNDEFINED_SWIZZLE',
    },
    'COMMON',
  );
  const heap = device.createHeap({ sizeInBytes: 8 * TILE, properties: { type: 'DEFAULT' } });
  // Map tiles 0, 1, 2 of mip 0 (tile 3, the bottom-right quarter, stays NULL), mip 1 and the tail.
  queue.updateTileMappings(
    texture,
    [
      { x: 0, y: 0, z: 0, subresource: 0 },
      { x: 0, y: 0, z: 0, subresource: 1 },
    ],
    [{ numTiles: 3 }, { numTiles: 2 }],
    heap,
    ['NONE', 'NONE'],
    [0, 3],
    [3, 2],
  );
  const bytes = pattern(6 * TILE, 77);
  const upload = uploadBuffer(device, bytes);
  const descriptor = device.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'BUFFER', width: 4096 },
    'COMMON',
  );
  const words = device.writeTextureDescriptor(texture);
  const descriptorUpload = uploadBuffer(device, new Uint8Array(words.buffer));
  await runList(device, queue, (list) => {
    list.copyTiles(
      texture,
      { x: 0, y: 0, z: 0, subresource: 0 },
      { numTiles: 6 },
      upload,
      0,
      'LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE',
    );
    list.copyBufferRegion(descriptor, 0, descriptorUpload, 0, words.byteLength);
  });
  const pso = await device.createGraphicsPipelineState({
    code: SHADER,
    vertexEntryPoint: 'vs',
    fragmentEntryPoint: 'fs',
    rtvFormat: swapChain.format,
    label: 'texture reader',
  });

  const results: number[][][] = [];
  for (const mode of MODES.keys()) {
    const backBuffer = swapChain.getCurrentBackBuffer();
    const list = device.createCommandList('DIRECT');
    list.omSetRenderTargets([backBuffer]);
    list.clearRenderTargetView(backBuffer, [0, 0, 0, 1]);
    list.setPipelineState(pso);
    list.setGraphicsRootShaderResourceView(1, descriptor.getGPUVirtualAddress());
    list.setGraphicsRoot32BitConstant(0, mode, 2);
    list.drawInstanced(3, 1);
    list.close();
    queue.executeCommandLists([list]);
    const pixels = await readBackBuffer(gpuDevice, backBuffer);
    swapChain.present();
    const rows: number[][] = [];
    for (let y = 0; y < 64; y++) rows.push(Array.from(pixels.subarray(y * 256, y * 256 + 256)));
    results.push(rows);
  }

  // The CPU's prediction: texel (x, y) of mip 0 is in tile (x / 128, y / 128) at ((y % 128) * 128 +
  // x % 128) * 4 of that tile's uploaded bytes, mip 1 (128 x 128) fills tile 4; tile 3 is NULL (magenta).
  const magenta = [255, 0, 255, 255];
  const mip0 = (x: number, y: number): number[] | undefined => {
    const tile = Math.floor(x / 128) + 2 * Math.floor(y / 128);
    const at = tile * TILE + ((y % 128) * 128 + (x % 128)) * 4;
    return tile === 3 ? undefined : Array.from(bytes.subarray(at, at + 4));
  };
  const mip1 = (x: number, y: number): number[] =>
    Array.from(bytes.subarray(4 * TILE + (y * 128 + x) * 4, 4 * TILE + (y * 128 + x) * 4 + 4));
  const predict = (mode: number, px: number, py: number): number[] => {
    const [x, y] = [px * 4, py * 4];
    if (mode === 2) return mip1(x / 2, y / 2);
    if (mode < 2) return mip0(x, y) ?? magenta;
    const corners = [mip0(x, y), mip0(x + 1, y), mip0(x, y + 1), mip0(x + 1, y + 1)];
    if (corners.some((c) => c === undefined)) return magenta;
    return [0, 1, 2, 3].map((channel) => Math.round(corners.reduce((sum, c) => sum + (c?.[channel] ?? 0), 0) / 4));
  };
  const expected = MODES.map((_, mode) =>
    Array.from({ length: 64 }, (_, py) => Array.from({ length: 64 }, (_, px) => predict(mode, px, py)).flat()),
  );
  device.destroy();
  return { width: 64, height: 64, format: swapChain.format, pixels: results, expected };
}
